"""The drivers: bots that choose gears and moves through the public driver API.

- ``bots``: the random and cautious drivers and the registry of drivers by name (``DRIVERS``).
- ``strong``: the strong driver, which weighs every face of the die by its worth.
- ``outlook``: the strong driver's sense of the track: turns still needed to take the flag.

Drivers choose among the options the race gives them; they never roll a die.

May import: core, move, race.
"""

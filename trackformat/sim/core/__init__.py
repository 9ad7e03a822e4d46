"""The board and the race as values: what every other room of the engine reads.

- ``board``: the track as the engine reads it (:class:`~trackformat.sim.core.board.Board`),
  plain lookups built once per track, and the same on numbered spaces (``Network``).
- ``state``: the race as an immutable value: cars, their wear points, laps, debris.
- ``events``: what happens in a race, as small frozen values (the race log's lines).
- ``dice``: the project's random generator, which the compiled kernel repeats draw for draw.

No rule of the game is applied here: this room only holds what the rules act on.

May import: nothing else of trackformat.sim.
"""

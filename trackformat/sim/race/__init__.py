"""The race: the grid, the order of play, and whole races driven turn by turn.

- ``grid``: drawing the grid, the opening race state, and who plays next.
- ``runner``: :class:`~trackformat.sim.race.runner.Race` and
  :func:`~trackformat.sim.race.runner.run_race`: one seeded generator, the start rolls, each
  car's turn asked of its :class:`~trackformat.sim.race.runner.Driver`, the full event log.

May import: core, move.
"""

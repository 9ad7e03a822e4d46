"""The compiled race kernel: the engine's rules on numbered arrays, compiled by numba, so that
test drives run many times faster than on the readable engine.

The readable engine (core, move, race, drivers) stays the reference and the public API; the
kernel reproduces it race for race, event for event, and tests compare the two. Its parts:

- ``arrays``: the board as numbered arrays (successors, lanes, corners, contacts), built from
  :class:`~trackformat.sim.core.board.Board` with numpy only;
- ``game``: the board and a race's rules as the tuples of arrays compiled code reads;
- ``cache``: where the compiled kernel is kept, a user cache folder (never site-packages), a
  folder of the user's own in the temporary folder when that one cannot be written, or nowhere;
- ``jit``: the one place numba is imported and configured: functions for compiled code only
  (``compiled``, ``inlined``), the few Python calls too (``entry``), a step of the race as a
  test calls it (``from_python``), and the little helpers compiled code uses instead of
  numba's own where those would compile more (``copy_into``);
- ``route_rows``: what the walk's rows hold, column by column, read by the walk and its pricing;
- ``walk``, ``price`` and ``rolls``: the legal routes of one car for a roll, sorted into
  outcomes once per walk, then priced into the legal moves of each roll in the engine's order,
  and the slipstream extras that may follow a move;
- ``ask``: those moves asked with the race as the kernel keeps it (one roll, every face of a
  die, slipstream extras, a super start);
- ``moves``: the same moves asked with a readable race state, for the tests that compare them
  with :func:`~trackformat.sim.move.legal.legal_moves`;
- ``dice``: the project's generator (:mod:`trackformat.sim.core.dice`), draw for draw;
- ``cars``: the cars as a table of ints, the gears a car may take, the order of play;
- ``race_rules``: a race's rules and running numbers as arrays, built once per race;
- ``resolve``: playing a chosen move and the rolls it sets off, writing its events;
- ``log``: the events as rows of ints, and read back as the engine's event values;
- ``counts``: a race's corner and space counts read from its log, for test drives;
- ``drivers``, ``cautious``, ``strong``: the bots' choices (the random driver's in ``drivers``,
  which leaves out of the race loop the code of the drivers a line-up does not have);
- ``safety`` and ``reach``: what the cautious driver calls a safe move, of a move row, of a
  face read straight from a walk, and, before any walk, of every place where a car's routes
  may end (``reach``), which rules out most of the gears the driver gives up;
- ``turns``: the race loop, game turn by game turn, each car's turn as the readable race plays
  it;
- ``race``: whole races (:class:`~trackformat.sim.kernel.race.KernelRacer`), a batch made into
  arrays once and each race's result read back, which the batch runner uses unless asked for
  the reference engine;
- ``limits``: the boards and rulesets whose moves would outgrow the kernel's route rows, found
  before a batch races (such a batch races on the readable engine);
- ``warm``: saying on stderr that the kernel is compiling, and how long it took, when the cache
  is cold (for the line-up's mix of drivers), and compiling again what a damaged cache holds.

This is the only room that knows about compiled code.

May import: core, move, race, drivers.
"""

"""The compiled race kernel (work in progress): the engine's rules on numbered arrays, compiled
by numba, for batches of test drives many times faster than the readable engine.

The readable engine (core, move, race, drivers) stays the reference and the public API; the
kernel must reproduce it exactly, and tests compare the two. So far:

- ``arrays``: the board as numbered arrays (successors, lanes, corners, contacts), built from
  :class:`~trackformat.sim.core.board.Board` with numpy only;
- ``jit``: the one place numba is imported and configured (its compile cache goes to a user
  cache folder, never into site-packages);
- ``walk``: the legal routes of one car for a roll, as compiled code;
- ``price``: those routes priced into the legal moves of each roll, in the engine's order,
  and the slipstream extras that may follow a move;
- ``moves``: the same moves asked with a race state, as lists the tests compare with
  :func:`~trackformat.sim.move.legal.legal_moves`;
- ``dice``: the project's generator (:mod:`trackformat.sim.core.dice`), draw for draw;
- ``cars``: the cars as a table of ints, the gears a car may take, the order of play;
- ``resolve``: playing a chosen move and the rolls it sets off (no events written yet);
- ``race``: whole races of random and strong drivers (slipstream included), race for race;
- ``strong``: the strong driver's choices, from the readable driver's outlook flattened into
  arrays;
- ``warm``: compiling the move walk and the dice before the first use, saying so on stderr
  when the cache is cold.

Not yet: the cautious driver, the grid in compiled code,
the batch runner's switch between engines (testdrive still races on the readable engine).

This is the only room that knows about compiled code.

May import: core, move, race, drivers.
"""

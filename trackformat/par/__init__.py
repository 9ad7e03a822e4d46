"""Par: the least expected number of game turns a car alone needs from pole to the flag,
solved exactly by dynamic programming over the moves the engine itself generates.

Where Monte Carlo test drives estimate, par answers exactly, for one car alone (docs/par.md says
what exactly: the definition, the state, the reductions and the checks). The rooms, bottom up:

- ``problem``: the solo race as a problem: a place, the engine's race state at any place, the
  gear options, the dice and the black-die chances;
- ``tables``: the engine's legal moves of each place at every tyres and brakes level, and where
  each leads;
- ``layout``: the places reachable from pole and their links, in an order every move follows;
- ``packed``: all of it as the arrays compiled code reads;
- ``bellman``: the backward induction (compiled): every state's value and gear choice;
- ``solve``: a solve from track to values (:func:`solve`), and the value of any solo state
  (:meth:`Solution.value_of`), for a driver to ask;
- ``policy`` and ``forward``: the policy as a graph of the states it reaches, and the race
  played forward over it turn by turn (compiled);
- ``report``: what ``par`` prints: the distribution, the turns per corner and straight, the gear
  plan, the costs;
- ``store``: the documents kept in the user's cache folder (:func:`par_report`,
  :func:`cached_par`);
- ``driver``: the par driver, the bot that races on par's values (``testdrive --bot par``),
  loaded only when one is made.

Compiled code comes from the kernel's one place for it (:mod:`trackformat.sim.kernel.jit`); only
``bellman``, ``policy`` and ``forward`` use it, and ``store`` loads them only to solve.
"""

from trackformat.par.problem import MAX_LAPS, ParError
from trackformat.par.store import cached_par, par_report

__all__ = ["MAX_LAPS", "ParError", "cached_par", "par_report"]

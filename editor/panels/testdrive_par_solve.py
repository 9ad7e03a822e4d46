"""Par asked off the UI thread: what the par process does, the question it answers and what
the panel says of the answer. No Qt here: this runs in a process of its own (why a process:
:mod:`editor.panels.testdrive_par`, which starts it and shows the answer).
"""

from __future__ import annotations

import math
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Protocol

from trackformat.model import Track
from trackformat.par import ParError, par_report
from trackformat.par.store import cache_key
from trackformat.rules import Ruleset


@dataclass(frozen=True)
class Question:
    """Par asked of ``track`` under ``rules`` for ``laps`` laps; ``key`` is the par cache's name
    for it: two questions with the same key have the same answer."""

    track: Track
    rules: Ruleset
    laps: int
    key: str

    @classmethod
    def of(cls, track: Track, rules: Ruleset, laps: int) -> Question:
        return cls(track, rules, laps, cache_key(track, rules, laps))

    def compares_with(self, other: Question) -> bool:
        """Whether a change of par from ``other`` to this means something: the same rules and
        laps, another track (an edit)."""
        return self.key != other.key and self.laps == other.laps and self.rules == other.rules


# -- what the par process does -----------------------------------------------------------


class Asked(Protocol):
    """Where the par process takes its question from: (track, rules, laps)."""

    def get(self) -> tuple[Track, Ruleset, int]: ...


@dataclass(frozen=True)
class Solved:
    """The par of the question asked (``math.inf``: no line avoids every risk of elimination)."""

    par: float


@dataclass(frozen=True)
class Refused:
    """Why no par was found, in one line."""

    reason: str


def solve_par(asked: Asked, answer: Connection) -> None:
    """The par process: take the track, rules and laps asked, solve (or read from the cache)
    their par and send one :class:`Solved` or :class:`Refused` back. Whatever goes wrong is
    sent as a reason: the editor must never wait on a process that died in silence."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the editor's to handle
    result: Solved | Refused
    try:
        track, rules, laps = asked.get()
        report, _cached = par_report(track, rules, laps)
        par = report["par"]
        result = Solved(math.inf if par is None else float(par))
    except ParError as err:
        result = Refused(one_line(err))
    except MemoryError:
        result = Refused("not enough memory to solve par of this track")
    except Exception as err:  # the solver's fault: said, and the editor free to ask again
        result = Refused(f"the par solver failed: {type(err).__name__}: {one_line(err)} (a bug: "
                         "please report it with the track)")
    try:
        answer.send(result)
        answer.close()
    except OSError:
        pass  # the editor is gone (killed, crashed): nobody is waiting for the answer


# -- the words ---------------------------------------------------------------------------------


def one_line(err: BaseException) -> str:
    """An error's message on one line (a ruleset's problems are one a line)."""
    return "; ".join(line.strip() for line in str(err).splitlines() if line.strip())


def laps_words(laps: int) -> str:
    """"2 laps", never cut between its words when the row wraps."""
    return f"{laps}\N{NO-BREAK SPACE}lap{'' if laps == 1 else 's'}"


def par_text(par: float, laps: int, before: float | None = None) -> str:
    """What the panel says of a par, and of the par before the last edit if any:
    "par 36.47 turns (2 laps)", "par 36.47 -> 37.12 turns (+0.65, 2 laps)"."""
    length = laps_words(laps)
    if before is None:
        if math.isinf(par):
            return f"no par ({length}): every line risks elimination"
        return f"par {par:.2f} turns ({length})"
    if math.isinf(par):
        old = "none" if math.isinf(before) else f"{before:.2f}"
        return f"par {old} -> none ({length}): every line now risks elimination"
    if math.isinf(before):
        return f"par none -> {par:.2f} turns ({length})"
    return f"par {before:.2f} -> {par:.2f} turns ({par - before:+.2f}, {length})"

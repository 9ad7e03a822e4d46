"""Par in the test-drive panel: the least expected number of turns of one car alone on the track
as it is in the editor, under the panel's rules and laps (docs/par.md), with the par before the
last edit beside it: "par 36.47 -> 37.12 turns".

Solving is on demand (the Par button), never on every edit: a first solve of two laps of Monaco
takes half a minute to a minute of a core and about 640 MB, and a designer's drag of a space
makes a new track every few milliseconds. What is cheap is done at once and after every edit
(once edits pause, as the problems panel waits): asking the par cache, a few milliseconds, so a
track solved before (the one opened, or the one an undo brings back) shows its par, and the
change, with no click.

The solve runs in a process of its own, started for it and ended with it, for three reasons. A
solve cannot be stopped halfway (``par_report`` takes no callback), and a process can be
killed at once when the designer presses Stop, opens another track or closes the window, where
a thread would have to be waited for. Its Python parts (laying out places, the report) would,
in a thread, take the interpreter lock from the UI thread for long stretches (see
:mod:`editor.panels.live_worker` for what that did to the live test drive). And the memory of a
solve goes back to the system when its process ends. A solve stopped halfway is lost; one that
ended is kept in the par cache by its process, and never made again.

An edit while a solve runs does not stop it: its answer, kept in the cache, becomes the par
"before the edit" that the edited track's par is set against. The row's text is two lines at
most (a long reason is cut short there, and said whole in its tooltip and the status bar): it
sits above the summary, which gives up the height, so that the dock and the board keep theirs.
The process's work and the words are in :mod:`editor.panels.testdrive_par_solve`.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from editor.document import TrackDocument
from editor.panels.testdrive_par_solve import (
    Question,
    Refused,
    Solved,
    laps_words,
    one_line,
    par_text,
    solve_par,
)
from editor.panels.testdrive_settings import DriveSettings
from editor.validation import DEFAULT_DELAY_MS
from trackformat.par import ParError, cached_par
from trackformat.par.problem import SoloRace
from trackformat.rules import RulesetError

POLL_MS = 100
"""How often a running solve is looked at: its answer waits at most this long, and the seconds
shown count on."""
BUTTON_TIP = (
    "Par: the least expected number of game turns of one car alone, from pole to the flag, "
    "solved exactly under the Rules and Laps of the form (docs/par.md). A small track takes "
    "seconds, two laps of Monaco half a minute to a minute. Each answer is kept: asking again, "
    "or after an undo, is instant. Press again (Stop) to stop a solve."
)


def two_lines(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` as much of it as fits in two word-wrapped lines ``width`` pixels wide, cut
    short with an ellipsis if need be (all of it when the width is not known yet)."""
    def fits(candidate: str) -> bool:
        box = metrics.boundingRect(QRect(0, 0, width, 1 << 16), Qt.TextFlag.TextWordWrap,
                                   candidate)
        return box.height() <= 2 * metrics.lineSpacing()

    if width <= 0 or fits(text):
        return text
    shortest, longest = 0, len(text)
    while shortest < longest:  # the longest start that fits with its ellipsis
        middle = (shortest + longest + 1) // 2
        if fits(text[:middle].rstrip() + "\N{HORIZONTAL ELLIPSIS}"):
            shortest = middle
        else:
            longest = middle - 1
    return text[:shortest].rstrip() + "\N{HORIZONTAL ELLIPSIS}"


@dataclass
class Solving:
    """A par process at work on ``question``, the queue the question went by and the end of
    the pipe its answer comes by."""

    question: Question
    process: BaseProcess
    asking: Queue[Any]
    answer: Connection
    started: float

    def end(self, wait: float = 0.0) -> None:
        """Kill the process if it still runs (it holds nothing worth saving: the cache is
        written beside and renamed) and let go of the pipe; waits up to ``wait`` seconds for it
        to be gone (a stop from the UI does not wait: the process is reaped when the next one
        starts)."""
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(wait)
        self.answer.close()
        self.asking.close()
        self.asking.cancel_join_thread()  # a question the process never read is nobody's now


class ParRow(QWidget):
    """The Par button and what it found; see the module docstring. Takes the document (the
    track as it is, and its edits), the settings form (the rules and laps) and ``tell``, which
    shows a line in the window's status bar (the row's own two lines can cut a reason short)."""

    def __init__(self, document: TrackDocument, settings: DriveSettings,
                 tell: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.settings, self._tell = document, settings, tell
        self.known: tuple[Question, float] | None = None
        """The last par shown, and the question it answers."""
        self.before: float | None = None
        """The par before the edit that led to :attr:`known` (None: no change to show)."""
        self.text = ""
        """What the row says, whole (the label shows it cut to two lines if need be)."""
        self._solving: Solving | None = None
        self.button = QPushButton("Par", self)
        self.button.setToolTip(BUTTON_TIP)
        # As narrow as its words, as Run and Cancel are: the answer beside it needs the room.
        self.button.setMaximumWidth(self.button.fontMetrics().horizontalAdvance("Stop") + 24)
        self.button.clicked.connect(self._clicked)
        self.label = QLabel("", self)
        self.label.setWordWrap(True)
        # Two lines high whatever it says, from the top: the row takes no more of the summary's
        # height for a long reason, and its start, which says what it is, always shows.
        self.label.setFixedHeight(2 * self.label.fontMetrics().lineSpacing())
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.label, 1)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        self._look = QTimer(self)
        self._look.setSingleShot(True)
        self._look.setInterval(DEFAULT_DELAY_MS)
        self._look.timeout.connect(self.look_up)
        document.trackChanged.connect(self._track_edited)
        settings.laps.valueChanged.connect(self._settings_changed)
        settings.ruleset.currentTextChanged.connect(self._settings_changed)
        self._look.start()  # the track opened may have been solved before

    # Asking --------------------------------------------------------------------------------

    def solving(self) -> bool:
        """Whether a solve is running."""
        return self._solving is not None

    def solve(self) -> bool:
        """Show the par of the track as it is, from the cache at once, or start solving it in
        the background; False (and the reason, on the row) when no par can be asked."""
        if self._solving is not None:
            return False
        question = self._question()
        if question is None:
            return False
        known = cached_par(question.track, question.rules, question.laps)
        if known is not None:
            self._show(question, known)
            return True
        try:
            SoloRace(question.track, question.rules, question.laps)  # a tenth of a second
        except ParError as err:  # said now, without starting a process to say it
            self._refused(one_line(err))
            return False
        context = multiprocessing.get_context("spawn")  # a fork of a Qt process is not safe
        # The question goes by a queue, whose own thread writes it to the process: in the
        # process's arguments, the UI would wait for the new process to read it, seconds.
        asking: Queue[Any] = context.Queue()
        receiving, sending = context.Pipe(duplex=False)
        process = context.Process(target=solve_par, args=(asking, sending), daemon=True,
                                  name="par")
        try:
            process.start()
            asking.put((question.track, question.rules, question.laps))
        except Exception as err:  # no process to be had, a track that cannot be sent: said
            receiving.close()
            sending.close()
            asking.close()
            self._refused(f"cannot start a process to solve it in: {err}")
            return False
        sending.close()  # the process's end: a process that dies makes the pipe say so
        self._solving = Solving(question, process, asking, receiving, time.monotonic())
        self.button.setText("Stop")
        self._say(self._busy_text(0))
        self._status(f"solving par of {question.track.metadata.name} "
                     f"({laps_words(question.laps)}, {question.rules.name}): Stop stops it")
        self._poll.start()
        return True

    def stop(self) -> None:
        """Stop the solve running, at once; what the row showed before comes back."""
        if self._solving is None:
            return
        self._end_solve()
        self._status("par: stopped")
        self.look_up()

    def shut_down(self) -> None:
        """End the solve running, if any: the panel is going (another track was opened, or the
        window closes)."""
        self._look.stop()
        if self._solving is not None:
            self._end_solve(wait=2.0)

    def look_up(self) -> None:
        """Show the par of the track as it is if it is in the cache (a few ms), else the last
        one shown, marked as before the edit. Leaves the row alone while a solve runs: its
        answer looks up the track as it is then."""
        if self._solving is not None:
            return
        question = self._question()
        if question is None:
            return
        known = cached_par(question.track, question.rules, question.laps)
        if known is not None:
            self._show(question, known)
        elif self.known is not None and self.known[0].key == question.key:
            self._say(self._known_text())  # shown, not kept: no folder can keep pars
        elif self.known is not None and question.compares_with(self.known[0]):
            self._say(f"before the edit: {par_text(self.known[1], question.laps)}")
        else:
            self._say("par not solved yet")

    # Inside --------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _clicked(self) -> None:
        if self._solving is not None:
            self.stop()
        else:
            self.solve()

    def _track_edited(self, _old: object, _new: object) -> None:
        self._look.start()

    def _settings_changed(self, _value: object) -> None:
        self._look.start()

    def _question(self) -> Question | None:
        """The track as it is, the panel's rules and laps (the track's when Laps says so); None,
        with the reason on the row, when the rules cannot be read."""
        try:
            rules = self.settings.rules()
        except (RulesetError, OSError) as err:
            self._say(f"no par: the rules cannot be read: {one_line(err)}")
            return None
        track = self.document.track
        return Question.of(track, rules, self.settings.laps.value() or track.metadata.laps)

    def _say(self, text: str, tip: str = "") -> None:
        """Put ``text`` on the row (its tooltip: ``tip`` under it)."""
        self.text = text
        self.label.setToolTip(f"{text}\n{tip or self._asked()}")
        self._fit()

    def _fit(self) -> None:
        self.label.setText(two_lines(self.text, self.label.fontMetrics(),
                                     self.label.contentsRect().width()))

    def _asked(self) -> str:
        """What the Par button asks, for the tooltip."""
        rules = self.settings.ruleset.currentText().strip() or "formula-d"
        laps = self.settings.laps.value() or self.document.track.metadata.laps
        return (f"Par, {laps_words(laps)} under {rules}: the least expected number of turns of "
                "one car alone, from pole to the flag")

    def _status(self, text: str) -> None:
        """Say ``text`` in the window's status bar, as the panel says what its batches do."""
        self._tell(f"Test drive: {text}")

    def _refused(self, reason: str) -> None:
        self._say(f"no par: {reason}")
        self._status(f"no par: {reason}")

    def _busy_text(self, seconds: int) -> str:
        assert self._solving is not None
        return (f"solving par ({laps_words(self._solving.question.laps)})... "
                f"{seconds}\N{NO-BREAK SPACE}s")

    def _known_text(self) -> str:
        assert self.known is not None
        question, par = self.known
        return par_text(par, question.laps, self.before)

    def _show(self, question: Question, par: float) -> None:
        """Show ``par`` as the answer to ``question``, with the par shown before it when that
        one was of the same rules and laps on the track before an edit."""
        if self.known is not None and question.compares_with(self.known[0]):
            self.before = self.known[1]
        elif self.known is None or self.known[0].key != question.key:
            self.before = None
        self.known = (question, par)
        self._say(self._known_text(),
                  f"{question.track.metadata.name}, {laps_words(question.laps)} under "
                  f"{question.rules.name}: par {par:.4f} turns, the least expected number of "
                  "turns of one car alone, from pole to the flag"
                  + ("" if self.before is None else f" (before the edit: {self.before:.4f})"))

    def _collect(self) -> None:
        """Take the answer if it has come; otherwise count the seconds on."""
        solving = self._solving
        if solving is None:
            self._poll.stop()
            return
        answer: Solved | Refused
        if solving.answer.poll():
            try:
                answer = solving.answer.recv()
            except (EOFError, OSError):
                answer = Refused(self._died(solving))
        elif not solving.process.is_alive():
            answer = Refused(self._died(solving))
        else:
            self._say(self._busy_text(int(time.monotonic() - solving.started)))
            return
        self._end_solve()
        if isinstance(answer, Refused):
            self._refused(answer.reason)
            return
        self._show(solving.question, answer.par)
        self._status(self.text)
        question = self._question()
        if question is not None and question.key != solving.question.key:
            self.look_up()  # edited while solving: the track as it is now, if it is known

    @staticmethod
    def _died(solving: Solving) -> str:
        solving.process.join(1.0)
        return (f"the par process stopped without an answer (exit code "
                f"{solving.process.exitcode}); press Par to try again")

    def _end_solve(self, wait: float = 0.0) -> None:
        assert self._solving is not None
        self._poll.stop()
        self._solving.end(wait)
        self._solving = None
        self.button.setText("Par")

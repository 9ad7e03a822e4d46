"""The status bar's labels: the hint or message on the left, the pointer's place on the right.

A tool's hint can be longer than the room beside the pointer's coordinates. A plain label then
grows the bar or is cut off mid-word with no way to read the rest; here the hint takes all the
room left, is cut with an ellipsis where it does not fit, and its full text is the tooltip. The
coordinates sit in a label of fixed width, so they neither jump as the numbers change nor push
the hint about.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

POINTER_SAMPLE = "x -00000  y -00000"
"""The widest text the pointer label shows: its width is set from it."""


class StatusHint(QLabel):
    """A one-line label that draws its text elided to its width; ``text()`` stays the full text,
    which is also the tooltip whenever it does not fit."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._update_tooltip()

    def shown_text(self) -> str:
        """What fits the label's width: the text, or its start and an ellipsis."""
        text = " ".join(self.text().split())  # one line: a status bar has room for no more
        width = max(0, self.contentsRect().width())
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width)

    def is_elided(self) -> bool:
        return self.shown_text() != " ".join(self.text().split())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_tooltip()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.shown_text())
        painter.end()

    def _update_tooltip(self) -> None:
        self.setToolTip(self.text() if self.is_elided() else "")


def pointer_label(parent: QWidget | None = None) -> QLabel:
    """The label of the pointer's board coordinates, as wide as the widest it shows."""
    label = QLabel("", parent)
    label.setFixedWidth(label.fontMetrics().horizontalAdvance(POINTER_SAMPLE) + 8)
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return label

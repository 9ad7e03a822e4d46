"""File > New blank board: a track with nothing on it, on a board of the size the designer picks.

A new circuit does not need a scan: it is laid with the Lanes tool on an empty board and printed
(``render -o board.pdf``). The board's size only bounds where spaces may go; the presets are
the printed boards' proportions at the size of space the Lanes tool lays by default, so that a
circuit laid on them prints at the size of the published boards.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from trackformat.model import Track


@dataclass(frozen=True)
class BlankBoard:
    """What a blank track starts from: its name and its board's size in pixels."""

    name: str
    width: int
    height: int


PRESETS: dict[str, tuple[int, int]] = {
    "Printed board, 100 x 70 cm (3000 x 2100 px)": (3000, 2100),
    "Half board, 70 x 50 cm (2100 x 1500 px)": (2100, 1500),
    "Large board, 140 x 100 cm (4200 x 3000 px)": (4200, 3000),
}
"""Board sizes offered first. The Lanes tool lays lanes 40 px wide; a print makes a space
13.65 mm (see docs/print.md), so 30 px of board make about a centimetre of table."""
DEFAULT = BlankBoard("New circuit", *next(iter(PRESETS.values())))
SMALLEST, LARGEST = 200, 100_000
"""The sizes offered: the track format allows up to 100,000 px a side; a board under 200 px
holds no circuit."""


class BlankBoardDialog(QDialog):
    """The track's name and its board's size, a preset or typed in pixels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New blank board")
        self.name = QLineEdit(DEFAULT.name)
        self.preset = QComboBox()
        self.preset.addItems([*PRESETS, "Other size"])
        self.width_box = _pixels(DEFAULT.width)
        self.height_box = _pixels(DEFAULT.height)
        self.preset.currentTextChanged.connect(self._preset_chosen)
        self.width_box.valueChanged.connect(self._size_typed)
        self.height_box.valueChanged.connect(self._size_typed)
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Board", self.preset)
        form.addRow("Width", self.width_box)
        form.addRow("Height", self.height_box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _preset_chosen(self, text: str) -> None:
        if text in PRESETS:
            width, height = PRESETS[text]
            self.width_box.setValue(width)
            self.height_box.setValue(height)

    def _size_typed(self) -> None:
        size = (self.width_box.value(), self.height_box.value())
        chosen = next((text for text, preset in PRESETS.items() if preset == size), "Other size")
        self.preset.setCurrentText(chosen)

    def board(self) -> BlankBoard:
        """What the dialog holds now (an empty name becomes the default one)."""
        return BlankBoard(self.name.text().strip() or DEFAULT.name,
                          self.width_box.value(), self.height_box.value())


def _pixels(value: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(SMALLEST, LARGEST)
    box.setSingleStep(100)
    box.setSuffix(" px")
    box.setValue(value)
    return box


def ask_blank_board(parent: QWidget | None) -> BlankBoard | None:
    """Ask for a blank board; None when the designer cancels."""
    dialog = BlankBoardDialog(parent)
    return dialog.board() if dialog.exec() == QDialog.DialogCode.Accepted else None


def blank_track(board: BlankBoard) -> Track:
    """A track with nothing on it, on ``board``."""
    from editor.document import empty_track

    return empty_track(board.name, board.width, board.height)

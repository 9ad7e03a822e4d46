"""The Moves tool's options: the car's gear and roll, its lap and race, where it stops in the
pits, the rules, and the other cars.

Kept to a few compact rows so that it fits the tool options panel without widening the column
of panels beside the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from editor.moves import MovesSetup
from trackformat.rules import DEFAULT_PRESET, preset_names

ALL_FACES = "all faces"
NO_PLACE = "none"
"""The "stops at" choice of a car that has no box or garage: it never turns into the pits."""


class MovesOptions(QWidget):
    """See the module docstring; :attr:`changed` fires whenever a choice changes."""

    changed = Signal()
    takeOthersOff = Signal()

    def __init__(self, laps: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 4, 4, 4)
        self.gear_box = self._spin(1, 6, 2, "The gear the car is in (keys 1 to 6 on the board)")
        self.roll_box = self._spin(0, 0, 0, "The roll of the gear's die (Up and Down on the "
                                   "board); all faces: every result of the die at once")
        self.roll_box.setSpecialValueText(ALL_FACES)
        self.lap_box = self._spin(0, laps, 1, "Laps the car has started (0 on a grid behind "
                                  "the line): the pit window opens after the laps it names")
        self.laps_box = self._spin(1, 20, laps, "Laps of the race: they set the starting wear "
                                   "points and when the pits open")
        self.stops_box = self._spin(0, 3, 1, "Stops the car has already made in the corner it "
                                    "stands in")
        self.place_box = QComboBox(self)
        self.place_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.place_box.setMinimumContentsLength(5)
        self._place_chosen = False
        """Whether the user chose the place to stop (else the track's first is taken)."""
        self.place_box.activated.connect(self._place_picked)
        self.place_box.setToolTip("The team's box or garage: a move that ends there is a pit "
                                  "stop")
        self.rules_box = QComboBox(self)
        self.rules_box.addItems(preset_names())
        self.rules_box.setCurrentText(DEFAULT_PRESET)
        self.others_label = QLabel(self)
        self.others_label.setWordWrap(True)
        self.clear_button = QPushButton("Take off", self)
        self.clear_button.setToolTip("Take the other cars off the board")
        self.clear_button.clicked.connect(self.takeOthersOff)

        grid.addWidget(QLabel("Gear"), 0, 0)
        grid.addWidget(self.gear_box, 0, 1)
        grid.addWidget(QLabel("Roll"), 0, 2)
        grid.addWidget(self.roll_box, 0, 3)
        grid.addWidget(QLabel("Lap"), 1, 0)
        grid.addWidget(self.lap_box, 1, 1)
        grid.addWidget(QLabel("of"), 1, 2)
        grid.addWidget(self.laps_box, 1, 3)
        grid.addWidget(QLabel("Stops made"), 2, 0)
        grid.addWidget(self.stops_box, 2, 1)
        grid.addWidget(QLabel("Pits at"), 2, 2)
        grid.addWidget(self.place_box, 2, 3)
        grid.addWidget(QLabel("Rules"), 3, 0)
        grid.addWidget(self.rules_box, 3, 1, 1, 3)
        others = QHBoxLayout()
        others.addWidget(self.others_label, 1)
        others.addWidget(self.clear_button)
        grid.addLayout(others, 4, 0, 1, 4)
        grid.setRowStretch(5, 1)

        for box in (self.gear_box, self.roll_box, self.lap_box, self.stops_box):
            box.valueChanged.connect(lambda _v: self.changed.emit())
        self.laps_box.valueChanged.connect(self._laps_changed)
        for combo in (self.place_box, self.rules_box):
            combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.set_places([])
        self.show_others(0)
        self.set_in_corner(None)

    def _spin(self, low: int, high: int, value: int, tip: str) -> QSpinBox:
        box = QSpinBox(self)
        box.setRange(low, high)
        box.setValue(value)
        box.setToolTip(tip)
        return box

    def _place_picked(self, _index: int) -> None:
        self._place_chosen = True

    def _laps_changed(self, laps: int) -> None:
        self.lap_box.setMaximum(laps)
        self.changed.emit()

    # What the tool sets ----------------------------------------------------------------------

    def set_faces(self, faces: Sequence[int]) -> None:
        """Limit the roll to the faces of the gear's die (below them: all faces), keeping the
        roll when the new die has it."""
        roll = self.roll()
        self.roll_box.blockSignals(True)
        try:
            low, high = (min(faces), max(faces)) if faces else (1, 1)
            self.roll_box.setRange(low - 1, high)
            self.roll_box.setValue(roll if roll is not None and roll in faces else low - 1)
        finally:
            self.roll_box.blockSignals(False)

    def set_places(self, places: Sequence[str]) -> None:
        """The boxes and garages of the track; the choice is kept while it still exists (a
        "none" the user chose too), else the first place is taken."""
        current = self.place_box.currentText()
        self.place_box.blockSignals(True)
        try:
            self.place_box.clear()
            self.place_box.addItems([NO_PLACE, *places])
            if current in places or (current == NO_PLACE and self._place_chosen):
                self.place_box.setCurrentText(current)
            elif places:
                self.place_box.setCurrentText(places[0])
        finally:
            self.place_box.blockSignals(False)

    def set_in_corner(self, corner: str | None) -> None:
        """Stops made count only in a corner: the field is for a car standing in one."""
        self.stops_box.setEnabled(corner is not None)
        self.stops_box.setToolTip(
            f"Stops the car has already made in {corner}" if corner
            else "The car stands on a straight: it has made no stop in a corner"
        )

    def show_others(self, count: int) -> None:
        self.others_label.setText(
            f"Other cars: {count}" if count else "Other cars: none (Shift-click to place)"
        )
        self.clear_button.setEnabled(count > 0)

    # What the tool reads ---------------------------------------------------------------------

    def roll(self) -> int | None:
        value = self.roll_box.value()
        return None if value == self.roll_box.minimum() else value

    def rules_name(self) -> str:
        return self.rules_box.currentText()

    def setup(self, space: str, others: Sequence[str]) -> MovesSetup:
        place = self.place_box.currentText()
        return MovesSetup(
            space=space,
            gear=self.gear_box.value(),
            roll=self.roll(),
            lap=self.lap_box.value(),
            laps=self.laps_box.value(),
            place_to_stop=None if place in ("", NO_PLACE) else place,
            stops=self.stops_box.value(),
            others=tuple(others),
        )

"""The test drive's settings form: bots, cars, races, seed, rules, laps and workers, and live
mode (race every edit) with its number of races.

Kept apart from the panel that runs the batch so that what a designer chooses (and carries over
to the next track they open) and how it becomes a :class:`DriveSpec` live in one place. The form
is a layout of widgets parented to the panel, laid out exactly as the panel's own rows were.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from editor.drive_checks import DEFAULT_BOTS, DEFAULT_RACES, DEFAULT_SEED
from trackformat.model import Track
from trackformat.rules import Ruleset, load_ruleset, preset_names
from trackformat.sim.batch.testdrive import DriveError, DriveSpec, bot_lineup, driver_factories

LIVE_BOT = "strong"
"""Who drives a live batch: drivers who push show where a track bites."""
LIVE_RACES = 200
"""Races of a live batch: enough for corner rates within a few points, done in minutes."""
MAX_CARS = 10
"""The most cars a race has (the Cars box's limit too)."""


class DriveSettings:
    """The settings widgets and their form; see the module docstring."""

    def __init__(self, parent: QWidget) -> None:
        self.bots = QLineEdit(DEFAULT_BOTS, parent)
        self.bots.setToolTip(
            f"Bot of each car, cycled over the cars: {', '.join(sorted(driver_factories()))}"
        )
        self.cars = QSpinBox(parent)
        self.cars.setRange(1, MAX_CARS)
        self.cars.setValue(6)
        self.races = QSpinBox(parent)
        self.races.setRange(1, 100_000)
        self.races.setValue(DEFAULT_RACES)
        self.seed = QSpinBox(parent)
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setValue(DEFAULT_SEED)
        self.ruleset = QComboBox(parent)
        self.ruleset.setEditable(True)
        self.ruleset.addItems(preset_names())
        self.ruleset.setToolTip("A preset, or the path of a ruleset file of your own")
        self.laps = QSpinBox(parent)
        self.laps.setRange(0, 20)
        self.laps.setSpecialValueText("track's")
        self.workers = QSpinBox(parent)
        self.workers.setRange(1, max(os.cpu_count() or 1, 1))
        self.workers.setValue(1)
        self.workers.setToolTip("Worker processes; more finish sooner, same results")
        self.live = QCheckBox("race every edit", parent)
        self.live.setToolTip(
            "Live: shortly after each edit, race the track again in the background (strong "
            "drivers on every grid place, this seed, rules and laps); a newer edit drops the "
            "batch being raced"
        )
        self.live_races = QSpinBox(parent)
        self.live_races.setRange(1, 100_000)
        self.live_races.setValue(LIVE_RACES)
        self.live_races.setSuffix(" races")
        self.live_races.setToolTip("Races of each live batch; the figures refresh as they come")
        live_row = QHBoxLayout()
        live_row.addWidget(self.live)
        live_row.addWidget(self.live_races, 1)
        self.form = QFormLayout()
        for label, widget in (
            ("Bots", self.bots),
            ("Cars", self.cars),
            ("Races", self.races),
            ("Seed", self.seed),
            ("Rules", self.ruleset),
            ("Laps", self.laps),
            ("Workers", self.workers),
        ):
            self.form.addRow(label, widget)
        self.form.addRow("Live", live_row)

    def rules(self) -> Ruleset:
        """The chosen preset or ruleset file (formula-d when the box is empty)."""
        return load_ruleset(self.ruleset.currentText().strip() or "formula-d")

    def spec(self, track: Track) -> DriveSpec:
        """What to race on ``track``; raises DriveError, RulesetError or ValueError when a
        setting is wrong (the message says which)."""
        names = [n.strip() for n in self.bots.text().split(",")]
        return self._spec(track, bot_lineup(names, self.cars.value()))

    def live_spec(self, track: Track) -> DriveSpec:
        """What a live batch races on ``track``: strong drivers on every grid place (ten at
        most), with the form's seed, rules and laps. Raises like :meth:`spec`."""
        if not track.grid:
            raise DriveError("the track has no grid: place the grid to race it")
        return self._spec(track, (LIVE_BOT,) * min(len(track.grid), MAX_CARS))

    def _spec(self, track: Track, bots: tuple[str, ...]) -> DriveSpec:
        """The one place the form becomes a spec, for Run and Live alike: a setting added to
        the form (the engine, say) reaches both."""
        return DriveSpec.of(
            track, self.rules(), bots, self.seed.value(), laps=self.laps.value() or None
        )

    def take(self, other: DriveSettings) -> None:
        """Copy ``other``'s choices (the panel of the track open before)."""
        self.bots.setText(other.bots.text())
        for mine, theirs in (
            (self.cars, other.cars),
            (self.races, other.races),
            (self.seed, other.seed),
            (self.laps, other.laps),
            (self.workers, other.workers),
            (self.live_races, other.live_races),
        ):
            mine.setValue(theirs.value())
        self.ruleset.setCurrentText(other.ruleset.currentText())
        self.live.setChecked(other.live.isChecked())  # last: switching it on races

"""The test drive's settings form: bots, cars, builds, races, seed, rules, the team race, laps
and workers, and live mode (race every edit) with its number of races.

Kept apart from the panel that runs the batch so that what a designer chooses (and carries over
to the next track they open) and how it becomes a :class:`DriveSpec` live in one place. The form
is widgets parented to the panel; :mod:`editor.panels.testdrive_layout` lays them out, as a grid
of label/field pairs.

Builds (building your car) and the team race's repairs belong to the line-up, as the bots and
the cars do: Run races them, live mode (strong drivers on every grid place) does not. A build
is checked as it is typed, against the rules and the number of cars, so that what is wrong is
said under the field before Run, in the command line's words.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from editor.drive_checks import DEFAULT_BOTS, DEFAULT_RACES, DEFAULT_SEED
from trackformat.model import Track
from trackformat.rules import (
    STANDARD,
    CarBuild,
    Ruleset,
    RulesetError,
    build_lineup,
    load_ruleset,
    preset_names,
)
from trackformat.rules.points import WEAR_CATEGORIES
from trackformat.sim.batch.testdrive import DriveError, DriveSpec, bot_lineup, driver_factories

LIVE_BOT = "strong"
"""Who drives a live batch: drivers who push show where a track bites."""
LIVE_RACES = 200
"""Races of a live batch: enough for corner rates within a few points, done in minutes."""
MAX_CARS = 10
"""The most cars a race has (the Cars box's limit too)."""
PROBLEM_STYLE = "color: #b3261e;"
"""A wrong build's message under the field: red enough to be seen, dark enough to read."""


def builds_tip(limits: CarBuild | None, ruleset: str) -> str:
    """The Builds field's tooltip: how to write a line-up of builds, and the limits of the
    chosen rules (a build outside them is refused)."""
    how = ("Builds given to the cars in turn, like the bots, separated by ';': a build's name "
           f"from the ruleset, {STANDARD} (the ruleset's WP), or the WP themselves, "
           "tyres=8,brakes=4,gearbox=2,body=2,engine=2,suspension=2 (a part left out gets 0). "
           "Empty: every car is standard.")
    if limits is None:
        return f"{how}\nThe {ruleset} rules have no building your car: only {STANDARD}."
    ranges = ", ".join(f"{name} {getattr(limits.min, name)} to {getattr(limits.max, name)}"
                       for name in WEAR_CATEGORIES)
    return f"{how}\nA build spreads exactly {limits.total} WP: {ranges}."


class DriveSettings:
    """The settings widgets; see the module docstring."""

    def __init__(self, parent: QWidget) -> None:
        self.bots = QLineEdit(DEFAULT_BOTS, parent)
        self.bots.setToolTip(
            f"Bot of each car, cycled over the cars: {', '.join(sorted(driver_factories()))}"
        )
        self.cars = QSpinBox(parent)
        self.cars.setRange(1, MAX_CARS)
        self.cars.setValue(6)
        self.builds = QLineEdit("", parent)
        self.builds.setPlaceholderText(STANDARD)
        self.build_problem = QLabel("", parent)
        """What is wrong with the builds typed, in the command line's words (hidden: nothing)."""
        self.build_problem.setWordWrap(True)
        self.build_problem.setStyleSheet(PROBLEM_STYLE)
        self.build_problem.setVisible(False)
        self.team_race = QCheckBox("team repairs", parent)
        self.team_race.setToolTip(
            "The team race's repairs: each team of two cars (1-2, 3-4, ...) shares 4 repair WP "
            "at its pit stops; needs an even number of cars and rules with the team race"
        )
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
        self.builds.textChanged.connect(self.check_builds)
        self.cars.valueChanged.connect(self.check_builds)
        self.ruleset.currentTextChanged.connect(self.check_builds)
        self.check_builds()  # the tooltip's limits, those of the rules chosen

    def rules(self) -> Ruleset:
        """The chosen preset or ruleset file (formula-d when the box is empty)."""
        return load_ruleset(self.ruleset.currentText().strip() or "formula-d")

    def lineup_builds(self, rules: Ruleset) -> tuple[str, ...]:
        """The build of each car, as the command line's ``--builds`` reads the field (empty:
        no builds, every car standard); raises BuildError (a ValueError) naming the first car
        whose build is wrong and what is wrong with it."""
        text = self.builds.text().strip()
        if not text:
            return ()
        return build_lineup(text.split(";"), self.cars.value(), rules.car_build, rules.builds,
                            rules.name)

    def check_builds(self) -> None:
        """Say under the field what is wrong with the builds typed (nothing: no line), and
        give the tooltip the chosen rules' limits. Rules that cannot be read (a path half
        typed) are Run's to report: the builds are not judged against them."""
        try:
            rules = self.rules()
        except (RulesetError, OSError):
            self.build_problem.setText("")
            self.build_problem.setVisible(False)
            return
        self.builds.setToolTip(builds_tip(rules.car_build, rules.name))
        try:
            self.lineup_builds(rules)
        except ValueError as err:
            problem = str(err)
        else:
            problem = ""
        self.build_problem.setText(problem)
        self.build_problem.setVisible(bool(problem))

    def spec(self, track: Track) -> DriveSpec:
        """What to race on ``track``: the line-up (bots, cars, builds, the team race) with the
        form's seed, rules and laps. Raises DriveError, RulesetError or ValueError (BuildError
        among them) when a setting is wrong (the message says which)."""
        names = [n.strip() for n in self.bots.text().split(",")]
        bots = bot_lineup(names, self.cars.value())
        rules = self.rules()
        if self.team_race.isChecked():
            rules = rules.with_team_repairs()
            if len(bots) % 2:
                raise DriveError(f"the team race's repairs are shared by teams of two cars: "
                                 f"{len(bots)} cars do not make teams of two (race an even "
                                 "number)")
        return self._spec(track, bots, rules, self.lineup_builds(rules))

    def live_spec(self, track: Track) -> DriveSpec:
        """What a live batch races on ``track``: strong drivers on every grid place (ten at
        most), with the form's seed, rules and laps. Raises like :meth:`spec`."""
        if not track.grid:
            raise DriveError("the track has no grid: place the grid to race it")
        return self._spec(track, (LIVE_BOT,) * min(len(track.grid), MAX_CARS), self.rules())

    def _spec(self, track: Track, bots: tuple[str, ...], rules: Ruleset,
              builds: tuple[str, ...] = ()) -> DriveSpec:
        """The one place the form becomes a spec, for Run and Live alike: a setting added to
        the form (the engine, say) reaches both."""
        return DriveSpec.of(
            track, rules, bots, self.seed.value(), laps=self.laps.value() or None,
            builds=builds,
        )

    def take(self, other: DriveSettings) -> None:
        """Copy ``other``'s choices (the panel of the track open before)."""
        self.bots.setText(other.bots.text())
        self.builds.setText(other.builds.text())
        self.team_race.setChecked(other.team_race.isChecked())
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

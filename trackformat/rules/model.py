"""The rules of a race as data: one validated :class:`Ruleset` per preset or user file.

Everything the rule booklets fix by number (dice faces, wear points, penalty tables, thresholds of
the black die) lives here, so that the simulator's code only says *how* a rule applies and a league
can change a number by editing a JSON file instead of the code. The models are frozen values that
refuse unknown keys, like the track models, so a misspelt key in a user file is reported.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from trackformat.rules.builds import BUILD_NAME, CarBuild, TeamRepairs, check_build
from trackformat.rules.points import GEARS, Face, RulesModel, WearPoints


class Dice(RulesModel):
    """The seven dice: one per gear, with the real faces, and the black 20-sided die."""

    gears: Annotated[list[Annotated[list[Face], Field(min_length=1, max_length=60)]],
                     Field(min_length=GEARS, max_length=GEARS)]
    """Faces of the die of each gear, first gear first. Listed face by face as printed (a value
    printed on two faces appears twice), because the real dice are not uniform ranges."""
    black: Annotated[list[Face], Field(min_length=2, max_length=100)]
    """Faces of the black die, used for the grid, the start and every damage roll."""


class WearAllowance(RulesModel):
    """The wear points a car starts with, for races of at least ``laps`` laps."""

    laps: Annotated[int, Field(ge=1, le=20)]
    """Smallest race length (in laps) this allowance is for."""
    points: WearPoints
    """Starting wear points of every car."""


class Downshift(RulesModel):
    """What dropping several gears at once costs."""

    gears: Annotated[int, Field(ge=2, le=5)]
    """How many gears are dropped (6th to 4th drops two)."""
    cost: WearPoints
    """Wear points paid for it."""


class Shifting(RulesModel):
    """Gear changes: up one at a time, down several at a price."""

    max_up: Annotated[int, Field(ge=1, le=5)] = 1
    """Most gears gained in one shift."""
    max_down: Annotated[int, Field(ge=1, le=5)] = 4
    """Most gears dropped in one shift (6th to 1st, five gears, is forbidden)."""
    max_down_without_gearbox: Annotated[int, Field(ge=1, le=5)] = 1
    """Most gears dropped in one shift once the gearbox WP are all spent."""
    downshifts: list[Downshift] = []
    """Cost of each multi-gear downshift; dropping one gear is free."""

    def downshift_cost(self, gears: int) -> WearPoints:
        """Cost of dropping ``gears`` gears at once (free when the table does not list it)."""
        for entry in self.downshifts:
            if entry.gears == gears:
                return entry.cost
        return WearPoints()


class Movement(RulesModel):
    """How a car moves along the links."""

    max_lane_changes_on_straight: Annotated[int, Field(ge=0, le=9)] = 2
    """Most lane changes in one move made from straight spaces (corners follow the arrows)."""
    brakes_per_space: Annotated[int, Field(ge=0, le=9)] = 1
    """Brakes WP paid per space of the roll not covered when braking."""


class BlockingStep(RulesModel):
    """The price of being blocked with ``spaces`` spaces of the roll left over."""

    spaces: Annotated[int, Field(ge=1, le=30)]
    """Spaces the car could not cover."""
    cost: WearPoints
    """Wear points paid."""


class Blocking(RulesModel):
    """Being blocked by cars that cannot be got around."""

    steps: list[BlockingStep]
    """Cost for each number of spaces left over, from 1 up."""
    eliminated_from: Annotated[int, Field(ge=1, le=31)]
    """Spaces left over from which the blocked car is eliminated."""
    elimination_hits_car_ahead: bool = False
    """Whether a car eliminated by a block costs the car right ahead of it 1 body WP (basic
    rules)."""

    @model_validator(mode="after")
    def _every_step_listed(self) -> Blocking:
        listed = sorted(step.spaces for step in self.steps)
        if listed != list(range(1, self.eliminated_from)):
            raise ValueError(
                f"blocking steps must list 1 to {self.eliminated_from - 1} spaces once each "
                f"(the spaces before eliminated_from), found {listed}"
            )
        return self

    def cost(self, spaces: int) -> WearPoints | None:
        """What a block with ``spaces`` left over costs, or None when it eliminates."""
        if spaces <= 0:
            return WearPoints()
        if spaces >= self.eliminated_from:
            return None
        return next(step.cost for step in self.steps if step.spaces == spaces)


class Start(RulesModel):
    """The black-die roll of every car before its first gear."""

    stall: list[Face] = [1]
    """Black-die results on which the car stalls and misses its first turn."""
    super_start: list[Face] = [20]
    """Black-die results on which the car leaps forward without a gear die."""
    super_start_spaces: Annotated[int, Field(ge=1, le=30)] = 4
    """Spaces covered by a super start; the car is then in first and may take second next."""


class PoleRoll(StrEnum):
    """Which black-die result takes pole position."""

    HIGHEST = "highest"
    LOWEST = "lowest"


class Grid(RulesModel):
    """How the start grid is drawn."""

    pole: PoleRoll
    """Whether the highest or the lowest black-die roll takes pole."""
    reroll_ties: bool = True
    """Whether cars with the same roll roll again between themselves."""


class TieBreak(StrEnum):
    """Who plays first between two cars level on the track and in the same gear."""

    INSIDE = "inside"
    """The car on the inside line of the current or next corner (Formula D)."""
    ARRIVAL = "arrival"
    """The car that got there first (Formule Dé basic rules)."""


class Corners(RulesModel):
    """Stops in corners and what leaving too early costs."""

    tyres_per_space: Annotated[int, Field(ge=0, le=9)] = 1
    """Tyres WP per space a car ends beyond a corner it has not made its stops in."""
    eliminated_missing: Annotated[int, Field(ge=1, le=9)] = 2
    """Missing stops that eliminate outright (2: a 2-stop corner with none, a 3-stop corner
    with one at most)."""
    stop_after_overshoot_counts: bool = False
    """Whether a stop in the next corner at the end of an overshoot counts there."""


class SpinOut(RulesModel):
    """Losing the last tyres WP on an overshoot."""

    restart_gear: Annotated[int, Field(ge=1, le=GEARS)] = 1
    """Gear the spun car restarts in, the following turn."""
    respin_max_spaces: Annotated[int, Field(ge=0, le=9)] = 1
    """On the restart turn, an overshoot of at most this many spaces spins the car again; a
    longer one eliminates it."""


class Collision(RulesModel):
    """Contact with the cars around the space where a move ends."""

    losing: list[Face] = [1]
    """Black-die results that cost the roller 1 body WP."""
    eliminating_costs_arriving: bool = False
    """Basic rules: the arriving car rolls last, and for each neighbour its contact eliminated it
    loses 1 body WP without rolling."""


class EngineTrigger(RulesModel):
    """A gear-die result that pushes the engine to the limit."""

    gear: Annotated[int, Field(ge=1, le=GEARS)]
    """The gear."""
    face: Face
    """The result (the top face of that gear's die)."""


class EngineDamage(RulesModel):
    """Engine rolls after a top result in a high gear."""

    triggers: list[EngineTrigger]
    """Results that trigger the rolls."""
    gears: list[Annotated[int, Field(ge=1, le=GEARS)]]
    """Everyone in one of these gears (and the driver who rolled) rolls the black die."""
    losing: list[Face]
    """Black-die results that cost 1 engine WP."""


class Debris(RulesModel):
    """Debris markers and the suspension rolls they cause."""

    losing: list[Face]
    """Black-die results that cost 1 suspension WP to a car passing or stopping on debris."""
    on_body_loss: bool = True
    """A marker is left where a car loses a body WP."""
    on_engine_loss: bool = True
    """A marker is left where a car loses an engine WP."""
    on_elimination: bool = True
    """A marker is left where a car is eliminated."""


class PitWindow(RulesModel):
    """When cars may stop at their box in a race of a given length."""

    race_laps: Annotated[int, Field(ge=1, le=20)]
    """The race length this window is for."""
    after_laps: list[Annotated[int, Field(ge=1, le=20)]]
    """Laps at whose end a stop is allowed (1: at the end of the first lap)."""
    max_stops: Annotated[int, Field(ge=0, le=20)] = 1
    """Most stops per car in the race."""


class Pits(RulesModel):
    """Pit stops: tyres back, then the black die says how fast the crew was."""

    windows: list[PitWindow] = []
    """Pit windows by race length; a race length not listed has no pit stops."""
    quick_max: Face = 10
    """Black-die results up to this are a quick stop: the car leaves at once."""
    quick_gear: Annotated[int, Field(ge=1, le=GEARS)] = 4
    """Gear of a car leaving after a quick stop."""
    quick_divisor: Annotated[int, Field(ge=1, le=20)] = 2
    """A quick stop moves the car the black-die result divided by this, rounded up."""
    slow_max_gear: Annotated[int, Field(ge=1, le=GEARS)] = 4
    """Highest gear a car may leave in, the turn after a slow stop."""
    refill: list[Literal["tyres", "brakes", "gearbox", "body", "engine", "suspension"]] = [
        "tyres"
    ]
    """Categories restored to their starting value at a stop."""

    def window(self, race_laps: int) -> PitWindow | None:
        """The window for a race of ``race_laps`` laps, if pit stops are allowed in it."""
        return next((w for w in self.windows if w.race_laps == race_laps), None)


class Slipstream(RulesModel):
    """Extra spaces for ending a move right behind another fast car."""

    min_gear: Annotated[int, Field(ge=1, le=GEARS)] = 4
    """Both cars must be in at least this gear."""
    follower_at_least_leader: bool = True
    """The car behind must be in the same gear as the car ahead or a higher one."""
    extra_spaces: Annotated[int, Field(ge=1, le=9)] = 3
    """Spaces added, in one of the three patterns of the rules."""
    corner_entry_cost: WearPoints = WearPoints(brakes=1)
    """Paid for entering a corner during the extra spaces."""


class Ruleset(RulesModel):
    """Every number of a set of rules; see docs/rules.md for each rule and its source."""

    format: Literal["formula-d-ruleset"] = "formula-d-ruleset"
    """Marks the file as a ruleset."""
    name: Annotated[str, Field(min_length=1, max_length=64)]
    """Short name (the preset's name)."""
    title: Annotated[str, Field(max_length=200)] = ""
    """What these rules are, for people."""
    notes: Annotated[str, Field(max_length=20_000)] = ""
    """Where the numbers come from and which were chosen where the booklet is silent."""
    dice: Dice
    wear: Annotated[list[WearAllowance], Field(min_length=1)]
    """Starting wear points, by race length."""
    shifting: Shifting
    movement: Movement = Movement()
    blocking: Blocking
    start: Start = Start()
    grid: Grid
    tie_break: TieBreak
    corners: Corners = Corners()
    spin_out: SpinOut = SpinOut()
    collision: Collision = Collision()
    engine_damage: EngineDamage | None
    """None when engine damage is not played."""
    debris: Debris | None
    """None when debris is not played (the basic rules have no road holding)."""
    pits: Pits = Pits()
    slipstream: Slipstream | None
    """None when slipstream is not played."""
    team_points: Annotated[list[Annotated[int, Field(ge=0, le=100)]], Field(max_length=20)] = []
    """Points by place of the optional team race (teams of two cars: cars 1 and 2, 3 and 4...):
    first place scores the first number; places past the list and cars out score nothing. Empty
    when the rules have no team race."""
    team_repairs: TeamRepairs | None = None
    """The team race's repair WP, shared by the two cars of a team at their pit stops (optional
    rule); None to race without them. A race with them needs an even number of cars."""
    car_build: CarBuild | None = None
    """Building your car (optional rule): the limits within which a car may spread its WP
    itself; None when the rules have no such rule (a line-up may then give no builds)."""
    builds: dict[Annotated[str, Field(pattern=BUILD_NAME)], WearPoints] = Field(
        default={}, max_length=100)
    """Named builds a line-up may give its cars by name, each within ``car_build``."""

    @model_validator(mode="after")
    def _consistent(self) -> Ruleset:
        laps = [allowance.laps for allowance in self.wear]
        if len(set(laps)) != len(laps):
            raise ValueError(f"wear allowances list the same race length twice: {sorted(laps)}")
        if self.engine_damage is not None:
            for trigger in self.engine_damage.triggers:
                if trigger.face not in self.dice.gears[trigger.gear - 1]:
                    raise ValueError(
                        f"engine trigger {trigger.face} is not a face of the gear "
                        f"{trigger.gear} die"
                    )
        return self

    @field_validator("builds")
    @classmethod
    def _builds_within_the_limits(cls, builds: dict[str, WearPoints],
                                  info: ValidationInfo) -> dict[str, WearPoints]:
        limits = info.data.get("car_build")
        if builds and limits is None:
            raise ValueError("named builds need car_build, the limits to check them against")
        for name, build in builds.items():
            problems = check_build(limits, build) if limits is not None else []
            if problems:
                raise ValueError(f"build {name!r} " + "; ".join(problems))
        return builds

    def starting_wear(self, laps: int) -> WearPoints:
        """Starting WP for a race of ``laps`` laps: the allowance for the longest race length
        that is not longer (the shortest one listed for shorter races)."""
        fitting = [a for a in self.wear if a.laps <= laps]
        chosen = max(fitting, key=lambda a: a.laps) if fitting else min(
            self.wear, key=lambda a: a.laps
        )
        return chosen.points

    def with_team_repairs(self) -> Ruleset:
        """These rules with the team race's repairs on (the booklet's 4 WP a team, unless they
        set their own); :class:`ValueError` for rules that have no team race."""
        if not self.team_points:
            raise ValueError(f"the {self.name} rules have no team race (no team_points)")
        if self.team_repairs is not None:
            return self
        return self.model_copy(update={"team_repairs": TeamRepairs()})

    def faces(self, gear: int) -> tuple[int, ...]:
        """Faces of the die of ``gear`` (1 to 6)."""
        return tuple(self.dice.gears[gear - 1])

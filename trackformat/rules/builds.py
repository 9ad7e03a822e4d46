"""Two optional rules of Formula D built on a car's wear points: building your car, and the team
race's repair points.

- **Building your car**: each player spreads the car's 20 WP over the six categories, within the
  limits the booklet gives (tyres 1 to 14, every other part 1 to 7). The limits are data
  (:class:`CarBuild`); a ruleset may also name builds (``Ruleset.builds``) for a line-up to
  refer to. A line-up gives each car a build as text: a build's name, ``standard`` (the
  ruleset's starting WP, no build) or the WP themselves, ``tyres=8,brakes=4,...``
  (:func:`build_lineup`); every build is checked against the limits with a message saying
  what is wrong (:func:`check_build`).
- **Team race repairs**: each team of two cars has a pool of repair WP to share at its pit
  stops (:class:`TeamRepairs`); the engine spends them (docs/rules.md says how).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated

from pydantic import Field, model_validator

from trackformat.rules.points import WEAR_CATEGORIES, RulesModel, WearPoints

STANDARD = "standard"
"""The build text of a car with no build of its own: it starts with the ruleset's WP."""

BUILD_NAME = r"^[A-Za-z][A-Za-z0-9_.+-]{0,39}$"
"""What a named build may be called: a word a command line takes without quoting."""


class BuildError(ValueError):
    """A build that breaks the rules, or a line-up's build that cannot be read."""


class CarBuild(RulesModel):
    """Building your car (optional rule of Formula D): the limits of a car's own spread of WP."""

    total: Annotated[int, Field(ge=1, le=300)] = 20
    """WP a build spreads, exactly."""
    min: WearPoints
    """Fewest WP a build may give each category."""
    max: WearPoints
    """Most WP a build may give each category."""

    @model_validator(mode="after")
    def _possible(self) -> CarBuild:
        for name in WEAR_CATEGORIES:
            if getattr(self.min, name) > getattr(self.max, name):
                raise ValueError(f"{name}: min {getattr(self.min, name)} is above max "
                                 f"{getattr(self.max, name)}")
        if not self.min.total() <= self.total <= self.max.total():
            raise ValueError(f"no build can total {self.total} WP: the limits allow "
                             f"{self.min.total()} to {self.max.total()}")
        return self


class TeamRepairs(RulesModel):
    """The team race's repair points (optional rule of Formula D): teams of two cars (1 and 2,
    3 and 4, ...), each with a pool of WP its two cars share at their pit stops."""

    points: Annotated[int, Field(ge=1, le=99)] = 4
    """Repair WP each team has for the race."""


def check_build(limits: CarBuild, build: WearPoints) -> list[str]:
    """What is wrong with ``build`` under ``limits``, one phrase per problem (empty: nothing),
    to follow the build's name: ``car 3's build`` + ``gives tyres 15: tyres take 1 to 14``."""
    problems = []
    for name in WEAR_CATEGORIES:
        value = getattr(build, name)
        low, high = getattr(limits.min, name), getattr(limits.max, name)
        if not low <= value <= high:
            take = "take" if name.endswith("s") else "takes"  # tyres take, gearbox takes
            problems.append(f"gives {name} {value}: {name} {take} {low} to {high}")
    total = build.total()
    if total != limits.total:
        problems.append(f"totals {total} WP, not {limits.total}")
    return problems


def build_text(build: WearPoints) -> str:
    """A build as a line-up writes it, every category in the car sheet's order:
    ``tyres=8,brakes=4,gearbox=2,body=2,engine=2,suspension=2``."""
    return ",".join(f"{name}={getattr(build, name)}" for name in WEAR_CATEGORIES)


def parse_build(text: str) -> WearPoints:
    """A build written ``tyres=8,brakes=4,...`` (categories left out get 0 WP). Raises
    :class:`BuildError` saying what cannot be read."""
    values: dict[str, int] = {}
    for part in text.split(","):
        name, equals, number = (p.strip() for p in part.partition("="))
        if not equals or not name:
            raise BuildError(f"{part.strip()!r} is not category=WP (categories: "
                             f"{', '.join(WEAR_CATEGORIES)})")
        if name not in WEAR_CATEGORIES:
            raise BuildError(f"unknown category {name!r} (categories: "
                             f"{', '.join(WEAR_CATEGORIES)})")
        if name in values:
            raise BuildError(f"gives {name} twice")
        if not number.isdigit() or int(number) > 99:
            raise BuildError(f"gives {name} {number!r}: a whole number of WP, 0 to 99")
        values[name] = int(number)
    return WearPoints(**values)


def build_lineup(texts: Sequence[str], cars: int, limits: CarBuild | None,
                 named: Mapping[str, WearPoints], ruleset: str = "this") -> tuple[str, ...]:
    """The build of each car, as text: ``texts`` given to the cars in turn (car 1 the first,
    and again from the first when they run out), each a build's name in ``named``,
    :data:`STANDARD`, or the WP themselves, written back in the car sheet's order. Raises
    :class:`BuildError` naming the first car whose build is wrong and what is wrong with it."""
    if not texts or not all(t.strip() for t in texts):
        raise BuildError(f"a build is missing (give a build's name, {STANDARD}, or "
                         "tyres=N,brakes=N,gearbox=N,body=N,engine=N,suspension=N)")
    lineup = []
    for car in range(cars):
        text = texts[car % len(texts)].strip()
        if text == STANDARD:
            lineup.append(STANDARD)
            continue
        who = f"car {car + 1}'s build"
        if limits is None:
            raise BuildError(f"{who}: the {ruleset} rules have no building your car (no "
                             f"car_build): every car starts with the ruleset's WP ({STANDARD})")
        if "=" in text:
            try:
                build = parse_build(text)
            except BuildError as err:
                raise BuildError(f"{who}: {err}") from None
        elif text in named:
            build = named[text]
        else:
            known = ", ".join(sorted(named)) or "none"
            raise BuildError(f"{who}: no build named {text!r} (builds of the {ruleset} rules: "
                             f"{known}; or {STANDARD}, or tyres=N,brakes=N,...)")
        problems = check_build(limits, build)
        if problems:
            raise BuildError(f"{who} " + "; ".join(problems))
        lineup.append(text if text in named else build_text(build))
    return tuple(lineup)


def lineup_points(texts: Sequence[str], named: Mapping[str, WearPoints]
                  ) -> tuple[WearPoints | None, ...]:
    """The WP of each car of a line-up :func:`build_lineup` wrote (None: :data:`STANDARD`)."""
    return tuple(None if text == STANDARD else named[text] if text in named
                 else parse_build(text) for text in texts)


__all__ = [
    "BUILD_NAME",
    "STANDARD",
    "BuildError",
    "CarBuild",
    "TeamRepairs",
    "build_lineup",
    "build_text",
    "check_build",
    "lineup_points",
    "parse_build",
]

"""Wear points and the base of every ruleset model: the numbers a car sheet holds.

Apart from :mod:`trackformat.rules.model` so that the optional rules built on a car's wear points
(:mod:`trackformat.rules.builds`) can use them without importing the whole ruleset.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

GEARS = 6
"""Number of gears of a car; the rules of every edition have six."""

WEAR_CATEGORIES = ("tyres", "brakes", "gearbox", "body", "engine", "suspension")
"""The wear-point categories, in the order of the car sheet."""


class RulesModel(BaseModel):
    """Base of the ruleset models: frozen values, unknown keys refused, fields documented."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, use_attribute_docstrings=True
    )


Face = Annotated[int, Field(ge=1, le=100)]
"""A number printed on a die face."""
Count = Annotated[int, Field(ge=0, le=99)]
"""A number of wear points or spaces."""


class WearPoints(RulesModel):
    """A number of wear points (WP) in each category; also used for a cost in WP."""

    tyres: Count = 0
    """Tyres: spent on overshoots (and on long blocks)."""
    brakes: Count = 0
    """Brakes: spent on braking, blocks and big downshifts."""
    gearbox: Count = 0
    """Gearbox (fuel, "consommation", in the basic rules): spent on downshifts of two or more."""
    body: Count = 0
    """Body: lost in collisions; losing the last one eliminates the car."""
    engine: Count = 0
    """Engine: lost to engine damage and four-gear downshifts; the last one eliminates."""
    suspension: Count = 0
    """Suspension (road holding): lost on debris; the last one eliminates."""

    def total(self) -> int:
        """All wear points together."""
        return sum(getattr(self, name) for name in WEAR_CATEGORIES)

"""The rules of a race as data: validated rulesets, the shipped presets, and loading them.

``load_ruleset("formula-d")`` gives the Formula D advanced rules (the default);
``load_ruleset("formule-de-basic")`` the Formule Dé basic rules; any other argument is read as a
ruleset file. docs/rules.md lists every rule, its value in each preset and its source.
"""

from trackformat.rules.loading import (
    DEFAULT_PRESET,
    RulesetError,
    load_ruleset,
    loads_ruleset,
    preset_names,
    ruleset_from_document,
)
from trackformat.rules.model import (
    GEARS,
    WEAR_CATEGORIES,
    Blocking,
    BlockingStep,
    Collision,
    Corners,
    Debris,
    Dice,
    Downshift,
    EngineDamage,
    EngineTrigger,
    Grid,
    Movement,
    Pits,
    PitWindow,
    PoleRoll,
    Ruleset,
    Shifting,
    Slipstream,
    SpinOut,
    Start,
    TieBreak,
    WearAllowance,
    WearPoints,
)

__all__ = [
    "DEFAULT_PRESET",
    "GEARS",
    "WEAR_CATEGORIES",
    "Blocking",
    "BlockingStep",
    "Collision",
    "Corners",
    "Debris",
    "Dice",
    "Downshift",
    "EngineDamage",
    "EngineTrigger",
    "Grid",
    "Movement",
    "PitWindow",
    "Pits",
    "PoleRoll",
    "Ruleset",
    "RulesetError",
    "Shifting",
    "Slipstream",
    "SpinOut",
    "Start",
    "TieBreak",
    "WearAllowance",
    "WearPoints",
    "load_ruleset",
    "loads_ruleset",
    "preset_names",
    "ruleset_from_document",
]

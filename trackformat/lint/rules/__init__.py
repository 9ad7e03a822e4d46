"""The validator's rules, one module per topic. Importing this package registers them all."""

from trackformat.lint.rules import (  # noqa: F401
    corners,
    geometry,
    grid_pit,
    lap,
    reachability,
    references,
    shortest_path,
)

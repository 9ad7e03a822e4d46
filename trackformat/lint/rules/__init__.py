"""The validator's rules, one module per topic. Importing this package registers them all."""

from trackformat.lint.rules import (  # noqa: F401
    corner_paths,
    corners,
    geometry,
    grid,
    lap,
    pit,
    reachability,
    references,
    shortest_path,
    stagger,
)

"""The validator's rules, a module per topic (two for the longer ones: the lap and its finish
line, reachability and the pit lane's chain). Importing this package registers them all."""

from trackformat.lint.rules import (  # noqa: F401
    board_picture,
    corner_paths,
    corners,
    finish_line,
    geometry,
    grid,
    lap,
    pit,
    pit_chain,
    reachability,
    references,
    shortest_path,
    stagger,
)

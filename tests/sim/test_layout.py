"""The engine's rooms: every module of trackformat.sim lives in one, and imports only the rooms
below it, as the room's docstring says ("May import: ..."), so that a newcomer can read the
engine from the bottom up and no room reaches back into a room built on it."""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import trackformat
import trackformat.sim

SIM = Path(trackformat.sim.__file__).resolve().parent
PACKAGE = Path(trackformat.__file__).resolve().parent


def rooms() -> dict[str, set[str]]:
    """Each room, with the rooms its docstring says it may import."""
    found = {}
    for init in sorted(SIM.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        line = re.search(r"^May import: (.*)$", doc, re.MULTILINE)
        assert line, f"{init.parent.name}/__init__.py: the docstring says what the room may import"
        names = line.group(1).rstrip(".")
        found[init.parent.name] = (
            set() if names.startswith("nothing") else {n.strip() for n in names.split(",")})
    return found


def imported(path: Path) -> set[str]:
    """The trackformat modules a module imports (relative imports resolved)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    here = parts[:-1]  # the package a relative import starts from
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return {n for n in names if n == "trackformat" or n.startswith("trackformat.")}


def room_of(module: str) -> str | None:
    """The room a dotted name under trackformat.sim belongs to (None for the package itself)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["trackformat", "sim"] else None


def test_every_module_of_the_engine_lives_in_a_room() -> None:
    flat = sorted(p.name for p in SIM.glob("*.py") if p.name != "__init__.py")
    assert flat == [], "modules of trackformat.sim belong in a room (a sub-package)"
    assert {"core", "move", "race", "drivers", "batch"} <= set(rooms())


def test_the_rooms_are_layered() -> None:
    allowed = rooms()
    for room, below in allowed.items():
        assert below <= set(allowed), f"{room} may import rooms that do not exist: {below}"
    try:
        order = list(TopologicalSorter(allowed).static_order())
    except CycleError as error:
        raise AssertionError(f"the rooms may import each other in a circle: {error}") from error
    assert order[0] == "core"


def test_each_room_imports_only_the_rooms_its_docstring_allows() -> None:
    allowed = rooms()
    wrong = []
    for room in allowed:
        for path in sorted((SIM / room).rglob("*.py")):
            for module in imported(path):
                target = room_of(module)
                if module == "trackformat.sim":
                    wrong.append(f"{path.relative_to(SIM)} imports from trackformat.sim itself: "
                                 "its public names are for users of the engine, not its rooms")
                elif target is not None and target != room and target not in allowed[room]:
                    wrong.append(f"{path.relative_to(SIM)} imports {module}")
    assert wrong == []


def test_no_module_outside_the_kernel_room_imports_compiled_code() -> None:
    importers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (SIM / "kernel") in path.parents:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("numba", "llvmlite") for n in names):
                importers.append(str(path.relative_to(PACKAGE)))
    assert importers == []

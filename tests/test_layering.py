"""trackformat stays headless: it imports and runs with Qt absent, and never imports the editor.

The command line, CI and other programs use trackformat on machines without a display or Qt, so
a stray ``import PySide6`` (or an import of the editor, which pulls Qt in) would break them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import trackformat

PACKAGE = Path(trackformat.__file__).parent
ROOT = PACKAGE.parent
FORBIDDEN = {"PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "editor"}

IMPORT_EVERYTHING = """
import importlib, sys
for blocked in {blocked!r}:
    sys.modules[blocked] = None  # any import of these now raises ImportError
names = {names!r}
for name in names:
    importlib.import_module(name)
import trackformat.lint
rules = trackformat.lint.all_rules()
from trackformat import cli
assert cli.main(["schema", "-o", {schema_out!r}]) == 0
leaked = sorted(n for n in sys.modules if n.split(".")[0] in {blocked!r} and sys.modules[n])
print("imported", len(names), "modules;", len(rules), "rules; leaked:", leaked)
"""


def module_names() -> list[str]:
    """Every module of the package, found from its files (folders without ``__init__`` too)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def test_every_module_imports_without_qt(tmp_path: Path) -> None:
    names = module_names()
    assert {"trackformat.cli", "trackformat.__main__", "trackformat.lint.runner"} <= set(names)
    script = IMPORT_EVERYTHING.format(
        blocked=sorted(FORBIDDEN), names=names, schema_out=str(tmp_path / "schema.json")
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert f"imported {len(names)} modules" in result.stdout
    assert "leaked: []" in result.stdout


def _imported_roots(tree: ast.AST) -> list[tuple[int, str]]:
    """Top-level package of every import, including ``importlib.import_module("x")`` calls."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.append((node.lineno, first.value.split(".")[0]))
    return found


def test_no_module_imports_qt_or_the_editor() -> None:
    offenders = []
    files = sorted(PACKAGE.rglob("*.py"))
    assert PACKAGE / "cli" / "__init__.py" in files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, root in _imported_roots(tree):
            if root in FORBIDDEN:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {root}")
    assert offenders == []


def test_the_scan_sees_every_kind_of_import() -> None:
    source = "import PySide6.QtCore\nfrom editor import app\nimport importlib\n" \
             "importlib.import_module('PyQt6.QtGui')\nfrom . import sibling\n"
    roots = [root for _, root in _imported_roots(ast.parse(source))]
    assert roots == ["PySide6", "editor", "importlib", "PyQt6"]


IMAGE_LIBRARIES = ("cv2", "skimage", "scipy")
"""The tracer's libraries (the ``trace`` extra): only ``trackformat.trace`` may load them."""

IMPORT_THE_COMMAND_LINE = """
import sys
import trackformat
import trackformat.cli
from trackformat.cli import build_parser
build_parser()
import trackformat.lint, trackformat.io, trackformat.builder, trackformat.interop.render
loaded = sorted(n for n in sys.modules
                if n.split(".")[0] in {libraries!r} or n.startswith("trackformat.trace"))
print("loaded:", loaded)
"""


def test_the_command_line_loads_no_image_library() -> None:
    """``import trackformat.cli`` (and the parser with the ``trace`` command in it) loads
    neither the tracer nor its image libraries: the command imports them when it runs."""
    script = IMPORT_THE_COMMAND_LINE.format(libraries=IMAGE_LIBRARIES)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "loaded: []" in result.stdout


def test_only_the_tracer_imports_the_image_libraries_at_load_time() -> None:
    """Outside ``trackformat/trace``, no module imports an image library or the tracer in its
    module body (inside a function, as ``trackformat trace`` does, is when it is used)."""
    offenders = []
    tracer = PACKAGE / "trace"
    for path in sorted(PACKAGE.rglob("*.py")):
        if tracer in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        top_level = ast.Module(body=[node for node in tree.body
                                     if isinstance(node, ast.Import | ast.ImportFrom)],
                               type_ignores=[])
        for line, root in _imported_roots(top_level):
            if root in IMAGE_LIBRARIES:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {root}")
        for node in top_level.body:
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            if any(name.startswith("trackformat.trace") for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports the tracer")
    assert offenders == []

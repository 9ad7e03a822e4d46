"""Reading a board traced by hand: the SVG outline of every printed space.

Test support for checking a track against a real board. The outlines are SVG path data, read
fully: absolute and relative commands, implicit repeats, curves and arcs flattened to polygons,
and the ``transform`` of the path and of every group around it. The cells' data (centres, lanes,
moves) are read by :mod:`tests.monaco_board`.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
"""An SVG matrix (a b c d e f): x' = a·x + c·y + e, y' = b·x + d·y + f."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CURVE_STEPS = 12
"""Straight pieces per curve or arc when flattening an outline."""

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SEPARATORS = " \t\r\n,"
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


class PathError(ValueError):
    """Path data that does not follow the SVG grammar, with where it goes wrong."""


def _tokens(data: str) -> list[str | float]:
    """Commands (letters) and numbers; an arc's two flags may be written as single digits
    run together ("a5 5 0 0110 10"), so numbers are read knowing which command they are for."""
    out: list[str | float] = []
    i, command, count = 0, "", 0
    while i < len(data):
        char = data[i]
        if char in _SEPARATORS:
            i += 1
        elif char.upper() in _ARGS:
            command, count = char.upper(), 0
            out.append(char)
            i += 1
        elif command == "A" and count % 7 in (3, 4) and char in "01":
            out.append(float(char))
            count += 1
            i += 1
        else:
            match = _NUMBER.match(data, i)
            if match is None:
                raise PathError(f"unexpected {char!r} at character {i} of the path data")
            out.append(float(match.group()))
            count += 1
            i = match.end()
    return out


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    points = []
    for step in range(1, CURVE_STEPS + 1):
        t = step / CURVE_STEPS
        u = 1 - t
        points.append((
            u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
            u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
        ))
    return points


def _quadratic(p0: Point, p1: Point, p2: Point) -> list[Point]:
    control1 = (p0[0] + 2 / 3 * (p1[0] - p0[0]), p0[1] + 2 / 3 * (p1[1] - p0[1]))
    control2 = (p2[0] + 2 / 3 * (p1[0] - p2[0]), p2[1] + 2 / 3 * (p1[1] - p2[1]))
    return _cubic(p0, control1, control2, p2)


def _arc(start: Point, rx: float, ry: float, rotation: float, large: bool, sweep: bool,
         end: Point) -> list[Point]:
    """An elliptical arc as points (SVG's endpoint form converted to its centre form)."""
    if start == end:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [end]
    phi = math.radians(rotation)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (start[0] - end[0]) / 2, (start[1] - end[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if grow > 1:  # radii too small to reach: scaled up, as the SVG spec says
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    factor = math.sqrt(max(0.0, numerator / (rx * rx * y1 * y1 + ry * ry * x1 * x1)))
    if large == sweep:
        factor = -factor
    cx1, cy1 = factor * rx * y1 / ry, -factor * ry * x1 / rx
    cx = cos * cx1 - sin * cy1 + (start[0] + end[0]) / 2
    cy = sin * cx1 + cos * cy1 + (start[1] + end[1]) / 2

    def angle(ux: float, uy: float) -> float:
        return math.atan2(uy, ux)

    theta = angle((x1 - cx1) / rx, (y1 - cy1) / ry)
    delta = angle((-x1 - cx1) / rx, (-y1 - cy1) / ry) - theta
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    points = []
    for step in range(1, CURVE_STEPS + 1):
        t = theta + delta * step / CURVE_STEPS
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        points.append((cos * ex - sin * ey + cx, sin * ex + cos * ey + cy))
    points[-1] = end
    return points


def parse_path(data: str) -> list[list[Point]]:
    """The subpaths of SVG path data as lists of points, curves and arcs flattened."""
    tokens = _tokens(data)
    subpaths: list[list[Point]] = []
    current: list[Point] = []
    pen: Point = (0.0, 0.0)
    start: Point = (0.0, 0.0)
    last_control: Point | None = None
    last_command = ""
    i = 0
    command = ""
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, str):
            command = token
            i += 1
            if command.upper() == "Z":
                if current:
                    subpaths.append(current)
                current, pen, last_control, last_command = [], start, None, "Z"
                continue
        elif not command:
            raise PathError("path data must begin with a moveto command (M or m)")
        upper, relative = command.upper(), command.islower()
        need = _ARGS[upper]
        if upper == "Z":
            raise PathError("numbers after a closepath (Z) command")
        args = tokens[i : i + need]
        if len(args) < need or not all(isinstance(a, float) for a in args):
            raise PathError(f"command {command!r} needs {need} numbers")
        values = [float(a) for a in args]
        i += need
        ox, oy = pen if relative else (0.0, 0.0)
        control: Point | None = None
        if upper == "M":
            if current:
                subpaths.append(current)
            pen = (ox + values[0], oy + values[1])
            start, current = pen, [pen]
            command = "l" if relative else "L"  # further pairs are implicit linetos
            last_command = "M"
            last_control = None
            continue
        if not current:
            current = [pen]
        if upper == "L":
            new = [(ox + values[0], oy + values[1])]
        elif upper == "H":
            new = [((pen[0] if relative else 0.0) + values[0], pen[1])]
        elif upper == "V":
            new = [(pen[0], (pen[1] if relative else 0.0) + values[0])]
        elif upper in ("C", "S"):
            if upper == "C":
                c1 = (ox + values[0], oy + values[1])
                rest = values[2:]
            else:
                reflect = last_control if last_command in ("C", "S") else None
                c1 = (2 * pen[0] - reflect[0], 2 * pen[1] - reflect[1]) if reflect else pen
                rest = values
            c2 = (ox + rest[0], oy + rest[1])
            end = (ox + rest[2], oy + rest[3])
            new, control = _cubic(pen, c1, c2, end), c2
        elif upper in ("Q", "T"):
            if upper == "Q":
                c1 = (ox + values[0], oy + values[1])
                end = (ox + values[2], oy + values[3])
            else:
                reflect = last_control if last_command in ("Q", "T") else None
                c1 = (2 * pen[0] - reflect[0], 2 * pen[1] - reflect[1]) if reflect else pen
                end = (ox + values[0], oy + values[1])
            new, control = _quadratic(pen, c1, end), c1
        else:  # A
            end = (ox + values[5], oy + values[6])
            new = _arc(pen, values[0], values[1], values[2], bool(values[3]), bool(values[4]),
                       end)
        current += new
        if new:
            pen = new[-1]
        last_control, last_command = control, upper
    if current:
        subpaths.append(current)
    return subpaths


# -- transforms ----------------------------------------------------------------------------------

_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def compose(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix applying ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1,
    )


def parse_transform(text: str | None) -> Matrix:
    """An SVG ``transform`` attribute as one matrix (its parts apply right to left)."""
    matrix = IDENTITY
    if not text:
        return matrix
    for name, raw in _TRANSFORM.findall(text):
        v = [float(n) for n in _NUMBER.findall(raw)]
        if name == "matrix":
            part: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate":
            part = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            part = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            a = math.radians(v[0])
            part = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0, 0)
            if len(v) == 3:
                part = compose((1, 0, 0, 1, v[1], v[2]), compose(part, (1, 0, 0, 1, -v[1], -v[2])))
        elif name == "skewX":
            part = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        else:
            part = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        matrix = compose(matrix, part)
    return matrix


def apply(matrix: Matrix, point: Point) -> Point:
    a, b, c, d, e, f = matrix
    return (a * point[0] + c * point[1] + e, b * point[0] + d * point[1] + f)


def read_outlines(svg: Path) -> dict[str, list[list[Point]]]:
    """Each path's subpaths by the path's id, in the document's user units (every transform
    of the path and the groups around it applied)."""
    outlines: dict[str, list[list[Point]]] = {}

    def visit(element: ElementTree.Element, matrix: Matrix) -> None:
        matrix = compose(matrix, parse_transform(element.get("transform")))
        if element.tag.rsplit("}", 1)[-1] == "path" and element.get("d"):
            ident = element.get("id") or f"path-{len(outlines)}"
            outlines[ident] = [
                [apply(matrix, p) for p in sub] for sub in parse_path(element.get("d", ""))
            ]
        for child in element:
            visit(child, matrix)

    visit(ElementTree.parse(svg).getroot(), IDENTITY)
    return outlines

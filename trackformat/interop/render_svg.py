"""The scene of a track as an SVG document: plain text, no dependency, scalable for print."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from trackformat.interop.scene import RGB, XY, Fill, Label, Scene, Stroke

TEXT_WIDTH = 0.58
"""Width of a character as a share of the font size, to size the boxes behind labels."""


def _colour(rgb: RGB) -> str:
    return f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}"


def _points(points: tuple[XY, ...]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def scene_to_svg(
    scene: Scene, *, backdrop: str | None = None, picture: tuple[int, int, str] | None = None
) -> str:
    """The SVG text of ``scene``; ``backdrop`` is a picture path drawn underneath, if any, and
    ``picture`` its width, height and ``transform`` onto the board (without, it is stretched
    over the board)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
        f'<rect width="{scene.width}" height="{scene.height}" fill="{_colour(scene.background)}"/>',
    ]
    if backdrop is not None and picture is not None:
        width, height, transform = picture
        lines.append(
            f'<image href={quoteattr(backdrop)} x="0" y="0" width="{width}" '
            f'height="{height}" transform="{transform}" preserveAspectRatio="none"/>'
        )
    elif backdrop is not None:
        lines.append(
            f'<image href={quoteattr(backdrop)} x="0" y="0" width="{scene.width}" '
            f'height="{scene.height}" preserveAspectRatio="none"/>'
        )
    lines.append('<g stroke-linejoin="round" stroke-linecap="butt">')
    for item in scene.items:
        if isinstance(item, Fill):
            stroke = (
                f' stroke="{_colour(item.outline)}" stroke-width="{item.width:.2f}"'
                if item.outline is not None and item.width > 0 else ""
            )
            lines.append(
                f'<polygon points="{_points(item.points)}" fill="{_colour(item.colour)}"{stroke}/>'
            )
        elif isinstance(item, Stroke):
            lines.append(
                f'<polyline points="{_points(item.points)}" fill="none" '
                f'stroke="{_colour(item.colour)}" stroke-width="{item.width:.2f}"/>'
            )
        elif isinstance(item, Label):
            lines += _label(item)
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines)


def _label(item: Label) -> list[str]:
    x, y = item.at
    out: list[str] = []
    if item.box is not None:
        pad = item.size * 0.3
        width = max(len(item.text) * item.size * TEXT_WIDTH, item.size) + 2 * pad
        height = item.size + 2 * pad
        outline = (
            f' stroke="{_colour(item.box_outline)}" stroke-width="{item.size * 0.08:.2f}"'
            if item.box_outline is not None else ""
        )
        out.append(
            f'<rect x="{x - width / 2:.2f}" y="{y - height / 2:.2f}" width="{width:.2f}" '
            f'height="{height:.2f}" rx="{item.size * 0.2:.2f}" '
            f'fill="{_colour(item.box)}"{outline}/>'
        )
    out.append(
        f'<text x="{x:.2f}" y="{y:.2f}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="{item.size:.2f}" text-anchor="middle" dominant-baseline="central" '
        f'fill="{_colour(item.colour)}">{escape(item.text)}</text>'
    )
    return out

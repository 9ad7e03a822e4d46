"""A grid slot's number stays within its slot on screen when the view zooms out, as a number
printed on the board does, instead of covering the slots round it; zoomed in, it is drawn at
its usual, readable size."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPolygon, QPolygonF

from editor.scene.style import Layer
from tests.factories import edit, ring
from trackformat.io import save_track


def _grab(window) -> QImage:  # type: ignore[no-untyped-def]
    window.view.viewport().repaint()
    return window.view.viewport().grab().toImage()


def _number_pixels(window) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """The screen pixels the grid numbers paint: those that change when the grid layer is
    hidden."""
    shown = _grab(window)
    window.scene.set_layer_visible(Layer.GRID_PIT, False)
    hidden = _grab(window)
    window.scene.set_layer_visible(Layer.GRID_PIT, True)
    return [(x, y) for y in range(shown.height()) for x in range(shown.width())
            if shown.pixel(x, y) != hidden.pixel(x, y)]


def _slots_on_screen(window) -> list[QPolygon]:  # type: ignore[no-untyped-def]
    track = window.document.track
    polygons = {s.id: s.polygon for s in track.spaces}
    return [window.view.mapFromScene(QPolygonF([QPointF(x, y) for x, y in polygons[slot]]))
            for slot in track.grid]


def _outside(pixels: list[tuple[int, int]], slots: list[QPolygon]) -> list[tuple[int, int]]:
    """The pixels further than a pixel from every slot (anti-aliasing reaches one past)."""
    def near(x: int, y: int) -> bool:
        return any(slot.containsPoint(QPoint(x + dx, y + dy), Qt.FillRule.OddEvenFill)
                   for slot in slots for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return [(x, y) for x, y in pixels if not near(x, y)]


def test_zoomed_out_each_grid_number_stays_within_its_slot(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The ring on a board five times its size: at "fit the board" a slot is a few screen
    # pixels across, smaller than a number's box at its usual size.
    def big_board(document):  # type: ignore[no-untyped-def]
        document["board"]["width"] = document["board"]["height"] = 6000
    path = tmp_path / "small-ring.json"
    save_track(edit(ring(), big_board), path)
    window.open_path(path)
    window.view.fit()
    pixels = _number_pixels(window)
    assert pixels, "the grid numbers should still be drawn, small"
    assert _outside(pixels, _slots_on_screen(window)) == []


def test_zoomed_in_a_grid_number_is_drawn_at_its_usual_size(window, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    track = window.document.track
    pole = next(s for s in track.spaces if s.id == track.grid[0])
    window.view.resetTransform()
    window.view.scale(4.0, 4.0)
    window.view.centerOn(*pole.centre)
    pixels = _number_pixels(window)
    xs = [x for x, _ in pixels]
    # A number's box at 8 points is well over ten screen pixels wide.
    assert xs and max(xs) - min(xs) > 12

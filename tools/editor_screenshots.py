"""Regenerate the screenshots of docs/editor.md by driving the real editor offscreen.

    python tools/editor_screenshots.py            # writes docs/images/editor-*.png

Each picture is one workflow of the user guide, set up through the same calls a user's clicks
make, so the guide shows what the editor really does today.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, QRectF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

OUT = ROOT / "docs" / "images"
MONACO = ROOT / "tracks" / "monaco.json"
SIZE = (1500, 950)


def settle(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    """Let the validator catch up with the last edit, and everything redraw."""
    window.validation.run_now(window.document.track)
    window.validation.wait()
    for _ in range(5):
        app.processEvents()


def fresh_window(app: QApplication, folder: Path):  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, ask=False)
    window.resize(*SIZE)
    window.show()
    app.processEvents()
    return window


def shot(window, name: str) -> None:  # type: ignore[no-untyped-def]
    path = OUT / f"editor-{name}.png"
    window.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT)}")


def opened(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    window.open_path(MONACO)
    settle(app, window)
    shot(window, "monaco")


def lanes(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    window.open_path(MONACO)
    window.scene.set_scan_opacity(0.6)
    window.choose_tool("Lanes")
    tool = window.view.tool
    tool.counts_edit.setText("9,8,7")
    viewport = window.view.viewport()
    for point in (QPoint(520, 560), QPoint(700, 610), QPoint(900, 580)):
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    QTest.mouseMove(viewport, QPoint(1000, 520))
    settle(app, window)
    shot(window, "lanes")
    tool.cancel()


def corner(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    window.open_path(MONACO)
    loews = next(c for c in window.document.track.corners if c.name == "Loews")
    window.document.set_selection({loews.id})
    rect = QRectF()
    for space_id in loews.spaces:
        rect = rect.united(window.scene.space_items[space_id].sceneBoundingRect())
    window.view.fitInView(rect.adjusted(-150, -150, 150, 150), Qt.AspectRatioMode.KeepAspectRatio)
    settle(app, window)
    shot(window, "corner")


def problems(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    from editor import edits

    window.open_path(MONACO)
    window.document.edit("Break a link", lambda t: edits.toggle_link(t, "1-020", "3-021"))
    window.document.edit("Drop a link", lambda t: edits.toggle_link(t, "2-040", "2-041"))
    settle(app, window)
    row = next(
        r
        for r in range(window.problems.rows())
        if window.problems.diagnostic_at(r).code == "LAP002"
    )
    window.problems.view.setCurrentIndex(window.problems.proxy.index(row, 0))
    window.go_to(window.problems.diagnostic_at(row))
    settle(app, window)
    shot(window, "problems")


def testdrive(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    window.open_path(MONACO)
    window.testdrive_dock.raise_()
    panel = window.testdrive_dock.widget()
    panel.bots.setText("strong")
    panel.cars.setValue(6)
    panel.races.setValue(20)
    panel.start()
    while panel.running():
        app.processEvents()
    panel.heat.setCurrentText("stops")
    settle(app, window)
    shot(window, "testdrive")
    panel.heat.setCurrentText("none")
    panel.race_number.setValue(3)
    panel.load_replay()
    panel.slider.setValue(min(12, panel.slider.maximum()))
    from editor.scene.style import Layer

    cars = QRectF()
    for item in window.scene.layer_items[Layer.CARS]:
        cars = cars.united(QRectF(item.scenePos(), item.scenePos()).adjusted(-1, -1, 1, 1))
    window.view.fitInView(cars.adjusted(-250, -250, 250, 250), Qt.AspectRatioMode.KeepAspectRatio)
    settle(app, window)
    shot(window, "replay")


def snapping(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    """The Space tool about to draw a space beside Loews, snapped to a corner, with the minimap
    showing where on the board the view is."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    window.open_path(MONACO)
    loews = next(c for c in window.document.track.corners if c.name == "Loews")
    rect = QRectF()
    for space_id in loews.spaces:
        rect = rect.united(window.scene.space_items[space_id].sceneBoundingRect())
    window.view.fitInView(rect.adjusted(-60, -60, 60, 60), Qt.AspectRatioMode.KeepAspectRatio)
    window.choose_tool("Space")
    window.problems_dock.raise_()
    space = window.scene.space_items[loews.spaces[0]].space
    corner = window.view.mapFromScene(QPointF(*space.polygon[0])) + QPoint(5, -4)
    viewport = window.view.viewport()
    move = QMouseEvent(
        QEvent.Type.MouseMove, QPointF(corner), QPointF(viewport.mapToGlobal(corner)),
        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, move)
    settle(app, window)
    shot(window, "snap")


WORKFLOWS: dict[str, Callable[[QApplication, object], None]] = {
    "monaco": opened,
    "lanes": lanes,
    "corner": corner,
    "problems": problems,
    "testdrive": testdrive,
    "snap": snapping,
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        for workflow in WORKFLOWS.values():
            window = fresh_window(app, Path(folder))
            workflow(app, window)
            window.unsaved_answer = "discard"
            window.close()


if __name__ == "__main__":
    main()

"""Starting the editor: ``python -m editor [TRACK]`` or the ``trackeditor`` command."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from trackformat.process import one_blas_thread


def _no_display() -> bool:
    """On Linux without X11 or Wayland, Qt would abort with a message about plugins; say what is
    really missing instead (an explicit QT_QPA_PLATFORM, such as offscreen, is respected)."""
    return (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("QT_QPA_PLATFORM")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="trackeditor", description="Formula D track editor")
    parser.add_argument("track", nargs="?", type=Path, help="track file to open")
    args = parser.parse_args(argv)
    one_blas_thread()  # before numpy's first import, for the editor and the processes it starts
    if _no_display():
        print(
            "trackeditor: no display to open a window on (DISPLAY is not set). Run it on a "
            "desktop, or on a virtual screen: xvfb-run make run",
            file=sys.stderr,
        )
        return 2

    from editor.mainwindow import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Formula D track editor")
    app.setOrganizationName("formula-d-trackkit")
    window = MainWindow()
    if args.track is not None:
        window.open_path(args.track)
    window.show()
    return int(app.exec())

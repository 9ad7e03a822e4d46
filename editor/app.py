"""Starting the editor: ``python -m editor [TRACK]`` or the ``trackeditor`` command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="trackeditor", description="Formula D track editor")
    parser.add_argument("track", nargs="?", type=Path, help="track file to open")
    args = parser.parse_args(argv)

    from editor.mainwindow import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Formula D track editor")
    app.setOrganizationName("formula-d-trackkit")
    window = MainWindow()
    if args.track is not None:
        window.open_path(args.track)
    window.show()
    return int(app.exec())

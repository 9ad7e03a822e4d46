"""The Formula D track editor (PySide6): lay out, check and test-drive a track over a board scan."""

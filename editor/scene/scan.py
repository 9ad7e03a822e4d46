"""The board picture as a scene item: read from its file, drawn through its placement."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImageReader, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem

from trackformat.model import Placement

QImageReader.setAllocationLimit(1024)  # MB: boards up to about 12,000 px a side


def scan_transform(placement: Placement | None) -> QTransform:
    """A placement as Qt's transform of the picture item (Qt's matrix is the transpose)."""
    if placement is None:
        return QTransform()
    (a, b, c), (d, e, f) = placement.matrix
    return QTransform(a, d, b, e, c, f)


def read_scan(path: Path, placement: Placement | None, opacity: float) -> QGraphicsPixmapItem | str:
    """The picture item for the board picture at ``path``, or why it cannot be shown."""
    if not path.is_file():
        return f"board picture not found: {path}"
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)
    image = reader.read()
    if image.isNull():
        return f"board picture cannot be read: {path} ({reader.errorString()})"
    item = QGraphicsPixmapItem(QPixmap.fromImage(image))
    item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
    item.setOpacity(opacity)
    item.setTransform(scan_transform(placement))
    return item


def pixmap_size(item: QGraphicsPixmapItem) -> tuple[int, int]:
    """The size of the picture an item shows, in the picture's own pixels."""
    size = item.pixmap().size()
    return (size.width(), size.height())

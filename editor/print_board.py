"""File > Print board...: the track printed at table scale to a PDF, with a preview of the pages.

A designer's circuit is meant to be raced on a table, and a print tiled over home-printer
pages is only useful if the designer knows, before printing, how many sheets it takes and how
big the board comes out. So the dialog shows the board small with the pages over it, named as
the PDF names them ("B3": second row, third column), and the count and printed size, updated as
the paper, the size of a space or the picture change. It plans nothing itself: the tiling, the
names and the summary are :mod:`trackformat.interop.render_pdf`'s, and *Save PDF...* writes
through :func:`~trackformat.interop.render_pdf.print_to_file`, the command line's own code, so
the preview and the file (and ``trackformat render -o board.pdf``) cannot disagree.

The track printed is the one in the editor, unsaved edits included. The PDF is written whole or
not at all, and a print that fails is said in a message; the track is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL.ImageQt import ImageQt
from PySide6.QtCore import QRectF, QSettings, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from trackformat.cli.paths import same_file
from trackformat.interop.render import board_picture_path, open_board_picture, placed_picture
from trackformat.interop.render_pdf import (
    MAX_PAGES,
    PAPER_CHOICES,
    SPACE_MM,
    Tiling,
    board_size_mm,
    plan_tiles,
    print_summary,
    print_to_file,
    tile_outlines,
)
from trackformat.interop.scene import Fill, Scene, Stroke, build_scene
from trackformat.model import Track

PDF_FILTER = "PDF files (*.pdf)"
PAGE_COLOUR = QColor(20, 70, 230)
"""The page rectangles' colour in the preview: a blue that no part of the board art uses."""
PREVIEW_PIXELS = 1200
"""Widest the board picture is drawn in the preview (it is shown small)."""
SETTINGS = ("print/paper", "print/space_mm", "print/with_picture")
"""Where the last choices are remembered: the next print starts from them."""


def _colour(rgb: tuple[int, int, int]) -> QColor:
    return QColor(*rgb)


class TilingPreview(QGraphicsView):
    """The board drawn small (its art, in board pixels) with the print's pages over it."""

    def __init__(self, art: Scene, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(520, 360)
        self.art = art
        self.board = QRectF(0, 0, art.width, art.height)
        background = self.scene().addRect(self.board, QPen(Qt.PenStyle.NoPen),
                                          QBrush(_colour(art.background)))
        background.setZValue(-2)
        self.picture: QGraphicsItem | None = None
        self._draw_art(art)
        self.pages: list[QGraphicsRectItem] = []
        """The page rectangles shown, row by row."""
        self.labels: list[QGraphicsSimpleTextItem] = []
        """Their names, as the PDF prints them (none on a single page)."""

    def _draw_art(self, art: Scene) -> None:
        """The scene's shapes, one path per colour (a few items, not thousands); its text is
        left out, unreadable at this size."""
        fills: dict[tuple[int, int, int], QPainterPath] = {}
        lines: dict[tuple[tuple[int, int, int], float], QPainterPath] = {}
        for item in art.items:
            if not isinstance(item, Fill | Stroke) or not item.points:
                continue
            shape = QPainterPath()
            shape.moveTo(*item.points[0])
            for point in item.points[1:]:
                shape.lineTo(*point)
            if isinstance(item, Stroke):
                lines.setdefault((item.colour, item.width), QPainterPath()).addPath(shape)
                continue
            shape.closeSubpath()
            fills.setdefault(item.colour, QPainterPath()).addPath(shape)
            if item.outline is not None and item.width > 0:
                lines.setdefault((item.outline, item.width), QPainterPath()).addPath(shape)
        for colour, path in fills.items():
            self.scene().addPath(path, QPen(Qt.PenStyle.NoPen), QBrush(_colour(colour)))
        for (colour, width), path in lines.items():
            self.scene().addPath(path, QPen(_colour(colour), width), QBrush())

    def show_picture(self, pixmap: QPixmap | None, shrink: float) -> None:
        """The board picture under the art (drawn ``shrink`` times the board's size), or none."""
        if self.picture is not None:
            self.scene().removeItem(self.picture)
            self.picture = None
        if pixmap is not None:
            self.picture = self.scene().addPixmap(pixmap)
            self.picture.setScale(1 / shrink)
            self.picture.setZValue(-1)

    def show_tiling(self, tiling: Tiling | None, board_mm: tuple[float, float],
                    px_per_mm: float) -> None:
        """The pages of ``tiling`` over the board (none when the print is refused)."""
        for label in self.labels:  # a name goes with the white tab it is written on
            self.scene().removeItem(label.parentItem())
        for page in self.pages:
            self.scene().removeItem(page)
        self.pages, self.labels = [], []
        if tiling is None:
            return
        single = tiling.rows * tiling.columns == 1
        pen = QPen(PAGE_COLOUR, 2)
        pen.setCosmetic(True)  # two screen pixels whatever the zoom
        for name, (x, y, w, h) in tile_outlines(tiling, board_mm):
            rect = QRectF(x * px_per_mm, y * px_per_mm, w * px_per_mm, h * px_per_mm)
            page = self.scene().addRect(rect, pen, QBrush(QColor(20, 70, 230, 28)))
            page.setZValue(10)
            self.pages.append(page)
            if not single:
                self.labels.append(self._label(name, rect))

    def _label(self, name: str, rect: QRectF) -> QGraphicsSimpleTextItem:
        """A page's name on a white tab at its top left, the same size at any zoom."""
        text = QGraphicsSimpleTextItem(name)
        font = text.font()
        font.setBold(True)
        text.setFont(font)
        text.setBrush(QBrush(PAGE_COLOUR))
        tab = QGraphicsRectItem(text.boundingRect().adjusted(-2, -1, 2, 1))
        tab.setBrush(QBrush(QColor(255, 255, 255)))
        tab.setPen(QPen(Qt.PenStyle.NoPen))
        tab.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        tab.setPos(rect.topLeft())
        tab.setZValue(11)
        text.setParentItem(tab)
        text.setPos(0, 0)
        self.scene().addItem(tab)
        return text

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        self.fit()

    def fit(self) -> None:
        margin = max(self.board.width(), self.board.height()) * 0.02
        self.fitInView(self.board.adjusted(-margin, -margin, margin, margin),
                       Qt.AspectRatioMode.KeepAspectRatio)


class PrintBoardDialog(QDialog):
    """The paper, the size of a space and the picture; the preview; *Save PDF...*."""

    def __init__(self, track: Track, track_path: Path | None, settings: QSettings,
                 proposed: str, parent: QWidget | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        """``track_path`` is the track's file (None before it is saved), which its board
        picture's name is relative to; ``proposed`` is the file name the save dialog offers;
        ``say`` puts a line in the window's status bar."""
        super().__init__(parent)
        self.setWindowTitle("Print board")
        self.track, self.settings, self.proposed = track, settings, proposed
        # Unsaved, the picture is named by its full path: any folder resolves it.
        self.track_path = track_path or Path.cwd() / "untitled.json"
        self.say = say or (lambda _text: None)
        self.art = build_scene(track)
        self._picture: QPixmap | None = None
        self._picture_notes: list[str] = []
        self.message: QMessageBox | None = None
        """The last failure's message box (shown until the designer closes it)."""

        self.paper = QComboBox()
        self.paper.addItems(list(PAPER_CHOICES))
        self.paper.setToolTip("A4, A3 or letter: the board tiled over sheets to glue together; "
                              "poster: one page of the board's own size, for a print shop")
        self.space_mm = QDoubleSpinBox()
        self.space_mm.setRange(1.0, 200.0)
        self.space_mm.setDecimals(2)
        self.space_mm.setSingleStep(0.5)
        self.space_mm.setSuffix(" mm")
        self.space_mm.setToolTip(f"The printed size of a space; {SPACE_MM:.2f} mm, the published "
                                 "boards', prints Monaco 100 cm wide, as the real board")
        self.with_picture = QCheckBox("Print the board picture underneath")
        self.with_picture.setEnabled(bool(track.board.image))
        self._restore()
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.preview = TilingPreview(self.art, self)

        self.save_button = QPushButton("Save PDF...")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.save_button.clicked.connect(lambda _checked=False: self.save_pdf())
        form = QFormLayout()
        form.addRow("Paper", self.paper)
        form.addRow("Size of a space", self.space_mm)
        form.addRow("", self.with_picture)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self.paper.currentTextChanged.connect(self._changed)
        self.space_mm.valueChanged.connect(self._changed)
        self.with_picture.toggled.connect(self._changed)
        self._changed()

    def _restore(self) -> None:
        """The choices of the last print (the published boards' space and A4 the first time)."""
        paper = str(self.settings.value(SETTINGS[0], "A4"))
        self.paper.setCurrentText(paper if paper in PAPER_CHOICES else "A4")
        try:
            space = float(str(self.settings.value(SETTINGS[1], SPACE_MM)))
        except ValueError:
            space = SPACE_MM
        self.space_mm.setValue(space if 1.0 <= space <= 200.0 else SPACE_MM)
        picture = str(self.settings.value(SETTINGS[2], "false")).lower() == "true"
        self.with_picture.setChecked(picture and self.with_picture.isEnabled())

    def board_mm(self) -> tuple[float, float]:
        """The board's printed size at the chosen size of a space."""
        return board_size_mm(self.art, self.space_mm.value())

    def tiling(self) -> Tiling:
        return plan_tiles(self.board_mm(), self.paper.currentText())

    def _changed(self) -> None:
        """Bring the preview, the summary and the remembered choices up to the settings."""
        paper, space = self.paper.currentText(), self.space_mm.value()
        for key, value in zip(SETTINGS, (paper, space, self.with_picture.isChecked()),
                              strict=True):
            self.settings.setValue(key, value)
        board, tiling = self.board_mm(), self.tiling()
        refused = tiling.pages > MAX_PAGES
        self.preview.show_tiling(None if refused else tiling, board, self.art.unit / space)
        self.save_button.setEnabled(not refused)
        if refused:
            self.summary.setText(
                f"{board[0] / 10:.0f} x {board[1] / 10:.0f} cm would take {tiling.pages} pages "
                f"of {paper}, more than {MAX_PAGES}: choose a smaller space")
        else:
            tiles = (f": {tiling.rows} rows of {tiling.columns} pages, and the assembly map "
                     "first" if tiling.rows * tiling.columns > 1 else "")
            self.summary.setText(print_summary(board, tiling, paper) + tiles)
        self._show_picture()

    def _show_picture(self) -> None:
        """The board picture in the preview when it is to be printed, read once, and a note
        when it cannot be (the print then goes without it, as the command line's does)."""
        wanted = self.with_picture.isChecked()
        if wanted and self._picture is None and not self._picture_notes:
            self._picture, self._picture_notes = self._read_picture()
        self.preview.show_picture(self._picture if wanted else None, self._shrink())
        self.note.setText("\n".join(self._picture_notes) if wanted else "")

    def _shrink(self) -> float:
        return min(1.0, PREVIEW_PIXELS / max(self.art.width, self.art.height))

    def _read_picture(self) -> tuple[QPixmap | None, list[str]]:
        notes: list[str] = []
        path = board_picture_path(self.track, self.track_path, Path(self.proposed), notes)
        opened = open_board_picture(path, notes) if path is not None else None
        if opened is None:
            return None, notes or [f"the board picture {self.track.board.image} is not found: "
                                   "the board prints without it"]
        shrink = self._shrink()
        size = (max(1, round(self.art.width * shrink)), max(1, round(self.art.height * shrink)))
        placed = placed_picture(opened, size, shrink, self.track.board.placement,
                                self.art.background)
        return QPixmap.fromImage(ImageQt(placed)), notes

    # Saving ----------------------------------------------------------------------------------

    def save_pdf(self, out: Path | None = None) -> bool:
        """Ask where (unless ``out`` is given) and print the track there as the settings say."""
        if out is None:
            name, _ = QFileDialog.getSaveFileName(self, "Save the board as a PDF",
                                                  self.proposed, PDF_FILTER)
            if not name:
                return False
            out = Path(name)
        if out.suffix.lower() != ".pdf":
            out = out.with_name(out.name + ".pdf")
        for what, path in (("the track's own file", self.track_path),
                           ("the board picture", self._picture_file())):
            if path is not None and same_file(out, path):
                self._fail(f"{out} is {what}: choose another name for the PDF. Nothing was "
                           "written.")
                return False
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            printed = print_to_file(self.track, out, track_path=self.track_path,
                                    paper=self.paper.currentText(),
                                    space_mm=self.space_mm.value(),
                                    with_picture=self.with_picture.isChecked())
        except (OSError, ValueError, MemoryError) as err:
            why = getattr(err, "strerror", None) or str(err) or type(err).__name__
            self._fail(f"{out}: cannot print: {why}. Nothing was written; your track is "
                       "unchanged.")
            return False
        finally:
            QGuiApplication.restoreOverrideCursor()
        self.proposed = str(out)
        done = f"Wrote {out.name}: {printed.summary}"
        self.note.setText("\n".join([done, *printed.notes]))
        self.say(done)
        return True

    def _picture_file(self) -> Path | None:
        return board_picture_path(self.track, self.track_path, Path(), [])

    def _fail(self, text: str) -> None:
        """Say why nothing was printed, in a message the designer closes, and in the status
        bar."""
        self.say(text)
        self.note.setText(text)
        box = QMessageBox(QMessageBox.Icon.Warning, "Cannot print the board", text,
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message = box
        box.open()


def print_board(parent: QWidget, track: Track, track_path: Path | None, settings: QSettings,
                proposed: str, say: Callable[[str], None]) -> PrintBoardDialog:
    """Open the print dialog over ``parent`` for ``track`` as it is now (see the module's
    docstring); it stays open for more prints until closed."""
    dialog = PrintBoardDialog(track, track_path, settings, proposed, parent, say)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.resize(760, 620)
    dialog.show()
    return dialog

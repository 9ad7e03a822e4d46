"""The inspector: the fields of the selection, editable; with several selected, one edit sets all.

With nothing selected it shows the track's own fields (name, designer, laps, notes). A field whose
value differs across the selection shows as "mixed" until the user sets it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from editor import edits, layout
from editor.document import TrackDocument
from editor.scene.labels import spaces_by_lane
from trackformat.analysis import measure_corner
from trackformat.graph import build_graphs
from trackformat.model import Corner, SpaceKind, Track

MIXED = "mixed"


def common(values: Sequence[Any]) -> Any:
    """The value all items share, or :data:`MIXED`."""
    first = values[0]
    return first if all(v == first for v in values[1:]) else MIXED


class Inspector(QWidget):
    def __init__(self, document: TrackDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.form = QFormLayout(self)
        self.fields: dict[str, QWidget] = {}
        self._loading = False
        self._applying = False
        document.selectionChanged.connect(lambda _ids: self.refresh())
        document.trackChanged.connect(self._track_changed)
        self.refresh()

    def _track_changed(self, _old: Track, _new: Track) -> None:
        if not self._applying:
            self.refresh()

    def _when_loaded(self, action: Callable[[], None]) -> None:
        """Run a field's edit unless the form itself is filling the field in."""
        if not self._loading:
            action()

    def _edit(
        self,
        text: str,
        change: Callable[[Track], Track],
        fields: Sequence[str],
        ids: Sequence[str] = (),
    ) -> None:
        """One edit from a field; repeated changes of one field merge into one undo step, and
        the form is not rebuilt under the user's cursor."""
        self._applying = True
        try:
            self.document.edit(
                text, change, merge_key=f"inspect:{','.join(fields)}:{','.join(ids)}"
            )
        finally:
            self._applying = False

    def refresh(self) -> None:
        self._loading = True
        try:
            while self.form.rowCount():
                self.form.removeRow(0)
            self.fields = {}
            track = self.document.track
            selection = self.document.selection
            spaces = [s for s in track.spaces if s.id in selection]
            corners = [c for c in track.corners if c.id in selection]
            if corners and not spaces:
                self._corner_fields(track, corners)
            elif spaces:
                self._space_fields(track, [s.id for s in spaces])
            else:
                self._track_fields(track)
        finally:
            self._loading = False

    # Rows ------------------------------------------------------------------------------------

    def _title(self, text: str) -> None:
        self.form.addRow(QLabel(f"<b>{text}</b>"))

    def _text(self, key: str, label: str, value: Any, apply: Callable[[str], None]) -> None:
        editor = QLineEdit(self)
        if value == MIXED:
            editor.setPlaceholderText(MIXED)
        else:
            editor.setText(str(value))
        editor.editingFinished.connect(lambda: self._when_loaded(lambda: apply(editor.text())))
        self.form.addRow(label, editor)
        self.fields[key] = editor

    def _int(
        self,
        key: str,
        label: str,
        value: Any,
        low: int,
        high: int,
        apply: Callable[[int | None], None],
        none_text: str | None = None,
    ) -> None:
        """A number field; below ``low`` it reads ``none_text`` (no value), "mixed", or the
        value itself when it lies outside ``low`` to ``high`` (a traced draft's unread stops, a
        file edited by hand): shown as the nearest allowed number, typing that number would
        change nothing, and the wrong value would stay."""
        editor = QSpinBox(self)
        wrong = value not in (MIXED, None) and not low <= int(value) <= high
        unset = value in (MIXED, None) or wrong
        floor = low - 1 if (none_text is not None or unset) else low
        editor.setRange(floor, high)
        if floor < low:
            if wrong:
                editor.setSpecialValueText(f"{value} (set {low} to {high})")
            else:
                editor.setSpecialValueText(MIXED if value == MIXED else str(none_text))
        editor.setValue(floor if unset else int(value))

        def changed(number: int) -> None:
            if self._loading:
                return
            if number >= low:
                apply(number)
            elif none_text is not None:
                apply(None)

        editor.valueChanged.connect(changed)
        self.form.addRow(label, editor)
        self.fields[key] = editor

    def _choice(
        self, key: str, label: str, value: Any, options: Sequence[str], apply: Callable[[str], None]
    ) -> None:
        editor = QComboBox(self)
        if value == MIXED:
            editor.addItem(MIXED)
        editor.addItems(list(options))
        editor.setCurrentText(str(value))

        def chosen(text: str) -> None:
            if text != MIXED:
                self._when_loaded(lambda: apply(text))

        editor.currentTextChanged.connect(chosen)
        self.form.addRow(label, editor)
        self.fields[key] = editor

    # Kinds of selection ----------------------------------------------------------------------

    def _track_fields(self, track: Track) -> None:
        self._title("Track")
        meta = track.metadata

        def set_meta(**fields: Any) -> None:
            self._edit(
                "Edit track details",
                lambda t: t.model_copy(
                    update={
                        "metadata": t.metadata.model_validate({**t.metadata.model_dump(), **fields})
                    }
                ),
                sorted(fields),
            )

        self._text("name", "Name", meta.name, lambda v: set_meta(name=v))
        self._text("designer", "Designer", meta.designer, lambda v: set_meta(designer=v))
        self._int("laps", "Laps", meta.laps, 1, 20, lambda v: set_meta(laps=v))
        self._text("notes", "Notes", meta.notes, lambda v: set_meta(notes=v))
        self.form.addRow("Spaces", QLabel(str(len(track.spaces))))

    def _space_fields(self, track: Track, ids: list[str]) -> None:
        chosen = [s for s in track.spaces if s.id in set(ids)]
        self._title(f"{len(chosen)} space{'s' if len(chosen) > 1 else ''}")
        if len(chosen) == 1:
            self.form.addRow("Id", QLabel(chosen[0].id))

        def update(**fields: Any) -> None:
            self._edit(
                f"Edit {len(ids)} space(s)",
                lambda t: edits.update_spaces(t, ids, **fields),
                sorted(fields),
                ids,
            )

        self._choice(
            "kind",
            "Kind",
            common([s.kind.value for s in chosen]),
            [k.value for k in SpaceKind],
            lambda v: update(kind=v),
        )
        lanes = ["(none)"] + [lane.id for lane in track.lanes]
        self._choice(
            "lane",
            "Lane",
            common([s.lane or "(none)" for s in chosen]),
            lanes,
            lambda v: update(lane=None if v == "(none)" else v),
        )
        heading = common([round(s.heading, 1) for s in chosen])
        editor = QDoubleSpinBox(self)
        editor.setRange(-361.0, 360.0)
        editor.setDecimals(1)
        if heading == MIXED:
            editor.setSpecialValueText(MIXED)
            editor.setValue(editor.minimum())
        else:
            editor.setValue(float(heading))

        def heading_set() -> None:
            if editor.value() >= -360:  # below is the "mixed" placeholder
                self._when_loaded(lambda: update(heading=editor.value()))

        editor.editingFinished.connect(heading_set)
        self.form.addRow("Heading", editor)
        self.fields["heading"] = editor
        if len(chosen) == 1:
            self._corner_of_space(track, chosen[0].id)
            self._place_to_stop(track, chosen[0].id, chosen[0].kind)

    def _corner_of_space(self, track: Track, space_id: str) -> None:
        """For a space inside a corner, a button that selects the corner: one more way to reach
        a corner whose limits are hard to hit on the board."""
        corner = next((c for c in track.corners if space_id in c.spaces), None)
        if corner is None:
            return
        button = QPushButton(f"Select {corner.name or corner.id}", self)
        button.setToolTip(
            "Select the corner this space is in (on the board: double-click inside its limits, "
            "or click its label)"
        )
        # After the click is handled: the new selection rebuilds the form, this button with it.
        button.clicked.connect(
            lambda _on=False: QTimer.singleShot(
                0, self, lambda: self.document.set_selection({corner.id})
            )
        )
        self.form.addRow("Corner", button)
        self.fields["corner"] = button

    def _place_to_stop(self, track: Track, space_id: str, kind: SpaceKind) -> None:
        """A box or garage check box for a pit-lane space, a box, or a space of a box's or pit's
        kind: the same as the Pit lane tool's B key, for those who pick spaces here."""
        pit = track.pit_lane
        if pit is None or not pit.spaces:
            return
        in_lane = space_id in pit.spaces
        if not (in_lane or space_id in pit.boxes or kind != SpaceKind.TRACK):
            return
        box = QCheckBox("a team stops here", self)
        box.setChecked(space_id in (pit.garages if in_lane else pit.boxes))
        box.setToolTip(
            "A garage in line in the pit lane (as GP Online draws it): cars stop there as at a box"
            if in_lane
            else "A team box beside the pit lane, where the team's cars stop"
        )
        change = layout.toggle_garage if in_lane else layout.toggle_box

        def edit() -> None:
            self.document.edit(
                "Garage" if in_lane else "Team box",
                lambda t: edits.without_new_copies(t, change(t, space_id)),
            )

        def toggled(_on: bool) -> None:
            # After the click is handled: the edit rebuilds the form, this box with it.
            self._when_loaded(lambda: QTimer.singleShot(0, self, edit))

        box.toggled.connect(toggled)
        self.form.addRow("Garage" if in_lane else "Team box", box)
        self.fields["place_to_stop"] = box

    def _corner_fields(self, track: Track, corners: list[Corner]) -> None:
        ids = [c.id for c in corners]
        self._title(f"{len(corners)} corner{'s' if len(corners) > 1 else ''}")

        def update(**fields: Any) -> None:
            self._edit(
                f"Edit {len(ids)} corner(s)",
                lambda t: edits.update_corners(t, ids, **fields),
                sorted(fields),
                ids,
            )

        if len(corners) == 1:
            self._text("name", "Name", corners[0].name, lambda v: update(name=v))
        self._int(
            "stops", "Stops", common([c.stops for c in corners]), 1, 3, lambda v: update(stops=v)
        )
        self._int(
            "printed_long",
            "Printed long",
            common([c.printed_long for c in corners]),
            0,
            999,
            lambda v: update(printed_long=v),
            none_text="not printed",
        )
        self._int(
            "printed_short",
            "Printed short",
            common([c.printed_short for c in corners]),
            0,
            999,
            lambda v: update(printed_short=v),
            none_text="not printed",
        )
        if len(corners) == 1:
            lanes = QLabel(spaces_by_lane(track, corners[0].spaces) or "none")
            self.form.addRow("Spaces", lanes)
            self.fields["spaces_by_lane"] = lanes
            measure = measure_corner(build_graphs(track), corners[0])
            computed = QLabel(f"long {measure.long or '-'}, short {measure.short or '-'}")
            self.form.addRow("Computed", computed)
            self.fields["computed"] = computed

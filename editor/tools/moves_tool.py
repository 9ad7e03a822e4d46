"""The Moves tool: the referee on the board.

Put a car on a space, choose its gear and roll (or every face of its die), put other cars in
its way, and the spaces where the rules let it end its move light up with what each costs. The
race engine answers (:mod:`editor.moves`); the tool only collects the user's choices and draws
the answer, and asks again after every edit of the track.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QWidget

from editor import moves
from editor.scene.reach import ReachOverlay
from editor.tools.base import Tool, ToolContext
from editor.tools.moves_options import MovesOptions
from trackformat.model import Track
from trackformat.rules import Ruleset, RulesetError, load_ruleset
from trackformat.sim import Board

MAX_OTHER_CARS = 9
"""The game's ten cars: the one that moves and nine in its way."""
GEAR_KEYS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(1, 7)}
ROLL_KEYS = {Qt.Key.Key_Up: 1, Qt.Key.Key_Plus: 1, Qt.Key.Key_Down: -1, Qt.Key.Key_Minus: -1}


class MovesTool(Tool):
    name = "Moves"
    shortcut = "R"
    hint = (
        "Click a space to put the car there; Shift-click or right-click a space to put another "
        "car there or take it off; keys 1-6 choose the gear, Up/Down the roll; Esc takes the "
        "cars off"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.car: str | None = None
        self.others: list[str] = []
        self.landings: dict[str, moves.Landing] = {}
        self.overlay = ReachOverlay(context.scene)
        self.active = False
        self._options: MovesOptions | None = None
        self._board: tuple[Track, Board] | None = None
        self._rules: dict[str, Ruleset] = {}
        context.document.trackChanged.connect(self._track_changed)

    # Options ---------------------------------------------------------------------------------

    def options(self) -> QWidget:
        if self._options is None:
            self._options = MovesOptions(self.document.track.metadata.laps)
            self._options.changed.connect(self.look)
            self._options.takeOthersOff.connect(self.take_others_off)
            self._refresh_choices()
        return self._options

    @property
    def panel(self) -> MovesOptions:
        options = self.options()
        assert isinstance(options, MovesOptions)
        return options

    def _refresh_choices(self) -> None:
        """Fit the choices to the track and rules as they are now: the die of the gear, the
        track's boxes and garages, and whether the car stands in a corner."""
        panel = self.panel
        rules = self._ruleset()
        if rules is not None:
            panel.set_faces(moves.die_faces(rules, panel.gear_box.value()))
        panel.set_places(moves.places_to_stop(self.document.track))
        panel.show_others(len(self.others))
        corner = None
        if self.car is not None:
            corner = next((c.name or c.id for c in self.document.track.corners
                           if self.car in c.spaces), None)
        panel.set_in_corner(corner)

    def _ruleset(self) -> Ruleset | None:
        name = self.panel.rules_name()
        if name not in self._rules:
            try:
                self._rules[name] = load_ruleset(name)
            except RulesetError as err:
                self.context.status(f"Moves: cannot read the rules {name}: {err}")
                return None
        return self._rules[name]

    # Activation ------------------------------------------------------------------------------

    def activate(self) -> None:
        self.active = True
        super().activate()
        self._drop_missing()
        self.look()

    def deactivate(self) -> None:
        """Take the overlay away; the cars are kept for the next time the tool is chosen."""
        self.active = False
        self.overlay.clear()
        self.scene.snapper.hide()

    def cancel(self) -> None:
        """Esc: take every car off the board."""
        self.car = None
        self.others = []
        self.look()
        self.context.status(self.hint)

    # Mouse and keys --------------------------------------------------------------------------

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        button = event.button()
        if button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return False
        space = self.scene.space_at(pos)
        if space is None:
            self.context.status("Click a space of the track to put the car there")
            return True
        other = button == Qt.MouseButton.RightButton or bool(
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        )
        if other:
            self.toggle_other(space)
        else:
            self.put_car(space)
        return True

    def key(self, event: QKeyEvent) -> bool:
        key = Qt.Key(event.key())
        if key in GEAR_KEYS:
            self.panel.gear_box.setValue(GEAR_KEYS[key])
            return True
        if key in ROLL_KEYS:
            self.panel.roll_box.stepBy(ROLL_KEYS[key])
            return True
        return False

    # What the user does ----------------------------------------------------------------------

    def put_car(self, space: str) -> None:
        """Stand the car on ``space`` (a car already there makes way)."""
        self.car = space
        if space in self.others:
            self.others.remove(space)
        self.look()

    def toggle_other(self, space: str) -> None:
        """Put another car on ``space``, or take the one there off."""
        if space == self.car:
            self.context.status(f"The car stands on {space}: Shift-click another space")
            return
        if space in self.others:
            self.others.remove(space)
        elif len(self.others) >= MAX_OTHER_CARS:
            self.context.status(f"Ten cars at most: take one off before placing {space}")
            return
        else:
            self.others.append(space)
        self.look()

    def take_others_off(self) -> None:
        self.others = []
        self.look()

    # Asking the engine -----------------------------------------------------------------------

    def look(self) -> None:
        """Ask the engine where the car may end its move and light those spaces."""
        if not self.active:
            return
        self._refresh_choices()
        self.overlay.clear()
        self.landings = {}
        if self.car is None:
            return
        track = self.document.track
        rules = self._ruleset()
        if rules is None:
            return
        setup = self.panel.setup(self.car, self.others)
        try:
            if self._board is None or self._board[0] is not track:
                self._board = (track, moves.board_of(track))
            self.landings = moves.landings(self._board[1], rules, setup)
        except moves.MovesError as err:
            self.overlay.show(self.scene.space_items, self.car, self.others, {})
            self.context.status(f"Moves: {err}")
            return
        self.overlay.show(self.scene.space_items, self.car, self.others, self.landings)
        faces = moves.die_faces(rules, setup.gear)
        self.context.status(moves.summary(setup, list(self.landings.values()), faces))

    def _track_changed(self, _old: Track, _new: Track) -> None:
        self._board = None
        if self.active:
            self._drop_missing()
            self.look()

    def _drop_missing(self) -> None:
        """Take off the cars whose spaces an edit removed."""
        spaces = {s.id for s in self.document.track.spaces}
        if self.car is not None and self.car not in spaces:
            self.context.status(f"The car's space {self.car} is gone: click a space")
            self.car = None
        self.others = [s for s in self.others if s in spaces]

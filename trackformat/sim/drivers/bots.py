"""Simple drivers: a random one to shake the engine, a cautious one to finish races; and
:data:`DRIVERS`, every bot by name (with the strong one of :mod:`trackformat.sim.drivers.strong`
and the par driver of :mod:`trackformat.par.driver`, made through :func:`par_driver`).

Both only use the public API a person's seat would use: the options they are given, plus
:func:`~trackformat.sim.move.gears.face_distribution` and
:func:`~trackformat.sim.move.legal.legal_moves` to look at every face of a die before choosing a
gear.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.core.state import CarState, RaceState, Wear
from trackformat.sim.drivers.strong import StrongDriver
from trackformat.sim.move.gears import GearOption, face_distribution, shift
from trackformat.sim.move.legal import Move, legal_moves, legal_moves_by_roll
from trackformat.sim.race.runner import Driver


class RandomDriver:
    """Chooses uniformly among its options, even the ones that eliminate it.

    Its own generator is reseeded from the race seed and the car, so a race stays replayable
    and the dice sequence of the race does not depend on how often it chooses.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Dice(seed)

    def start_race(self, seed: int, car: int) -> None:
        self.rng = Dice(f"random-driver:{self.seed}:{seed}:{car}")

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        return self.rng.choice(list(options))

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        return self.rng.choice(list(moves))

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        return self.rng.choice([None, *options])


class CautiousDriver:
    """Takes the highest gear in which every face of the die leaves a safe move.

    A move is safe when it neither eliminates nor spins the car, overshoots by at most
    ``overshoot_tyres`` tyres WP (none by default), leaves at least ``reserve_brakes`` brakes WP
    if it brakes, and leaves room to slow down: from where it ends, every face of the next gear
    down still fits before the end of the corner the car must stop in next (braking what the
    reserve allows). So the gear's whole roll range can be played without overshooting the next
    corner by more than the car can afford. Among its moves it takes the safe ones, then the
    cheapest in WP, then the one with the fewest cars around (contact rolls), then the longest.
    It stops at its box when its tyres are at half or less.
    """

    LOOKAHEAD = 80
    """Spaces looked ahead for the next corner; farther corners leave room enough."""

    def __init__(self, overshoot_tyres: int = 0, reserve_brakes: int = 1) -> None:
        self.overshoot_tyres = overshoot_tyres
        self.reserve_brakes = reserve_brakes
        self._rooms: dict[tuple[int, str, str | None], int | None] = {}

    def start_race(self, seed: int, car: int) -> None:
        """Nothing to reseed: the cautious driver has no randomness."""

    def safe(self, state: RaceState, car: int, move: Move) -> bool:
        """Whether ``move`` keeps the car in the race within its margins."""
        current = state.cars[car]
        if move.eliminated is not None or move.spin:
            return False
        if move.tyres > min(self.overshoot_tyres, current.wear.tyres - 1):
            return False
        if move.brakes and move.brakes > current.wear.brakes - self.reserve_brakes:
            return False
        return self._room_to_slow_down(state, current, move)

    def _room_to_slow_down(self, state: RaceState, car: CarState, move: Move) -> bool:
        board = state.board
        destination = move.destination
        if board.in_pit(destination):
            return True
        corner = board.corner_of.get(destination)
        if corner is None:
            stops = 0
        elif car.corner == corner and all(board.corner_of.get(s) == corner for s in move.route):
            stops = car.stops + 1
        else:
            stops = 0 if move.overshoots else 1
        done = corner is not None and stops >= board.corner_stops.get(corner, 0)
        room = self.room(board, destination, corner, done)
        if room is None:
            return True
        budget = max(0, car.wear.brakes - move.brakes - self.reserve_brakes)
        slower = max(1, car.gear - 1)
        return max(state.rules.faces(slower)) <= room + budget

    def room(self, board: Board, space: str, corner: str | None, done: bool) -> int | None:
        """Spaces from ``space`` (along its lane) to the end of the corner the car must stop in
        next: the current one (``corner``) if its stops are not all made (not ``done``), else
        the next one; None when no such corner is near."""
        key = (id(board), space, corner if not done else f"{corner}:done")
        if key in self._rooms:
            return self._rooms[key]
        target = corner if corner is not None and not done else None
        current = corner if done else None
        result: int | None = None
        here = space
        for steps in range(self.LOOKAHEAD):
            ahead = board.ahead.get(here)
            if ahead is None:
                result = steps
                break
            corner_ahead = board.corner_of.get(ahead)
            if target is None:
                if corner_ahead is not None and corner_ahead != current:
                    target = corner_ahead if board.corner_stops.get(corner_ahead, 0) else None
                if corner_ahead != current:
                    current = None
            if target is not None and corner_ahead != target:
                result = steps
                break
            here = ahead
        self._rooms[key] = result
        return result

    def _gear_is_safe(self, state: RaceState, car: int, gear: int) -> bool:
        # Face by face, highest first (the likeliest to be unsafe), stopping at the first
        # unsafe one: the first call walks the routes for the whole die, the others reuse the
        # walk, so the faces after an unsafe one are never priced.
        faces = [face for face, _chance in face_distribution(state.rules, gear)]
        return all(any(self.safe(state, car, m) for m in legal_moves(state, car, face))
                   for face in reversed(faces))

    def _safe_chance(self, state: RaceState, car: int, gear: int) -> float:
        outcomes = face_distribution(state.rules, gear)
        by_roll = legal_moves_by_roll(state, car, [face for face, _ in outcomes])
        return float(sum(
            chance for face, chance in outcomes
            if any(m.eliminated is None and not m.spin for m in by_roll[face])
        ))

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        shifted = {
            o: state.with_car(shift(state.cars[car], o)) for o in options if not o.eliminates
        }
        for option in sorted(shifted, key=lambda o: -o.gear):
            if self._gear_is_safe(shifted[option], car, option.gear):
                return option
        # No gear is safe on every face: the one most likely to survive, the slower on a tie.
        return max(
            shifted or options,
            key=lambda o: (self._safe_chance(shifted[o], car, o.gear) if o in shifted else 0.0,
                           -o.cost.total(), -o.gear),
        )

    def _score(self, state: RaceState, car: int, start_tyres: int, move: Move,
               taken: dict[str, int]) -> tuple[int, ...]:
        """How good ``move`` is, for ``max``; ``taken`` is where the other cars stand."""
        current = state.cars[car]
        wants_pit = move.box and current.wear.tyres * 2 <= start_tyres
        weight = 3 * move.tyres + 2 * move.brakes + len(move.debris)
        contacts = sum(1 for s in state.board.contacts.get(move.destination, ()) if s in taken)
        return (move.eliminated is None, not move.spin, self.safe(state, car, move), wants_pit,
                -weight, -contacts, move.distance)

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        start = state.starting_wear(car).tyres  # its own: a built car's may differ
        taken = state.occupied(except_car=car)
        return max(moves, key=lambda m: self._score(state, car, start, m, taken))

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        free = [m for m in options if self.safe(state, car, m) and m.cost == Wear()]
        return max(free, key=lambda m: m.distance) if free else None


def par_driver(seed: int) -> Driver:
    """The par driver (:mod:`trackformat.par.driver`): par's values of where each move leads.

    Imported when one is made, not when drivers are named: par solves in compiled code, and
    naming the bots (a command's help, a line-up checked) should not load it."""
    from trackformat.par.driver import ParDriver

    return ParDriver(seed)


COMPILED_DRIVERS = frozenset({"random", "cautious", "strong", "par"})
"""The bots the compiled kernel races as well as the readable engine (the kernel's
:data:`~trackformat.sim.kernel.race.KERNEL_DRIVERS`): every one; a line-up with a bot it did
not race would race on the readable engine. Named here, apart from the kernel, so that choosing
the engine does not load numba."""

DRIVERS: dict[str, Callable[[int], Driver]] = {
    "random": RandomDriver,
    "cautious": lambda seed: CautiousDriver(),
    "strong": StrongDriver,
    "par": par_driver,
}
"""The bots by name, each made from a seed (the cautious driver has no randomness and ignores
it), for test drives and benchmarks that pick drivers by name."""

"""A track still being laid: whether its circuit has closed into a lap yet, and where its lanes
start and stop. The reachability rules ask both, so that an unfinished track is told once that its
lap is not closed, instead of once per space that cannot yet be reached or left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from trackformat.analysis import strongly_connected
from trackformat.graph import TrackGraphs
from trackformat.lint.rules.references import in_file_order


def lap_open(graphs: TrackGraphs) -> bool:
    """Whether the circuit has no closed loop yet (a track being laid stretch by stretch): no
    track space can be driven round back to itself. REACH004 then says so once, and the rules
    whose findings would only repeat it in other words (unreachable spaces, no way to finish,
    no lap) stay silent until it is closed."""

    def compute() -> bool:
        if len(graphs.successors("circuit")) > 1 and strongly_connected(graphs, "circuit"):
            return False  # the sound track's case, told without building a networkx graph
        circuit = graphs.circuit
        if not circuit.number_of_nodes():
            return False
        return not any(
            len(part) > 1 or circuit.has_edge(next(iter(part)), next(iter(part)))
            for part in nx.strongly_connected_components(circuit)
        )

    return graphs.remember("lap_open", compute)


def open_ends(graphs: TrackGraphs) -> tuple[list[str], list[str]]:
    """The track spaces where the unfinished circuit's lanes start and stop, in file order.

    A lane stops where no track link leads on, and also where its last space's only moves are
    diagonals onto such a stop: on staggered lanes the side lanes' last spaces lead onto the
    middle lane's, which lies half a space ahead, yet those lanes end there too and the next
    stretch continues them. Starts likewise, with the links turned round.
    """
    ahead, behind = graphs.successors("circuit"), graphs.predecessors("circuit")

    def ends(onward: Mapping[str, Iterable[str]]) -> list[str]:
        last = {s for s in onward if not onward[s]}
        return [s for s in onward if s in last or (
            graphs.lane_of(s) is not None
            and all(graphs.lane_of(n) != graphs.lane_of(s) for n in onward[s])
            and set(onward[s]) <= last)]

    return in_file_order(graphs, ends(behind)), in_file_order(graphs, ends(ahead))

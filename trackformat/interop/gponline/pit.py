"""The pit lane of a GP Online file: its run of pit nodes in driving order, and boxes beside it."""

from __future__ import annotations

import networkx as nx

from trackformat.interop.gponline.dat import DatFile


def pit_lane_order(
    dat: DatFile, moves: nx.DiGraph, pit_nodes: set[int], warnings: list[str]
) -> tuple[list[int], list[int], list[int]]:
    """The pit lane's chain in driving order, the boxes beside it, and the garages in it.

    The chain is the shortest run of moves from the pit node entered from the track to the one
    that leads back. GP Online's garages (pit nodes with an attribute) stand in that run on real
    boards: they are where the teams stop, so they stay pit-lane spaces (the pit lane keeps its
    length) and are listed as the pit lane's garages, where the race engine stops cars as it
    does at boxes beside the lane, and from where an export writes them back. Pit nodes off the
    chain (a garage the chain passes by, as in files this toolkit exported) become boxes.
    """
    if not pit_nodes:
        return [], [], []
    sub = moves.subgraph(pit_nodes)
    if not nx.is_directed_acyclic_graph(sub):
        warnings.append(
            "the pit lane's moves loop back on themselves; pit nodes kept in file order"
        )
        return sorted(pit_nodes), [], []
    order = list(nx.topological_sort(sub))
    entered = [n for n in order if any(p not in pit_nodes for p in moves.predecessors(n))]
    left = [n for n in order if any(s not in pit_nodes for s in moves.successors(n))]
    try:
        chain: list[int] = nx.shortest_path(sub, entered[0], left[-1])
    except (IndexError, nx.NetworkXNoPath):
        warnings.append(
            "the pit lane's moves do not lead from its entry to its exit; pit nodes kept in the "
            "order of their moves"
        )
        chain = order
    on_chain = set(chain)
    place = {node: k for k, node in enumerate(chain)}
    boxes = sorted(
        pit_nodes - on_chain,
        key=lambda b: (min((place[p] for p in moves.predecessors(b) if p in place), default=0), b),
    )
    garages = [n for n in chain if n in dat.attributes]
    for box in boxes:
        if box not in dat.attributes:
            warnings.append(f"pit node {box} is off the pit lane's chain; it becomes a box")
    return chain, boxes, garages


"""The referee's answer in a player's words: the position in a short header, its notes, then
one line per legal move (slipstream options numbered under the move that allows them) or per
gear. It reads the JSON document of :func:`trackformat.cli.moves.moves_document`, so the text
and ``--json`` never say different things."""

from __future__ import annotations

from typing import Any

from trackformat.words import ordinal


def die_words(values: list[int]) -> str:
    """A die's results in words: ``21 to 30``; ``1 or 2``."""
    if len(values) > 2 and values[-1] - values[0] == len(values) - 1:
        return f"{values[0]} to {values[-1]}"
    *first, last = values
    return f"{', '.join(map(str, first))} or {last}" if first else str(last)


def _paid(cost: dict[str, int], nothing: str = "free") -> str:
    """A cost in WP, category by category (``brakes 2, tyres 1``); ``nothing`` when free."""
    return ", ".join(f"{name} {n}" for name, n in cost.items() if n) or nothing


def _move_line(move: dict[str, Any], corners: dict[str, str]) -> str:
    """One move in a player's words: where to, how far, what it costs, by which spaces."""
    said = [_paid({"brakes": move["brakes"], "tyres": move["tyres"]}, "")]
    if move["blocked"]:
        said.append(f"blocked {move['blocked']} space{'s' if move['blocked'] > 1 else ''}")
    for over in move["overshoots"]:
        missing = f", {over['missing']} stop{'s' if over['missing'] != 1 else ''} missing"
        said.append(f"overshoots {corners.get(over['corner'], over['corner'])} by "
                    f"{over['spaces']}{missing if over['missing'] else ''}")
    if move["debris"]:
        rolls = len(move["debris"])
        said.append(f"debris on {', '.join(move['debris'])} ({rolls} suspension "
                    f"roll{'s' if rolls > 1 else ''})")
    if move["pit_stop"]:
        said.append("pit stop")
    if move["spin"]:
        said.append("spins")
    if move["eliminated"]:
        said.append(f"eliminated: {move['eliminated'].replace('_', ' ')}")
    costs = "; ".join(part for part in said if part) or "free"
    spaces = move["spaces"]
    route = f"by {' '.join(move['route'])}" if spaces else "does not move"
    return f"{move['destination']} ({spaces} space{'s' if spaces != 1 else ''}): {costs}; {route}"


def _move_lines(moves: list[dict[str, Any]], corners: dict[str, str], prefix: str,
                indent: str) -> list[str]:
    lines = []
    for n, move in enumerate(moves, start=1):
        number = f"{prefix}{n}"
        mark = "slipstream to " if move["slipstream_extras"] else ""
        lines.append(f"{indent}{number}. {mark}{_move_line(move, corners)}")
        lines += _move_lines(move["slipstream"], corners, f"{number}.", indent + "   ")
    return lines


def moves_text(document: dict[str, Any], corners: dict[str, str]) -> str:
    """The position in a short header, the notes, then one line per move (or per gear);
    ``corners`` gives the corners' names by id."""
    where = document["position"]
    roll = f", roll {where['roll']}" if where["roll"] is not None else ""
    stops = ""
    if where["corner"]:
        made = f"{where['stops']} stop{'s' if where['stops'] != 1 else ''} made"
        stops = f" (in {corners.get(where['corner'], where['corner'])}, {made})"
    others = ", ".join(f"{o['space']} ({ordinal(o['gear'])})" for o in where["others"])
    lines = [
        f"{document['track']} ({document['file']}): car on {where['car']}{stops} in "
        f"{ordinal(where['gear'])} gear{roll}, lap {where['lap']} of {where['laps']}",
        f"  rules    {where['ruleset']}",
        f"  wear     {', '.join(f'{k} {v}' for k, v in where['wear'].items())}",
        f"  box      {where['box'] or 'none'}",
        f"  others   {others or 'none'}",
        f"  debris   {', '.join(where['debris']) or 'none'}",
        *(f"  note: {note}" for note in document["notes"]),
    ]
    if "gears" in document:
        lines.append("gears it may choose next turn, and what each shift costs:")
        for option in document["gears"]:
            out = "; eliminated: loses its last engine WP" if option["eliminates"] else ""
            lines.append(f"  {ordinal(option['gear'])}  (die {die_words(option['die'])}): "
                         f"{_paid(option['cost'])}{out}")
        return "\n".join(lines)
    moves = document["moves"]
    slips = sum(1 for m in moves if m["slipstream"])
    lines.append(f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}, in the engine's "
                 f"order" + (f" ({slips} with slipstream options below them)" if slips else "")
                 + ":")
    lines += _move_lines(moves, corners, "", "  ")
    return "\n".join(lines)

"""The check an export passes before anything is written: its text is read back.

An exported ``.dat`` must load in GP Online and import again here. Both are checked on the text
about to be written, not on the records it was made from: the text is read by the rules of the
game's own reading loop (:func:`game_problem`), then built by the rules of the game's track
builder (:mod:`gamecheck`: distances, lanes, the pit lane, the grid), then read as bytes and
imported by this toolkit's reader and importer, and last checked for the numbering the game's
race looks its nodes up by. A file that fails is never written; the export stops with what went
wrong and where.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from trackformat.interop.gponline.dat import DatError, decode_dat, parse_dat
from trackformat.interop.gponline.gamecheck import game_refusal, numbering_refusal
from trackformat.interop.gponline.gameload import load_game_track
from trackformat.interop.gponline.importer import GPOnlineImportError, import_dat

_JAVA_INT = re.compile(r"[+-]?[0-9]{1,10}")
_JAVA_DOUBLE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _java_int(text: str) -> bool:
    """Whether Java's ``Integer.parseInt`` reads ``text``."""
    return _JAVA_INT.fullmatch(text) is not None and -(2**31) <= int(text) < 2**31


def game_problem(text: str) -> str | None:
    """What GP Online's reading loop would trip over in ``text``, or None.

    The game reads lines as a Java ``BufferedReader`` gives them: the header line, then node
    lines ``id x y type [F]`` (fields split at single spaces) up to an empty line, then edges,
    attributes and grid slots, each section up to an empty line. Numbers are parsed with
    ``Integer.parseInt`` and ``Double.parseDouble``; nodes are kept in a map by id, so a node
    listed twice silently replaces the first, which is counted as a failure here.
    """
    lines = iter(re.split(r"\r\n|\r|\n", text))
    header = next(lines, "")
    if not header:
        return "line 1: the header line is empty"
    number = 1
    nodes: set[int] = set()
    sections = [("node", {4, 5}), ("edge", {2}), ("attribute", {2}), ("grid slot", {2})]
    named: list[tuple[int, int]] = []
    for what, sizes in sections:
        for line in lines:
            number += 1
            if line == "":
                break
            fields = line.split(" ")
            if len(fields) not in sizes:
                return f"line {number}: a {what} line of {len(fields)} fields"
            if what == "node":
                if len(fields) == 5 and fields[4] != "F":
                    return f"line {number}: a node's fifth field must be F"
                if not all(_java_int(f) for f in fields[:4]):
                    return f"line {number}: a node's fields must be integers"
                if int(fields[0]) in nodes:
                    return f"line {number}: node {fields[0]} is listed twice"
                nodes.add(int(fields[0]))
                continue
            second_ok = _java_int(fields[1]) if what == "edge" else (
                _JAVA_DOUBLE.fullmatch(fields[1]) is not None
            )
            if not _java_int(fields[0]) or not second_ok:
                article = "an" if what[0] in "ae" else "a"
                return f"line {number}: {article} {what} line the game cannot parse"
            named.append((number, int(fields[0])))
            if what == "edge":
                named.append((number, int(fields[1])))
    for line_number, node in named:
        if node not in nodes:
            return f"line {line_number}: names node {node}, which is not listed"
    return None


def read_back(text: str, space_of: Mapping[int, str] | None = None) -> str | None:
    """Why the ``.dat`` text ``text`` would not load in GP Online or import here, or None;
    ``space_of`` names the space each node was made from, for the message."""
    problem = game_problem(text)
    if problem is not None:
        return f"GP Online could not read it: {problem}"
    refusal = game_refusal(text)
    if refusal is None:
        try:
            # As the file's bytes, the way import reads them: a NUL in the header is refused.
            import_dat(parse_dat(decode_dat(text.encode("utf-8"), "the file"), "the file"),
                       "the file")
        except (DatError, GPOnlineImportError) as err:
            return f"it would not import again: {err}"
        refusal = numbering_refusal(load_game_track(text))
    if refusal is None:
        return None
    named = [f"node {node} is space {space_of[node]}" for node in refusal.nodes
             if space_of and node in space_of]
    where = f" ({', '.join(named)})" if named else ""
    verb = "race it wrongly" if refusal.rule == "numbering" else "refuse it"
    return f"GP Online would {verb}: {refusal}{where}"

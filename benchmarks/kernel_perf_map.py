"""Races on the compiled kernel with its functions named for ``perf``, to see where a race's time
goes inside compiled code.

``perf`` names the machine code of a JIT compiler from a map file, ``/tmp/perf-<pid>.map``, that
the process writes; numba writes none for the code it loads from its cache. This script reads
the function symbols of every compiled library numba loads (the ELF object code its cache
keeps), asks the engine where each one was loaded, writes the map, then races. Prints the
races per second and the map's path; no assertions.

    perf record -F 2000 -o /tmp/kernel.perf python benchmarks/kernel_perf_map.py --bot cautious
    perf report -i /tmp/kernel.perf --no-children --sort symbol

The kernel must be compiled already (run any test drive once): the first race here loads it.
The map leaves out what numba compiled in this process. It reads numba's internals, so a newer
numba may need it changed; races themselves do not depend on it.
"""

from __future__ import annotations

import argparse
import gc
import os
import struct
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from numba.core import codegen  # noqa: E402

_LOADED: list[tuple[Any, bytes]] = []
"""Every library numba loaded from its cache, with its object code."""

_unserialize = codegen.CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]


def _keep_object_code(cls: Any, codegen_: Any, state: Any) -> Any:
    library = _unserialize(cls, codegen_, state)
    if state[1] == "object":
        _LOADED.append((library, state[2][0]))
    return library


codegen.CPUCodeLibrary._unserialize = classmethod(_keep_object_code)  # type: ignore[assignment]


def elf_functions(elf: bytes) -> list[tuple[str, int]]:
    """The defined function symbols of a 64-bit little-endian ELF object, with their sizes."""
    section_offset = struct.unpack_from("<Q", elf, 0x28)[0]
    entry_size, count = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, section_offset + n * entry_size)
                for n in range(count)]
    found = []
    for section in sections:
        if section[1] != 2:  # SHT_SYMTAB
            continue
        names = sections[section[6]][4]
        offset, size, symbol_size = section[4], section[5], section[9]
        for n in range(size // symbol_size):
            name, info, _, _, _, length = struct.unpack_from("<IBBHQQ", elf,
                                                             offset + n * symbol_size)
            if info & 0xF == 2 and length > 0:  # STT_FUNC, defined here
                end = elf.index(b"\0", names + name)
                found.append((elf[names + name:end].decode(), length))
    return found


def readable(symbol: str) -> str:
    """``trackformat.sim.kernel.walk.walk_routes`` for numba's mangled name of it (the parts of
    its nested name; the argument types, which numba mangles in, left out)."""
    start = symbol.find("_ZN")
    if start < 0:
        return symbol
    parts, at = [], start + 3
    while at < len(symbol) and symbol[at].isdigit():
        digits = at
        while symbol[at].isdigit():
            at += 1
        length = int(symbol[digits:at])
        parts.append(symbol[at:at + length])
        at += length
    return symbol[:start] + ".".join(parts) if parts else symbol


def write_map() -> Path:
    """Write ``/tmp/perf-<pid>.map`` for the compiled code loaded so far."""
    where: dict[int, tuple[int, str]] = {}
    for library, elf in _LOADED:
        engine = library._codegen._engine
        for name, length in elf_functions(elf):
            address = engine.get_function_address(name)
            if address:
                where[address] = (length, name)
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    path.write_text("".join(f"{a:x} {n:x} {readable(name)}\n"
                            for a, (n, name) in sorted(where.items())), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strong", choices=("random", "cautious", "strong"))
    parser.add_argument("--cars", type=int, default=10)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--races", type=int, default=200)
    args = parser.parse_args(argv)

    from trackformat.io import load_track
    from trackformat.rules import load_ruleset
    from trackformat.sim import Board
    from trackformat.sim.kernel.race import KernelRacer

    board = Board.of(load_track(ROOT / "tracks" / "monaco.json"))
    racer = KernelRacer(board, load_ruleset("formula-d"), [args.bot] * args.cars, args.laps)
    corners, spaces = racer.count_tables()
    racer.count(10_000, corners, spaces)  # loads the kernel
    path = write_map()
    gc.disable()  # as a test drive races a chunk
    started = time.process_time()
    for seed in range(args.races):
        racer.count(seed, corners, spaces)
    spent = time.process_time() - started
    print(f"{args.races} races of {args.cars} {args.bot} cars: {args.races / spent:.1f} races/s; "
          f"perf map {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How well the tracer traces the corpus's boards: the issue's figures, printed.

For each board of the corpus traced by hand (Monaco's scan against ``circuits.js``, the GP
Online pictures against their ``.dat`` nodes), trace the picture into a draft and print the
share of the printed spaces found (a traced centre within a quarter of a space of the printed
one, one to one), the false spaces, the lanes right, the board's moves present and absent in
the draft, the pit lane's spaces found, the grid's slots (and whether they were read from the
board's marks or laid by the usual rule as a guess), and the seconds taken. No assertions:
tests/trace/test_corpus_score.py holds the floor the figures must stay above.

    python benchmarks/trace_score.py --corpus DIR               # every board the corpus has
    python benchmarks/trace_score.py --corpus DIR monaco        # one board
    python benchmarks/trace_score.py --corpus DIR monaco --draw OUT  # also draw each draft

``--draw`` writes ``<board>-draft.png``: the draft drawn by the project's own render (never
the board picture), each space coloured by how unsure the tracer is of it (blue sure, red
weak), and ``<board>-draft.json`` beside it.

The corpus is the folder of real boards the tests use (``--corpus``, or ``TRACKKIT_CORPUS``);
it is not part of the project. Boards whose files are missing are skipped with a note.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from tests.trace.truth import BOARDS, board_truth, picture_path  # noqa: E402
from trackformat.interop.render import render_to_file  # noqa: E402
from trackformat.io import save_track  # noqa: E402
from trackformat.trace import TraceResult, trace_picture  # noqa: E402
from trackformat.trace.score import score_track  # noqa: E402

LANES = {"monaco": 3, "valencia": 3, "curitiba": 3}
"""Lanes of each board (the tracer is told, as a designer would tell it)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD",
                        help=f"boards to trace (default all: {', '.join(BOARDS)})")
    default = os.environ.get("TRACKKIT_CORPUS")
    parser.add_argument("--corpus", default=default, required=default is None,
                        help="the corpus folder (default: $TRACKKIT_CORPUS)")
    parser.add_argument("--draw", metavar="DIR", help="draw each draft to DIR (see above)")
    parser.add_argument("--threads", type=int, default=1,
                        help="OpenCV threads (default 1: the issue's figure is for one core)")
    args = parser.parse_args()
    unknown = [name for name in args.boards if name not in BOARDS]
    if unknown:
        parser.error(f"unknown boards {unknown}: choose from {', '.join(BOARDS)}")
    cv2.setNumThreads(args.threads)
    corpus = Path(args.corpus)
    for name in args.boards or list(BOARDS):
        picture = picture_path(corpus, name)
        if not picture.exists():
            print(f"{name}: skipped, {picture} is not there")
            continue
        truth = board_truth(corpus, name)
        start = time.perf_counter()
        result = trace_picture(picture, LANES[name])
        seconds = time.perf_counter() - start
        score = score_track(result.track, truth, result.guessed_links)
        print(f"{name} ({picture.name}, space {truth.space_length:.1f} px)")
        for line in score.lines():
            print(f"  {line}")
        how = ("yes, from the marks behind the line" if result.figures.get("grid_read")
               else "no: the usual grid, a guess")
        print(f"  {'grid read':<15}{how}")
        stages = ", ".join(f"{key.removeprefix('seconds_')} {value:.1f}"
                           for key, value in result.figures.items()
                           if key.startswith("seconds_") and key != "seconds_total")
        print(f"  time           {seconds:.1f} s ({stages})")
        if args.draw:
            draw(result, Path(args.draw), name)


def draw(result: TraceResult, folder: Path, name: str) -> None:
    """The draft drawn by the project's render, weak spaces red, with its track file."""
    folder.mkdir(parents=True, exist_ok=True)
    track = result.track.model_copy(update={"board": result.track.board.model_copy(
        update={"image": None})})
    save_track(track, folder / f"{name}-draft.json")
    doubt = {space_id: 1.0 - value for space_id, value in result.confidence.items()}
    render_to_file(track, folder / f"{name}-draft.png", heatmap=doubt)


if __name__ == "__main__":
    main()

"""``trackformat trace`` on the command line: a draft and its report, or exit 2 and why."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.trace.conftest import track_truth
from trackformat.cli import main
from trackformat.io import load_track
from trackformat.model.track import Track
from trackformat.trace.score import score_track


def test_a_rendered_board_traces_back_to_its_track(
        ring_picture: Path, ring_track: Track, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "drafts" / "ring.json"
    out.parent.mkdir()
    assert main(["trace", str(ring_picture), "--lanes", "3", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed
    draft = load_track(out)
    assert draft.board.image is not None and "\\" not in draft.board.image
    assert (out.parent / draft.board.image).resolve() == ring_picture.resolve()
    assert (draft.board.width, draft.board.height) == (1200, 1200)
    report = json.loads((tmp_path / "drafts" / "ring.trace.json").read_text(encoding="utf-8"))
    assert set(report["spaces"]) == {space.id for space in draft.spaces}
    score = score_track(draft, track_truth(ring_track))
    lane_spaces = sum(1 for space in ring_track.spaces if space.lane is not None)
    assert score.found >= 0.95 * lane_spaces, score.lines()
    assert score.lanes_share >= 0.9, score.lines()
    assert score.false <= 3, score.lines()
    # The drawn pit lane and grid are in the draft; the pit lane's spaces are all guesses.
    assert draft.pit_lane is not None and len(draft.grid) >= 8
    assert all(report["spaces"][p]["how"] == "guessed" for p in draft.pit_lane.spaces)
    assert {"TRACE006", "TRACE007"} <= {d["code"] for d in report["diagnostics"]}
    assert "TRACE008" not in {d["code"] for d in report["diagnostics"]}
    assert "TRACE007 a pit lane of" in printed


def test_a_wrong_count_of_lanes_is_said(ring_picture: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "d.json")
    assert main(["trace", str(ring_picture), "--lanes", "2", "-o", out]) == 0
    assert "the board may have 3 lanes" in capsys.readouterr().out
    # One too many leaves a lane with hardly anything in it (5 spaces against 40).
    assert main(["trace", str(ring_picture), "--lanes", "4", "-o", out]) == 0
    printed = capsys.readouterr().out
    assert "TRACE008 lane 4 has" in printed and "the board may have 3 lanes" in printed


def test_not_a_picture_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.png"
    notes.write_text("not a picture", encoding="utf-8")
    out = tmp_path / "draft.json"
    assert main(["trace", str(notes), "--lanes", "3", "-o", str(out)]) == 2
    assert "is not a picture" in capsys.readouterr().err
    assert not out.exists()


def test_a_picture_without_a_road_exits_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    noise = np.random.default_rng(7).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    picture = tmp_path / "noise.png"
    Image.fromarray(noise).save(picture)
    assert main(["trace", str(picture), "--lanes", "3", "-o", str(tmp_path / "d.json")]) == 2
    err = capsys.readouterr().err
    assert "noise.png" in err and "no road found" in err


def test_a_missing_picture_and_bad_options_exit_2(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "d.json")
    assert main(["trace", str(tmp_path / "nowhere.png"), "--lanes", "3", "-o", out]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["trace", "x.png", "--lanes", "0", "-o", out]) == 2
    assert main(["trace", "x.png", "--lanes", "3", "--space-length", "nan", "-o", out]) == 2


def test_the_draft_never_replaces_the_picture(ring_picture: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    before = ring_picture.read_bytes()
    assert main(["trace", str(ring_picture), "--lanes", "3", "-o", str(ring_picture)]) == 2
    assert ring_picture.read_bytes() == before
    assert "nothing was written" in capsys.readouterr().err

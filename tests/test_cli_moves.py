"""``trackformat moves``, the referee, as a player sees it: the moves and gears the engine allows
for a position typed on the command line, their costs in words and in JSON, and exit 2 with a
message naming the bad value for every position that cannot exist."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.factories import ring
from trackformat import cli
from trackformat.io import save_track

ROOT = Path(__file__).parent.parent
MONACO = str(ROOT / "tracks" / "monaco.json")
AUDIT = ("--car", "3-146", "--gear", "6", "--box", "box-1",
         "--other", "1-157", "--other", "2-155", "--other", "3-152")
"""The rules audit's position on Monaco: a car in sixth by the pit entry, three cars ahead."""
WALL = ("--other", "1-29", "--other", "2-29", "--other", "3-29")
"""A car in every lane right ahead of 2-28 on the ring."""


@pytest.fixture(scope="module")
def track(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The factory ring (corner North on 8-11 with 1 stop, South on 22-26 with 2, pit entry
    from 3-35, box-1 after pit-1, 2 laps) as a file."""
    path = tmp_path_factory.mktemp("moves") / "ring.json"
    save_track(ring(), path)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["moves", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def document(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == cli.EXIT_OK, err
    answer: dict[str, Any] = json.loads(out)
    return answer


def table(moves: list[dict[str, Any]]) -> set[tuple[str, int, int]]:
    return {(m["destination"], m["brakes"], m["tyres"]) for m in moves}


# -- moves ---------------------------------------------------------------------------------------


def test_a_free_straight_lists_every_lane_and_every_braking_option(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = document(capsys, track, "--car", "2-28", "--gear", "2", "--roll", "2")["moves"]
    assert table(moves) == {
        ("1-30", 0, 0), ("2-30", 0, 0), ("3-30", 0, 0),
        ("1-29", 1, 0), ("2-29", 1, 0), ("3-29", 1, 0),
        ("2-28", 2, 0),
    }
    code, out, err = run(capsys, track, "--car", "2-28", "--gear", "2", "--roll", "2")
    assert code == cli.EXIT_OK and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Test ring ({track}): car on 2-28 in 2nd gear, roll 2, lap 1 of 2"
    assert "7 legal moves, in the engine's order:" in lines
    assert "  1. 1-30 (2 spaces): free; by 2-29 1-30" in lines
    assert "  4. 1-29 (1 space): brakes 1; by 1-29" in lines
    assert "  7. 2-28 (0 spaces): brakes 2; does not move" in lines


def test_the_moves_come_in_the_engines_order(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = document(capsys, track, "--car", "2-28", "--gear", "3", "--roll", "5")["moves"]
    spaces = [m["spaces"] for m in moves]
    assert spaces == sorted(spaces, reverse=True), "furthest first, braking after"
    assert [m["destination"] for m in moves[:3]] == ["1-33", "2-33", "3-33"]


def test_a_wall_of_cars_blocks_the_car_and_says_how_many_spaces(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    [five] = document(capsys, track, "--car", "2-28", "--gear", "3", "--roll", "5",
                      *WALL)["moves"]
    assert (five["destination"], five["blocked"], five["brakes"], five["tyres"]) == (
        "2-28", 5, 3, 2)
    assert five["eliminated"] is None
    code, out, _ = run(capsys, track, "--car", "2-28", "--gear", "3", "--roll", "5", *WALL)
    assert code == cli.EXIT_OK
    assert "  1. 2-28 (0 spaces): brakes 3, tyres 2; blocked 5 spaces; does not move" in out
    assert "  others   1-29 (3rd), 2-29 (3rd), 3-29 (3rd)" in out, "others in the car's gear"
    _, out, _ = run(capsys, track, "--car", "2-28", "--gear", "4", "--roll", "7", *WALL)
    assert "blocked 7 spaces; eliminated: blocked; does not move" in out


def test_the_json_document_has_the_promised_shape(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = document(capsys, track, "--car", "2-28", "--gear", "2", "--roll", "2")
    assert "gears" not in answer
    assert answer["position"]["car"] == "2-28" and answer["position"]["roll"] == 2
    kinds = {"route": list, "destination": str, "brakes": int, "tyres": int, "blocked": int,
             "pit_stop": bool, "spin": bool, "debris": list, "overshoots": list,
             "slipstream": list}
    for move in answer["moves"]:
        for key, kind in kinds.items():
            assert isinstance(move[key], kind), (key, move)
        assert move["destination"] == (move["route"] or ["2-28"])[-1]
        assert move["spaces"] == len(move["route"])


def test_slipstream_options_are_listed_under_the_move_that_allows_them(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = document(capsys, track, "--car", "2-28", "--gear", "4", "--roll", "7",
                     "--other", "2-36")["moves"]
    behind = [m for m in moves if m["slipstream"]]
    assert [m["destination"] for m in behind] == ["2-35"], "only right behind the leader"
    extras = behind[0]["slipstream"]
    assert {m["destination"] for m in extras if m["spaces"] == 10} == {"1-38", "2-38", "3-38"}
    assert all(m["slipstream_extras"] == 1 for m in extras)
    _, out, _ = run(capsys, track, "--car", "2-28", "--gear", "4", "--roll", "7",
                    "--other", "2-36")
    assert "     2.1. slipstream to 1-38 (10 spaces): free; by " in out
    # A leader in third is too slow to pull anyone along.
    slow = document(capsys, track, "--car", "2-28", "--gear", "4", "--roll", "7",
                    "--other", "2-36:3")
    assert slow["position"]["others"] == [{"space": "2-36", "gear": 3}]
    assert not any(m["slipstream"] for m in slow["moves"])


def test_stops_made_in_the_corner_change_what_leaving_it_costs(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = (track, "--car", "2-24", "--gear", "2", "--roll", "4")
    none = document(capsys, *args)["moves"]
    assert {m["eliminated"] for m in none if m["spaces"] == 4} == {"missed_stops"}
    one = document(capsys, *args, "--stops", "1")["moves"]
    leaving = [m for m in one if m["spaces"] == 4]
    assert {(m["tyres"], m["eliminated"]) for m in leaving} == {(2, None)}
    assert leaving[0]["overshoots"] == [{"corner": "south", "spaces": 2, "missing": 1}]
    _, out, _ = run(capsys, *args, "--stops", "1")
    assert "car on 2-24 (in South, 1 stop made)" in out
    assert "  1. 1-28 (4 spaces): tyres 2; overshoots South by 2, 1 stop missing; by " in out


def test_wear_and_debris_reach_the_engine(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    low = document(capsys, track, "--car", "2-28", "--gear", "3", "--roll", "4",
                   "--wear", "brakes=1,tyres=2")
    assert low["position"]["wear"]["brakes"] == 1 and low["position"]["wear"]["tyres"] == 2
    assert {m["spaces"] for m in low["moves"]} == {4, 3}, "one brakes WP: one space of braking"
    args = (track, "--car", "2-28", "--gear", "2", "--roll", "3", "--debris", "2-30")
    to_lane_2 = [m for m in document(capsys, *args)["moves"] if m["destination"] == "2-31"]
    assert sorted(len(m["debris"]) for m in to_lane_2) == [0, 1]
    _, out, _ = run(capsys, *args)
    assert "debris on 2-30 (1 suspension roll)" in out


def test_a_pit_stop_needs_the_box_and_the_window(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = (track, "--car", "3-34", "--gear", "2", "--roll", "4")
    code, out, _ = run(capsys, *args)
    assert code == cli.EXIT_OK
    assert "  note: pit moves need --box (the car's box or garage)" in out
    assert "pit-0" not in out
    stops = [m for m in document(capsys, *args, "--box", "box-1")["moves"] if m["pit_stop"]]
    assert [m["destination"] for m in stops] == ["box-1"]
    _, out, _ = run(capsys, *args, "--box", "box-1")
    assert "box-1 (4 spaces): pit stop; by 3-35 pit-0 pit-1 box-1" in out
    code, out, _ = run(capsys, *args, "--box", "box-1", "--lap", "2")
    assert code == cli.EXIT_OK and "pit stop" not in out
    assert "note: no pit moves: the pit window is not open on lap 2 of a 2-lap race" in out


def test_a_roll_the_die_cannot_show_is_answered_with_a_note(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A super start moves a car in first 4 spaces: a real move no first-gear die shows."""
    code, out, _ = run(capsys, track, "--car", "2-28", "--gear", "1", "--roll", "4")
    assert code == cli.EXIT_OK
    assert "  note: the 1st-gear die shows 1 or 2, not 4: listed as a move of 4 spaces" in out
    assert "  1. 1-32 (4 spaces): free; by " in out
    code, out, _ = run(capsys, track, "--car", "2-28", "--gear", "1", "--roll", "2")
    assert "note: the 1st-gear die" not in out


def test_the_rules_audit_position_on_monaco(capsys: pytest.CaptureFixture[str]) -> None:
    answer = document(capsys, MONACO, *AUDIT, "--roll", "25")
    stops = [m for m in answer["moves"] if m["pit_stop"]]
    assert [m["destination"] for m in stops] == ["box-1"]
    assert stops[0]["route"][-1] == "box-1" and stops[0]["route"][0] == "3-147"
    code, out, _ = run(capsys, MONACO, *AUDIT)
    assert code == cli.EXIT_OK
    assert out.splitlines()[0] == f"Monaco ({MONACO}): car on 3-146 in 6th gear, lap 1 of 2"
    assert "  2nd  (die 2 to 4): brakes 1, gearbox 1, engine 1" in out


def test_w1_the_referee_never_lets_a_car_drive_through_the_pit_lane(
    capsys: pytest.CaptureFixture[str]
) -> None:
    # The audit's roll of 19: before W1 the pit lane led on to 3-001 and 3-002 for free.
    moves = document(capsys, MONACO, *AUDIT, "--roll", "19")["moves"]
    through_pit = [m for m in moves if any(s.startswith(("pit-", "box-")) for s in m["route"])]
    assert [(m["destination"], m["pit_stop"]) for m in through_pit] == [("box-1", True)]
    assert {m["destination"] for m in moves} == {"box-1", "1-156", "2-154"}
    # A car waiting in the pit lane short of its box stops there, whatever it rolls.
    waiting = document(capsys, MONACO, "--car", "pit-01", "--gear", "4", "--box", "box-1",
                       "--lap", "2", "--roll", "9")["moves"]
    assert [(m["destination"], m["pit_stop"]) for m in waiting] == [("box-1", True)]


def test_w3_the_referee_offers_a_blocked_car_the_block_and_shorter_braking(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A wall across the straight between the ring's corners, four spaces ahead of the car.
    wall = ("--other", "1-20", "--other", "2-20", "--other", "3-20")
    moves = document(capsys, track, "--car", "2-15", "--gear", "4", "--roll", "9",
                     "--wear", "brakes=9", *wall)["moves"]
    blocked = {(m["spaces"], m["blocked"], m["brakes"], m["tyres"]) for m in moves
               if m["blocked"]}
    assert blocked == {(4, 5, 3, 2)}
    braking = {(m["spaces"], m["brakes"], m["tyres"]) for m in moves if not m["blocked"]}
    assert {(3, 6, 0), (2, 7, 0), (1, 8, 0)} <= braking


def test_w4_in_the_pit_lane_the_referee_gives_free_downshifts_within_their_limits(
    capsys: pytest.CaptureFixture[str]
) -> None:
    gears = document(capsys, MONACO, "--car", "pit-06", "--gear", "6", "--box", "box-1",
                     "--lap", "2")["gears"]
    assert [g["gear"] for g in gears] == [2, 3, 4, 5, 6], "never sixth to first"
    assert all(not any(g["cost"].values()) for g in gears)
    empty = document(capsys, MONACO, "--car", "pit-06", "--gear", "6", "--box", "box-1",
                     "--lap", "2", "--wear", "gearbox=0")["gears"]
    assert [g["gear"] for g in empty] == [5, 6]


# -- gears ---------------------------------------------------------------------------------------


def test_without_a_roll_a_car_in_fourth_may_take_first_to_fifth_at_the_downshift_prices(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = document(capsys, track, "--car", "2-28", "--gear", "4")
    assert "moves" not in answer
    costs = {g["gear"]: {k: v for k, v in g["cost"].items() if v} for g in answer["gears"]}
    assert costs == {1: {"gearbox": 1, "brakes": 1}, 2: {"gearbox": 1}, 3: {}, 4: {}, 5: {}}
    assert answer["gears"][0]["die"] == [1, 2]
    code, out, _ = run(capsys, track, "--car", "2-28", "--gear", "4")
    assert code == cli.EXIT_OK
    assert out.splitlines()[-5:] == [
        "  1st  (die 1 or 2): brakes 1, gearbox 1",
        "  2nd  (die 2 to 4): gearbox 1",
        "  3rd  (die 4 to 8): free",
        "  4th  (die 7 to 12): free",
        "  5th  (die 11 to 20): free",
    ]


def test_an_empty_gearbox_allows_one_gear_down_only(
    track: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = document(capsys, track, "--car", "2-28", "--gear", "4", "--wear", "gearbox=0")
    assert [g["gear"] for g in answer["gears"]] == [3, 4, 5]


# -- what cannot be a position -------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (("--car", "9-99", "--gear", "2"), "--car 9-99: no such space on the track"),
    (("--car", "2-28", "--gear", "7"), "--gear 7: a gear is 1 to 6"),
    (("--car", "2-28", "--gear", "0"), "--gear 0: a gear is 1 to 6"),
    (("--car", "2-28", "--gear", "2", "--other", "2-28"),
     "--other 2-28: two cars on one space (the car is on 2-28)"),
    (("--car", "2-28", "--gear", "2", "--other", "1-29", "--other", "1-29"),
     "--other 1-29: two cars on one space"),
    (("--car", "2-28", "--gear", "2", "--other", "nowhere"), "--other nowhere: no such space"),
    (("--car", "2-28", "--gear", "2", "--other", "1-29:8"),
     "--other 1-29:8: the gear after the colon must be 1 to 6"),
    (("--car", "2-28", "--gear", "2", "--debris", "nowhere"), "--debris nowhere: no such space"),
    (("--car", "2-28", "--gear", "2", "--box", "pit-1"),
     "--box pit-1: not a box or garage of the pit lane (box-1, box-2)"),
    (("--car", "box-2", "--gear", "2", "--box", "box-1"),
     "--car box-2: a car stands only in its own box"),
    (("--car", "2-28", "--gear", "2", "--wear", "tyre=3"),
     "--wear tyre=3: give CATEGORY=POINTS, the categories being tyres, brakes, gearbox"),
    (("--car", "2-28", "--gear", "2", "--wear", "tyres=lots"),
     "--wear tyres=lots: 'lots' is not a number of wear points"),
    (("--car", "2-28", "--gear", "2", "--wear", "tyres=-1"),
     "--wear tyres=-1: '-1' is not a number of wear points"),
    (("--car", "2-28", "--gear", "2", "--wear", "tyres=\u00b2"),
     "--wear tyres=\u00b2: '\u00b2' is not a number of wear points"),
    (("--car", "2-28", "--gear", "2", "--roll", "0"), "--roll 0: a roll is 1 to 30"),
    (("--car", "2-28", "--gear", "2", "--roll", "31"), "--roll 31: a roll is 1 to 30"),
    (("--car", "2-28", "--gear", "2", "--lap", "3"), "--lap 3: a race of 2 laps has laps 0"),
    (("--car", "2-28", "--gear", "2", "--laps", "0"), "--laps 0: a race is 1 lap or more"),
    (("--car", "2-28", "--gear", "2", "--stops", "1"), "--stops 1: 2-28 is not in a corner"),
    (("--car", "2-9", "--gear", "2", "--stops", "-1"), "--stops -1: stops made are 0 or more"),
    (("--car", "2-28", "--gear", "second"), "argument --gear: invalid int value: 'second'"),
    (("--gear", "2",), "the following arguments are required: --car"),
    (("--car", "2-28", "--gear", "2", "--ruleset", "no-such-rules"), "no-such-rules: "),
])
def test_a_position_that_cannot_exist_exits_2_naming_the_bad_value(
    track: str, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, track, *argv)
    assert code == cli.EXIT_UNUSABLE
    assert message in err
    assert out == "" and "Traceback" not in err


def test_a_track_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = run(capsys, str(missing), "--car", "2-28", "--gear", "2")
    assert code == cli.EXIT_UNUSABLE and str(missing) in err
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json", encoding="utf-8")
    code, _, err = run(capsys, str(broken), "--car", "2-28", "--gear", "2")
    assert code == cli.EXIT_UNUSABLE and f"{broken}: line 1" in err


def test_the_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == cli.EXIT_OK
    for option in ("--car SPACE", "--gear G", "--roll N", "--lap L", "--box ID", "--wear",
                   "--stops N", "--other SPACE[:G]", "--debris SPACE", "--ruleset", "--json"):
        assert option in out
    assert "the position cannot exist" in out and "docs/referee.md" in out

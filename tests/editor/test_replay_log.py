"""The replay's log reads as the game is played, with cars numbered as on the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.panels import testdrive as drive_panel
from editor.replay_log import describe
from trackformat.sim import events as ev
from trackformat.sim.core.state import Cause, Wear
from trackformat.words import ordinal

pytestmark = pytest.mark.usefixtures("compiled_kernel")


def test_events_read_in_the_game_s_words() -> None:
    names = {"c1": "Sainte Devote"}
    assert describe(ev.Moved(3, 0, "1-010", "2-017", ("1-011",) * 7, 7, 1, 0, 0)) == (
        "Car 1 moves 7 spaces, 1-010 to 2-017 (spends 1 brakes WP)"
    )
    assert describe(ev.Shift(2, 3, 2, 4, Wear(gearbox=1))) == (
        "Car 4 changes up from 2nd to 4th gear (costs 1 gearbox WP)"
    )
    assert describe(ev.Overshoot(5, 1, "c1", 2, 1, "1-040"), names) == (
        "Car 2 overshoots Sainte Devote by 2 spaces, 1 stop short, on 1-040"
    )
    assert describe(ev.Eliminated(9, 5, Cause.BODY, "2-003")) == (
        "Car 6 is out on 2-003: lost its last body WP"
    )
    assert describe(ev.Finished(40, 9, 1)) == "Car 10 finishes 1st"
    blocked = describe(ev.Blocked(4, 2, "3-017", 2, Wear(brakes=2)))
    assert blocked == "Car 3 is blocked on 3-017 with 2 spaces of its roll left over"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
    ]


def test_replay_log_names_cars_as_their_badges(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.scene.style import Layer

    window.open_path(ring_file)
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    panel.bots.setText("random,cautious")
    panel.cars.setValue(3)
    panel.races.setValue(2)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.load_replay()
    lines: list[str] = []
    for turn in range(min(6, panel.slider.maximum() + 1)):
        panel.slider.setValue(turn)
        lines += [panel.events.item(i).text() for i in range(panel.events.count())]
    assert lines
    assert not any("Wear(" in line or "Moved:" in line or "=" in line for line in lines)
    numbered = {line.split()[1] for line in lines if line.startswith("Car ")}
    assert numbered == {"1", "2", "3"}
    badges = {item.text for item in window.scene.layer_items[Layer.CARS]}
    assert badges == numbered
    assert panel.events.wordWrap()


def test_every_kind_of_event_has_words() -> None:
    from editor.replay_log import _WORDS

    kinds = {getattr(ev, name) for name in ev.__all__} - {ev.Event}
    assert kinds <= set(_WORDS)


def test_a_repair_says_what_the_crew_mended_and_the_team_s_wp_left() -> None:
    assert describe(ev.Repair(12, 3, Wear(body=1, engine=2), 1)) == (
        "Car 4's crew repairs 1 body WP, 2 engine WP from the team's repair WP; cars 3-4 have "
        "1 repair WP left"
    )
    assert describe(ev.Repair(30, 0, Wear(brakes=4), 0)) == (
        "Car 1's crew repairs 4 brakes WP from the team's repair WP; cars 1-2 have no repair WP "
        "left"
    )

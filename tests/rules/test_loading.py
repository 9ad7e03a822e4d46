"""Reading ruleset files: by name or path, and clear located errors for a bad file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trackformat.rules import RulesetError, load_ruleset, loads_ruleset


def preset_document() -> dict[str, Any]:
    return load_ruleset("formula-d").model_dump(mode="json")


def write(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "house.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_ruleset_file_loads_by_path(tmp_path: Path) -> None:
    document = preset_document()
    document["name"] = "house"
    document["wear"][0]["points"]["tyres"] = 8
    rules = load_ruleset(write(tmp_path, document))
    assert rules.name == "house" and rules.starting_wear(2).tyres == 8
    assert load_ruleset(str(write(tmp_path, document))).name == "house"


def test_an_unknown_preset_name_lists_the_presets() -> None:
    with pytest.raises(RulesetError, match="presets: formula-d, formule-de-basic"):
        load_ruleset("formula-e")


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="no such file"):
        load_ruleset(tmp_path / "nope.json")


def test_bad_json_gives_the_line() -> None:
    with pytest.raises(RulesetError, match=r"house.json: line 2, column \d+: not valid JSON"):
        loads_ruleset('{"name": "x",\n  oops}', "house.json")


def test_duplicate_keys_are_refused_with_their_pointer() -> None:
    with pytest.raises(RulesetError, match=r"house\.json: /name: key .name. appears more"):
        loads_ruleset('{"name": "a", "name": "b"}', "house.json")


def test_wrong_values_and_unknown_keys_are_located(tmp_path: Path) -> None:
    document = preset_document()
    document["wear"][0]["points"]["tyres"] = -1
    document["blocking"]["steps"][0]["cost"]["brake"] = 1
    del document["grid"]
    with pytest.raises(RulesetError) as raised:
        load_ruleset(write(tmp_path, document))
    text = str(raised.value)
    assert "/wear/0/points/tyres: Input should be greater than or equal to 0 (found -1)" in text
    assert "/blocking/steps/0/cost/brake: unknown field" in text
    assert "/grid: required field is missing" in text


def test_inconsistent_tables_are_refused(tmp_path: Path) -> None:
    document = preset_document()
    document["blocking"]["steps"].pop(3)
    with pytest.raises(RulesetError, match=r"/blocking: .*blocking steps must list 1 to 6"):
        load_ruleset(write(tmp_path, document))
    document = preset_document()
    document["dice"]["gears"] = document["dice"]["gears"][:5]
    with pytest.raises(RulesetError, match="/dice/gears: "):
        load_ruleset(write(tmp_path, document))


def test_a_folder_is_not_a_ruleset(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="is a folder"):
        load_ruleset(tmp_path)

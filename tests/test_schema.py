"""The checked-in JSON Schema is the one the models generate, and it describes real track files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from tests.factories import ring
from trackformat import cli
from trackformat.io import dumps_document, dumps_track
from trackformat.model import CURRENT_FORMAT_VERSION, Track

SCHEMA_FILE = Path(cli.__file__).parent.parent / "schema" / "track.schema.json"
REGENERATE = "python -m trackformat schema -o trackformat/schema/track.schema.json"


def test_checked_in_schema_matches_the_models() -> None:
    generated = dumps_document(cli.track_schema())
    checked_in = SCHEMA_FILE.read_text(encoding="utf-8")
    assert checked_in == generated, (
        f"{SCHEMA_FILE.name} is out of date with the models: run `{REGENERATE}`"
    )


def test_schema_command_prints_the_checked_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schema"]) == cli.EXIT_OK
    assert capsys.readouterr().out == SCHEMA_FILE.read_text(encoding="utf-8")


def test_schema_command_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "nested" / "track.schema.json"
    assert cli.main(["schema", "-o", str(out)]) == cli.EXIT_OK
    assert out.read_text(encoding="utf-8") == SCHEMA_FILE.read_text(encoding="utf-8")
    assert [p.name for p in out.parent.iterdir()] == ["track.schema.json"]


def test_schema_heads_and_requirements() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"].startswith("Formula D track file")
    assert schema["properties"]["format"]["const"] == "formula-d-track"
    assert schema["properties"]["format_version"]["const"] == CURRENT_FORMAT_VERSION == 3
    assert set(schema["required"]) == {"format_version", "metadata", "board", "lanes", "spaces"}
    assert schema["additionalProperties"] is False


def _models(model: type[BaseModel], seen: dict[str, type[BaseModel]]) -> None:
    seen[model.__name__] = model
    for info in model.model_fields.values():
        for candidate in _nested(info.annotation):
            if candidate.__name__ not in seen:
                _models(candidate, seen)


def _nested(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in getattr(annotation, "__args__", ()):
        found += _nested(arg)
    return found


def test_every_field_is_in_the_schema_under_its_file_name() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    models: dict[str, type[BaseModel]] = {}
    _models(Track, models)
    assert {"Link", "Space", "PitLane", "Corner"} <= set(models)
    for name, model in models.items():
        properties = schema["properties"] if model is Track else schema["$defs"][name]["properties"]
        expected = {info.alias or field for field, info in model.model_fields.items()}
        assert set(properties) == expected, name
    assert "from" in schema["$defs"]["Link"]["properties"]


def test_ring_file_satisfies_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(dumps_track(ring())))

"""The generated docs are checked in up to date, and cover every field and every rule."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trackformat.lint import all_rules

ROOT = Path(__file__).parent.parent


def load_gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_docs", module)
    spec.loader.exec_module(module)
    return module


def test_checked_in_docs_are_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    code = load_gen_docs().main(["--check"])
    assert code == 0, capsys.readouterr().err


def test_check_fails_on_a_stale_doc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gen_docs = load_gen_docs()
    monkeypatch.setattr(gen_docs, "ROOT", tmp_path)
    monkeypatch.setattr(gen_docs, "DOCS", tmp_path / "docs")
    assert gen_docs.main(["--check"]) == 1
    assert "docs/format.md" in capsys.readouterr().err
    assert gen_docs.main([]) == 0
    assert gen_docs.main(["--check"]) == 0


def test_format_doc_lists_every_field() -> None:
    gen_docs = load_gen_docs()
    text = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    for model in gen_docs.models_in_order(gen_docs.Track):
        assert f"## {model.__name__}\n" in text
        for field, info in model.model_fields.items():
            assert f"| `{info.alias or field}` |" in text
    # a field's own docstring, not the generic description of its id type
    assert "| `from` | [id](#ids) | required | The space the move starts from. |" in text


def test_validation_doc_lists_every_rule() -> None:
    text = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    for rule in all_rules():
        assert f"### {rule.code}\n" in text
        assert f"`{rule.name}`" in text

# Two entry points: `make run` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench schema docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[gui,dev]"
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m trackformat info tracks/monaco.json
	$(PY) -m trackformat validate tracks/monaco.json

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check trackformat tests benchmarks tools

typecheck: $(STAMP)
	$(PY) -m mypy trackformat

bench: $(STAMP)
	$(PY) benchmarks/validate_speed.py

schema: $(STAMP)
	$(PY) -m trackformat schema -o trackformat/schema/track.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Two entry points: `make run` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench schema docs clean gui-libs fuzz

# The system libraries Qt's X11 platform plugin loads (Debian names); desktops have them, a
# bare machine may not. `make run` installs them when it can (root on Debian), or says how.
GUI_DEBS := libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 \
	libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-randr0 libxkbcommon-x11-0 libegl1 \
	libfontconfig1

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[gui,dev]"
	touch $(STAMP)

run: $(STAMP) gui-libs
	$(PY) -m editor tracks/monaco.json

gui-libs:
	@if command -v dpkg >/dev/null 2>&1 && ! dpkg -s libxcb-cursor0 >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && apt-get install -y -qq $(GUI_DEBS); \
	  else \
	    echo "The editor needs these system libraries: sudo apt-get install $(GUI_DEBS)"; \
	  fi; \
	fi

test: $(STAMP)
	$(PY) -m ruff check trackformat editor tests tools benchmarks
	$(PY) -m mypy trackformat editor
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check trackformat editor tests tools benchmarks

typecheck: $(STAMP)
	$(PY) -m mypy trackformat editor

# The fuzz targets of tests/fuzz with many more inputs than the normal run, new ones each time
# (FUZZ_EXAMPLES inputs per target; each must keep the contract of tests/fuzz/contract.py).
FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -p no:cacheprovider tests/fuzz \
	  --hypothesis-show-statistics

bench: $(STAMP)
	$(PY) benchmarks/validate_speed.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/editor_speed.py

schema: $(STAMP)
	$(PY) -m trackformat schema -o trackformat/schema/track.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Two entry points: `make run` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# What each entry point needs, installed once per kind: the editor (its GUI and the tracer's
# image libraries, for File > Trace board picture), and the test tools on top of it.
EDITOR_STAMP := $(VENV)/.installed-editor
TEST_STAMP := $(VENV)/.installed-test
# pip's own progress (each package as it is fetched), not --quiet: the first setup downloads
# some 400 MB and takes a minute or more, which should not look like a hang.
PIP_INSTALL := $(PY) -m pip install --progress-bar on --disable-pip-version-check
# Python keeps its compiled modules (and pytest its rewritten tests) in __pycache__ folders for
# the next start. Some machines turn that off (PYTHONDONTWRITEBYTECODE, common in containers):
# then every process compiles the project again, which costs the test run's processes and the
# hundreds of commands the tests start seconds each (collecting the tests: 13 s, not 6).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: run test lint typecheck bench schema docs clean gui-libs fuzz

# Qt's X11 platform plugin loads system libraries that desktops have and bare machines may not;
# tools/gui_libs.py checks every one of them and installs the missing ones (root on Debian) or
# prints the exact command.

$(PY):
	@echo "Setting up $(VENV) (first run only)..."
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip

$(EDITOR_STAMP): pyproject.toml | $(PY)
	@echo "Installing the editor and its libraries into $(VENV)..."
	$(PIP_INSTALL) -e ".[gui,trace]"
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	@echo "Installing the editor and the test tools into $(VENV)..."
	$(PIP_INSTALL) -e ".[gui,trace,dev]"
	touch $@ $(EDITOR_STAMP)

run: $(EDITOR_STAMP) gui-libs
	$(PY) -m editor tracks/monaco.json

gui-libs: $(EDITOR_STAMP)
	@$(PY) tools/gui_libs.py

# The tests run on TEST_PROCESSES processes (pytest-xdist; 2 by default, for the two cores of a
# small machine; `make test TEST_PROCESSES=auto` for one per core, `TEST_PROCESSES=0` for one
# process, in order). Each idle process takes tests from the other's queue (worksteal), so both
# end together; the ten slowest tests are listed at the end, to keep an eye on them.
TEST_PROCESSES ?= 2
test: $(TEST_STAMP)
	$(PY) -m ruff check trackformat editor tests tools benchmarks
	$(PY) -m mypy trackformat editor
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n $(TEST_PROCESSES) --dist worksteal \
	  --durations=10

lint: $(TEST_STAMP)
	$(PY) -m ruff check trackformat editor tests tools benchmarks

typecheck: $(TEST_STAMP)
	$(PY) -m mypy trackformat editor

# The fuzz targets of tests/fuzz with many more inputs than the normal run, new ones each time
# (FUZZ_EXAMPLES inputs per target; each must keep the contract of tests/fuzz/contract.py).
FUZZ_EXAMPLES ?= 2000
fuzz: $(TEST_STAMP)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -p no:cacheprovider tests/fuzz \
	  --hypothesis-show-statistics

bench: $(TEST_STAMP)
	$(PY) benchmarks/validate_speed.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/editor_speed.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/drag_speed.py

schema: $(TEST_STAMP)
	$(PY) -m trackformat schema -o trackformat/schema/track.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

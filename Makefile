# ambiforge — set-up, demo and tests. `make demo` and `make test` are the two README commands.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
LS_VENV := .ls-venv
LABEL_STUDIO_VERSION := 1.23.2
DEMO_PAIRS ?= 200

.PHONY: demo test lint schemas bench clean chromium label-studio install

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Label Studio pins Django and friends: it lives in its own virtual environment (see shared notes).
label-studio: $(LS_VENV)/.installed

$(LS_VENV)/.installed:
	test -x $(LS_VENV)/bin/python || $(PYTHON) -m venv $(LS_VENV)
	$(LS_VENV)/bin/pip install --quiet --upgrade pip
	$(LS_VENV)/bin/pip install --quiet 'label-studio==$(LABEL_STUDIO_VERSION)'
	touch $@

# Headless Chromium and its driver (Debian packages) for the labeling-page screenshot test.
chromium:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

demo: install
	$(BIN)/ambiforge build --provider offline --pairs $(DEMO_PAIRS) --seed 1 --run-id demo

test: install label-studio chromium
	AMBIFORGE_LS_VENV=$(abspath $(LS_VENV)) $(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check ambiforge flows tests bench
	$(BIN)/ruff format --check ambiforge flows tests bench

schemas: install
	$(BIN)/ambiforge schema --write

bench: install
	$(BIN)/python bench/offline_build.py

clean:
	rm -rf $(VENV) $(LS_VENV) build *.egg-info

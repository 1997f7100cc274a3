# `make run` and `make test` set everything up (idempotent, quick when nothing changed).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint bench fuzz setup setup-batch setup-dev system clean-cache

run: setup
	$(PY) app.py

test: setup-dev lint
	$(PY) -m pytest

# One style (pyproject.toml): fix with `.venv/bin/ruff check --fix . && .venv/bin/ruff format .`;
# and types: mypy over readers/ (pyproject.toml's [tool.mypy]).
lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# `make bench` runs every benchmark; `make bench pages tables` only those (bench/bench_<topic>.py).
BENCH_TOPICS := $(filter-out bench,$(MAKECMDGOALS))
bench: setup-dev
	$(PY) -m bench $(BENCH_TOPICS)
ifeq ($(firstword $(MAKECMDGOALS)),bench)
$(BENCH_TOPICS):
	@:
endif

# Mutation fuzzing of every reader (tests/fuzz.py): a random seed, printed; SEED=... replays a run,
# COUNT=... sets its length, JOBS=... its worker processes. Broken files are saved in fuzz-failures/.
fuzz: setup-dev
	$(PY) -m tests.fuzz --count $(or $(COUNT),1000) --jobs $(or $(JOBS),1) $(if $(SEED),--seed $(SEED))

# The app needs requirements.txt only (a Space installs nothing else); the batch command's extras
# (Ray, Parquet, its progress bar) are in requirements-batch.txt; the tests and benchmarks need
# both and requirements-dev.txt.
setup: system $(VENV)/.installed

setup-batch: setup $(VENV)/.installed-batch

setup-dev: setup-batch $(VENV)/.installed-dev

# System packages are listed once, in packages.txt (the Hugging Face Spaces convention).
system:
	@missing="$$(grep -v '^\s*#' packages.txt | while read -r p; do [ -z "$$p" ] || dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || echo "$$p"; done)"; \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# The package itself is installed editable (its pins are requirements.txt's), so .venv/bin/readlens is the
# command of this checkout.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $@

$(VENV)/.installed-batch: $(VENV)/.installed requirements-batch.txt
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-batch.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-batch requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-batch.txt -r requirements-dev.txt
	touch $@

clean-cache:
	rm -rf .readlens-cache

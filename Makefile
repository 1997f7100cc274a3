# `make run` and `make test` set everything up (idempotent, quick when nothing changed).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench setup system clean-cache

run: setup
	$(PY) app.py

test: setup
	$(PY) -m pytest

bench: setup
	$(PY) -m bench

setup: system $(VENV)/.installed

# System packages are listed once, in packages.txt (the Hugging Face Spaces convention).
system:
	@missing="$$(grep -v '^\s*#' packages.txt | while read -r p; do [ -z "$$p" ] || dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || echo "$$p"; done)"; \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

clean-cache:
	rm -rf .readlens-cache

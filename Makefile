# Parley — build, run and test. Every target installs what it needs first, so on a fresh
# Debian 12 machine with only the Swift toolchain `make run` and `make test` just work.

SWIFT      ?= swift
HOST       ?= 127.0.0.1
PORT       ?= 8080
DATA       ?= ./data
VENV       := .venv
PYTHON     := $(VENV)/bin/python
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages: C libraries Parley links, and the tools the tests drive.
BUILD_PACKAGES := libhttp-parser-dev libsodium-dev libsqlite3-dev pkg-config
TEST_PACKAGES  := curl python3 python3-venv

.PHONY: all build release run test test-swift test-e2e deps test-deps clean help

all: build

help:
	@echo "make run    build in release mode and start parley serve on http://$(HOST):$(PORT)/"
	@echo "make test   install test needs and run every test (Swift and e2e)"
	@echo "make build  debug build"

# Installs whichever of the listed Debian packages are missing (apt-get, via sudo unless root).
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps: deps
	@command -v curl >/dev/null && command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null \
		|| { $(MAKE) --no-print-directory apt-test-packages; }
	@[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@$(PYTHON) -c 'import websockets, pytest' 2>/dev/null \
		|| $(PYTHON) -m pip install -q -r Tests/e2e/requirements.txt

apt-test-packages:
	$(call apt_install,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product parley

run: release
	@mkdir -p $(DATA)
	.build/release/parley serve --host $(HOST) --port $(PORT) --data $(DATA)

test: test-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-swift test-e2e

test-swift:
	$(SWIFT) test --skip-build

test-e2e:
	PARLEY_BIN=$$($(SWIFT) build --show-bin-path)/parley $(PYTHON) -m pytest -q Tests/e2e

clean:
	rm -rf .build $(VENV)

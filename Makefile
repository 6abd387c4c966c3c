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
BUILD_PACKAGES := libhttp-parser-dev libsodium-dev libsqlite3-dev libexpat1-dev libssl-dev pkg-config
TEST_PACKAGES  := curl python3 python3-venv tmux profanity chromium chromium-driver fonts-noto-cjk fonts-noto-color-emoji
BENCH_PACKAGES := wrk

.PHONY: all build release run test test-swift test-e2e deps test-deps bench bench-deps fuzz fuzz-build clean help docs test-sanitize

all: build

help:
	@echo "make run    build in release mode and start parley serve on http://$(HOST):$(PORT)/"
	@echo "make test   install test needs and run every test (Swift and e2e)"
	@echo "make build  debug build"
	@echo "make bench  release build, then short benchmarks (HTTP, WebSocket echo, idle connections)"
	@echo "make fuzz   libFuzzer on every parser, FUZZ_SECONDS (60) each; crashes go to Fuzz/crashes/"

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
	@command -v curl >/dev/null && command -v tmux >/dev/null && command -v profanity >/dev/null && command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null \
		&& command -v chromium >/dev/null && command -v chromedriver >/dev/null \
		&& dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1 \
		|| { $(MAKE) --no-print-directory apt-test-packages; }
	@[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@$(PYTHON) -c 'import websockets, pytest, selenium, slixmpp' 2>/dev/null \
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

# One test at a time: many tests start servers whose request handlers run on Swift's shared
# async threads (two on a 2-core machine), and tests that wait on blocking sockets would
# otherwise hold those threads and stall the servers of tests running beside them.
test-swift:
	$(SWIFT) test --skip-build --no-parallel

test-e2e:
	PARLEY_BIN=$$($(SWIFT) build --show-bin-path)/parley PARLEY_FUZZ_BIN=$$($(SWIFT) build --show-bin-path)/parley-fuzz \
		$(PYTHON) -m pytest -q Tests/e2e

bench-deps: deps
	$(call apt_install,$(BENCH_PACKAGES))

# Short versions of the measurements in docs/benchmarks.md (about a minute and a half): wrk
# against parley serve's /healthz, WebSocket echo latency with 1,000 clients, and 10,000 idle
# WebSockets held by the echo server. Everything on loopback; both servers are stopped on exit.
BENCH_RATE        ?= 10000
BENCH_CONNECTIONS ?= 10000
BENCH_BIN          = .build/release
bench: bench-deps
	$(SWIFT) build -c release --product parley
	$(SWIFT) build -c release --product parley-bench
	@set -e; bin=$(BENCH_BIN); work=$$(mktemp -d); results=$$work/results.tsv; \
	http_port=$$($$bin/parley-bench free-port); ws_port=$$($$bin/parley-bench free-port); \
	$$bin/parley serve --port $$http_port --data $$work/data --log-level warning & serve_pid=$$!; \
	$$bin/parley-bench echo-server --port $$ws_port > $$work/echo.out & echo_pid=$$!; \
	trap 'kill $$serve_pid $$echo_pid 2>/dev/null; wait $$serve_pid $$echo_pid 2>/dev/null; rm -rf $$work' EXIT; \
	$$bin/parley-bench wait-port --port $$http_port --timeout 30; \
	$$bin/parley-bench wait-port --port $$ws_port --timeout 30; \
	echo "== HTTP: wrk against parley serve"; \
	$$bin/parley-bench http --port $$http_port --path /healthz --threads 2 --connections 100 --duration 10 --results $$results; \
	echo "== WebSocket echo: 1,000 clients"; \
	$$bin/parley-bench ws-echo --port $$ws_port --connections 1000 --rate $(BENCH_RATE) --warmup 1 --duration 10 --loops 2 \
		--server-pid $$echo_pid --results $$results; \
	echo "== Idle WebSockets"; \
	$$bin/parley-bench connections --port $$ws_port --server-pid $$echo_pid --count $(BENCH_CONNECTIONS) --processes 2 \
		--source-ips 127.0.0.2-127.0.0.9 --idle-window 10 --results $$results; \
	echo; $$bin/parley-bench report --results $$results --title "parley-bench on $$(nproc) cores, $$(date -u +%Y-%m-%dT%H:%MZ)"

.PHONY: all build release run test test-swift test-e2e deps test-deps bench bench-deps fuzz fuzz-build clean help docs test-sanitize

# Regenerates the settings table in docs/operations.md from the code.
docs: build
	python3 scripts/update-settings-doc.py

clean:
	rm -rf .build $(VENV)

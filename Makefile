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
BUILD_PACKAGES := libhttp-parser-dev liblmdb-dev libnats-dev libpq-dev libsodium-dev libsqlite3-dev libexpat1-dev libssl-dev libturbojpeg0-dev libpng-dev pkg-config
TEST_PACKAGES  := curl nats-server postgresql python3 python3-venv tmux profanity chromium chromium-driver nodejs fonts-noto-cjk fonts-noto-color-emoji
# The reverse proxies of docs/operations.md, run by Tests/e2e/test_reverse_proxy.py on loopback.
# Installed with RUNLEVEL=1 so that invoke-rc.d does not start their default sites on port 80.
PROXY_TEST_PACKAGES := nginx caddy
# valgrind (callgrind) and sqlite3: the instruction counts per message of docs/benchmarks-history.md;
# lmdb-utils: mdb_stat and mdb_dump, to inspect the LMDB message log of `parley-bench log-append`
BENCH_PACKAGES := wrk nats-server valgrind sqlite3 lmdb-utils
# Only for `make icons` (the web app's PNG icons, committed, drawn from Web/favicon.svg).
ICON_PACKAGES := librsvg2-bin
# Only for `make bench-xmpp` (the Jabber comparison), never for `make test`.
BENCH_XMPP_PACKAGES := tsung ejabberd prosody python3

.PHONY: apt-install icons cluster-demo all build release run test test-swift test-e2e deps test-deps apt-test-packages bench bench-deps bench-xmpp fuzz fuzz-build clean help docs test-sanitize soak soak-log

all: build

help:
	@echo "make run    build in release mode and start parley serve on http://$(HOST):$(PORT)/"
	@echo "make test   install test needs and run every test (Swift and e2e)"
	@echo "make build  debug build"
	@echo "make cluster-demo  PostgreSQL, nats-server and three parley serve nodes on loopback (Ctrl-C stops all; ARGS=... go to every node)"
	@echo "make bench  release build, then short benchmarks (HTTP, echo, idle, native direct/group/reconnect vs relay and NATS)"
	@echo "make bench-xmpp  Parley's Jabber gateway vs ejabberd vs Prosody under the same tsung chat load"
	@echo "make fuzz   libFuzzer on every parser, FUZZ_SECONDS (60) each; crashes go to Fuzz/crashes/"
	@echo "make test-sanitize  the Swift tests under AddressSanitizer, then ThreadSanitizer"
	@echo "make soak   1,000 WebSocket clients against parley serve for SOAK_SECONDS (600)"
	@echo "make soak-log  kill -9 the message log prototypes SOAK_LOG_CYCLES (300) times each, checking every acknowledged record"

# Installs whichever of the listed Debian packages are missing (apt-get, via sudo unless root).
# $(1): the packages; $(2): environment for apt-get (e.g. RUNLEVEL=1: install, start nothing).
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive $(2) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

# As apt_install, but no system service of the packages is started, under sysvinit or systemd:
# for the install only, a policy-rc.d that refuses every start (invoke-rc.d and
# deb-systemd-invoke ask it), unless the machine has a policy of its own already.
POLICY_RC_D := /usr/sbin/policy-rc.d
define apt_install_no_start
	@own=""; if [ ! -e $(POLICY_RC_D) ]; then own=yes; \
		printf '#!/bin/sh\n# refuses every service start while make installs packages\nexit 101\n' | $(SUDO) tee $(POLICY_RC_D) >/dev/null; \
		$(SUDO) chmod 755 $(POLICY_RC_D); fi; \
	status=0; $(MAKE) --no-print-directory apt-install PACKAGES="$(1)" || status=$$?; \
	if [ -n "$$own" ]; then $(SUDO) rm -f $(POLICY_RC_D); fi; exit $$status
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

# The installable web app's icons (Web/manifest.webmanifest), from the favicon's drawing.
icons:
	$(call apt_install,$(ICON_PACKAGES))
	rsvg-convert -w 192 -h 192 Web/favicon.svg -o Web/icons/icon-192.png
	rsvg-convert -w 512 -h 512 Web/favicon.svg -o Web/icons/icon-512.png
	rsvg-convert -w 180 -h 180 Web/favicon.svg -o Web/icons/apple-touch-icon.png
	rsvg-convert -w 512 -h 512 scripts/maskable-icon.svg -o Web/icons/maskable-512.png

test-deps: deps
	@command -v curl >/dev/null && command -v nats-server >/dev/null && command -v tmux >/dev/null && command -v profanity >/dev/null && command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null \
		&& command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v node >/dev/null \
		&& dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1 \
		&& [ -x /usr/lib/postgresql/15/bin/initdb ] \
		&& command -v nginx >/dev/null && command -v caddy >/dev/null \
		|| { $(MAKE) --no-print-directory apt-test-packages; }
	@[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@$(PYTHON) -c 'import websockets, pytest, xdist, selenium, slixmpp, axe_selenium_python, http_ece, cryptography' 2>/dev/null \
		|| $(PYTHON) -m pip install -q -r Tests/e2e/requirements.txt

apt-test-packages:
	$(call apt_install,$(TEST_PACKAGES))
	$(call apt_install,$(PROXY_TEST_PACKAGES),RUNLEVEL=1)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product parley

run: release
	@mkdir -p $(DATA)
	.build/release/parley serve --host $(HOST) --port $(PORT) --data $(DATA)

# Three nodes on one private PostgreSQL and one nats-server, all on free loopback ports
# (docs/operations.md, "Cluster"); Ctrl-C stops everything.
cluster-demo: test-deps
	$(SWIFT) build --product parley
	PARLEY_BIN=$$($(SWIFT) build --show-bin-path)/parley $(PYTHON) scripts/cluster-demo.py $(ARGS)

test: test-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-swift test-e2e

# One test at a time: many tests start servers whose request handlers run on Swift's shared
# async threads (two on a 2-core machine), and tests that wait on blocking sockets would
# otherwise hold those threads and stall the servers of tests running beside them.
test-swift:
	$(SWIFT) test --skip-build --no-parallel

# E2E_WORKERS files at a time (pytest-xdist, a file's tests together in one worker): most of
# an e2e test's time is spent waiting (browsers, restarts, fsync), so two workers take about
# a third off the wall clock even on two cores. `make test-e2e E2E_WORKERS=0` runs them in
# one process, one after another.
E2E_WORKERS ?= 2
test-e2e:
	PARLEY_BIN=$$($(SWIFT) build --show-bin-path)/parley PARLEY_FUZZ_BIN=$$($(SWIFT) build --show-bin-path)/parley-fuzz \
		$(PYTHON) -m pytest -q -n $(E2E_WORKERS) --dist loadfile Tests/e2e

# One apt_install of PACKAGES, for apt_install_no_start.
apt-install:
	$(call apt_install,$(PACKAGES))

bench-deps: deps
	$(call apt_install,$(BENCH_PACKAGES))

# The Jabber comparison of docs/benchmarks.md, section (n): Parley, ejabberd and Prosody in one
# run, each server on loopback on free ports with its own temporary config and data (never
# their system services), the same users, the same tsung 1:1 chat load at each rate of
# XMPP_BENCH_RATES with a latency probe beside it, then idle signed-in sessions; results as
# JSON lines in XMPP_BENCH_RESULTS, then report.py's tables. Fails (after the report) when a
# rate's messages were not delivered. The settings of scripts/xmpp-bench/run.sh (USERS,
# WINDOW, IDLE, SERVERS...) pass through.
XMPP_BENCH_RATES   ?= 500 1000 2000 4000 8000
XMPP_BENCH_RESULTS ?= xmpp-bench-results.jsonl
bench-xmpp: deps
	$(call apt_install_no_start,$(BENCH_XMPP_PACKAGES))
	$(SWIFT) build -c release --product parley
	@rm -f $(XMPP_BENCH_RESULTS)
	@# the report also when a run was invalid (it says which); the status is run.sh's
	status=0; RATES="$(XMPP_BENCH_RATES)" scripts/xmpp-bench/run.sh $$($(SWIFT) build -c release --show-bin-path)/parley \
		$(XMPP_BENCH_RESULTS) || status=$$?; python3 scripts/xmpp-bench/report.py $(XMPP_BENCH_RESULTS); exit $$status

# Short versions of the measurements in docs/benchmarks.md (about thirteen minutes after the build):
# wrk against parley serve's /healthz; WebSocket echo with 1,000 clients; 10,000 idle WebSockets
# on the echo server; then Parley's native protocol against an empty parley serve (direct 1:1
# messages, fan-out in a group of 1,000, mass reconnect with sync, signed-in idle clients), with
# the bench's bare relay and nats-server (WebSocket listener) driven by the same traffic as
# baselines, and for the direct 1:1 runs also the durable relay (the relay with every message
# synced to a segment log, in its own temporary directory, before its ack: what the machine
# allows for a durable message); then the storage engines alone (log-append). The report ends
# with the durable 1:1 path's aims (Parley ÷ relay at p99 <= 20 ms and at the ceiling, CPU per
# message, group deliveries, idle memory), each marked met or not, then durable relay ÷ relay,
# Parley ÷ durable relay and the three servers' CPU per message at the ceiling. parley serve runs with its abuse limits relaxed for a load from one machine
# (registrations per address, per-connection request rate) and the minimum password cost.
# Everything on loopback; every server is stopped on exit.
BENCH_RATE        ?= 10000
BENCH_CONNECTIONS ?= 10000
BENCH_DIRECT_RATE ?= 2000
BENCH_GROUP_RATE  ?= 40
# Each find-max search runs this many times; the report shows the median and the spread.
BENCH_SEARCHES    ?= 3
# After a search's rates (doubling) stop rising, this many steps bisect between the last rate
# held and the first failed, so a ratio between two servers is not off by 2× for one step.
BENCH_REFINE      ?= 2
BENCH_BIN          = .build/release
BENCH_SOURCES      = 127.0.0.2-127.0.0.9
bench: bench-deps
	$(SWIFT) build -c release --product parley
	$(SWIFT) build -c release --product parley-bench
	@set -e; bin=$(BENCH_BIN); work=$$(mktemp -d); results=$$work/results.tsv; \
	http_port=$$($$bin/parley-bench free-port); ws_port=$$($$bin/parley-bench free-port); \
	relay_port=$$($$bin/parley-bench free-port); nats_port=$$($$bin/parley-bench free-port); \
	durable_port=$$($$bin/parley-bench free-port); \
	$$bin/parley serve --port $$http_port --xmpp-port 0 --data $$work/data --log-level warning --password-cost minimum \
		--registrations-per-address 1000000 --ws-rate 1000000 --ws-burst 1000000 --max-queued-requests 100000 & serve_pid=$$!; \
	$$bin/parley-bench echo-server --port $$ws_port > $$work/echo.out & echo_pid=$$!; \
	$$bin/parley-bench relay-server --port $$relay_port > $$work/relay.out & relay_pid=$$!; \
	$$bin/parley-bench relay-server --port $$durable_port --durable $$work/durable-relay > $$work/durable-relay.out & durable_pid=$$!; \
	printf 'listen: "127.0.0.1:-1"\nwebsocket {\n  listen: "127.0.0.1:%s"\n  no_tls: true\n}\n' $$nats_port > $$work/nats.conf; \
	nats-server -c $$work/nats.conf > $$work/nats.log 2>&1 & nats_pid=$$!; \
	trap 'status=$$?; kill $$serve_pid $$echo_pid $$relay_pid $$durable_pid $$nats_pid $$idle_pid 2>/dev/null || true; \
		wait $$serve_pid $$echo_pid $$relay_pid $$durable_pid $$nats_pid $$idle_pid 2>/dev/null || true; rm -rf $$work; exit $$status' EXIT; idle_pid=; \
	for port in $$http_port $$ws_port $$relay_port $$durable_port $$nats_port; do $$bin/parley-bench wait-port --port $$port --timeout 30; done; \
	echo "== HTTP: wrk against parley serve"; \
	$$bin/parley-bench http --port $$http_port --path /healthz --threads 2 --connections 100 --duration 10 --results $$results; \
	echo "== WebSocket echo: 1,000 clients"; \
	$$bin/parley-bench ws-echo --port $$ws_port --connections 1000 --rate $(BENCH_RATE) --warmup 1 --duration 5 --loops 2 \
		--server-pid $$echo_pid --results $$results; \
	echo "== Idle WebSockets"; \
	$$bin/parley-bench connections --port $$ws_port --server-pid $$echo_pid --count $(BENCH_CONNECTIONS) --processes 2 \
		--source-ips $(BENCH_SOURCES) --idle-window 5 --results $$results; \
	targets="--parley-port $$http_port --parley-pid $$serve_pid --relay-port $$relay_port --relay-pid $$relay_pid"; \
	direct_targets="$$targets --durable-relay-port $$durable_port --durable-relay-pid $$durable_pid"; \
	echo "== Native: direct 1:1 messages, 500 pairs, parley serve, the bare relay and the durable relay"; \
	$$bin/parley-bench direct $$direct_targets --pairs 500 --rate $(BENCH_DIRECT_RATE) --duration 5 --source-ips $(BENCH_SOURCES) \
		--results $$results || echo "(direct: errors, see above)"; \
	echo "== Native: direct, highest rate with p99 <= 20 ms (median of $(BENCH_SEARCHES) searches)"; \
	$$bin/parley-bench direct $$direct_targets --pairs 500 --rate 1000 --step-factor 2 --max-rate 128000 --warmup 0.5 --duration 2 \
		--find-max --searches $(BENCH_SEARCHES) --refine $(BENCH_REFINE) --p99-bound-ms 20 --source-ips $(BENCH_SOURCES) --results $$results || true; \
	echo "== Native: direct, the ceiling: highest rate with p99 <= 1 s (median of $(BENCH_SEARCHES) searches)"; \
	$$bin/parley-bench direct $$direct_targets --pairs 500 --rate 4000 --step-factor 2 --max-rate 512000 --warmup 0.5 --duration 2 \
		--find-max --searches $(BENCH_SEARCHES) --refine $(BENCH_REFINE) --p99-bound-ms 1000 --source-ips $(BENCH_SOURCES) --results $$results || true; \
	echo "== Native: group of 1,000, 4 senders, parley serve, the bare relay and nats-server"; \
	$$bin/parley-bench group $$targets --nats-port $$nats_port --nats-pid $$nats_pid --members 1000 --senders 4 \
		--rate $(BENCH_GROUP_RATE) --duration 5 --source-ips $(BENCH_SOURCES) --results $$results || echo "(group: errors, see above)"; \
	echo "== Native: group, highest rate with p99 <= 100 ms"; \
	$$bin/parley-bench group $$targets --nats-port $$nats_port --nats-pid $$nats_pid --members 1000 --senders 4 \
		--rate 20 --step-factor 2 --max-rate 5120 --warmup 0.5 --duration 2 --find-max --searches $(BENCH_SEARCHES) --refine $(BENCH_REFINE) --p99-bound-ms 100 \
		--source-ips $(BENCH_SOURCES) --results $$results || true; \
	echo "== Native: 1,000 clients reconnect at once and sync"; \
	$$bin/parley-bench reconnect --port $$http_port --server-pid $$serve_pid --clients 1000 --missed 10 \
		--source-ips $(BENCH_SOURCES) --results $$results || echo "(reconnect: errors, see above)"; \
	echo "== Native: 5,000 signed-in idle clients on a fresh parley serve"; \
	idle_port=$$($$bin/parley-bench free-port); \
	$$bin/parley serve --port $$idle_port --xmpp-port 0 --data $$work/idle-data --log-level warning --password-cost minimum \
		--registrations-per-address 1000000 & idle_pid=$$!; \
	$$bin/parley-bench wait-port --port $$idle_port --timeout 30; \
	$$bin/parley-bench native-idle --port $$idle_port --server-pid $$idle_pid --count 5000 --idle-window 5 \
		--source-ips $(BENCH_SOURCES) --results $$results || echo "(native-idle: errors, see above)"; \
	echo "== Storage alone: durable appends, segment log vs LMDB vs the SQLite store"; \
	$$bin/parley-bench log-append --writers 2 --batch 64 --duration 2 --results $$results || echo "(log-append: errors, see above)"; \
	echo; $$bin/parley-bench report --results $$results --title "parley-bench on $$(nproc) cores, $$(date -u +%Y-%m-%dT%H:%MZ), load average $$(cut -d' ' -f1-3 /proc/loadavg)"


# Fuzzing (docs/fuzzing.md): parley-fuzz rebuilt as a libFuzzer driver with AddressSanitizer,
# in its own scratch path so the normal build is untouched. Each target runs for FUZZ_SECONDS
# on a scratch copy of its corpus (new inputs do not dirty the tree); crashes, hangs and
# broken invariants land in Fuzz/crashes/ and fail the run. FUZZ_TARGETS picks a subset.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= $(notdir $(wildcard Fuzz/corpus/*))
FUZZ_FLAGS   ?=
# Release by default: about four times the executions per second of debug, and bounds and
# overflow checks stay on (only `assert` goes). FUZZ_CONFIG=debug to fuzz with asserts.
FUZZ_CONFIG  ?= release
FUZZ_BUILD   := -c $(FUZZ_CONFIG) --product parley-fuzz --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address \
	-Xswiftc -DFUZZING -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
fuzz-build: deps
	$(SWIFT) build $(FUZZ_BUILD)

fuzz: fuzz-build
	@set -e; bin=$$($(SWIFT) build $(FUZZ_BUILD) --show-bin-path)/parley-fuzz; \
	work=$$(mktemp -d); trap 'rm -rf $$work' EXIT; mkdir -p Fuzz/crashes; failed=""; \
	for target in $(FUZZ_TARGETS); do \
		echo "== $$target ($(FUZZ_SECONDS) s)"; \
		cp -R Fuzz/corpus/$$target $$work/$$target; \
		dict=""; [ -f Fuzz/dictionaries/$$target.dict ] && dict=-dict=Fuzz/dictionaries/$$target.dict; \
		if SWIFT_BACKTRACE=enable=no PARLEY_FUZZ_TARGET=$$target $$bin $$work/$$target $$dict -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=Fuzz/crashes/$$target- $(FUZZ_FLAGS) \
			> $$work/$$target.log 2>&1; then \
			grep -E '^(Done|stat::new_units_added)' $$work/$$target.log || true; \
		else \
			failed="$$failed $$target"; tail -40 $$work/$$target.log; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failures in:$$failed (inputs in Fuzz/crashes/)"; exit 1; fi; \
	echo "fuzz: no crashes in $(FUZZ_TARGETS)"

# The Swift tests under the sanitizers, each in its own build directory (the normal build is
# untouched). AddressSanitizer first, over the whole suite; a toolchain bug in Foundation's
# Process is suppressed (Tests/sanitizers/asan.supp). Then ThreadSanitizer, one test target at
# a time, each bounded by TSAN_TIMEOUT seconds so a hang fails the run instead of stalling it;
# races are fixed in the code, and only ones inside the Swift runtime or Foundation are
# suppressed, each with its reason (Tests/sanitizers/tsan.supp). Locks are ParleySync's
# PThreadMutex, which TSan sees (Synchronization.Mutex parks on raw futexes it cannot see).
TSAN_TIMEOUT ?= 900
TSAN_TARGETS ?= ParleySyncTests ParleyProtocolTests ParleyCoreTests ParleySQLTests ParleySQLiteTests ParleyLogTests ParleyNetTests \
	ParleyServerTests ParleyKitTests parleyTests parley_benchTests
test-sanitize: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS=suppressions=$(CURDIR)/Tests/sanitizers/asan.supp:detect_leaks=0 \
		$(SWIFT) test --skip-build --no-parallel --sanitize=address --scratch-path .build/asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	@failed=""; for target in $(TSAN_TARGETS); do \
		echo "== ThreadSanitizer: $$target (at most $(TSAN_TIMEOUT) s)"; \
		TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/sanitizers/tsan.supp halt_on_error=0 second_deadlock_stack=1" \
			timeout --kill-after=30 $(TSAN_TIMEOUT) $(SWIFT) test --skip-build --no-parallel --sanitize=thread \
			--scratch-path .build/tsan --filter "^$$target\." > .build/tsan/$$target.log 2>&1; rc=$$?; \
		races=$$(grep -c "WARNING: ThreadSanitizer" .build/tsan/$$target.log); \
		if [ $$rc -ne 0 ] || [ $$races -ne 0 ]; then \
			failed="$$failed $$target"; grep -E "✘|WARNING: ThreadSanitizer" .build/tsan/$$target.log | head -20; \
			[ $$rc -eq 124 ] && echo "$$target: timed out after $(TSAN_TIMEOUT) s"; \
			echo "$$target: exit $$rc, $$races race reports (full log: .build/tsan/$$target.log)"; \
		else grep -E "Test run with" .build/tsan/$$target.log | tail -1; fi; \
	done; \
	if [ -n "$$failed" ]; then echo "test-sanitize: ThreadSanitizer failures in:$$failed"; exit 1; fi; \
	echo "test-sanitize: AddressSanitizer and ThreadSanitizer clean"

# A soak test (docs/operations.md, "Soak test"): 1,000 WebSocket clients against a release
# `parley serve` for SOAK_SECONDS (600), with readers that never read and clients that drop
# their connections abruptly; checks memory, latency, that nothing acknowledged is lost, and
# that the server is still healthy. Not part of `make test`.
SOAK_SECONDS ?= 600
SOAK_CLIENTS ?= 1000
soak: test-deps
	$(SWIFT) build -c release --product parley
	$(PYTHON) Tests/soak/soak.py --parley .build/release/parley --seconds $(SOAK_SECONDS) --clients $(SOAK_CLIENTS)

# The kill -9 test of the message log prototypes at length (docs/benchmarks.md, "(i)"): a
# process appending in bursts killed at random SOAK_LOG_CYCLES (300) times per engine, the
# log reopened and checked each time. `make test` runs 30 cycles of each (LogCrashTests).
SOAK_LOG_CYCLES ?= 300
soak-log: deps
	$(SWIFT) build -c release --product parley-bench
	.build/release/parley-bench log-crash --engine segment --cycles $(SOAK_LOG_CYCLES)
	.build/release/parley-bench log-crash --engine lmdb --cycles $(SOAK_LOG_CYCLES)

# Regenerates the settings table in docs/operations.md from the code.
docs: build
	python3 scripts/update-settings-doc.py

clean:
	rm -rf .build $(VENV)

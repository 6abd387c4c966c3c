#!/usr/bin/env bash
# Runs the same short benchmarks against two builds of Parley in one go, alternating, so a
# change can be judged against the run-to-run spread on one machine (docs/benchmarks.md).
#
#   scripts/bench-compare.sh BEFORE_BIN_DIR AFTER_BIN_DIR [ROUNDS]
#
# Each *_BIN_DIR holds a release `parley` and `parley-bench` (swift build -c release). Every
# server is fresh, on loopback, with the abuse limits relaxed as `make bench` does. Prints one
# results table per build (parley-bench report).
#
# Environment: BEFORE_ARGS / AFTER_ARGS, extra `parley serve` flags for each side (the same
# build twice with AFTER_ARGS="--message-log segment" compares a setting); DIRECT_RATE, the
# fixed rate of the first direct run (default 4000); DIRECT_ONLY=1 runs only that one.
set -euo pipefail
before=$1 after=$2 rounds=${3:-2}
direct_rate=${DIRECT_RATE:-4000}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
sources=127.0.0.2-127.0.0.9

run_one() { # label bin_dir results extra_serve_args
    local label=$1 bin=$2 results=$3 extra=$4
    local port idle_port data
    port=$("$bin/parley-bench" free-port)
    data=$(mktemp -d -p "$work")
    # shellcheck disable=SC2086 # the extra flags are words
    "$bin/parley" serve --port "$port" --xmpp-port 0 --data "$data" --log-level warning --password-cost minimum \
        --registrations-per-address 1000000 --ws-rate 1000000 --ws-burst 1000000 --max-queued-requests 100000 $extra &
    local pid=$!
    "$bin/parley-bench" wait-port --port "$port" --timeout 30
    echo "== $label: direct 1:1, 500 pairs, $direct_rate msg/s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
    "$bin/parley-bench" direct --parley-port "$port" --parley-pid "$pid" --pairs 500 --rate "$direct_rate" --duration 5 \
        --source-ips $sources --results "$results" || true
    if [ "${DIRECT_ONLY:-0}" = 1 ]; then
        kill "$pid"; wait "$pid" || true
        return
    fi
    echo "== $label: direct, highest rate with p99 <= 20 ms"
    "$bin/parley-bench" direct --parley-port "$port" --parley-pid "$pid" --pairs 500 --rate 1000 --step-factor 2 --max-rate 64000 \
        --warmup 0.5 --duration 2 --find-max --p99-bound-ms 20 --source-ips $sources --results "$results" || true
    echo "== $label: group of 1,000, 4 senders, 40 msg/s"
    "$bin/parley-bench" group --parley-port "$port" --parley-pid "$pid" --members 1000 --senders 4 --rate 40 --duration 5 \
        --source-ips $sources --results "$results" || true
    kill "$pid"; wait "$pid" || true
    idle_port=$("$bin/parley-bench" free-port)
    data=$(mktemp -d -p "$work")
    "$bin/parley" serve --port "$idle_port" --xmpp-port 0 --data "$data" --log-level warning --password-cost minimum \
        --registrations-per-address 1000000 &
    pid=$!
    "$bin/parley-bench" wait-port --port "$idle_port" --timeout 30
    echo "== $label: 5,000 signed-in idle clients"
    "$bin/parley-bench" native-idle --port "$idle_port" --server-pid "$pid" --count 5000 --idle-window 5 \
        --source-ips $sources --results "$results" || true
    kill "$pid"; wait "$pid" || true
}

for round in $(seq "$rounds"); do
    run_one "before (round $round)" "$before" "$work/before.tsv" "${BEFORE_ARGS:-}"
    run_one "after (round $round)" "$after" "$work/after.tsv" "${AFTER_ARGS:-}"
done
echo; "$before/parley-bench" report --results "$work/before.tsv" --title "before, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo; "$after/parley-bench" report --results "$work/after.tsv" --title "after, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"

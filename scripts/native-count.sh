#!/usr/bin/env bash
# Instructions per native 1:1 message under callgrind, by thread role (docs/benchmarks.md,
# section (r); the method of the history's "The native 1:1 path won back"). The machine has no
# hardware counters, and instructions counted by callgrind hardly move with the neighbours.
#
#   scripts/native-count.sh PARLEY_BIN BENCH_BIN [LABEL]
#   SCENARIO=group scripts/native-count.sh PARLEY_BIN BENCH_BIN [LABEL]
#   SERVER=relay SCENARIO=group scripts/native-count.sh BENCH_BIN BENCH_BIN [LABEL]
#
# Starts PARLEY_BIN serve under callgrind (--separate-threads=yes) on a free loopback port
# with a fresh data directory, lets BENCH_BIN direct send PAIRS (20) pairs at RATE (20)
# messages/s, zeroes the counters SETTLE (3) s after the first text message is stored, dumps
# them WINDOW (15) s later and prints one JSON line from callgrind-roles.py: instructions,
# mallocs, jobs and tasks per message for the event loops, the store's writer and the rest.
# At this rate every message is its own commit. Everything stops at the end (bounded: the
# bench's own duration is DURATION, 240 s). KEEP=1 keeps the dumps (their directory goes to
# stderr) for callgrind_annotate.
#
# SCENARIO=group measures a group's fan-out instead (section (ae)): BENCH_BIN group with
# MEMBERS (200) members online, SENDERS (4) of them sending RATE (4) messages/s in all; the
# line then also has the figures per delivery (MEMBERS - 1 a message).
#
# SERVER=relay counts the bench's bare relay (BENCH_BIN relay-server, the first argument) in
# the same load instead, the baseline a delivery is compared with (section (aq)). It stores
# nothing, so the messages in the window are its publications: the calls of the relay's
# publish path (RELAY_PUBLISH, its symbol) in the dumps; the wait for the first message is
# WARM (10) s after the port opens.
set -euo pipefail
parley=$1 bench=$2 label=${3:-$1}
SCENARIO=${SCENARIO:-direct} WINDOW=${WINDOW:-15} SETTLE=${SETTLE:-3} DURATION=${DURATION:-240}
case "$SCENARIO" in
direct)
    PAIRS=${PAIRS:-20} RATE=${RATE:-20}
    load=(direct --pairs "$PAIRS") fanout=1 ;;
group)
    MEMBERS=${MEMBERS:-200} SENDERS=${SENDERS:-4} RATE=${RATE:-4}
    load=(group --members "$MEMBERS" --senders "$SENDERS") fanout=$((MEMBERS - 1)) ;;
*)
    echo "SCENARIO is direct or group, not $SCENARIO" >&2
    exit 2 ;;
esac
# RelayHub.webSocket(_:didReceiveText:), as callgrind names it (mangled).
SERVER=${SERVER:-parley} WARM=${WARM:-10}
RELAY_PUBLISH=${RELAY_PUBLISH:-'$s12parley_bench8RelayHubC9webSocket_14didReceiveTexty9ParleyNet03WebF10ConnectionC_SStF'}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
case "$SERVER" in
parley)
    serve=("$parley" serve --host 127.0.0.1 --port "$port" --xmpp-port 0 --data "$work" --log-level warning
        --password-cost minimum --registrations-per-address 1000000 --ws-rate 1000000 --ws-burst 1000000
        --max-queued-requests 100000 --ws-auth-timeout 600)
    target=(--parley-port "$port") ;;
relay)
    serve=("$parley" relay-server --host 127.0.0.1 --port "$port")
    target=(--relay-port "$port") ;;
*)
    echo "SERVER is parley or relay, not $SERVER" >&2
    exit 2 ;;
esac
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.%p.out" \
    "${serve[@]}" > "$work/server.log" 2>&1 &
server=$!
bench_pid=
cleanup() {
    [ -n "$bench_pid" ] && kill "$bench_pid" 2>/dev/null
    kill "$server" 2>/dev/null
    wait 2>/dev/null
    if [ -n "${KEEP:-}" ]; then echo "dumps kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
for _ in $(seq 1 240); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.5; done
"$bench" "${load[@]}" "${target[@]}" --rate "$RATE" --duration "$DURATION" --warmup 1 \
    --source-ips 127.0.0.2-127.0.0.9 > "$work/bench.out" 2>&1 &
bench_pid=$!
stored() {
    python3 -c 'import sqlite3, sys
try:
    print(sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
          .execute("SELECT count(*) FROM messages WHERE kind = '"'text'"'").fetchone()[0])
except sqlite3.Error:
    print(0)' "$work/parley.sqlite"
}
if [ "$SERVER" = relay ]; then
    sleep "$WARM"
    sleep "$SETTLE"
    callgrind_control -z "$server" > /dev/null
    sleep "$WINDOW"
    callgrind_control -d "$server" > /dev/null
    python3 "$here/callgrind-roles.py" --fanout "$fanout" --messages-are-calls-to "$RELAY_PUBLISH" "$label" 0 0 \
        "$work"/cg."$server".out.1*
    exit
fi
for _ in $(seq 1 480); do [ "$(stored)" -gt 0 ] && break; sleep 0.5; done
sleep "$SETTLE"
callgrind_control -z "$server" > /dev/null
before=$(stored)
sleep "$WINDOW"
callgrind_control -d "$server" > /dev/null
after=$(stored)
python3 "$here/callgrind-roles.py" --fanout "$fanout" "$label" "$before" "$after" "$work"/cg."$server".out.1*

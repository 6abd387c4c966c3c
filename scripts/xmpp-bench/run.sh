#!/usr/bin/env bash
# The side-by-side Jabber measurement: Parley's XMPP gateway, ejabberd and Prosody on the
# same work (docs/benchmarks-history.md, "Jabber: Parley vs ejabberd vs Prosody").
#
# For each server: start it on loopback on free ports with its own temporary config and data
# directory (plaintext SASL PLAIN allowed, offline storage on), register the same users,
# then for each rate in RATES run the same tsung 1:1 chat scenario while a small probe
# measures latency and /proc/<pid>/stat gives the server's CPU per message (measure.py takes
# the window and the message count from tsung's own log); last, hold IDLE idle signed-in
# sessions and take the server's RSS per session. Every server is stopped at the end, also
# on failure. A rate whose messages were not delivered (tsung got fewer bytes back than it
# sent, or Parley stored fewer messages than were sent) is recorded as invalid, without a
# figure, and the script then exits with status 1.
#
# Usage: scripts/xmpp-bench/run.sh PARLEY_BINARY [RESULTS_FILE]
# Settings (environment): SERVERS ("parley ejabberd prosody"), USERS (100 chat users),
# RATES ("500 1000 2000 4000 8000" messages/s offered), WINDOW (at least 20 s measured per
# rate), PROBE_RATE (20 messages/s), IDLE (2000 sessions), IDLE_PROCESSES (1),
# TSUNG_TIMEOUT (600 s: longest one tsung run may take).
#
# COUNT=1 counts instructions instead (Parley only; the others are skipped): the server runs
# under valgrind's callgrind, the probe pair alone sends COUNT_RATE (5) messages/s, the
# counters are zeroed once COUNT_WARMUP (20) messages are stored and the server keeps up,
# and dumped COUNT_WINDOW (40) s later; count.py divides the instructions by the messages
# stored in between. No tsung and no idle sessions: callgrind runs the server about 50 times
# slower. The count barely moves with the machine's other load; the CPU per message does.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
parley_bin=$(realpath "${1:?usage: run.sh PARLEY_BINARY [RESULTS_FILE]}")
results=${2:-/dev/null}
SERVERS=${SERVERS:-"parley ejabberd prosody"}
USERS=${USERS:-100}
RATES=${RATES:-"500 1000 2000 4000 8000"}
WINDOW=${WINDOW:-20}
TSUNG_TIMEOUT=${TSUNG_TIMEOUT:-600}
PROBE_RATE=${PROBE_RATE:-20}
IDLE=${IDLE:-2000}
IDLE_PROCESSES=${IDLE_PROCESSES:-1}
COUNT=${COUNT:-}
COUNT_RATE=${COUNT_RATE:-5}
COUNT_WINDOW=${COUNT_WINDOW:-40}
COUNT_WARMUP=${COUNT_WARMUP:-20}
# under callgrind only the probe pair chats: no other user is needed, nor 100 users' friendships
if [ -n "$COUNT" ]; then USERS=2; fi
DOMAIN=localhost
PREFIX=user
PASSWORD=benchpass
PROBE_PASSWORD=probepass
tool="python3 $here/xmppbench.py"

# tsung and ejabberd start Erlang's port mapper (epmd) if none runs; stop it after if so.
epmd_before=$(pgrep -x epmd || true)
work=$(mktemp -d -t xmpp-bench.XXXXXX)
chmod 755 "$work"
server_pid=""
stop_server=""
invalid=0
cleanup() {
    if [ -n "$stop_server" ]; then $stop_server || true; fi
    if [ -z "$epmd_before" ] && command -v epmd >/dev/null; then
        # it refuses while a node that is shutting down is still registered
        for _ in $(seq 1 10); do epmd -kill >/dev/null 2>&1 && break; sleep 1; done
    fi
    if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 1 600); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),1)" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "port $1 never opened" >&2; return 1
}
# Waits (at most 120 s) until the process used under 5 % of a core over a second.
wait_idle() {
    local a b hz; hz=$(getconf CLK_TCK)
    for _ in $(seq 1 120); do
        a=$(cpu_ticks "$1"); sleep 1; b=$(cpu_ticks "$1")
        [ $(( (b - a) * 100 )) -lt $(( hz * 5 )) ] && return 0
    done
    log "pid $1 still busy after 120 s"
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
record() { echo "$*" | tee -a "$results"; }

# ---------------------------------------------------------------- Parley
start_parley() {   # [users to register: USERS, befriended]
    local count=${1:-$USERS} dir http
    parley_runs=$(( ${parley_runs:-0} + 1 ))
    dir=$work/parley-$parley_runs
    parley_dir=$dir
    mkdir -p "$dir"
    http=$(free_port); port=$(free_port)
    local wrap=()
    if [ -n "$COUNT" ]; then
        wrap=(valgrind --tool=callgrind --separate-threads=yes "--callgrind-out-file=$dir/cg.%p.out")
    fi
    "${wrap[@]}" "$parley_bin" serve --host 127.0.0.1 --port "$http" --data "$dir" --xmpp-port "$port" \
        --xmpp-domain "$DOMAIN" --password-cost minimum --registrations-per-address 1000000 \
        --max-connections-per-address 0 --log-level warning > "$dir/server.log" 2>&1 &
    server_pid=$!
    stop_server="stop_pid $server_pid"
    wait_port "$http"; wait_port "$port"
    $tool register-http --url "http://127.0.0.1:$http" --prefix $PREFIX --count "$count" --password $PASSWORD >&2
    $tool register-http --url "http://127.0.0.1:$http" --prefix probe --count 2 --password $PROBE_PASSWORD >&2
    # 1:1 chat in Parley needs a friendship: every pair of chat users, and the probe pair.
    if [ "$count" = "$USERS" ]; then
        $tool befriend --port "$port" --prefix $PREFIX --count "$USERS" --password $PASSWORD >&2
        $tool befriend --port "$port" --prefix probe --count 2 --password $PROBE_PASSWORD >&2
        wait_idle "$server_pid"
    fi
}
# Parley keeps every message (it is the history) and takes each stanza id as the message's
# client id, unique per sender; tsung numbers its stanzas from 1 in every run, so a second
# run would repeat ids. Each run therefore gets a fresh server with the same setup.
clear_parley() {   # [users]
    if [ "${parley_used:-}" = yes ] || [ -n "${1:-}" ]; then
        $stop_server; start_parley "${1:-$USERS}"
    fi
    parley_used=yes
}
# The chat messages the server stored (its own count of what reached its message path).
stored_parley() {
    python3 -c 'import sqlite3, sys
print(sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
      .execute("SELECT count(*) FROM messages WHERE kind = '"'text'"'").fetchone()[0])' "$parley_dir/parley.sqlite"
}
# the commit of the checkout the binary was built in (a before/after pair runs one script on two)
version_parley() {
    echo "Parley $(git -C "$(dirname "$parley_bin")" rev-parse --short HEAD 2>/dev/null || echo unknown) ($(basename "$(dirname "$parley_bin")") build)"; }

stop_pid() {
    kill "$1" 2>/dev/null || return 0
    for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$1" 2>/dev/null || true
}

# ---------------------------------------------------------------- ejabberd
ejabberd_ctl() {
    # setpriv, not su: su would drop the open-file limit to 1,024.
    setpriv --reuid ejabberd --regid ejabberd --init-groups env HOME="$work/ejabberd" \
        ejabberdctl --config-dir "$work/ejabberd" --config "$work/ejabberd/ejabberd.yml" \
        --ctl-config "$work/ejabberd/ejabberdctl.cfg" --logs "$work/ejabberd/log" \
        --spool "$work/ejabberd/db" "$@"
}
start_ejabberd() {
    local dir=$work/ejabberd
    mkdir -p "$dir/log" "$dir/db"
    port=$(free_port)
    node="bench$$@localhost"
    sed -e "s/@PORT@/$port/g" -e "s/@DOMAIN@/$DOMAIN/g" "$here/ejabberd.yml.in" > "$dir/ejabberd.yml"
    cp /etc/ejabberd/inetrc "$dir/inetrc"
    cat > "$dir/ejabberdctl.cfg" <<EOC
ERLANG_NODE=$node
POLL=true
ERL_PROCESSES=1000000
ERL_MAX_PORTS=65536
ERL_OPTIONS="-env ERL_CRASH_DUMP_BYTES 0"
INET_DIST_INTERFACE=127.0.0.1
ERL_EPMD_ADDRESS=127.0.0.1
EJABBERD_PID_PATH=$dir/ejabberd.pid
EOC
    chown -R ejabberd:ejabberd "$dir"
    stop_server="ejabberd_ctl stop"
    ejabberd_ctl start
    ejabberd_ctl started
    server_pid=$(pgrep -f "beam.smp.*$node" | head -1)
    wait_port "$port"
    $tool register-ibr --port "$port" --prefix $PREFIX --count "$IDLE_USERS" --password $PASSWORD >&2
    $tool register-ibr --port "$port" --prefix probe --count 2 --password $PROBE_PASSWORD >&2
}
stored_ejabberd() { :; }   # no count of its own: tsung's bytes are the check
clear_ejabberd() {   # [ignored]
    ejabberd_ctl delete_old_messages 0 >/dev/null; }
version_ejabberd() { echo "ejabberd $(dpkg-query -W -f='${Version}' ejabberd) (Debian, Mnesia)"; }

# ---------------------------------------------------------------- Prosody
start_prosody() {
    local dir=$work/prosody
    mkdir -p "$dir/data"
    port=$(free_port)
    sed -e "s/@PORT@/$port/g" -e "s/@DOMAIN@/$DOMAIN/g" -e "s|@DIR@|$dir|g" "$here/prosody.cfg.lua.in" > "$dir/prosody.cfg.lua"
    chown -R prosody:prosody "$dir"
    setpriv --reuid prosody --regid prosody --init-groups prosody --config "$dir/prosody.cfg.lua" -F > "$dir/stdout.log" 2>&1 &
    server_pid=$!
    stop_server="stop_pid $server_pid"
    wait_port "$port"
    $tool register-ibr --port "$port" --prefix $PREFIX --count "$IDLE_USERS" --password $PASSWORD >&2
    $tool register-ibr --port "$port" --prefix probe --count 2 --password $PROBE_PASSWORD >&2
}
stored_prosody() { :; }
clear_prosody() {   # [ignored]
    rm -rf "$work/prosody/data/$DOMAIN/offline"; }
version_prosody() { echo "Prosody $(dpkg-query -W -f='${Version}' prosody) (Debian, internal storage, $(lua5.4 -v 2>/dev/null | cut -d' ' -f1-2 || echo Lua))"; }

# ---------------------------------------------------------------- the runs
run_rate() {   # server rate
    local server=$1 rate=$2 think loops arrival settle tdir sampler stored row
    clear_$server   # before anything uses $port: Parley restarts on a new one
    think=$(python3 -c "print(round($USERS / $rate, 6))")
    # users arrive 50 a second; each waits `settle` seconds after signing in, so the last
    # has signed in before the first message. The messages go on for WINDOW + 20 s: the
    # measured window is tsung's 10 s dumps of that phase less the first and the last.
    arrival=$(( USERS / 50 + 1 ))
    settle=$(( arrival + 2 ))
    loops=$(python3 -c "import math; print(math.ceil(($WINDOW + 20) * $rate / $USERS))")
    tdir=$work/tsung-$server-$rate
    mkdir -p "$tdir"
    sed -e "s/@PORT@/$port/g" -e "s/@DOMAIN@/$DOMAIN/g" -e "s/@USERS@/$USERS/g" \
        -e "s/@ARRIVAL@/$(( arrival + 5 ))/g" -e "s/@PREFIX@/$PREFIX/g" \
        -e "s/@PASSWORD@/$PASSWORD/g" -e "s/@THINK@/$think/g" -e "s/@LOOPS@/$loops/g" \
        -e "s/@SETTLE@/$settle/g" "$here/tsung.xml.in" > "$tdir/tsung.xml"
    # the server's CPU time and the load average, every half second, for measure.py
    (while kill -0 "$server_pid" 2>/dev/null; do
        echo "$(date +%s.%N) $(cpu_ticks "$server_pid") $(cut -d' ' -f1 /proc/loadavg)"; sleep 0.5
     done) > "$tdir/cpu.txt" 2>/dev/null &
    sampler=$!
    # the probe sends from now until tsung is done; measure.py keeps its messages of the window
    $tool probe --port "$port" --sender probe1 --receiver probe2 --password $PROBE_PASSWORD \
        --rate "$PROBE_RATE" --duration "$TSUNG_TIMEOUT" --grace 3 --samples "$tdir/probe.txt" \
        > "$tdir/probe.json" 2> "$tdir/probe.err" &
    local probe_pid=$!
    timeout "$TSUNG_TIMEOUT" tsung -f "$tdir/tsung.xml" -l "$tdir/log" start > "$tdir/tsung.out" 2>&1 \
        || log "$server: tsung ended with status $? (see $tdir/tsung.out)"
    sleep 2   # what is still on its way arrives; then the probe stops sending
    kill -TERM "$probe_pid" 2>/dev/null || true
    wait "$probe_pid" || log "$server: the probe failed: $(tail -c 300 "$tdir/probe.err")"
    kill "$sampler" 2>/dev/null || true
    stored=$(stored_$server)
    row=$(python3 "$here/measure.py" "$server" "$rate" "$(find "$tdir/log" -name tsung.log | head -1)" \
        "$tdir/cpu.txt" "$tdir/probe.txt" "$(getconf CLK_TCK)" $stored)
    record "$row"
    if [[ $row == *'"invalid"'* ]]; then
        invalid=$(( invalid + 1 ))
        log "INVALID RUN: $server at $rate messages/s: $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["invalid"])' "$row")"
    fi
}

run_idle() {   # server
    local server=$1 json
    clear_$server "$IDLE"
    json=$($tool idle --port "$port" --server-pid "$server_pid" --prefix $PREFIX --first 1 --count "$IDLE" \
        --processes "$IDLE_PROCESSES" --password $PASSWORD --settle 5)
    record "{\"kind\": \"idle\", \"server\": \"$server\", \"result\": $json}"
}

run_count() {   # Parley under callgrind (COUNT=1)
    local probe_pid before after row
    $tool probe --port "$port" --sender probe1 --receiver probe2 --password $PROBE_PASSWORD \
        --rate "$COUNT_RATE" --duration "$TSUNG_TIMEOUT" --grace 3 --samples "$parley_dir/probe.txt" \
        > "$parley_dir/probe.json" 2> "$parley_dir/probe.err" &
    probe_pid=$!
    # Signing in and the first messages under callgrind take seconds, and the messages sent
    # meanwhile queue up: zero the counters once COUNT_WARMUP are stored and the server is less
    # than a second behind the probe (a backlog would be committed several messages at once,
    # fewer instructions each, and the figure would depend on how far behind it was).
    local sent stored
    for _ in $(seq 1 600); do
        sent=$(grep -c '^sent' "$parley_dir/probe.txt" 2>/dev/null || true); stored=$(stored_parley)
        [ "$stored" -ge "$COUNT_WARMUP" ] && [ $(( stored + COUNT_RATE )) -ge "${sent:-0}" ] && break
        sleep 0.5
    done
    callgrind_control -z "$server_pid" > /dev/null
    before=$(stored_parley)
    sleep "$COUNT_WINDOW"
    callgrind_control -d "$server_pid" > /dev/null
    after=$(stored_parley)
    kill -TERM "$probe_pid" 2>/dev/null || true
    wait "$probe_pid" || log "parley: the probe failed: $(tail -c 300 "$parley_dir/probe.err")"
    row=$(python3 "$here/count.py" parley "$before" "$after" "$COUNT_WINDOW" "$parley_dir/probe.json" \
        "$parley_dir"/cg."$server_pid".out.1*)
    record "$row"
    if [[ $row == *'"invalid"'* ]]; then invalid=$(( invalid + 1 )); log "INVALID COUNT: $row"; fi
}

IDLE_USERS=$(( IDLE > USERS ? IDLE : USERS ))
log "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -m | awk '/Mem:/ {print $2}') MiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
for server in $SERVERS; do
    if [ -n "$COUNT" ] && [ "$server" != parley ]; then log "COUNT: only Parley is counted; $server skipped"; continue; fi
    log "starting $server"
    if [ "$server" = parley ]; then start_$server "$USERS"; else start_$server; fi
    record "{\"kind\": \"server\", \"server\": \"$server\", \"version\": \"$(version_$server)\", \"pid\": $server_pid}"
    if [ -n "$COUNT" ]; then
        run_count; $stop_server; stop_server=""; continue
    fi
    for rate in $RATES; do
        log "$server: $rate messages/s"
        run_rate "$server" "$rate"
    done
    log "$server: $IDLE idle sessions"
    run_idle "$server"
    $stop_server
    stop_server=""
done
log "done"
if [ "$invalid" -gt 0 ]; then
    log "FAILED: $invalid of the runs above did not deliver their messages; their figures are left out"
    exit 1
fi

#!/usr/bin/env python3
"""Instructions per message from callgrind's dumps, for run.sh's COUNT mode.

The machine the benchmarks run on is a VM without hardware performance counters (`perf stat -e
instructions` is "not supported"), and its wall-clock CPU figures move with whatever else runs
beside the server. Instructions counted by valgrind's callgrind hardly move with the
neighbours, so they are what tells two builds apart. run.sh zeroes the counters of a server
running under callgrind once messages flow, notes how many messages the server had stored,
waits, dumps the counters and notes the count again; this script divides.

Each dump file (one per thread with --separate-threads=yes) names its thread in a "thread:"
line and ends its counts with "summary:" (or "totals:") followed by the events' totals; the
first event is Ir, instructions executed (in user space: callgrind sees no kernel time).

The probe's own totals (its JSON line) go beside the figure: a server that fell behind under
callgrind would commit several messages at once and so count fewer instructions for each.

Usage: count.py SERVER STORED_BEFORE STORED_AFTER SECONDS PROBE_JSON DUMP_FILE...
Prints one JSON line (kind "instructions"); a window without messages is invalid."""
import json
import sys


def dump_totals(path):
    """(thread number or None, instructions) of one callgrind dump file."""
    thread, total = None, None
    for line in open(path):
        if line.startswith("thread:"):
            thread = int(line.split()[1])
        elif line.startswith("summary:") or (line.startswith("totals:") and total is None):
            total = int(line.split()[1])
    if total is None:
        raise ValueError(f"{path}: no summary line (not a callgrind dump?)")
    return thread, total


def probe_result(path):
    """The probe's last JSON line, or None if it printed none (it failed)."""
    try:
        lines = [line for line in open(path) if line.strip().startswith("{")]
    except OSError:
        return None
    return json.loads(lines[-1]) if lines else None


def main(server, before, after, seconds, probe_json, *files):
    messages = int(after) - int(before)
    per_thread = {}
    for path in files:
        thread, total = dump_totals(path)
        per_thread[thread or 1] = per_thread.get(thread or 1, 0) + total
    total = sum(per_thread.values())
    row = {"kind": "instructions", "server": server, "window_s": float(seconds),
           "messages": messages, "instructions": total, "probe": probe_result(probe_json)}
    if not files:
        row["invalid"] = "callgrind wrote no dump"
    elif messages <= 0:
        row["invalid"] = f"no message was stored in the window ({before} before, {after} after)"
    else:
        row["instructions_per_msg"] = round(total / messages)
        # the busiest threads first: the event loops and the store's writer stand out
        row["threads_per_msg"] = {str(t): round(n / messages)
                                  for t, n in sorted(per_thread.items(), key=lambda item: -item[1])
                                  if n * 100 >= total}
    print(json.dumps(row))


if __name__ == "__main__":
    main(*sys.argv[1:])

#!/usr/bin/env python3
"""Instructions and calls per message from callgrind's per-thread dumps, by thread role.

scripts/native-count.sh runs `parley serve` under callgrind with --separate-threads=yes, zeroes
the counters once messages flow, dumps them WINDOW seconds later and notes how many text
messages the server stored in between; this script divides. Threads are told apart by what
they call (the dumps do not carry thread names): the store's writer is the thread that syncs
(`fdatasync`/`fsync`), an event loop the one that waits in `epoll_wait`, anything else
"other" (readers, the blocking pool, the runtime's threads).

Besides instructions (Ir, in user space: callgrind sees no kernel time) it counts calls to
`malloc` (heap allocations), `swift_job_run_on_serial_and_task_executor` (jobs an event loop
ran for a task or an actor), `swift_task_create_common` (tasks made) and `epoll_wait` (loop
turns that waited).

Usage: callgrind-roles.py [--fanout N] LABEL STORED_BEFORE STORED_AFTER DUMP_FILE...
Prints one JSON line; a window without messages is invalid. With --fanout N (a group's N
deliveries a message) each role also has its instructions and mallocs per delivery."""
import json
import re
import sys

COUNTED = ("malloc", "swift_job_run_on_serial_and_task_executor", "swift_task_create_common", "epoll_wait",
           "fdatasync", "fsync")
NAMED = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def read_dump(path):
    """(instructions, {counted callee: calls}) of one thread's dump."""
    names, calls, total = {}, {name: 0 for name in COUNTED}, None
    callee = None
    for line in open(path, errors="replace"):
        if line.startswith(("fn=", "cfn=")):
            match = NAMED.match(line.rstrip("\n"))
            if match:
                ident, name = match.groups()
                if name is not None:
                    names[ident] = name
                if line.startswith("cfn="):
                    callee = names.get(ident)
        elif line.startswith("calls="):
            if callee in calls:
                calls[callee] += int(line.split()[0][len("calls="):])
        elif line.startswith("summary:") or (line.startswith("totals:") and total is None):
            total = int(line.split()[1])
    if total is None:
        raise ValueError(f"{path}: no summary line (not a callgrind dump?)")
    return total, calls


def role(calls):
    if calls["fdatasync"] or calls["fsync"]:
        return "writer"
    if calls["epoll_wait"]:
        return "loops"
    return "other"


def main(label, before, after, *files, fanout=1):
    messages = int(after) - int(before)
    roles = {}
    for path in files:
        total, calls = read_dump(path)
        entry = roles.setdefault(role(calls), {"threads": 0, "instructions": 0, **{name: 0 for name in COUNTED}})
        entry["threads"] += 1
        entry["instructions"] += total
        for name, count in calls.items():
            entry[name] += count
    row = {"kind": "native-instructions", "build": label, "messages": messages}
    if not files:
        row["invalid"] = "callgrind wrote no dump"
    elif messages <= 0:
        row["invalid"] = f"no message was stored in the window ({before} before, {after} after)"
    else:
        total = sum(entry["instructions"] for entry in roles.values())
        row["instructions_per_msg"] = round(total / messages)
        for name, entry in sorted(roles.items()):
            row[name] = {"threads": entry["threads"], "instructions_per_msg": round(entry["instructions"] / messages),
                         **{f"{callee}_per_msg": round(entry[callee] / messages, 2) for callee in COUNTED
                            if entry[callee]}}
            if fanout > 1:
                deliveries = messages * fanout
                row[name]["instructions_per_delivery"] = round(entry["instructions"] / deliveries)
                row[name]["malloc_per_delivery"] = round(entry["malloc"] / deliveries, 3)
        if fanout > 1:
            row["deliveries_per_msg"] = fanout
    print(json.dumps(row))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    fanout = 1
    if arguments[:1] == ["--fanout"]:
        fanout = int(arguments[1])
        arguments = arguments[2:]
    main(*arguments, fanout=fanout)

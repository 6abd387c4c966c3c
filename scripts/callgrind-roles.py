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

Usage: callgrind-roles.py [--fanout N] [--messages-are-calls-to NAME] LABEL STORED_BEFORE STORED_AFTER DUMP_FILE...
Prints one JSON line; a window without messages is invalid. With --fanout N (a group's N
deliveries a message) each role also has its instructions, mallocs and mutex locks per delivery.
With --messages-are-calls-to NAME the messages are not the stored counts' difference but the
calls of the function named NAME, as the dump names it (a server that stores nothing: the
bench's relay, whose publish path is one function)."""
import json
import re
import sys

COUNTED = ("malloc", "swift_job_run_on_serial_and_task_executor", "swift_task_create_common", "epoll_wait",
           "fdatasync", "fsync", "pthread_mutex_lock")
NAMED = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def read_dump(path, messages_fn=None):
    """(instructions, {counted callee: calls}) of one thread's dump; with `messages_fn`, the
    calls of the function of that (mangled) name are counted too, as "messages"."""
    names, calls, total = {}, {name: 0 for name in COUNTED}, None
    calls["messages"] = 0
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
                    callee = callee and callee.split("@", 1)[0]
        elif line.startswith("calls="):
            count = int(line.split()[0][len("calls="):])
            if callee in COUNTED:
                calls[callee] += count
            elif messages_fn and callee == messages_fn:
                calls["messages"] += count
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


def main(label, before, after, *files, fanout=1, messages_fn=None):
    messages = int(after) - int(before)
    roles = {}
    dumps = [(path, *read_dump(path, messages_fn)) for path in files]
    if messages_fn:
        messages = sum(calls["messages"] for _, _, calls in dumps)
    for path, total, calls in dumps:
        entry = roles.setdefault(role(calls), {"threads": 0, "instructions": 0, **{name: 0 for name in COUNTED}})
        entry["threads"] += 1
        entry["instructions"] += total
        for name in COUNTED:
            entry[name] += calls[name]
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
                row[name]["locks_per_delivery"] = round(entry["pthread_mutex_lock"] / deliveries, 3)
        if fanout > 1:
            row["deliveries_per_msg"] = fanout
    print(json.dumps(row))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    fanout, messages_fn = 1, None
    while arguments[:1] in (["--fanout"], ["--messages-are-calls-to"]):
        if arguments[0] == "--fanout":
            fanout = int(arguments[1])
        else:
            messages_fn = arguments[1]
        arguments = arguments[2:]
    main(*arguments, fanout=fanout, messages_fn=messages_fn)

#!/usr/bin/env python3
"""One rate of scripts/xmpp-bench/run.sh, measured from what happened rather than from a plan.

tsung's start-up takes from a few seconds to a minute on a busy machine, so a window timed from
its launch may hold no traffic at all (an earlier version reported a few µs of CPU per message
that way, for every server). Here the window is taken from tsung's own log: tsung writes its
counters every 10 s ("# stats: dump at EPOCH"), and the measured window is the dumps of the
message phase without its first and last (users still arriving or already leaving). The
server's CPU over exactly that window (sampled every half second by run.sh) is divided by the
messages tsung counted in it plus the probe's, and the probe's latencies are those of its
messages sent in the window.

The run is invalid, and no figure is given for it, when
  - the message phase had no steady dump (raise WINDOW), or
  - far fewer messages were delivered than sent by the end of the run (2 s after tsung's last
    message: lost, or still queued in a server that fell behind; either way the server did not
    do the work the window counts): tsung's bytes received are under
    DELIVERED_SHARE of its bytes sent (each delivered chat stanza is larger than the one sent,
    so a server that passes on every message gives tsung more bytes than it sent), or, for a
    server that counts them (Parley: the messages stored), its count is under DELIVERED_SHARE
    of tsung's and the probe's messages.

Usage: measure.py SERVER RATE TSUNG_LOG CPU_SAMPLES PROBE_SAMPLES HZ [STORED]
Prints one JSON line (kind "chat")."""
import json
import sys

from xmppbench import percentile

DELIVERED_SHARE = 0.9
# The offered rate counts as reached when tsung sent at least this share of it.
OFFERED_SHARE = 0.9


def tsung_dumps(path):
    """[(epoch, {stat: [numbers]})] in order, one per dump of tsung.log."""
    dumps = []
    for line in open(path):
        if line.startswith("# stats: dump at "):
            dumps.append((int(line.split()[-1]), {}))
        elif line.startswith("stats: ") and dumps:
            parts = line.split()
            dumps[-1][1][parts[1]] = [float(x) for x in parts[2:]]
    return dumps


def interpolate(samples, at):
    """The value of a sampled counter at `at`, from [(epoch, value)] in order."""
    before = [s for s in samples if s[0] <= at]
    after = [s for s in samples if s[0] >= at]
    if not before or not after:
        return None
    (t0, v0), (t1, v1) = before[-1], after[0]
    return v0 if t1 == t0 else v0 + (v1 - v0) * (at - t0) / (t1 - t0)


def main(server, rate, tsung_log, cpu_file, probe_file, hz, stored=None):
    rate, hz = int(rate), int(hz)
    row = {"kind": "chat", "server": server, "rate": rate}
    problems = []
    dumps = tsung_dumps(tsung_log)
    # (start, end, messages) of each dump; the first dump covers the 10 s before it
    intervals, previous = [], None
    for epoch, stats in dumps:
        start = previous if previous is not None else epoch - 10
        intervals.append((start, epoch, int(stats.get("tr_msg", [0])[0])))
        previous = epoch
    phase = [i for i in intervals if i[2] > 0]
    steady = [i for i in phase[1:-1] if i[1] - i[0] >= 5]
    def total(name):   # a counter's running total: the last number of its newest line
        return int(max((stats[name][-1] for _, stats in dumps if name in stats), default=0))
    # (a transaction's line ends with the count before its dump, so its dumps are summed)
    total_sent = sum(i[2] for i in intervals)
    bytes_sent, bytes_received = total("size_sent"), total("size_rcv")
    errors = {name[len("error_"):]: total(name) for name in {n for _, s in dumps for n in s if n.startswith("error")}}
    row.update({"tsung_messages": total_sent, "tsung_bytes_sent": bytes_sent,
                "tsung_bytes_received": bytes_received, "tsung_errors": errors,
                "tsung_users": total("users_count")})

    probe_sent, probe_received = {}, {}
    for line in open(probe_file):
        parts = line.split()
        if parts[0] == "sent":
            probe_sent[int(parts[1])] = float(parts[2])
        elif parts[0] == "received":
            probe_received[int(parts[1])] = float(parts[3])
    row["probe_total"] = {"sent": len(probe_sent), "received": len(probe_received)}

    if not steady:
        problems.append(f"no steady 10 s dump in tsung's message phase ({len(phase)} dumps with messages); raise WINDOW")
    else:
        a, b = steady[0][0], steady[-1][1]
        messages = sum(i[2] for i in steady)
        in_window = [n for n, t in probe_sent.items() if a <= t < b]
        latencies = sorted(probe_received[n] for n in in_window if n in probe_received)
        samples = [(float(t), float(ticks), float(load)) for t, ticks, load in
                   (line.split() for line in open(cpu_file) if line.strip())]
        ticks_a, ticks_b = interpolate([(t, c) for t, c, _ in samples], a), interpolate([(t, c) for t, c, _ in samples], b)
        loads = [load for t, _, load in samples if a <= t <= b]
        row.update({"window_s": b - a, "window_start": a, "tsung_window_messages": messages,
                    "achieved_rate": round(messages / (b - a)), "load1": [min(loads, default=None), max(loads, default=None)],
                    "probe": {"sent": len(in_window), "received": len(latencies),
                              "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
                              "max_ms": latencies[-1] if latencies else None}})
        row["offered_reached"] = messages / (b - a) >= OFFERED_SHARE * rate
        if ticks_a is None or ticks_b is None:
            problems.append("the CPU samples do not cover the window")
        else:
            cpu = (ticks_b - ticks_a) / hz
            row.update({"server_cpu_s": round(cpu, 2), "server_cores": round(cpu / (b - a), 2),
                        "cpu_us_per_msg": round(cpu * 1e6 / (messages + len(in_window)), 1)})

    if bytes_received < DELIVERED_SHARE * bytes_sent:
        problems.append(f"tsung received {bytes_received} bytes for {bytes_sent} sent: messages were not delivered "
                        "by the end of the run (lost, or the server fell behind)")
    if stored is not None:
        offered = total_sent + len(probe_sent)
        row["server_stored"] = int(stored)
        if int(stored) < DELIVERED_SHARE * offered:
            problems.append(f"the server stored {stored} messages of {offered} sent by the end of the run "
                            "(lost, or the server fell behind)")
    if problems:
        row["invalid"] = "; ".join(problems)
        row.pop("cpu_us_per_msg", None)
        row.pop("server_cores", None)
    print(json.dumps(row))


if __name__ == "__main__":
    main(*sys.argv[1:])

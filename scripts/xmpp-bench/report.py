#!/usr/bin/env python3
"""Turns the JSON lines of scripts/xmpp-bench/run.sh into the Markdown tables of
docs/benchmarks.md, section (n) ("Jabber: Parley, ejabberd and Prosody in one run"), and of
the older runs in docs/benchmarks-history.md.

A rate counts as held when tsung sent at least 90 % of the offered rate in the measured window
without errors and every probe message of the window arrived, with p99 under one second. A run
that measure.py found invalid (its messages were not delivered) shows as INVALID, never with a
figure."""
import json
import sys

HELD_P99_MS = 1000


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip().startswith("{")]
    servers = [r["server"] for r in rows if r["kind"] == "server"]
    servers = list(dict.fromkeys(servers))
    chats = [r for r in rows if r["kind"] == "chat"]
    rates = sorted({r["rate"] for r in chats})

    def cell(server, rate, fn):
        found = [r for r in chats if r["server"] == server and r["rate"] == rate]
        return fn(found[-1]) if found else "—"

    def held(r):
        p = r.get("probe", {})
        return (not r.get("invalid") and not r.get("tsung_errors") and r.get("offered_reached")
                and p.get("sent") and p.get("received") == p.get("sent")
                and p.get("p99_ms") is not None and p["p99_ms"] < HELD_P99_MS)

    def p99(r):
        p = r.get("probe", {})
        if not p.get("received"):
            return f"none of {p.get('sent', 0)} arrived"
        lost = p["sent"] - p["received"]
        return f"{p['p99_ms']:.0f} ms" + (f" ({lost} lost)" if lost else "")

    def cpu(r):
        if r.get("invalid"):
            return "INVALID"
        return f"{r['cpu_us_per_msg']:,.0f} ({r['server_cores']:.2f})"

    def load(r):
        low, high = r.get("load1") or [None, None]
        return "—" if low is None else f"{low:.1f}–{high:.1f}"

    print("| server | version |\n| --- | --- |")
    for r in rows:
        if r["kind"] == "server":
            print(f"| {r['server']} | {r['version']} |")
    header = "| offered msg/s | " + " | ".join(servers) + " |\n| --- |" + " --- |" * len(servers)
    print("\nHeld (✔: every probe message arrived, p99 < 1 s, no tsung errors):\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, lambda r: "✔" if held(r) else "✘") for s in servers) + " |")
    print("\nProbe p99 latency:\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, p99) for s in servers) + " |")
    print("\nMessages a second tsung sent in the measured window (its own count):\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, lambda r: f"{r.get('achieved_rate', 0):,}") for s in servers) + " |")
    print("\nServer CPU per message (µs; cores busy):\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, cpu) for s in servers) + " |")
    print("\nLoad average (1 min) during the window:\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, load) for s in servers) + " |")
    print("\nIdle signed-in sessions:\n")
    print("| server | sessions | RSS before → after | RSS per session |\n| --- | --- | --- | --- |")
    for r in rows:
        if r["kind"] == "idle":
            x = r["result"]
            print(f"| {r['server']} | {x['sessions']:,} ({x['failed']} failed) | {x['rss_before_kib'] / 1024:.1f} → "
                  f"{x['rss_after_kib'] / 1024:.1f} MiB | {x['kib_per_session']} KiB |")
    # One table, the servers side by side: what one run measured of each at the same rates.
    idle = {r["server"]: r["result"] for r in rows if r["kind"] == "idle"}
    print("\nSide by side (one run):\n")
    print("| measure | " + " | ".join(servers) + " |\n| --- |" + " --- |" * len(servers))
    for rate in rates:
        print(f"| CPU µs per message at {rate:,} msg/s | "
              + " | ".join(cell(s, rate, lambda r: cpu(r).split(" (")[0] + ("" if held(r) else " ✘")) for s in servers) + " |")
    print("| RSS per idle session | " + " | ".join(f"{idle[s]['kib_per_session']} KiB" if s in idle else "—" for s in servers) + " |")
    invalid = [r for r in chats if r.get("invalid")]
    for r in invalid:
        print(f"\nINVALID: {r['server']} at {r['rate']:,} msg/s: {r['invalid']}")


if __name__ == "__main__":
    main(sys.argv[1])

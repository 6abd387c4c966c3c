#!/usr/bin/env python3
"""Turns the JSON lines of scripts/xmpp-bench/run.sh into the Markdown tables of
docs/benchmarks-history.md ("Jabber: Parley vs ejabberd vs Prosody").

A rate counts as held when tsung sent at least 95 % of the planned messages without errors and
every probe message arrived with p99 under one second."""
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
        return (not r.get("tsung_errors") and p.get("sent") and p.get("received") == p.get("sent")
                and p.get("p99_ms") is not None and p["p99_ms"] < HELD_P99_MS)

    def p99(r):
        p = r.get("probe", {})
        if not p.get("received"):
            return f"none of {p.get('sent', 0)} arrived"
        lost = p["sent"] - p["received"]
        return f"{p['p99_ms']:.0f} ms" + (f" ({lost} lost)" if lost else "")

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
    print("\nServer CPU per message (µs; cores busy):\n")
    print(header)
    for rate in rates:
        print(f"| {rate:,} | " + " | ".join(cell(s, rate, lambda r: f"{r['cpu_us_per_msg']:,.0f} ({r['server_cores']:.2f})") for s in servers) + " |")
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
              + " | ".join(cell(s, rate, lambda r: f"{r['cpu_us_per_msg']:,.0f}" + ("" if held(r) else " ✘")) for s in servers) + " |")
    print("| RSS per idle session | " + " | ".join(f"{idle[s]['kib_per_session']} KiB" if s in idle else "—" for s in servers) + " |")
    loads = [r["load1"] for r in chats]
    if loads:
        print(f"\nLoad average (1 min) at the end of each window: {min(loads)}–{max(loads)}.")


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""Helpers for scripts/xmpp-bench/run.sh: user setup, a latency probe and idle sessions for
any XMPP server, with nothing but the Python standard library.

The XMPP client is xmppclient.py's, deliberately tiny.

Subcommands (all print one JSON object on the last line of stdout):
  register-http  users through Parley's POST /v1/auth/register
  register-ibr   users through in-band registration (XEP-0077; ejabberd, Prosody)
  befriend       makes every pair of users friends (Parley: 1:1 chat needs a friendship)
  probe          two clients; one sends timestamped messages at a fixed low rate to the other
                 (until SIGTERM), each send and arrival noted with its time
  idle           holds signed-in idle sessions, reports the server's RSS per session
"""
import argparse
import asyncio
import json
import os
import re
import signal
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from xmppclient import Client, XMPPError

def names(args):
    return [f"{args.prefix}{i}" for i in range(args.first, args.first + args.count)]


def password_of(args, name):
    # tsung's ts_jabber derives each password as the prefix followed by the user's number.
    return args.password + name[len(args.prefix):]


async def bounded(coroutines, limit):
    gate = asyncio.Semaphore(limit)

    async def run(c):
        async with gate:
            return await c

    return await asyncio.gather(*(run(c) for c in coroutines))


def cmd_register_http(args):
    def one(name):
        body = json.dumps({"username": name, "password": password_of(args, name)}).encode()
        request = urllib.request.Request(args.url + "/v1/auth/register", data=body,
                                         headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            if error.code == 409:  # username_taken: registered by an earlier run
                return 409
            raise XMPPError(f"register {name}: {error.code} {error.read()[:200]!r}")

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(one, names(args)))
    print(json.dumps({"registered": len(statuses), "seconds": round(time.monotonic() - started, 1)}))


def cmd_register_ibr(args):
    async def one(name):
        client = Client(args.host, args.port, args.domain)
        try:
            await client.open()
            await client.register(name, password_of(args, name))
        finally:
            client.close()

    async def main():
        started = time.monotonic()
        await bounded([one(n) for n in names(args)], 32)
        print(json.dumps({"registered": args.count, "seconds": round(time.monotonic() - started, 1)}))

    asyncio.run(main())


def cmd_befriend(args):
    """Every pair asks each other: first the lower-numbered asks the higher, then the answer
    the other way makes them friends (a request both ways is a friendship)."""
    users = names(args)

    async def main():
        clients = {}
        for name in users:
            client = Client(args.host, args.port, args.domain)
            await client.open()
            await client.sign_in(name, password_of(args, name), "setup")
            clients[name] = client
        started = time.monotonic()
        for phase in (0, 1):
            for i, name in enumerate(users):
                others = users[i + 1:] if phase == 0 else users[:i]
                clients[name].send("".join(f"<presence type='subscribe' to='{o}@{args.domain}'/>" for o in others))
            await asyncio.gather(*(c.ping(f"done{phase}") for c in clients.values()))
        # Check: the roster of the first and last users lists everyone else.
        for name in (users[0], users[-1]):
            c = clients[name]
            c.buffer = ""
            c.send("<iq type='get' id='roster1'><query xmlns='jabber:iq:roster'/></iq>")
            head = await c.wait_for(re.compile(r"id=.roster1.[^>]*>.*?</iq>", re.S), timeout=120)
            roster = head[head.rfind("id='roster1'") if "id='roster1'" in head else head.rfind('id="roster1"'):]
            # a friend is an item with subscription 'both'; a request still pending is an item too
            items = len(re.findall(r"<item\b[^>]*subscription=.both.", roster))
            if items < len(users) - 1:
                raise XMPPError(f"{name} has {items} friends, expected {len(users) - 1}: {roster[:300]}")
        # Each user signs in once with presence: Parley then hands over (and marks read) the
        # "now friends" notes of every new conversation, so later sign-ins start clean, as a
        # user's would on a server in use.
        for c in clients.values():
            c.send("<presence/>")
        await asyncio.gather(*(c.ping("done2") for c in clients.values()))
        for c in clients.values():
            c.close()
        print(json.dumps({"users": len(users), "friendships": len(users) * (len(users) - 1) // 2,
                          "seconds": round(time.monotonic() - started, 1)}))

    asyncio.run(main())


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def cmd_probe(args):
    """Sender and receiver sign in; the sender sends `--rate` messages a second, each body
    carrying its number and send time, until `--duration` seconds have passed or the probe is
    sent SIGTERM; `--grace` seconds later it prints the totals. With `--samples`, every send and
    every arrival is also a line of that file ("sent N EPOCH_S", "received N EPOCH_S
    LATENCY_MS"), so that a run can keep only the messages of its measured window
    (measure.py): when the load generator's traffic starts is not known in advance."""
    body_pattern = re.compile(r"<body>probe (\d+) (\d+)</body>")
    samples = open(args.samples, "w", buffering=1) if args.samples else None

    def note(line):
        if samples:
            samples.write(line + "\n")

    async def main():
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        sender = Client(args.host, args.port, args.domain)
        receiver = Client(args.host, args.port, args.domain)
        await sender.open()
        await sender.sign_in(args.sender, args.password + args.sender.lstrip("abcdefghijklmnopqrstuvwxyz"), "probe")
        await receiver.open()
        await receiver.sign_in(args.receiver, args.password + args.receiver.lstrip("abcdefghijklmnopqrstuvwxyz"), "probe")
        receiver.send("<presence/>")
        sender.send("<presence/>")
        latencies, seen = [], set()
        disconnects = 0

        async def receive():
            nonlocal disconnects
            while True:
                try:
                    await receiver.read_some(3600)
                except (XMPPError, ConnectionError, asyncio.TimeoutError):
                    disconnects += 1
                    return
                now = time.monotonic_ns()
                for match in body_pattern.finditer(receiver.buffer):
                    number, sent = int(match.group(1)), int(match.group(2))
                    if number not in seen:
                        seen.add(number)
                        latencies.append((now - sent) / 1e6)
                        note(f"received {number} {time.time():.3f} {(now - sent) / 1e6:.3f}")
                cut = receiver.buffer.rfind("<")
                receiver.buffer = receiver.buffer[cut:] if cut >= 0 else ""

        async def drain_sender():
            while True:
                try:
                    await sender.read_some(3600)
                except Exception:
                    return
                sender.buffer = sender.buffer[-1000:]

        reading = asyncio.create_task(receive())
        draining = asyncio.create_task(drain_sender())
        try:
            await asyncio.wait_for(stop.wait(), args.delay)
        except asyncio.TimeoutError:
            pass
        total = 0
        start = time.monotonic()
        while not stop.is_set() and total < args.rate * args.duration:
            pause = start + total / args.rate - time.monotonic()
            if pause > 0:
                try:
                    await asyncio.wait_for(stop.wait(), pause)
                    break
                except asyncio.TimeoutError:
                    pass
            note(f"sent {total} {time.time():.3f}")
            sender.send(f"<message type='chat' to='{args.receiver}@{args.domain}' id='p{total}'>"
                        f"<body>probe {total} {time.monotonic_ns()}</body></message>")
            total += 1
        await asyncio.sleep(args.grace)
        reading.cancel()
        draining.cancel()
        sender.close()
        receiver.close()
        values = sorted(latencies)
        print(json.dumps({"sent": total, "received": len(values), "disconnects": disconnects,
                          "p50_ms": percentile(values, 0.5), "p99_ms": percentile(values, 0.99),
                          "max_ms": values[-1] if values else None}))

    asyncio.run(main())


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise XMPPError("no VmRSS")


def cmd_idle(args):
    """Opens `--count` sessions from `--processes` processes (each process may hold at most
    20,000 files), each signed in with its initial presence sent, then measures the server."""
    per = [args.count // args.processes + (1 if i < args.count % args.processes else 0)
           for i in range(args.processes)]
    before = rss_kib(args.server_pid)
    read_end, write_end = os.pipe()
    children = []
    first = args.first
    for share in per:
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            code = idle_child(args, first, share, write_end)
            os._exit(code)
        children.append(pid)
        first += share
    os.close(write_end)
    reports = []
    with os.fdopen(read_end) as pipe:
        for line in pipe:
            reports.append(json.loads(line))
            if len(reports) == len(children):
                break
    opened = sum(r["opened"] for r in reports)
    failed = sum(r["failed"] for r in reports)
    time.sleep(args.settle)
    after = rss_kib(args.server_pid)
    for pid in children:
        os.kill(pid, 15)
    for pid in children:
        os.waitpid(pid, 0)
    print(json.dumps({"sessions": opened, "failed": failed, "rss_before_kib": before, "rss_after_kib": after,
                      "kib_per_session": round((after - before) / opened, 2) if opened else None,
                      "errors": [r["error"] for r in reports if r.get("error")][:3]}))


def idle_child(args, first, count, pipe_fd):
    clients, failures, first_error = [], 0, None

    async def one(i):
        nonlocal failures, first_error
        name = f"{args.prefix}{i}"
        client = Client(args.host, args.port, args.domain)
        try:
            await client.open()
            await client.sign_in(name, args.password + str(i), "idle")
            client.send("<presence/>")
            clients.append(client)
        except Exception as error:
            failures += 1
            first_error = first_error or f"{name}: {error}"[:300]

    async def main():
        await bounded([one(i) for i in range(first, first + count)], 64)
        os.write(pipe_fd, (json.dumps({"opened": len(clients), "failed": failures, "error": first_error}) + "\n").encode())
        # Hold the sessions, reading (and dropping) whatever the servers send.
        async def drain(c):
            try:
                while True:
                    await c.read_some(3600)
                    c.buffer = ""
            except Exception:
                pass
        await asyncio.gather(*(drain(c) for c in clients))

    try:
        asyncio.run(main())
    except Exception:
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p, users=True):
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--port", type=int)
        p.add_argument("--domain", default="localhost")
        p.add_argument("--password", default="benchpass")
        if users:
            p.add_argument("--prefix", default="u")
            p.add_argument("--first", type=int, default=1)
            p.add_argument("--count", type=int, default=0)

    p = sub.add_parser("register-http"); common(p); p.add_argument("--url", required=True)
    p = sub.add_parser("register-ibr"); common(p)
    p = sub.add_parser("befriend"); common(p)
    p = sub.add_parser("probe"); common(p, users=False)
    p.add_argument("--sender", required=True); p.add_argument("--receiver", required=True)
    p.add_argument("--rate", type=float, default=20); p.add_argument("--duration", type=float, default=30)
    p.add_argument("--delay", type=float, default=0); p.add_argument("--grace", type=float, default=3)
    p.add_argument("--samples", help="file for one line per message sent and received")
    p = sub.add_parser("idle"); common(p)
    p.add_argument("--server-pid", type=int, required=True)
    p.add_argument("--processes", type=int, default=1); p.add_argument("--settle", type=float, default=5)
    args = parser.parse_args()
    {"register-http": cmd_register_http, "register-ibr": cmd_register_ibr, "befriend": cmd_befriend,
     "probe": cmd_probe, "idle": cmd_idle}[args.command](args)


if __name__ == "__main__":
    try:
        main()
    except XMPPError as error:
        print(f"xmppbench: {error}", file=sys.stderr)
        sys.exit(1)

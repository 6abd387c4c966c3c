#!/usr/bin/env python3
"""Soak test: many native WebSocket clients against a real `parley serve` for a long while.

Not part of `make test` (it lives outside Tests/e2e, so pytest never collects it); run it with
`make soak` (SOAK_SECONDS, default 600). What it does and checks is described in
docs/operations.md ("Soak test"). In short:

- `--clients` users (default 1,000), spread over `--workers` processes, each process on its
  own loopback source address (127.0.0.10, .11, ...), well inside the per-process descriptor
  limit and the server's per-address connection limit.
- Pairs of users are friends; blocks of ten are a group. Most clients send a message every
  `--interval` seconds on average, alternating between their 1:1 and their group.
- One user in fifty never reads its socket (a small receive buffer, still sending a `ping`
  every 20 s so it is not idle): the server must cut it off once its write queue passes its
  bound (`--max-queued-bytes`, 1 MiB here so it happens within a few minutes) or its
  writes stall, and reopen-and-stall repeats. Its 1:1 partner is a "firehose" that sends it
  3,900-character messages (`--firehose-rate`, 5 a second) to keep the socket filling.
- One user in twenty drops its connection abruptly now and then (a TCP reset), reconnects and
  catches up with `sync`, whose messages must follow on from what it had without a gap.
- The last worker process is killed with SIGKILL twice during the run and restarted: its
  clients reconnect and sync.

At the end it asserts: the server's RSS stayed under `--rss-limit-mb` and did not keep
growing (the last minute's mean within `--rss-growth` of the second minute's); the p99 of
healthy clients' send-to-acknowledgement latency stayed under `--p99-limit-ms` in every
minute; every acknowledged message is in its conversation's history exactly once, with the
acknowledged id and sequence, and every history is gapless; every sync after a reconnect is
gapless; the server cut off every non-reading user of the processes that were not killed at
least once; the server still answers /healthz and a new user can sign up and join a group.
"""
import argparse
import asyncio
import json
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

NON_READER_EVERY = 50      # user index % 50 == 0
FIREHOSE_OFFSET = 1        # user index % 50 == 1: the non-reader's 1:1 partner
DROPPER_EVERY = 20         # user index % 20 == 1 (other than firehoses)
GROUP_SIZE = 10
FIREHOSE_TEXT = 3900


def role(index: int) -> str:
    if index % NON_READER_EVERY == 0:
        return "non-reader"
    if index % NON_READER_EVERY == FIREHOSE_OFFSET:
        return "firehose"
    if index % DROPPER_EVERY == 1:
        return "dropper"
    return "healthy"


# MARK: - Worker


class Client:
    """One signed-in WebSocket with requests matched to responses by id."""

    def __init__(self, worker: "Worker", index: int):
        self.worker = worker
        self.index = index
        self.name = f"soak{index}"
        self.token = ""
        self.pair = ""
        self.group = ""
        self.ws = None
        self.reader = None
        self.ids = 0
        self.waiting: dict[int, asyncio.Future] = {}
        self.last_seq: dict[str, int] = {}
        self.sent = 0

    async def connect(self):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.worker.port}/v1/ws", max_size=None,
                                           local_addr=(self.worker.source, 0), open_timeout=60,
                                           ping_interval=None, close_timeout=2)
        self.reader = asyncio.create_task(self.read())
        reply = await self.call("auth", {"token": self.token}, timeout=60)
        if not reply.get("ok"):
            raise RuntimeError(f"auth failed for {self.name}: {reply}")

    async def read(self):
        try:
            async for text in self.ws:
                frame = json.loads(text)
                if "event" in frame:
                    if frame["event"] == "message.new":
                        message = frame["data"]
                        conversation = message["conversationId"]
                        self.last_seq[conversation] = max(self.last_seq.get(conversation, 0), message["seq"])
                elif frame.get("id") in self.waiting:
                    self.waiting.pop(frame["id"]).set_result(frame)
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))
            self.waiting.clear()

    async def call(self, op: str, data: dict | None = None, timeout: float = 30) -> dict:
        self.ids += 1
        request_id = self.ids
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        await self.ws.send(json.dumps({"id": request_id, "op": op, "data": data or {}}))
        return await asyncio.wait_for(future, timeout)

    def reset(self):
        """Drops the connection with a TCP reset (SO_LINGER 0), as a crashed device would."""
        sock = self.ws.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.ws.transport.abort()

    async def close(self):
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 5)
            except Exception:
                pass
        if self.reader is not None:
            self.reader.cancel()

    async def resync(self) -> int:
        """Catches up after a reconnect; returns how many conversations came back with a gap."""
        # Live events may arrive while the answer is on its way: compare with what was asked.
        since = dict(self.last_seq)
        reply = await self.call("sync", {"since": since}, timeout=60)
        data = reply["data"]
        truncated = set(data.get("truncated", []))
        by_conversation: dict[str, list[int]] = {}
        for message in data["messages"]:
            by_conversation.setdefault(message["conversationId"], []).append(message["seq"])
        gaps = 0
        for conversation, seqs in by_conversation.items():
            start = since.get(conversation, 0)
            if conversation not in truncated and seqs != list(range(start + 1, start + 1 + len(seqs))):
                gaps += 1
            self.last_seq[conversation] = max([self.last_seq.get(conversation, 0)] + seqs)
        return gaps


class NonReader:
    """A signed-in WebSocket on a raw socket that never reads after the handshake."""

    def __init__(self, worker: "Worker", client: Client):
        self.worker = worker
        self.client = client
        self.sock = None
        self.opened_at = 0.0

    def open(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((self.worker.source, 0))
        sock.settimeout(30)
        sock.connect(("127.0.0.1", self.worker.port))
        key = "c29hay10ZXN0LWtleS0wMQ=="
        sock.sendall((f"GET /v1/ws HTTP/1.1\r\nHost: 127.0.0.1:{self.worker.port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)      # byte by byte: not one byte of what follows is read
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode("latin-1"))
        sock.setblocking(False)
        self.sock = sock
        self.opened_at = time.time()
        self.send("auth", {"token": self.client.token})

    def send(self, op: str, data: dict) -> bool:
        payload = json.dumps({"id": op, "op": op, "data": data}).encode()
        mask = os.urandom(4)
        head = bytes([0x81]) + (bytes([0x80 | len(payload)]) if len(payload) < 126
                                else bytes([0x80 | 126]) + struct.pack("!H", len(payload)))
        try:
            self.sock.send(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            return True
        except OSError:
            return False

    def cut(self) -> bool:
        """Whether the server has closed this connection (reset, or its FIN got through)."""
        info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
        return info[0] != 1  # TCP_ESTABLISHED


class Worker:
    def __init__(self, args):
        self.args = args
        self.port = args.port
        self.source = args.source
        self.directory = pathlib.Path(args.directory)
        self.clients = [Client(self, i) for i in range(args.first, args.first + args.count)]
        self.acks = open(self.directory / f"acks-{args.worker}.jsonl", "a", buffering=1)
        self.latencies = open(self.directory / f"latency-{args.worker}.tsv", "a", buffering=1 << 16)
        self.counts = {"sent": 0, "acked": 0, "refused": 0, "timeouts": 0, "reconnects": 0, "sync_gaps": 0,
                       "drops": 0, "non_reader_connections": 0, "non_reader_cuts": 0, "errors": 0}
        self.refusals: dict[str, int] = {}
        self.deadline = 0.0

    # Setup

    def http(self, method: str, path: str, body: dict) -> dict:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(),
                                         method=method, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    async def setup(self):
        state_path = self.directory / f"state-{self.args.worker}.json"
        if self.args.resume:
            state = json.loads(state_path.read_text())
            for client in self.clients:
                client.token, client.pair, client.group = state[client.name]
            return
        loop = asyncio.get_running_loop()
        semaphore = asyncio.Semaphore(8)

        async def register(client: Client):
            async with semaphore:
                reply = await loop.run_in_executor(None, self.http, "POST", "/v1/auth/register",
                                                   {"username": client.name, "password": "soak-password"})
                client.token = reply["token"]

        await asyncio.gather(*(register(c) for c in self.clients))
        await self.connect_all(self.clients)
        by_index = {c.index: c for c in self.clients}
        for client in self.clients:
            if client.index % 2 == 0:
                partner = by_index[client.index + 1]
                asked = await client.call("friend.request", {"username": partner.name})
                friend = await partner.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
                client.pair = partner.pair = friend["data"]["conversationId"]
        for start in range(self.args.first, self.args.first + self.args.count, GROUP_SIZE):
            leader = by_index[start]
            created = await leader.call("group.create", {"name": f"soak-g{start // GROUP_SIZE}"})
            leader.group = created["data"]["id"]
            for i in range(start + 1, start + GROUP_SIZE):
                joined = await by_index[i].call("group.join", {"name": f"soak-g{start // GROUP_SIZE}"})
                by_index[i].group = joined["data"]["id"]
        state_path.write_text(json.dumps({c.name: [c.token, c.pair, c.group] for c in self.clients}))

    async def connect_all(self, clients):
        semaphore = asyncio.Semaphore(25)

        async def connect(client: Client):
            async with semaphore:
                await client.connect()

        await asyncio.gather(*(connect(c) for c in clients))

    # Load

    async def send_one(self, client: Client, conversation: str, text: str, measure: bool) -> bool:
        client.sent += 1
        client_id = f"{client.name}-{self.args.generation}-{client.sent}"
        started = time.time()
        self.counts["sent"] += 1
        try:
            reply = await client.call("message.send", {"conversationId": conversation, "clientId": client_id,
                                                       "kind": "text", "text": text})
        except asyncio.TimeoutError:
            self.counts["timeouts"] += 1
            return False
        except (ConnectionError, websockets.ConnectionClosed, OSError):
            return False
        if not reply.get("ok"):
            code = reply.get("error", {}).get("code", "?")
            self.refusals[code] = self.refusals.get(code, 0) + 1
            self.counts["refused"] += 1
            return True
        message = reply["data"]
        self.counts["acked"] += 1
        self.acks.write(json.dumps({"c": conversation, "s": message["seq"], "i": message["id"], "k": client_id}) + "\n")
        if measure:
            self.latencies.write(f"{started:.3f}\t{(time.time() - started) * 1000:.2f}\n")
        client.last_seq[conversation] = max(client.last_seq.get(conversation, 0), message["seq"])
        return True

    async def reconnect(self, client: Client):
        while time.time() < self.deadline:
            try:
                await client.close()
                await client.connect()
                self.counts["reconnects"] += 1
                self.counts["sync_gaps"] += await client.resync()
                return
            except Exception:
                self.counts["errors"] += 1
                await asyncio.sleep(1)

    async def run_client(self, client: Client):
        kind = role(client.index)
        rng = random.Random(client.index * 7919 + self.args.generation)
        next_drop = time.time() + rng.uniform(15, 60)
        turn = rng.randrange(2)
        while time.time() < self.deadline:
            if kind == "firehose":
                await asyncio.sleep(1 / self.args.firehose_rate)
                text = "F" * FIREHOSE_TEXT
                conversation = client.pair
            else:
                await asyncio.sleep(min(rng.expovariate(1 / self.args.interval), self.deadline - time.time() + 0.01))
                turn += 1
                conversation = client.pair if turn % 2 else client.group
                text = f"soak message {client.sent} from {client.name} at {time.time():.3f}"
            if time.time() >= self.deadline:
                break
            if client.ws is None or client.reader is None or client.reader.done():
                await self.reconnect(client)
                continue
            ok = await self.send_one(client, conversation, text, measure=kind == "healthy")
            if not ok:
                await self.reconnect(client)
            if kind == "dropper" and time.time() >= next_drop:
                self.counts["drops"] += 1
                client.reset()
                await asyncio.sleep(rng.uniform(0.1, 2))
                await self.reconnect(client)
                next_drop = time.time() + rng.uniform(20, 60)

    async def run_non_reader(self, client: Client):
        await client.close()   # the setup connection; from now on this user never reads
        loop = asyncio.get_running_loop()
        while time.time() < self.deadline:
            stalled = NonReader(self, client)
            try:
                await loop.run_in_executor(None, stalled.open)
            except OSError:
                self.counts["errors"] += 1
                await asyncio.sleep(1)
                continue
            self.counts["non_reader_connections"] += 1
            last_ping = time.time()
            while time.time() < self.deadline:
                await asyncio.sleep(2)
                if stalled.cut():
                    self.counts["non_reader_cuts"] += 1
                    break
                if time.time() - last_ping >= 20:
                    stalled.send("ping", {})
                    last_ping = time.time()
            stalled.sock.close()

    async def main(self):
        await self.setup()
        (self.directory / f"ready-{self.args.worker}").write_text("ready")
        go = self.directory / "go"
        while not go.exists():
            await asyncio.sleep(0.1)
        self.deadline = float(go.read_text())
        if self.args.resume:
            for client in self.clients:
                if role(client.index) != "non-reader":
                    await self.reconnect(client)
        tasks = [self.run_non_reader(c) if role(c.index) == "non-reader" else self.run_client(c) for c in self.clients]
        await asyncio.gather(*tasks)
        for client in self.clients:
            await client.close()
        self.latencies.flush()
        summary = {"counts": self.counts, "refusals": self.refusals}
        (self.directory / f"summary-{self.args.worker}-{self.args.generation}.json").write_text(json.dumps(summary))


# MARK: - Coordinator


def metric(text: str, name: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name):
            total += float(line.rsplit(" ", 1)[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of `pid` so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def verify_histories(port: int, directory: pathlib.Path, workers: int) -> dict:
    """Every acknowledged message in its history exactly once; every history gapless."""
    acked: dict[str, dict[int, tuple[str, str]]] = {}
    duplicates_in_acks = 0
    for path in directory.glob("acks-*.jsonl"):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            table = acked.setdefault(entry["c"], {})
            if entry["s"] in table and table[entry["s"]] != (entry["i"], entry["k"]):
                duplicates_in_acks += 1
            table[entry["s"]] = (entry["i"], entry["k"])
    member_token: dict[str, str] = {}
    for k in range(workers):
        state = json.loads((directory / f"state-{k}.json").read_text())
        for token, pair, group in state.values():
            member_token.setdefault(pair, token)
            member_token.setdefault(group, token)
    problems = {"missing": 0, "wrong": 0, "duplicated_client_ids": 0, "gaps": 0, "duplicated_seqs": 0,
                "acked_duplicates": duplicates_in_acks}
    total = 0
    connections: dict[str, websockets.ClientConnection] = {}
    request_id = 0
    for conversation, token in member_token.items():
        if token not in connections:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/v1/ws", max_size=None, ping_interval=None)
            await ws.send(json.dumps({"id": 0, "op": "auth", "data": {"token": token}}))
            while "id" not in json.loads(await ws.recv()):
                pass
            connections[token] = ws
        ws = connections[token]
        messages = []
        before = None
        while True:
            request_id += 1
            data = {"conversationId": conversation, "limit": 100}
            if before is not None:
                data["before"] = before
            await ws.send(json.dumps({"id": request_id, "op": "message.history", "data": data}))
            while True:
                frame = json.loads(await ws.recv())
                if frame.get("id") == request_id:
                    break
            page = frame["data"]
            messages = page["messages"] + messages
            if not page["hasMore"] or not page["messages"]:
                break
            before = page["messages"][0]["seq"]
        total += len(messages)
        seqs = [m["seq"] for m in messages]
        if len(set(seqs)) != len(seqs):
            problems["duplicated_seqs"] += 1
        if seqs != list(range(1, len(seqs) + 1)):
            problems["gaps"] += 1
        by_seq = {m["seq"]: m for m in messages}
        client_ids: dict[str, int] = {}
        for m in messages:
            if m.get("clientId"):
                client_ids[m["clientId"]] = client_ids.get(m["clientId"], 0) + 1
        for seq, (message_id, client_id) in acked.get(conversation, {}).items():
            stored = by_seq.get(seq)
            if stored is None:
                problems["missing"] += 1
            elif stored["id"] != message_id or stored.get("clientId") != client_id:
                problems["wrong"] += 1
            if client_ids.get(client_id, 0) != 1:
                problems["duplicated_client_ids"] += 1
    for ws in connections.values():
        await ws.close()
    return {"conversations": len(member_token), "acknowledged": sum(len(t) for t in acked.values()),
            "messages_in_history": total, **problems}


def coordinator(args) -> int:
    directory = pathlib.Path(tempfile.mkdtemp(prefix="parley-soak-"))
    data = directory / "data"
    server_log = open(directory / "server.log", "w")
    # Minimum password cost and no registration limit: the setup registers every user from a
    # few addresses. A 1 MiB queue bound so non-readers are cut off within the run; not less,
    # since a `sync` answer (up to 100 messages of a conversation) must fit in the queue.
    server = subprocess.Popen([args.parley, "serve", "--port", "0", "--xmpp-port", "0", "--data", str(data), "--password-cost", "minimum",
                               "--registrations-per-address", "1000000", "--max-queued-bytes", str(args.max_queued_bytes),
                               *args.server_args],
                              stdout=subprocess.DEVNULL, stderr=server_log)
    port = 0
    deadline = time.time() + 30
    while not port and time.time() < deadline:
        time.sleep(0.1)
        for line in (directory / "server.log").read_text().splitlines():
            match = re.search(r'"msg":"listening".*?"port":(\d+)', line) or re.search(r'"port":(\d+).*?"msg":"listening"', line)
            if match:
                port = int(match.group(1))
    if not port:
        print("parley serve did not start:\n" + (directory / "server.log").read_text())
        return 1
    print(f"parley serve pid {server.pid} on port {port}; work directory {directory}")

    per_worker = args.clients // args.workers
    per_worker -= per_worker % GROUP_SIZE
    assert per_worker > 0 and per_worker % GROUP_SIZE == 0

    def start_worker(k: int, resume: bool, generation: int) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, __file__, "--worker", str(k), "--port", str(port),
                                 "--directory", str(directory), "--first", str(k * per_worker), "--count", str(per_worker),
                                 "--source", f"127.0.0.{10 + k}", "--interval", str(args.interval),
                                 "--firehose-rate", str(args.firehose_rate), "--generation", str(generation)]
                                + (["--resume"] if resume else []))

    workers = {k: start_worker(k, False, 0) for k in range(args.workers)}
    setup_started = time.time()
    while not all((directory / f"ready-{k}").exists() for k in range(args.workers)):
        if any(w.poll() is not None for w in workers.values()):
            print("a worker failed during setup")
            server.kill()
            return 1
        time.sleep(0.5)
    print(f"setup: {per_worker * args.workers} users registered, befriended and grouped in {time.time() - setup_started:.0f} s")
    start = time.time()
    end = start + args.seconds
    (directory / "go").write_text(f"{end}")

    killable = args.workers - 1
    kill_times = [start + args.seconds / 3, start + 2 * args.seconds / 3] if args.seconds >= 90 and args.workers > 1 else []
    generation = 0
    rss_samples: list[tuple[float, int]] = []
    # (seconds since start, server CPU seconds, machine load average) for the per-minute table:
    # they tell a slow server from a machine busy with other work.
    cpu_samples: list[tuple[float, float, float]] = []
    kills = 0
    while time.time() < end:
        time.sleep(2)
        if server.poll() is not None:
            print("parley serve exited during the run")
            break
        rss_samples.append((time.time() - start, rss_kib(server.pid)))
        cpu_samples.append((time.time() - start, cpu_seconds(server.pid), os.getloadavg()[0]))
        if kill_times and time.time() >= kill_times[0]:
            kill_times.pop(0)
            workers[killable].send_signal(signal.SIGKILL)
            workers[killable].wait()
            generation += 1
            (directory / f"ready-{killable}").unlink(missing_ok=True)
            workers[killable] = start_worker(killable, True, generation)
            kills += 1
            print(f"{time.time() - start:.0f} s: killed worker {killable} (SIGKILL) and restarted it")
    for k, w in workers.items():
        try:
            w.wait(timeout=120)
        except subprocess.TimeoutExpired:
            w.kill()
            print(f"worker {k} did not finish")

    failures = []
    alive = server.poll() is None
    metrics_text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode() if alive else ""
    health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10).read()) if alive else {}

    counts: dict[str, int] = {}
    refusals: dict[str, int] = {}
    for path in directory.glob("summary-*.json"):
        summary = json.loads(path.read_text())
        for key, value in summary["counts"].items():
            counts[key] = counts.get(key, 0) + value
        for key, value in summary["refusals"].items():
            refusals[key] = refusals.get(key, 0) + value

    # Latency per minute.
    per_minute: dict[int, list[float]] = {}
    for path in directory.glob("latency-*.tsv"):
        for line in path.read_text().splitlines():
            sent_at, latency = line.split("\t")
            per_minute.setdefault(int((float(sent_at) - start) // 60), []).append(float(latency))
    print("\nminute  sends   p50 ms   p99 ms   max ms   RSS MiB (max)   server CPU   load avg")
    minute_rows = []
    for minute in sorted(per_minute):
        values = per_minute[minute]
        rss = [kib for t, kib in rss_samples if minute * 60 <= t < (minute + 1) * 60]
        cpu = [(t, c, load) for t, c, load in cpu_samples if minute * 60 <= t < (minute + 1) * 60]
        busy = (cpu[-1][1] - cpu[0][1]) / (cpu[-1][0] - cpu[0][0]) if len(cpu) > 1 else 0.0
        load = statistics.mean(l for _, _, l in cpu) if cpu else 0.0
        print(f"{minute:>6}  {len(values):>5}  {statistics.median(values):>7.1f}  {p99(values):>7.1f}  {max(values):>7.1f}"
              f"  {max(rss) / 1024 if rss else 0:>13.1f}  {busy:>10.0%}  {load:>8.1f}")
        minute_rows.append({"minute": minute, "sends": len(values), "p50_ms": round(statistics.median(values), 1),
                            "p99_ms": round(p99(values), 1), "max_ms": round(max(values), 1),
                            "rss_mib": round(max(rss) / 1024 if rss else 0, 1), "server_cpu": round(busy, 2),
                            "load": round(load, 1)})
        if p99(values) > args.p99_limit_ms:
            failures.append(f"minute {minute}: p99 {p99(values):.0f} ms over {args.p99_limit_ms} ms")
    if not per_minute:
        failures.append("no latency samples")

    # Memory.
    peak = max((kib for _, kib in rss_samples), default=0) / 1024
    second_minute = [kib for t, kib in rss_samples if 60 <= t < 120] or [kib for _, kib in rss_samples[: len(rss_samples) // 2]]
    last_minute = [kib for t, kib in rss_samples if t >= args.seconds - 60]
    early, late = statistics.mean(second_minute) / 1024, statistics.mean(last_minute) / 1024 if last_minute else 0
    print(f"\nRSS: peak {peak:.1f} MiB (limit {args.rss_limit_mb}); mean {early:.1f} MiB early, {late:.1f} MiB in the last minute"
          f" (allowed growth {args.rss_growth:.0%})")
    if peak > args.rss_limit_mb:
        failures.append(f"RSS peaked at {peak:.0f} MiB, over {args.rss_limit_mb} MiB")
    if late > early * (1 + args.rss_growth):
        failures.append(f"RSS grew from {early:.0f} MiB to {late:.0f} MiB")

    # Non-readers.
    slow = metric(metrics_text, 'parley_connections_closed_total{reason="slow_peer"}')
    idle = metric(metrics_text, 'parley_connections_closed_total{reason="idle"}')
    print(f"non-readers: {counts.get('non_reader_connections', 0)} connections opened, {counts.get('non_reader_cuts', 0)} seen cut;"
          f" server: {slow:.0f} slow-peer closes, {idle:.0f} idle closes")
    # The killed worker's non-readers start over with every restart (their sockets die with
    # the process), so only the other workers' are sure to have stalled long enough.
    steady = range(0, per_worker * (args.workers - 1 if kills else args.workers))
    non_reader_users = sum(1 for i in steady if role(i) == "non-reader")
    if slow < non_reader_users:
        failures.append(f"only {slow:.0f} slow-peer closes for {non_reader_users} non-reading users")

    # Durability and exactly-once.
    verdict = asyncio.run(verify_histories(port, directory, args.workers)) if alive else {}
    print(f"histories: {json.dumps(verdict)}")
    for key in ("missing", "wrong", "duplicated_client_ids", "gaps", "duplicated_seqs", "acked_duplicates"):
        if verdict.get(key, 1):
            failures.append(f"history check: {key} = {verdict.get(key)}")
    if counts.get("sync_gaps", 0):
        failures.append(f"{counts['sync_gaps']} syncs after a reconnect had a gap")

    # Still healthy: a new user can sign up and send.
    if alive and health.get("status") == "ok":
        try:
            async def fresh():
                token = json.loads(urllib.request.urlopen(urllib.request.Request(
                    f"http://127.0.0.1:{port}/v1/auth/register", method="POST",
                    data=json.dumps({"username": "soakafter", "password": "soak-password"}).encode(),
                    headers={"Content-Type": "application/json"}), timeout=30).read())["token"]
                async with websockets.connect(f"ws://127.0.0.1:{port}/v1/ws") as ws:
                    await ws.send(json.dumps({"id": 1, "op": "auth", "data": {"token": token}}))
                    await ws.send(json.dumps({"id": 2, "op": "group.join", "data": {"name": "soak-g0"}}))
                    while True:
                        frame = json.loads(await ws.recv())
                        if frame.get("id") == 2:
                            return frame["ok"]
            if not asyncio.run(fresh()):
                failures.append("a new user could not join a group after the run")
        except Exception as error:
            failures.append(f"the server did not serve a new user after the run: {error}")
    else:
        failures.append(f"the server is not healthy after the run: alive={alive} health={health}")

    print(f"clients: {json.dumps(counts)}; refusals: {json.dumps(refusals)}; worker kills: {kills}")
    result = {"seconds": args.seconds, "clients": per_worker * args.workers, "minutes": minute_rows, "rss_peak_mib": round(peak, 1),
              "rss_early_mib": round(early, 1), "rss_late_mib": round(late, 1), "counts": counts, "refusals": refusals,
              "history": verdict, "slow_peer_closes": slow, "idle_closes": idle, "failures": failures}
    if args.results:
        pathlib.Path(args.results).write_text(json.dumps(result, indent=2))

    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        failures.append("the server did not stop within 30 s of SIGTERM")
    if failures:
        print("\nSOAK FAILED:\n  " + "\n  ".join(failures))
        print(f"(work directory kept: {directory})")
        return 1
    print("\nsoak: all checks held")
    shutil.rmtree(directory, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parley", default=str(pathlib.Path(__file__).resolve().parents[2] / ".build/release/parley"))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 600)))
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--interval", type=float, default=10, help="mean seconds between one client's messages")
    parser.add_argument("--firehose-rate", type=float, default=5, help="3,900-character messages a second per firehose")
    parser.add_argument("--max-queued-bytes", type=int, default=1 << 20, help="the server's --max-queued-bytes")
    parser.add_argument("--p99-limit-ms", type=float, default=500)
    parser.add_argument("--rss-limit-mb", type=float, default=512)
    parser.add_argument("--rss-growth", type=float, default=0.5)
    parser.add_argument("--results", default="")
    parser.add_argument("--server-args", nargs="*", default=[])
    # Worker mode (started by the coordinator).
    parser.add_argument("--worker", type=int, default=-1)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--directory", default="")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--source", default="127.0.0.1")
    parser.add_argument("--generation", type=int, default=0)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    if args.worker >= 0:
        asyncio.run(Worker(args).main())
        return 0
    return coordinator(args)


if __name__ == "__main__":
    sys.exit(main())

"""Pieces of a cluster for the tests: a `nats-server` of the test's own on a free loopback port
(killed with the test process), and helpers to wait for events on several nodes."""
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from conftest import free_port


def nats_binary() -> str | None:
    return shutil.which("nats-server") or (os.path.exists("/usr/sbin/nats-server") and "/usr/sbin/nats-server") or None


class NatsServer:
    """`nats-server` on 127.0.0.1; `restart` brings it back on the same port."""

    def __init__(self):
        self.binary = nats_binary()
        if self.binary is None:
            raise RuntimeError("nats-server not found (make test-deps installs it)")
        self.directory = tempfile.mkdtemp(prefix="parley-e2e-nats-")
        self.port = free_port()
        self.process = None
        try:
            self.start()
        except BaseException:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self):
        self.log = open(os.path.join(self.directory, "nats.log"), "a")
        self.process = subprocess.Popen(
            ["setpriv", "--pdeathsig", "KILL", "--", self.binary, "-a", "127.0.0.1", "-p", str(self.port)],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        try:
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                except OSError:
                    if self.process.poll() is not None or time.time() > deadline:
                        raise RuntimeError("nats-server did not start")
                    time.sleep(0.05)
        except BaseException:
            self.process.kill()
            self.process.wait()
            self.log.close()
            raise

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)
        self.log.close()

    def restart(self):
        self.stop()
        self.start()

    def close(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


class NatsProbe:
    """A bare NATS client (the text protocol over one socket) on the nodes' notice subject: it
    hears what the nodes tell each other and can speak as if it were a node."""

    SUBJECT = "parley.presence"

    def __init__(self, nats: NatsServer):
        self.socket = socket.create_connection(("127.0.0.1", nats.port), timeout=10)
        self.socket.settimeout(None)
        self.reader = self.socket.makefile("rb")
        if not self.reader.readline().startswith(b"INFO"):
            raise RuntimeError("not a NATS server")
        self.lock = threading.Lock()
        self.heard: list[dict] = []
        self.subscribed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        # The PONG comes after the server has taken the subscription.
        self._send(b'CONNECT {"verbose":false,"pedantic":false,"name":"e2e-probe"}\r\n'
                   + f"SUB {self.SUBJECT} 1\r\nPING\r\n".encode())
        if not self.subscribed.wait(10):
            raise RuntimeError("NATS did not answer the subscription")

    def _send(self, data: bytes):
        with self.lock:
            self.socket.sendall(data)

    def _read(self):
        try:
            while line := self.reader.readline():
                if line.startswith(b"MSG "):
                    payload = self.reader.read(int(line.split()[-1]) + 2)[:-2]
                    notice = json.loads(payload)
                    with self.lock:
                        self.heard.append(notice)
                elif line.startswith(b"PING"):
                    self._send(b"PONG\r\n")
                elif line.startswith(b"PONG"):
                    self.subscribed.set()
        except (OSError, ValueError):
            return

    def say(self, notice: dict):
        """Publishes `notice` (a node's notice: node, kind, users, ...) to every node."""
        body = json.dumps(notice).encode()
        self._send(f"PUB {self.SUBJECT} {len(body)}\r\n".encode() + body + b"\r\n")

    def notices(self, node: str | None = None, kind: str | None = None) -> list[dict]:
        with self.lock:
            return [n for n in self.heard if (node is None or n["node"] == node) and (kind is None or n["kind"] == kind)]

    def close(self):
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()
        self.thread.join(timeout=5)


def users_digest(user_ids) -> int:
    """What a node's digest heartbeat gives for these users (ClusterDigest, computed apart)."""
    mask = (1 << 64) - 1

    def mix(value: int) -> int:
        z = (value + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)
    return sum(mix(user & mask) for user in set(user_ids)) & mask


async def wait_for(predicate, timeout: float = 15, what: str = "condition"):
    """Polls until `predicate()` is true; fails the test after `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def events(session, name: str) -> list[dict]:
    return [frame["data"] for frame in session.events if frame["event"] == name]


def texts(session, conversation: str) -> list[str]:
    return [m["text"] for m in events(session, "message.new")
            if m["conversationId"] == conversation and m["kind"] == "text"]


def online(session, user: dict) -> bool | None:
    """The last presence `session` heard of `user` (None: none yet)."""
    heard = [p["online"] for p in events(session, "presence") if p["userId"] == user["user"]["id"]]
    return heard[-1] if heard else None


# What every cluster test module shares: the skip when the servers are missing, the fixtures
# and the nodes themselves (importing them into a test module makes pytest use them there).

import pytest  # noqa: E402

from postgres import PostgresServer, bin_directory  # noqa: E402
from test_postgres_store import FAST  # noqa: E402

needs_cluster = pytest.mark.skipif(bin_directory() is None or nats_binary() is None,
                                   reason="PostgreSQL or nats-server missing (make test-deps installs them)")

CLUSTER = ("--cluster-heartbeat", "1", "--cluster-missed-heartbeats", "3")


@pytest.fixture(scope="module")
def postgres():
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
def nats():
    server = NatsServer()
    yield server
    server.close()


def nodes(parley, postgres, nats, name: str, count: int, *extra: str):
    """`count` nodes on a fresh database of `postgres`, all on `nats`, with `extra` options."""
    database = postgres.create_database(name)
    return [parley("--store", database, "--nats", nats.url, "--node-id", f"n{i}", *FAST, *CLUSTER, *extra)
            for i in range(count)]

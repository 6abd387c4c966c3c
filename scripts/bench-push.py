#!/usr/bin/env python3
"""Push notification throughput: how many Web Push messages `parley serve`, held to one core,
encrypts (RFC 8291), signs (RFC 8292) and sends per second.

One sender is friends with `--users` recipients, each away with a Web Push subscription to a
push service on loopback (an asyncio HTTP server on another core, answering 201); the sender
sends `--messages` messages round robin over the conversations. The server runs with
`taskset -c 0 --loops 1`, no coalescing window and no per-user limit in the way; the figure
is pushes received per second from the first send to the last push, and the server's CPU
seconds over the run.

    python3 scripts/bench-push.py --parley .build/release/parley --users 200 --messages 4000
"""
import argparse
import asyncio
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

import websockets
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "e2e"))
from api import call  # noqa: E402


class PushService:
    """Counts POSTs; answers each with 201 and closes (ParleyNet's client sends Connection: close)."""

    def __init__(self):
        self.count = 0
        self.last = 0.0

    async def handle(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await writer.drain()
            self.count += 1
            self.last = time.monotonic()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


async def ws_call(ws, ids, op, data):
    request_id = next(ids)
    await ws.send(json.dumps({"id": request_id, "op": op, "data": data}))
    while True:
        frame = json.loads(await ws.recv())
        if frame.get("id") == request_id:
            assert frame.get("ok"), frame
            return frame["data"]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main(args):
    service = PushService()
    listener = await asyncio.start_server(service.handle, "127.0.0.1", 0, backlog=4096)
    push_port = listener.sockets[0].getsockname()[1]
    data = tempfile.mkdtemp(prefix="parley-bench-push-")
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen(["taskset", "-c", "0", args.parley, "serve", "--port", "0", "--data", data, "--loops", "1",
                               "--xmpp-port", "0", "--password-cost", "minimum", "--push-coalesce-ms", "0",
                               "--push-per-user-per-minute", "10000", "--push-max-queued", "1000000",
                               "--ws-rate", "1000000", "--ws-burst", "1000000", "--registrations-per-address", "1000000", "--push-allow-loopback", "yes"], stderr=log)
    try:
        port = None
        for _ in range(400):
            for line in open(os.path.join(data, "server.log")):
                entry = json.loads(line) if line.startswith("{") else {}
                if entry.get("msg") == "listening":
                    port = entry["port"]
            if port:
                break
            await asyncio.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        keys = {"p256dh": base64.urlsafe_b64encode(key).decode().rstrip("="),
                "auth": base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")}
        sender = call(base, "POST", "/v1/auth/register", {"username": "sender", "password": "password123"}).json
        ids = iter(range(1, 1 << 40))
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/v1/ws", max_size=None)
        await ws_call(ws, ids, "auth", {"token": sender["token"]})
        conversations = []
        for i in range(args.users):
            user = call(base, "POST", "/v1/auth/register", {"username": f"reader{i}", "password": "password123"}).json
            assert call(base, "POST", "/v1/push/subscriptions",
                        {"endpoint": f"http://127.0.0.1:{push_port}/push/{i}", "keys": keys}, token=user["token"]).status == 201
            asked = await ws_call(ws, ids, "friend.request", {"userId": user["user"]["id"]})
            other = await websockets.connect(f"ws://127.0.0.1:{port}/v1/ws")
            other_ids = iter(range(1, 100))
            await ws_call(other, other_ids, "auth", {"token": user["token"]})
            friend = await ws_call(other, other_ids, "friend.accept", {"requestId": asked["request"]["id"]})
            conversations.append(friend["conversationId"])
            await other.close()
        # The friend_added notices notify the recipients too: let them go by first.
        await asyncio.sleep(3)
        before = service.count
        cpu_before = cpu_seconds(server.pid)
        started = time.monotonic()
        window = 64
        pending = []
        for n in range(args.messages):
            request_id = next(ids)
            pending.append(request_id)
            await ws.send(json.dumps({"id": request_id, "op": "message.send", "data": {
                "conversationId": conversations[n % len(conversations)], "clientId": f"m{n}", "kind": "text",
                "text": f"message {n} for you"}}))
            if len(pending) >= window:
                while pending:
                    frame = json.loads(await ws.recv())
                    if frame.get("id") in pending:
                        pending.remove(frame["id"])
        while pending:
            frame = json.loads(await ws.recv())
            if frame.get("id") in pending:
                pending.remove(frame["id"])
        sent_at = time.monotonic()
        deadline = time.monotonic() + 120
        while service.count - before < args.messages and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        received = service.count - before
        elapsed = service.last - started
        cpu = cpu_seconds(server.pid) - cpu_before
        metrics = call(base, "GET", "/metrics").body.decode()
        print(json.dumps({"users": args.users, "messages": args.messages, "pushes": received,
                          "sendSeconds": round(sent_at - started, 2), "seconds": round(elapsed, 2),
                          "pushesPerSecond": round(received / elapsed, 1), "serverCPUSeconds": round(cpu, 2),
                          "cpuMillisecondsPerPush": round(cpu * 1000 / max(received, 1), 3),
                          "metrics": [line for line in metrics.splitlines() if line.startswith("parley_push")]}))
        await ws.close()
    finally:
        server.terminate()
        server.wait()
        listener.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parley", default=".build/release/parley")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--messages", type=int, default=4000)
    asyncio.run(main(parser.parse_args()))

"""Kill -9 the server in the middle of a burst of sends, restart it, and check that every
acknowledged message is stored exactly once and every sequence is gapless. Five rounds."""
import asyncio
import os
import random
import signal
import uuid

from api import call
from client import Session, history

ROUNDS = 5
SENDERS = 6


def register(url: str, name: str) -> dict:
    reply = call(url, "POST", "/v1/auth/register", {"username": name, "password": "password123"})
    assert reply.status == 201, reply.body
    return reply.json


async def set_up(port: int, users: list[dict]) -> str:
    """All users in one group; returns its id."""
    sessions = [await Session.open(port, user["token"]) for user in users]
    created = await sessions[0].call("group.create", {"name": "durable"})
    group = created["data"]["id"]
    for session in sessions[1:]:
        assert (await session.call("group.join", {"name": "durable"}))["ok"]
    for session in sessions:
        await session.close()
    return group


async def burst(port: int, users: list[dict], group: str, acked: set, deadline: float):
    """Every user sends as fast as acks come back until the connection dies or time is up."""
    async def sender(user):
        try:
            session = await Session.open(port, user["token"])
        except Exception:
            return
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            client_id = uuid.uuid4().hex
            try:
                reply = await session.call("message.send", {"conversationId": group, "clientId": client_id,
                                                           "kind": "text", "text": client_id}, timeout=5)
            except Exception:
                return
            if reply.get("ok"):
                acked.add((client_id, reply["data"]["seq"]))
    await asyncio.gather(*(sender(user) for user in users))


async def group_history(port: int, token: str, group: str) -> list[dict]:
    session = await Session.open(port, token)
    messages = await history(session, group)
    await session.close()
    return messages


def test_kill_nine_mid_burst_loses_and_doubles_nothing(parley):
    server = parley("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000")
    data_dir = server.data_dir
    users = [register(server.url, f"writer{i}") for i in range(SENDERS)]
    group = asyncio.run(set_up(server.port, users))
    acked: set = set()
    rng = random.Random(7)
    for round_number in range(ROUNDS):
        async def round_trip():
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(burst(server.port, users, group, acked, loop.time() + 10))
            await asyncio.sleep(rng.uniform(0.3, 1.2))
            os.kill(server.process.pid, signal.SIGKILL)
            await task
        asyncio.run(round_trip())
        server.process.wait()
        server.log.close()
        server = parley("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000", data_dir=data_dir)

        messages = asyncio.run(group_history(server.port, users[0]["token"], group))
        seqs = [m["seq"] for m in messages]
        assert seqs == list(range(1, len(seqs) + 1)), f"round {round_number}: gaps or disorder"
        texts = [m.get("text") for m in messages if m["kind"] == "text"]
        assert len(texts) == len(set(texts)), f"round {round_number}: a message was stored twice"
        stored = {(m["text"], m["seq"]) for m in messages if m["kind"] == "text"}
        missing = acked - stored
        assert not missing, f"round {round_number}: {len(missing)} acknowledged messages lost"
    assert len(acked) > 50, "the bursts sent too little to mean anything"

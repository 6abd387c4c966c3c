"""Ten cycles of mixed load → kill -9 at a random moment → restart. After each restart every
acknowledged account, friendship, group membership and message is there, nothing is doubled,
and every conversation's sequence is gapless."""
import asyncio
import os
import random
import signal
import uuid

from api import call
from client import Session, history

CYCLES = 10


async def load(url: str, port: int, hub: dict, state: dict, cycle: int, deadline: float):
    """Registers people, befriends them with the hub user, joins them to the group, and sends
    messages; records only what the server acknowledged."""
    loop = asyncio.get_running_loop()
    hub_session = await Session.open(port, hub["token"])

    async def newcomer(index: int):
        name = f"c{cycle}u{index}"
        reply = await loop.run_in_executor(None, lambda: call(url, "POST", "/v1/auth/register",
                                                               {"username": name, "password": "password123"}))
        if reply.status != 201:
            return
        state["accounts"][name] = reply.json["user"]["id"]
        token = reply.json["token"]
        session = await Session.open(port, token)
        request = await session.call("friend.request", {"userId": hub["user"]["id"]})
        if request["ok"] and request["data"].get("request"):
            accepted = await hub_session.call("friend.accept", {"requestId": request["data"]["request"]["id"]})
            if accepted["ok"]:
                state["friends"].add(state["accounts"][name])
        joined = await session.call("group.join", {"name": "crashproof"})
        if joined["ok"]:
            state["members"].add(state["accounts"][name])
        while loop.time() < deadline:
            client_id = uuid.uuid4().hex
            sent = await session.call("message.send", {"conversationId": state["group"], "clientId": client_id,
                                                       "kind": "text", "text": client_id}, timeout=5)
            if sent["ok"]:
                state["messages"].add(client_id)

    async def guarded(index):
        try:
            await newcomer(index)
        except Exception:
            pass  # the server was killed under us: only acknowledged work counts

    await asyncio.gather(*(guarded(i) for i in range(4)))


def test_ten_kill_nine_cycles(parley):
    args = ("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000", "--registrations-per-address", "1000")
    server = parley(*args)
    hub = call(server.url, "POST", "/v1/auth/register", {"username": "hub", "password": "password123"}).json

    async def make_group():
        session = await Session.open(server.port, hub["token"])
        return (await session.call("group.create", {"name": "crashproof"}))["data"]["id"]
    state = {"accounts": {}, "friends": set(), "members": set(), "messages": set(), "group": asyncio.run(make_group())}
    rng = random.Random(11)

    for cycle in range(CYCLES):
        async def cycle_run():
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(load(server.url, server.port, hub, state, cycle, loop.time() + 10))
            await asyncio.sleep(rng.uniform(0.2, 1.5))
            os.kill(server.process.pid, signal.SIGKILL)
            await asyncio.gather(task, return_exceptions=True)
        asyncio.run(cycle_run())
        server.process.wait()
        server.log.close()
        server = parley(*args, data_dir=server.data_dir)

        async def verify():
            session = await Session.open(server.port, hub["token"])
            friends = {f["user"]["id"] for f in (await session.call("friend.list"))["data"]["friends"]}
            assert state["friends"] <= friends, f"cycle {cycle}: friendships lost"
            members = set()
            cursor = None
            while True:
                data = {"conversationId": state["group"], "limit": 200}
                if cursor:
                    data["cursor"] = cursor
                page = (await session.call("group.members", data))["data"]
                members |= {m["user"]["id"] for m in page["members"]}
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            assert state["members"] <= members, f"cycle {cycle}: memberships lost"
            messages = await history(session, state["group"])
            seqs = [m["seq"] for m in messages]
            assert seqs == list(range(1, len(seqs) + 1)), f"cycle {cycle}: sequence has gaps"
            texts = [m["text"] for m in messages if m["kind"] == "text"]
            assert len(texts) == len(set(texts)), f"cycle {cycle}: a message is stored twice"
            assert state["messages"] <= set(texts), f"cycle {cycle}: acknowledged messages lost"
            await session.close()
        asyncio.run(verify())
        for name, user_id in state["accounts"].items():
            login = call(server.url, "POST", "/v1/auth/login", {"username": name, "password": "password123"})
            assert login.status == 200 and login.json["user"]["id"] == user_id, f"cycle {cycle}: account {name} lost"
    assert len(state["accounts"]) >= 10 and len(state["messages"]) >= 50

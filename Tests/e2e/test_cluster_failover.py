"""A cluster keeps its promises when parts of it fail: a node killed with SIGKILL under a send
loop (its clients move to another node and resync; every acknowledged message is stored
exactly once; its users go offline after the missed heartbeats), and NATS restarted (libnats
reconnects, live delivery resumes, sync fills the gap)."""
import asyncio
import os
import signal
import uuid

import pytest

from client import Session
from cluster import NatsServer, events, nats, needs_cluster, nodes, online, postgres, texts, wait_for  # noqa: F401 (fixtures)
from test_durability import group_history as history
from test_postgres_store import befriend, register

pytestmark = needs_cluster


async def sync(session, conversation: str, since: int) -> list[dict]:
    reply = await session.call("sync", {"since": {conversation: since}})
    assert reply["ok"], reply
    return [m for m in reply["data"]["messages"] if m["conversationId"] == conversation]


def test_kill_nine_of_a_node_under_a_send_loop(parley, postgres, nats):
    servers = nodes(parley, postgres, nats, "failover", 3)
    writers = [register(servers[0].url, f"writer{i}") for i in range(4)]
    watcher = register(servers[2].url, "watcher")
    idle = register(servers[0].url, "idle")
    asyncio.run(befriend(servers[2].port, watcher, idle))

    async def scenario():
        sessions = [await Session.open(servers[2].port, user["token"]) for user in [watcher] + writers]
        created = await sessions[0].call("group.create", {"name": "failover"})
        group = created["data"]["id"]
        for session in sessions[1:]:
            assert (await session.call("group.join", {"name": "failover"}))["ok"]
        for session in sessions[1:]:
            await session.close()
        watch = sessions[0]
        # `idle` is connected to the doomed node only; the watcher on node 2 sees them online.
        idle_session = await Session.open(servers[0].port, idle["token"])
        await wait_for(lambda: online(watch, idle) is True, what="idle online")

        acked: set = set()
        moved = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 6

        async def sender(index: int, user: dict):
            # Writers 0 and 1 start on the node that will die, 2 and 3 on node 1.
            order = [0, 1] if index < 2 else [1]
            session = await Session.open(servers[order[0]].port, user["token"])
            last_seq = 0
            while loop.time() < deadline:
                client_id = uuid.uuid4().hex
                try:
                    reply = await session.call("message.send", {"conversationId": group, "clientId": client_id,
                                                               "kind": "text", "text": client_id}, timeout=5)
                except Exception:
                    # The node died: reconnect to another one and resync from the last seq.
                    session = await Session.open(servers[1].port, user["token"])
                    missed = await sync(session, group, last_seq)
                    assert [m["seq"] for m in missed] == sorted({m["seq"] for m in missed})
                    moved.append(index)
                    continue
                if reply.get("ok"):
                    acked.add((client_id, reply["data"]["seq"]))
                    last_seq = max(last_seq, reply["data"]["seq"])
            await session.close()

        async def killer():
            await asyncio.sleep(1.5)
            os.kill(servers[0].process.pid, signal.SIGKILL)

        await asyncio.gather(*(sender(i, user) for i, user in enumerate(writers)), killer())
        servers[0].process.wait()
        assert sorted(set(moved)) == [0, 1], moved

        # Every acknowledged message is stored exactly once, sequences gapless.
        stored = await history(servers[1].port, watcher["token"], group)
        assert [m["seq"] for m in stored] == list(range(1, len(stored) + 1))
        stored_texts = [m["text"] for m in stored if m["kind"] == "text"]
        assert len(stored_texts) == len(set(stored_texts)), "a message was stored twice"
        assert not acked - {(m["text"], m["seq"]) for m in stored if m["kind"] == "text"}, "acknowledged messages lost"
        assert len(acked) > 20, "the loop sent too little to mean anything"

        # The watcher (node 2, never disconnected) got no event twice, and live events plus a
        # sync from zero give exactly what is stored.
        live = [m for m in events(watch, "message.new") if m["conversationId"] == group]
        assert len({m["seq"] for m in live}) == len(live), "an event was delivered twice"
        synced = await sync(watch, group, 0)
        everything = {m["seq"]: m["id"] for m in live} | {m["seq"]: m["id"] for m in synced}
        assert set(everything) <= {m["seq"] for m in stored}
        assert all(everything[m["seq"]] == m["id"] for m in stored if m["seq"] in everything)

        # `idle` was only on the dead node: after the missed heartbeats it goes offline, once.
        await wait_for(lambda: online(watch, idle) is False, timeout=20, what="idle offline after expiry")
        await asyncio.sleep(1.5)
        assert [p["online"] for p in events(watch, "presence") if p["userId"] == idle["user"]["id"]] == [True, False]
        friends = await watch.call("friend.list")
        assert [f["online"] for f in friends["data"]["friends"]] == [False]
        await watch.close()
        idle_session.reader.cancel()
    asyncio.run(scenario())


def test_delivery_resumes_after_nats_restarts_and_sync_fills_the_gap(parley, postgres, nats):
    first, second = nodes(parley, postgres, nats, "natsrestart", 2)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))

    async def scenario():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        await wait_for(lambda: online(a, bob) is True, what="bob online")
        sent = []

        async def say(text: str):
            reply = await a.call("message.send", {"conversationId": conversation, "clientId": text,
                                                  "kind": "text", "text": text})
            assert reply["ok"], reply
            sent.append((text, reply["data"]["seq"]))

        await say("before")
        await wait_for(lambda: texts(b, conversation) == ["before"], what="live delivery before the restart")
        nats.stop()
        for i in range(3):
            await say(f"during {i}")
        nats.start()
        # libnats reconnects and renews its subscriptions: live delivery comes back.
        for attempt in range(30):
            await say(f"after {attempt}")
            try:
                await wait_for(lambda: f"after {attempt}" in texts(b, conversation), timeout=1, what="live delivery")
                break
            except AssertionError:
                continue
        else:
            raise AssertionError("live delivery did not resume after NATS restarted")
        # Bob's client notices the gap by seq and syncs from the last seq it holds in order.
        heard = {m["seq"] for m in events(b, "message.new") if m["conversationId"] == conversation}
        contiguous = 1
        while contiguous + 1 in heard:
            contiguous += 1
        missed = await sync(b, conversation, contiguous)
        have = heard | {m["seq"] for m in missed}
        assert {seq for _, seq in sent} <= have
        assert len([m for m in events(b, "message.new") if m["conversationId"] == conversation]) == len(heard), \
            "an event was delivered twice"
        await a.close()
        await b.close()
    asyncio.run(scenario())


def test_presence_recovers_after_a_nats_outage_longer_than_the_expiry(parley, postgres, nats):
    first, second = nodes(parley, postgres, nats, "reannounce", 2)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    asyncio.run(befriend(first.port, ann, bob))

    async def scenario():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        await wait_for(lambda: online(a, bob) is True, what="bob online")
        assert [f["online"] for f in (await b.call("friend.list"))["data"]["friends"]] == [True]
        # Longer than three missed one-second heartbeats: each node gives the other up and
        # tells its own user the friend went offline.
        nats.stop()
        await wait_for(lambda: online(a, bob) is False and online(b, ann) is False, timeout=20, what="both given up")
        await asyncio.sleep(1)
        nats.start()
        # Nobody reconnects: the nodes announce their users again once NATS is back.
        await wait_for(lambda: online(a, bob) is True and online(b, ann) is True, timeout=20, what="presence recovered")
        for session in (a, b):
            friends = await session.call("friend.list")
            assert [f["online"] for f in friends["data"]["friends"]] == [True]
        await a.close()
        await b.close()
    asyncio.run(scenario())

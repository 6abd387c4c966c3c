"""Several `parley serve` nodes on one PostgreSQL database and one NATS act as one service:
events reach users on whichever node they are connected to, exactly once."""
import asyncio

import pytest

from api import call
from client import Session
from cluster import CLUSTER, NatsServer, events, nats, needs_cluster, nodes, online, postgres, texts, wait_for  # noqa: F401 (fixtures)
from test_postgres_store import FAST, befriend, register
from xmpp import Bot

pytestmark = needs_cluster


def test_two_users_on_different_nodes_chat_both_ways(parley, postgres, nats):
    first, second = nodes(parley, postgres, nats, "chat", 2)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))

    async def chat():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        # Ann hears Bob come online on the other node, and Bob's node knows Ann is online.
        await wait_for(lambda: online(a, bob) is True, what="presence across nodes")
        friends = await b.call("friend.list")
        assert [f["online"] for f in friends["data"]["friends"]] == [True]
        for i in range(20):
            sender, text = (a, f"from ann {i}") if i % 2 == 0 else (b, f"from bob {i}")
            reply = await sender.call("message.send", {"conversationId": conversation, "clientId": f"c{i}",
                                                       "kind": "text", "text": text})
            assert reply["ok"], reply
        from_ann = [f"from ann {i}" for i in range(0, 20, 2)]
        from_bob = [f"from bob {i}" for i in range(1, 20, 2)]
        await wait_for(lambda: len(texts(a, conversation)) >= 10 and len(texts(b, conversation)) >= 10,
                       what="every message on both nodes")
        await asyncio.sleep(0.5)
        # Exactly once each, in order, on the other node; the sending connection has the reply
        # instead (a node never hears its own publications back).
        assert texts(b, conversation) == from_ann
        assert texts(a, conversation) == from_bob
        seqs = [m["seq"] for m in events(b, "message.new") if m["conversationId"] == conversation]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
        await a.close()
        await b.close()
    asyncio.run(chat())
    # The nodes log their ids.
    assert [line.get("node") for line in first.log_lines() if line.get("msg") == "listening"] == ["n0"]


def test_a_group_with_members_on_three_nodes(parley, postgres, nats):
    servers = nodes(parley, postgres, nats, "group", 3)
    users = [register(servers[i].url, f"member{i}") for i in range(3)]

    async def group():
        sessions = [await Session.open(servers[i].port, users[i]["token"]) for i in range(3)]
        # A second connection of member 0 on node 2: both of its connections hear everything.
        extra = await Session.open(servers[2].port, users[0]["token"])
        created = await sessions[0].call("group.create", {"name": "across"})
        assert created["ok"], created
        conversation = created["data"]["id"]
        for session in sessions[1:]:
            assert (await session.call("group.join", {"name": "across"}))["ok"]
        await asyncio.sleep(1.5)  # every node's beat is in: all know where everyone is
        sent = []
        for round_number in range(5):
            for i, session in enumerate(sessions):
                text = f"{i}:{round_number}"
                reply = await session.call("message.send", {"conversationId": conversation, "clientId": text,
                                                           "kind": "text", "text": text})
                assert reply["ok"], reply
                sent.append(text)
        # Each connection hears the others' messages in order, and none of its own (it has the
        # reply); member 0's second connection, on another node, hears all of them.
        expected = [[text for text in sent if not text.startswith(f"{i}:")] for i in range(3)] + [sent]
        listeners = sessions + [extra]
        await wait_for(lambda: all(len(texts(s, conversation)) >= len(e) for s, e in zip(listeners, expected)),
                       what="group messages everywhere")
        await asyncio.sleep(0.5)
        # Exactly once each. Messages of one conversation sent through different nodes may
        # reach a third node out of seq order (NATS orders per publisher only); clients order
        # by seq (docs/architecture.md, "Cluster"), so the check is by seq.
        for index, session in enumerate(listeners):
            heard = [m for m in events(session, "message.new") if m["conversationId"] == conversation and m["kind"] == "text"]
            assert sorted(m["text"] for m in heard) == sorted(expected[index]), f"listener {index}"
            in_seq_order = [m["text"] for m in sorted(heard, key=lambda m: m["seq"])]
            assert in_seq_order == expected[index], f"listener {index}"
            assert len({m["seq"] for m in heard}) == len(heard), f"listener {index}: a seq twice"
        for session in sessions + [extra]:
            await session.close()
    asyncio.run(group())


def test_presence_is_seen_across_nodes_once_per_change(parley, postgres, nats):
    first, second, third = nodes(parley, postgres, nats, "presence", 3)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    asyncio.run(befriend(first.port, ann, bob))

    async def presence():
        a = await Session.open(first.port, ann["token"])
        await asyncio.sleep(1.5)
        # Bob's sessions while befriending came and went just before: their news may still
        # reach ann's new session. Only what follows bob's connection below counts.
        before = len(events(a, "presence"))
        b = await Session.open(second.port, bob["token"])
        await wait_for(lambda: online(a, bob) is True, what="bob online on ann's node")
        # A second connection of bob on a third node is no change: no new event.
        b2 = await Session.open(third.port, bob["token"])
        friends = await a.call("friend.list")
        assert [f["online"] for f in friends["data"]["friends"]] == [True]
        await b.close()
        await asyncio.sleep(2)
        # Still online through node 3: nothing announced.
        assert [p["online"] for p in events(a, "presence")[before:] if p["userId"] == bob["user"]["id"]] == [True]
        await b2.close()
        await wait_for(lambda: online(a, bob) is False, what="bob offline")
        await asyncio.sleep(1)
        assert [p["online"] for p in events(a, "presence")[before:] if p["userId"] == bob["user"]["id"]] == [True, False]
        friends = await a.call("friend.list")
        assert [f["online"] for f in friends["data"]["friends"]] == [False]
        await a.close()
    asyncio.run(presence())


def test_nats_without_postgres_is_refused(parley, nats):
    with pytest.raises(RuntimeError) as failure:
        parley("--nats", nats.url)
    assert "--store" in str(failure.value) or "store" in str(failure.value)


def test_signing_a_session_out_closes_its_websockets_on_every_node(parley, postgres, nats):
    servers = nodes(parley, postgres, nats, "signout", 3)
    first = register(servers[0].url, "rosa")
    second = call(servers[1].url, "POST", "/v1/auth/login", {"username": "rosa", "password": "password123"}).json
    listed = call(servers[0].url, "GET", "/v1/auth/sessions", token=first["token"]).json["sessions"]
    other = [s["id"] for s in listed if not s["current"]]
    assert len(other) == 1, listed

    async def scenario():
        kept = await Session.open(servers[0].port, first["token"])
        doomed = [await Session.open(servers[i].port, second["token"]) for i in (0, 1, 2)]
        await asyncio.sleep(0.3)
        # Revoked through node 0: the session's WebSockets close on all three nodes.
        assert call(servers[0].url, "DELETE", f"/v1/auth/sessions/{other[0]}", token=first["token"]).status == 204
        await wait_for(lambda: all(s.reader.done() for s in doomed), what="revoked WebSockets closed on every node")
        assert [s.ws.close_code for s in doomed] == [4001, 4001, 4001]
        # The other sign-in session is untouched.
        assert (await kept.call("friend.list"))["ok"]
        # Logging out through node 2 closes the WebSocket on node 0.
        assert call(servers[2].url, "POST", "/v1/auth/logout", token=first["token"]).status == 204
        await wait_for(lambda: kept.reader.done(), what="logged-out WebSocket closed on another node")
        assert kept.ws.close_code == 4001
    asyncio.run(scenario())


def test_jabber_chat_states_and_receipts_between_nodes(parley, postgres, nats):
    database = postgres.create_database("xmppcluster")
    servers = [parley("--store", database, "--nats", nats.url, "--node-id", f"n{i}", *FAST, *CLUSTER, xmpp=True)
               for i in range(2)]
    mei = register(servers[0].url, "mei")
    bob = register(servers[1].url, "bob")
    asyncio.run(befriend(servers[0].port, mei, bob))

    async def scenario():
        # Mei also has a native WebSocket on Bob's node: it must not see the Jabber-only signals.
        mei_native = await Session.open(servers[1].port, mei["token"])
        mei_jabber = Bot("mei@localhost")
        bob_jabber = Bot("bob@localhost")
        assert await mei_jabber.sign_in(servers[0].xmpp_port)
        assert await bob_jabber.sign_in(servers[1].xmpp_port)
        # Bob's resource's presence crosses to Mei's node, from his full JID.
        await mei_jabber.wait_presence(lambda p: str(p["from"]) == str(bob_jabber.boundjid) and p["type"] == "available")
        await asyncio.sleep(0.5)

        typing = bob_jabber.make_message(mto="mei@localhost", mtype="chat")
        typing["chat_state"] = "composing"
        typing.send()
        message = await mei_jabber.next_message(predicate=lambda m: m["chat_state"] == "composing")
        assert message["from"].bare == "bob@localhost" and not message["body"]
        assert str(message["to"]) == str(mei_jabber.boundjid)

        bob_jabber.send_message(mto="mei@localhost", mbody="ping across nodes", mtype="chat")
        got = await mei_jabber.next_message()
        assert got["body"] == "ping across nodes" and got["request_receipt"]
        # slixmpp answers the receipt request itself; the receipt crosses back to Bob's node.
        receipt = await bob_jabber.next_message(predicate=lambda m: bool(m["receipt"]))
        assert receipt["receipt"] == got["id"] and receipt["from"].bare == "mei@localhost"

        await asyncio.sleep(0.5)
        assert not [e for e in mei_native.events if e["event"].startswith("xmpp.")]
        assert texts(mei_native, got_conversation(mei_native)) == ["ping across nodes"]
        await mei_jabber.stop()
        await bob_jabber.stop()
        await mei_native.close()
    asyncio.run(asyncio.wait_for(scenario(), 90))


def got_conversation(session) -> str:
    """The conversation of the first text message `session` heard."""
    return next(m["conversationId"] for m in events(session, "message.new") if m["kind"] == "text")

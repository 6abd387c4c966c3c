"""Message actions in a cluster: an edit, a reaction and a recall made through one node reach
a member connected to another node as `message.updated`, once each and in order, and the
store (PostgreSQL, shared) answers history on either node with the same current state."""
import asyncio

from client import Session
from cluster import events, nats, needs_cluster, nodes, online, postgres, wait_for  # noqa: F401 (fixtures)
from test_postgres_store import befriend, register

pytestmark = needs_cluster


def test_actions_cross_nodes(parley, postgres, nats):
    first, second = nodes(parley, postgres, nats, "actions", 2)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))

    async def act():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        await wait_for(lambda: online(a, bob) is True, what="presence across nodes")
        sent = (await a.call("message.send", {"conversationId": conversation, "clientId": "m1", "kind": "text",
                                              "text": "across the cluster"}))["data"]
        for op, data in [("message.edit", {"clientId": "e1", "text": "across the whole cluster"}),
                         ("message.react", {"clientId": "r1", "emoji": "🌍"}),
                         ("message.recall", {"clientId": "x1"})]:
            reply = await a.call(op, {"conversationId": conversation, "messageId": sent["id"], **data})
            assert reply["ok"], reply
        await wait_for(lambda: len(events(b, "message.updated")) >= 3, what="three updates on the other node")
        await asyncio.sleep(0.5)
        updates = events(b, "message.updated")
        assert [u["event"]["system"]["type"] for u in updates] == ["message_edited", "reaction_added", "message_recalled"]
        assert [u["event"]["seq"] for u in updates] == sorted(u["event"]["seq"] for u in updates)
        assert updates[0]["message"]["text"] == "across the whole cluster"
        assert updates[1]["message"]["reactions"] == [{"emoji": "🌍", "users": [ann["user"]["id"]]}]
        assert updates[2]["message"].get("recalled") and "text" not in updates[2]["message"]
        for session in (a, b):
            page = (await session.call("message.history", {"conversationId": conversation}))["data"]
            shown = next(m for m in page["messages"] if m["id"] == sent["id"])
            assert shown.get("recalled") and "text" not in shown
        await a.close()
        await b.close()
    asyncio.run(act())

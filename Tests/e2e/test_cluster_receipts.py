"""Receipts and typing across the nodes of a cluster: a typing notice, its end by the server's
timeout, and delivered and read ticks all reach a user on another node (typing writes
nothing to the store)."""
import asyncio

from cluster import CLUSTER, needs_cluster, nats, postgres, wait_for  # noqa: F401 (fixtures)
from client import Session
from test_postgres_store import FAST, befriend, register

pytestmark = needs_cluster


def test_typing_and_ticks_cross_nodes(parley, postgres, nats):
    database = postgres.create_database("receiptscluster")
    first, second = [parley("--store", database, "--nats", nats.url, "--node-id", f"n{i}", "--typing-timeout", "1", *FAST, *CLUSTER)
                     for i in range(2)]
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))

    async def scenario():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        await asyncio.sleep(0.5)
        assert (await b.call("typing.start", {"conversationId": conversation}))["ok"]
        await wait_for(lambda: [e["data"]["typing"] for e in a.events if e["event"] == "typing"] == [True, False],
                       what="typing and its end across nodes", timeout=10)

        sent = await a.call("message.send", {"conversationId": conversation, "clientId": "x1", "kind": "text", "text": "over there"})
        assert sent["ok"], sent
        seq = sent["data"]["seq"]

        def receipt(key):
            return any(e["event"] == "conversation.receipt" and (e["data"].get(key) or 0) >= seq for e in a.events)
        await wait_for(lambda: receipt("deliveredSeq"), what="delivered across nodes", timeout=10)
        assert (await b.call("conversation.read", {"conversationId": conversation, "seq": seq}))["ok"]
        await wait_for(lambda: receipt("readSeq"), what="read across nodes", timeout=10)
        page = await a.call("message.history", {"conversationId": conversation})
        assert page["data"]["peerReadSeq"] == seq and page["data"]["peerDeliveredSeq"] == seq
        await a.close()
        await b.close()
    asyncio.run(asyncio.wait_for(scenario(), 60))

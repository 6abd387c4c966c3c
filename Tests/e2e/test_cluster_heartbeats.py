"""What nodes tell each other while nothing changes: heartbeats with a digest of a node's users
and room entries, the full lists only when a node asks (its copy differs) or says hello, and a
copy gone wrong healed by the next heartbeat. Heard and spoken on NATS by a bare probe."""
import asyncio
import time

from client import Session
from cluster import NatsProbe, events, nats, needs_cluster, nodes, postgres, users_digest, wait_for  # noqa: F401 (fixtures)
from test_postgres_store import befriend, register

pytestmark = needs_cluster

# No full lists unless asked, within a test.
QUIET = ("--cluster-full-beat", "3600")


def heard(probe: NatsProbe, predicate, timeout: float = 10, what: str = "a notice", after: int = 0) -> tuple[int, dict]:
    """The first notice from index `after` on that satisfies `predicate`, with its index."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = [(index, n) for index, n in enumerate(probe.notices()) if index >= after and predicate(n)]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; heard {probe.notices()[-10:]}")


def test_quiet_heartbeats_carry_a_digest_and_the_lists_come_when_asked(parley, postgres, nats):
    (node,) = nodes(parley, postgres, nats, "digest", 1, *QUIET)
    ann = register(node.url, "ann")
    probe = NatsProbe(nats)

    async def scenario():
        session = await Session.open(node.port, ann["token"])
        try:
            # The beat's digest is ann's alone, computed here apart from the server's code.
            expected = {"users": users_digest([int(ann["user"]["id"])]), "rooms": 0}
            _, first = heard(probe, lambda n: n["node"] == "n0" and n["kind"] == "digest" and n.get("digest") == expected,
                          what="a digest heartbeat of ann")
            assert first["users"] == [] and "rooms" not in first
            since = len(probe.notices())
            await asyncio.sleep(3.5)
            kinds = [n["kind"] for n in probe.notices("n0")[since:]]
            assert kinds.count("digest") >= 2 and "beat" not in kinds, kinds

            # Asked, the node sends its full list once.
            probe.say({"node": "probe", "kind": "ask", "users": [], "peer": "n0"})
            _, full = heard(probe, lambda n: n["node"] == "n0" and n["kind"] == "beat", what="the full beat asked for")
            assert full["users"] == [ann["user"]["id"]] and full["rooms"] == []
            # Asking for another node is not asking this one.
            since = len(probe.notices())
            probe.say({"node": "probe", "kind": "ask", "users": [], "peer": "n9"})
            await asyncio.sleep(2.5)
            assert [n for n in probe.notices()[since:] if n["node"] == "n0" and n["kind"] == "beat"] == []

            # A digest that differs from the node's copy (the probe has said nothing of users)
            # is answered with an ask; one that matches is not.
            probe.say({"node": "probe", "kind": "digest", "users": [], "digest": {"users": 12345, "rooms": 0}})
            heard(probe, lambda n: n["node"] == "n0" and n["kind"] == "ask" and n.get("peer") == "probe",
                  what="an ask for the probe's lists")
            since = len(probe.notices())
            probe.say({"node": "probe", "kind": "digest", "users": [], "digest": {"users": 0, "rooms": 0}})
            await asyncio.sleep(1.5)
            assert [n for n in probe.notices()[since:] if n["kind"] == "ask"] == []
        finally:
            await session.close()
            probe.close()
    asyncio.run(scenario())


def test_a_copy_gone_wrong_is_healed_by_the_next_heartbeat(parley, postgres, nats):
    first, second = nodes(parley, postgres, nats, "heal", 2, *QUIET)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))
    probe = NatsProbe(nats)

    async def scenario():
        a = await Session.open(first.port, ann["token"])
        b = await Session.open(second.port, bob["token"])
        try:
            await wait_for(lambda: any(p["userId"] == bob["user"]["id"] and p["online"] for p in events(a, "presence")),
                           what="bob online on ann's node")
            # A notice that never happened: node 0 now believes bob left node 1, as if it had
            # missed his online notice.
            probe.say({"node": "n1", "kind": "offline", "users": [bob["user"]["id"]]})
            at, _ = heard(probe, lambda n: n["node"] == "n0" and n["kind"] == "ask" and n.get("peer") == "n1",
                          what="node 0 asking node 1 for its lists")
            heard(probe, lambda n: n["node"] == "n1" and n["kind"] == "beat" and bob["user"]["id"] in n["users"],
                  what="node 1's full beat", after=at)
            # Node 0 knows where bob is again: ann's message reaches him live.
            await asyncio.sleep(0.5)
            sent = await a.call("message.send", {"conversationId": conversation, "clientId": "heal-1", "kind": "text",
                                                 "text": "still there?"})
            assert sent["ok"], sent
            await wait_for(lambda: any(m.get("text") == "still there?" for m in events(b, "message.new")),
                           what="the message on bob's node")
        finally:
            await a.close()
            await b.close()
            probe.close()
    asyncio.run(scenario())

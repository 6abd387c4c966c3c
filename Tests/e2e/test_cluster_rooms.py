"""A Parley room whose occupants are connected to different nodes of a cluster behaves as on
one server: entry and leave notices, the occupant list, messages to occupants only, leaving on
the last disconnection anywhere, and a killed node's occupants leaving once."""
import asyncio
import os
import signal

from client import Session
from cluster import events, nats, needs_cluster, nodes, postgres, texts, wait_for  # noqa: F401 (fixtures)
from test_postgres_store import register

pytestmark = needs_cluster


def notices(session, room: str, kind: str) -> list[str]:
    """Actors of the `kind` system notices `session` heard in `room`."""
    return [m["system"]["actor"] for m in events(session, "message.new")
            if m["conversationId"] == room and m["kind"] == "system" and m["system"]["type"] == kind]


async def occupants(session, room: str) -> list[str]:
    reply = await session.call("room.occupants", {"conversationId": room})
    assert reply["ok"], reply
    return sorted(user["username"] for user in reply["data"]["users"])


async def say(session, room: str, text: str):
    reply = await session.call("message.send", {"conversationId": room, "clientId": text, "kind": "text", "text": text})
    assert reply["ok"], reply


def test_a_room_with_occupants_on_three_nodes(parley, postgres, nats):
    servers = nodes(parley, postgres, nats, "rooms", 3)
    ana, ben, cyd, dee, eve = (register(servers[i].url, name)
                               for i, name in [(0, "ana"), (1, "ben"), (2, "cyd"), (1, "dee"), (2, "eve")])
    ids = {user["user"]["id"]: user["user"]["username"] for user in (ana, ben, cyd, dee, eve)}

    def names(session, kind: str) -> list[str]:
        return [ids[actor] for actor in notices(session, room, kind)]

    room = ""

    async def scenario():
        a = await Session.open(servers[0].port, ana["token"])
        b = await Session.open(servers[1].port, ben["token"])
        c = await Session.open(servers[2].port, cyd["token"])
        d = await Session.open(servers[1].port, dee["token"])
        created = await a.call("room.create", {"name": "lobby"})
        assert created["ok"], created
        nonlocal room
        room = created["data"]["room"]["id"]
        entered = await b.call("room.enter", {"name": "lobby"})
        assert entered["ok"] and entered["data"]["room"]["occupantCount"] == 2, entered
        entered = await c.call("room.enter", {"name": "lobby"})
        assert entered["ok"] and entered["data"]["room"]["occupantCount"] == 3, entered
        # Entering again through another node is no new entry.
        again = await Session.open(servers[0].port, cyd["token"])
        assert (await again.call("room.enter", {"name": "lobby"}))["ok"]
        # Everyone in the room hears of each entry once (the one entering too).
        await wait_for(lambda: names(a, "room_entered") == ["ben", "cyd"] and names(b, "room_entered") == ["ben", "cyd"],
                       what="entry notices on the other nodes")
        for session in (a, b, c, again):
            assert await occupants(session, room) == ["ana", "ben", "cyd"]
        await again.close()

        # Messages reach the occupants on every node, and nobody else.
        await say(a, room, "hello from n0")
        await wait_for(lambda: texts(b, room) == ["hello from n0"] and texts(c, room) == ["hello from n0"], what="room message")
        assert (await d.call("message.send", {"conversationId": room, "clientId": "x", "kind": "text", "text": "x"}))["error"]["code"] == "not_member"

        # A leave through one node is a leave everywhere.
        assert (await b.call("room.leave", {"conversationId": room}))["ok"]
        await wait_for(lambda: names(a, "room_left") == ["ben"]
                       and names(c, "room_left") == ["ben"], what="leave notices")
        assert await occupants(c, room) == ["ana", "cyd"]
        await say(c, room, "after ben left")
        await wait_for(lambda: "after ben left" in texts(a, room), what="message after the leave")
        assert (await b.call("room.enter", {"name": "lobby"}))["ok"]
        await wait_for(lambda: names(c, "room_entered") == ["cyd", "ben"], what="ben back")

        # Eve enters through node 2 but is connected to node 1 as well.
        eve_n2 = await Session.open(servers[2].port, eve["token"])
        eve_n1 = await Session.open(servers[1].port, eve["token"])
        assert (await eve_n2.call("room.enter", {"name": "lobby"}))["ok"]
        await wait_for(lambda: names(a, "room_entered")[-1:] == ["eve"], what="eve in")

        # Node 2 dies with Cyd's connection: the others see Cyd leave once, and the room goes on.
        # Eve, still connected to node 1, stays in the room without a notice.
        os.kill(servers[2].process.pid, signal.SIGKILL)
        servers[2].process.wait()
        await wait_for(lambda: names(a, "room_left") == ["ben", "cyd"]
                       and names(b, "room_left") == ["ben", "cyd"], timeout=20, what="the dead node's occupant leaves")
        assert await occupants(a, room) == ["ana", "ben", "eve"]
        assert await occupants(eve_n1, room) == ["ana", "ben", "eve"]
        await say(b, room, "still here")
        await wait_for(lambda: "still here" in texts(a, room) and "still here" in texts(eve_n1, room),
                       what="the room after the node died")
        await eve_n1.close()
        await wait_for(lambda: names(a, "room_left") == ["ben", "cyd", "eve"], what="eve's last disconnection")
        # Three more heartbeats: no second notice from any node.
        await asyncio.sleep(3)
        assert names(a, "room_left") == ["ben", "cyd", "eve"]
        assert names(b, "room_left") == ["ben", "cyd", "eve"]

        # Leaving on the last disconnection anywhere: Ben on two nodes stays while one is open.
        ben_elsewhere = await Session.open(servers[0].port, ben["token"])
        await b.close()
        await asyncio.sleep(2)
        assert await occupants(a, room) == ["ana", "ben"], names(a, "room_left")
        await ben_elsewhere.close()
        await wait_for(lambda: names(a, "room_left") == ["ben", "cyd", "eve", "ben"], what="ben's last disconnection")
        assert await occupants(a, room) == ["ana"]
        await a.close()
        await d.close()
    asyncio.run(scenario())

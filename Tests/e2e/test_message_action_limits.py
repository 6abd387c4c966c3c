"""The message action limits at their boundaries, set small by their flags: the edit and
recall windows, reactions per user per message, pins per conversation, the reply excerpt and
mentions per message. Exactly the limit is allowed, one more is refused as docs/operations.md
says."""
import asyncio
import time

from api import call
from client import Session


def register(url: str, name: str) -> dict:
    reply = call(url, "POST", "/v1/auth/register", {"username": name, "password": "password123"})
    assert reply.status == 201, reply.body
    return reply.json


def test_limits_of_message_actions(parley):
    server = parley("--password-cost", "minimum", "--edit-window", "2", "--recall-window", "1", "--max-reactions-per-user", "2",
                    "--max-pins", "1", "--reply-excerpt", "5", "--max-mentions", "2")
    owner, ann, bob = register(server.url, "owner"), register(server.url, "ann"), register(server.url, "bob")

    async def scenario():
        o = await Session.open(server.port, owner["token"])
        a = await Session.open(server.port, ann["token"])
        b = await Session.open(server.port, bob["token"])
        group = (await o.call("group.create", {"name": "limits"}))["data"]["id"]
        for s in (a, b):
            assert (await s.call("group.join", {"name": "limits"}))["ok"]
        counter = iter(range(1000))

        async def send(session, **data):
            return await session.call("message.send", {"conversationId": group, "clientId": f"c{next(counter)}", "kind": "text", **data})

        async def act(session, op, message, **data):
            return await session.call(op, {"conversationId": group, "messageId": message["id"], "clientId": f"a{next(counter)}", **data})

        # Mentions: two is the limit, three is refused.
        two = await send(a, text="@owner @bob", mentions=[owner["user"]["id"], bob["user"]["id"]])
        assert two["ok"], two
        three = await send(a, text="@all of you", mentions=[owner["user"]["id"], bob["user"]["id"], ann["user"]["id"]])
        assert not three["ok"] and three["error"]["code"] == "invalid_field" and three["error"]["field"] == "mentions"
        target = two["data"]

        # The reply's excerpt: five characters, then "…".
        reply = await send(b, text="yes", replyTo=target["id"])
        assert reply["data"]["replyTo"]["excerpt"] == "@owne…"

        # Reactions: two different emoji per user per message, the third refused.
        for emoji in ("👍", "🎉"):
            assert (await act(b, "message.react", target, emoji=emoji))["ok"]
        third = await act(b, "message.react", target, emoji="😀")
        assert not third["ok"] and third["error"]["code"] == "invalid_field" and third["error"]["field"] == "emoji"
        assert (await act(a, "message.react", target, emoji="😀"))["ok"], "another user has their own two"

        # Pins: one per conversation.
        assert (await act(o, "conversation.pin", target))["ok"]
        second = await act(o, "conversation.pin", reply["data"])
        assert not second["ok"] and second["error"]["code"] == "invalid_field"

        # The windows, from the message's server time: inside them allowed, after refused.
        fresh = (await send(a, text="quick"))["data"]
        assert (await act(a, "message.edit", fresh, text="quick!"))["ok"]
        late = (await send(a, text="late"))["data"]
        await asyncio.sleep(1.3)
        recall = await act(a, "message.recall", late)
        assert not recall["ok"] and recall["error"]["code"] == "window_closed"
        assert (await act(a, "message.edit", late, text="late!"))["ok"], "the edit window is longer"
        await asyncio.sleep(1.0)
        edit = await act(a, "message.edit", late, text="too late")
        assert not edit["ok"] and edit["error"]["code"] == "window_closed"
        # The group's owner recalls any member's message at any time.
        assert (await act(o, "message.recall", late))["ok"]
        # Only the sender edits or recalls.
        other = await act(b, "message.edit", fresh, text="not mine")
        assert not other["ok"] and other["error"]["code"] == "not_sender"
        for s in (o, a, b):
            await s.close()
    started = time.time()
    asyncio.run(asyncio.wait_for(scenario(), 60))
    assert time.time() - started < 60

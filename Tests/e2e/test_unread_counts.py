"""Unread counts over the real protocol: a friend's messages count, but the events that act
on a message (an edit, a reaction, a pin) do not, and a recall takes the recalled message
out of the count; the sessions list, its total and `conversation.read` agree."""
import asyncio
import uuid

from api import register
from client import Session


async def send(session: Session, op: str, data: dict) -> dict:
    reply = await session.call(op, {**data, "clientId": uuid.uuid4().hex})
    assert reply["ok"], reply
    return reply["data"]


async def unread(session: Session, conversation: int) -> tuple[int, int]:
    listed = await session.call("conversation.list")
    assert listed["ok"], listed
    row = next(c for c in listed["data"]["conversations"] if c["id"] == conversation)
    return row["unread"], listed["data"]["totalUnread"]


def test_only_messages_count_as_unread_not_actions_on_them(parley):
    server = parley("--password-cost", "minimum")
    mei_token, bob_token = register(server, "meiu"), register(server, "bobu")

    async def scenario():
        mei = await Session.open(server.port, mei_token)
        bob = await Session.open(server.port, bob_token)
        try:
            asked = await mei.call("friend.request", {"username": "bobu"})
            assert asked["ok"], asked
            accepted = await bob.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
            assert accepted["ok"], accepted
            conversation = accepted["data"]["conversationId"]
            # Mei's own message moves her marker to the end: nothing unread for her.
            mine = await send(mei, "message.send", {"conversationId": conversation, "kind": "text", "text": "hi bob"})
            assert await unread(mei, conversation) == (0, 0)

            first = await send(bob, "message.send", {"conversationId": conversation, "kind": "text", "text": "one"})
            await send(bob, "message.send", {"conversationId": conversation, "kind": "text", "text": "two"})
            assert await unread(mei, conversation) == (2, 2)

            # Bob edits, reacts to Mei's message and pins: three events in the sequence, no unread.
            await send(bob, "message.edit", {"conversationId": conversation, "messageId": first["id"], "text": "one!"})
            await send(bob, "message.react", {"conversationId": conversation, "messageId": mine["id"], "emoji": "👍"})
            await send(bob, "conversation.pin", {"conversationId": conversation, "messageId": first["id"]})
            listed = await mei.call("conversation.list")
            row = next(c for c in listed["data"]["conversations"] if c["id"] == conversation)
            assert row["lastSeq"] - row["readSeq"] == 5
            assert (row["unread"], listed["data"]["totalUnread"]) == (2, 2)

            # Recalling an unread message takes it out of the count.
            await send(bob, "message.recall", {"conversationId": conversation, "messageId": first["id"]})
            assert await unread(mei, conversation) == (1, 1)

            # Reading up to the second message leaves only the action events after it: 0.
            read = await mei.call("conversation.read", {"conversationId": conversation, "seq": first["seq"] + 1})
            assert read["ok"], read
            assert (read["data"]["unread"], read["data"]["totalUnread"]) == (0, 0)
            assert await unread(mei, conversation) == (0, 0)

            # Bob has read everything Mei did: her message came before his, and her actions none.
            assert (await unread(bob, conversation))[0] == 0
        finally:
            await mei.close()
            await bob.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))

"""Message actions in `parley chat` (tmux against a live server): the number beside each
message names it in /reply, /react, /edit, /recall and /forward; the terminal shows the
quote, the reactions, the edited mark and the recall notice, and the other side sees each
action as stored."""
import uuid

from api import sign_up
from client import Session, befriend_as, wait_for_message
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


async def history(session: Session, conversation: str) -> list[dict]:
    reply = await session.call("message.history", {"conversationId": conversation})
    assert reply["ok"], reply
    return reply["data"]["messages"]


def test_message_actions_in_the_terminal(parley):
    server = parley("--password-cost", "minimum")
    alice = sign_up(server.url, "alice")
    bob_token = sign_up(server.url, "bob")["token"]
    cyd_token = sign_up(server.url, "cyd")["token"]
    tmux = chat(server.url, width=110, height=34, prefix="parley-chat-actions-")

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
        # Alice and cyd are friends too: a chat to forward to.
        cyd = await Session.open(server.port, cyd_token)
        alice_session = await Session.open(server.port, alice["token"])
        asked = await alice_session.call("friend.request", {"username": "cyd"})
        assert (await cyd.call("friend.accept", {"requestId": asked["data"]["request"]["id"]}))["ok"]
        await alice_session.close()
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                               "kind": "text", "text": "question from bob"})
        seq = sent["data"]["seq"]

        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "bob")
        # The newest conversation (bob's) is first; open it.
        tmux.keys("Enter")
        await tmux.wait_for("question from bob", f"#{seq}")

        # React and reply by number.
        tmux.text(f"/react {seq} 👍")
        tmux.keys("Enter")
        await tmux.wait_for("👍 1")
        tmux.text(f"/reply {seq} the answer")
        tmux.keys("Enter")
        await wait_for_message(bob, "the answer")
        await tmux.wait_for("↪ bob: question from bob", "the answer")
        messages = await history(bob, conversation)
        answer = next(m for m in messages if m.get("text") == "the answer")
        assert answer["replyTo"]["messageId"] == sent["data"]["id"]
        assert next(m for m in messages if m["id"] == sent["data"]["id"])["reactions"] == [
            {"emoji": "👍", "users": [alice["user"]["id"]]}]

        # Edit, then recall, her own message.
        tmux.text(f"/edit {answer['seq']} the better answer")
        tmux.keys("Enter")
        await tmux.wait_for("the better answer", "(edited)")
        tmux.text(f"/recall {answer['seq']}")
        tmux.keys("Enter")
        await tmux.wait_for("You recalled a message", absent=("the better answer",))
        recalled = next(m for m in await history(bob, conversation) if m["id"] == answer["id"])
        assert recalled.get("recalled") and "text" not in recalled

        # Forward bob's question to cyd.
        tmux.text(f"/forward {seq} cyd")
        tmux.keys("Enter")
        await tmux.wait_for("Forwarded")
        forwarded = (await wait_for_message(cyd, "question from bob", timeout=5))["data"]
        assert forwarded and forwarded["forwarded"] is True and forwarded["sender"] == alice["user"]["id"]

        # A bad number says how the commands go.
        tmux.text("/react 999 👍")
        tmux.keys("Enter")
        await tmux.wait_for("No message with that number")
        await bob.close()
        await cyd.close()
        tmux.quit_chat()

    play(tmux, scenario(), timeout=120)

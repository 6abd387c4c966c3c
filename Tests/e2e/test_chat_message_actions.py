"""Message actions in `parley chat` (tmux against a live server): the number beside each
message names it in /reply, /react, /edit, /recall and /forward; the terminal shows the
quote, the reactions, the edited mark and the recall notice, and the other side sees each
action as stored."""
import asyncio
import os
import tempfile
import uuid

from api import call
from client import Session
from conftest import binary
from test_chat_tmux import Tmux, befriend, register, wait_for_event


async def history(session: Session, conversation: str) -> list[dict]:
    reply = await session.call("message.history", {"conversationId": conversation})
    assert reply["ok"], reply
    return reply["data"]["messages"]


def test_message_actions_in_the_terminal(parley):
    server = parley("--password-cost", "minimum")
    alice = register(server.url, "alice")
    register(server.url, "bob")
    register(server.url, "cyd")
    bob_token = call(server.url, "POST", "/v1/auth/login", {"username": "bob", "password": "password123"}).json["token"]
    cyd_token = call(server.url, "POST", "/v1/auth/login", {"username": "cyd", "password": "password123"}).json["token"]
    home = tempfile.mkdtemp(prefix="parley-chat-actions-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 110, 34, env)

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend(server.port, alice, bob)
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
        await wait_for_event(bob, "the answer")
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
        forwarded = None
        for _ in range(100):
            forwarded = next((e["data"] for e in cyd.events if e["event"] == "message.new"
                              and e["data"].get("text") == "question from bob"), None)
            if forwarded:
                break
            await asyncio.sleep(0.05)
        assert forwarded and forwarded["forwarded"] is True and forwarded["sender"] == alice["user"]["id"]

        # A bad number says how the commands go.
        tmux.text("/react 999 👍")
        tmux.keys("Enter")
        await tmux.wait_for("No message with that number")
        await bob.close()
        await cyd.close()
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

"""`parley chat` in tmux shows receipts and typing: ticks on the reader's own messages (✓
sent, ✓✓ delivered once the other side is online, ✓✓ read), the other side's typing in the
dialogue's title line, and the reader's own typing reaching the other side."""
import asyncio
import os
import tempfile
import uuid

from api import call
from client import Session
from conftest import binary
from test_chat_tmux import Tmux, befriend, register


async def wait_for_typing(session: Session, timeout: float = 20) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for event in session.events:
            if event["event"] == "typing" and event["data"].get("typing"):
                return event["data"]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no typing event; events: {session.events}")


def test_ticks_and_typing_in_tmux(parley):
    server = parley("--typing-timeout", "2")
    alice = register(server.url, "alice")
    register(server.url, "bob")
    bob_token = call(server.url, "POST", "/v1/auth/login", {"username": "bob", "password": "password123"}).json["token"]
    home = tempfile.mkdtemp(prefix="parley-chat-receipts-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend(server.port, alice, bob)
        await bob.close()

        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "bob", "now friends")
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        # Bob is offline: one tick.
        tmux.text("tick me")
        tmux.keys("Enter")
        await tmux.wait_for("✓ Me", "tick me")
        # Bob comes online and syncs: two ticks; he reads: still two, now in colour (the
        # screen text is the same, so the history's marker is checked too).
        bob = await Session.open(server.port, bob_token)
        synced = await bob.call("sync", {"since": {}})
        assert synced["ok"], synced
        seq = max(m["seq"] for m in synced["data"]["messages"] if m.get("text") == "tick me")
        await tmux.wait_for("✓✓ Me")
        read = await bob.call("conversation.read", {"conversationId": conversation, "seq": seq})
        assert read["ok"], read

        # Bob types: alice's title line says so, then it goes without a stop.
        started = await bob.call("typing.start", {"conversationId": conversation})
        assert started["ok"], started
        await tmux.wait_for("bob is typing…")
        await tmux.wait_for("tick me", absent=("is typing…",), timeout=10)

        # Alice types: bob hears it.
        tmux.text("and now")
        typing = await wait_for_typing(bob)
        assert typing["conversationId"] == conversation
        tmux.keys("Enter")
        await bob.close()
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

"""`parley chat` in tmux shows receipts and typing: ticks on the reader's own messages (✓
sent, ✓✓ delivered once the other side is online, ✓✓ read), the other side's typing in the
dialogue's title line, and the reader's own typing reaching the other side."""
from api import sign_up
from client import Session, befriend_as, wait_event
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


def test_ticks_and_typing_in_tmux(parley):
    server = parley("--typing-timeout", "2")
    alice = sign_up(server.url, "alice")
    bob_token = sign_up(server.url, "bob")["token"]
    tmux = chat(server.url, prefix="parley-chat-receipts-")

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
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
        typing = (await wait_event(bob, lambda e: e["event"] == "typing" and e["data"].get("typing"), timeout=20))["data"]
        assert typing["conversationId"] == conversation
        tmux.keys("Enter")
        await bob.close()
        tmux.quit_chat()

    play(tmux, scenario(), timeout=120)

"""Mute across devices: `parley chat` mutes the open chat with `/mute 8h` (and `/unmute`), the
user's other connection hears `conversation.muted` at once, and a mute set elsewhere shows (and
goes) live as the 🔕 mark in the terminal's sessions list."""
from api import sign_up
from client import Session, befriend_as, wait_event
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


def test_mute_from_the_terminal_reaches_other_devices_and_back(parley):
    server = parley()
    alice = sign_up(server.url, "alice")
    bob_account = sign_up(server.url, "bob")
    tmux = chat(server.url, prefix="parley-chat-mute-")

    async def scenario():
        bob = await Session.open(server.port, bob_account["token"])
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
        await bob.close()
        phone = await Session.open(server.port, alice["token"])

        await tmux.sign_in("alice")
        await tmux.wait_for("bob", "now friends")
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        tmux.text("/mute 8h")
        tmux.keys("Enter")
        await tmux.wait_for("Muted until")
        muted = await wait_event(phone, lambda e: e["event"] == "conversation.muted" and e["data"].get("mute"))
        assert muted["data"]["conversationId"] == conversation
        assert muted["data"]["mute"]["until"] > 0 and muted["data"]["mute"]["mentionsOnly"] is False
        tmux.keys("Escape")
        await tmux.wait_for("bob 🔕")

        # Unmuted on the phone: the terminal's list drops the mark without a reload.
        unmuted = await phone.call("conversation.unmute", {"conversationId": conversation})
        assert unmuted["ok"], unmuted
        await tmux.wait_for("bob", absent=("🔕",))
        # Muted for good on the phone: the mark comes back.
        again = await phone.call("conversation.mute", {"conversationId": conversation})
        assert again["ok"], again
        await tmux.wait_for("bob 🔕")

        # /unmute from the terminal: the phone hears it, with no mute.
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        tmux.text("/unmute")
        tmux.keys("Enter")
        await tmux.wait_for("Notifications on")
        await wait_event(phone, lambda e: e["event"] == "conversation.muted" and "mute" not in e["data"])
        # A bad length is refused with the usage.
        tmux.text("/mute soon")
        tmux.keys("Enter")
        await tmux.wait_for("/mute [30m|8h|2d|1w|forever]")
        await phone.close()
        tmux.quit_chat()

    play(tmux, scenario(), timeout=120)

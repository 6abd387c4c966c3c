"""Mute across devices: `parley chat` mutes the open chat with `/mute 8h` (and `/unmute`), the
user's other connection hears `conversation.muted` at once, and a mute set elsewhere shows (and
goes) live as the 🔕 mark in the terminal's sessions list."""
import asyncio
import os
import tempfile

from client import Session
from conftest import binary
from test_chat_tmux import Tmux, befriend, register
from xmpp import wait_event


def test_mute_from_the_terminal_reaches_other_devices_and_back(parley):
    server = parley()
    alice = register(server.url, "alice")
    bob_account = register(server.url, "bob")
    home = tempfile.mkdtemp(prefix="parley-chat-mute-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        bob = await Session.open(server.port, bob_account["token"])
        conversation = await befriend(server.port, alice, bob)
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
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

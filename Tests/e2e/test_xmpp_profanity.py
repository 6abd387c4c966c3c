"""profanity (Debian's console Jabber client, driven in tmux) signs in to Parley's XMPP
listener and chats with a native client both ways."""
import asyncio
import shutil
import tempfile
import uuid

import pytest

from client import Session
from test_chat_tmux import Tmux
from xmpp import PASSWORD, befriend, register, wait_event

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("profanity") is None,
                                reason="tmux and profanity are needed")


def test_profanity_signs_in_and_chats_with_a_native_client(parley):
    server = parley("--password-cost", "minimum", xmpp=True)
    mei_token = register(server, "mei")
    bob_token = register(server, "bob")
    home = tempfile.mkdtemp(prefix="parley-profanity-")
    env = {"HOME": home, "XDG_CONFIG_HOME": f"{home}/.config", "XDG_DATA_HOME": f"{home}/.local/share",
           "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux(["profanity"], 140, 35, env)

    async def scenario():
        mei = await Session.open(server.port, mei_token)
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend(mei, bob, "bob")
        await mei.close()

        await tmux.wait_for("Profanity")
        # Plaintext on loopback (no certificate configured), so TLS is turned off.
        tmux.text(f"/connect mei@localhost server 127.0.0.1 port {server.xmpp_port} tls disable")
        tmux.keys("Enter")
        await tmux.wait_for("Enter password")
        tmux.text(PASSWORD)
        tmux.keys("Enter")
        await tmux.wait_for("logged in successfully")

        tmux.text("/msg bob@localhost hello from profanity")
        tmux.keys("Enter")
        event = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "hello from profanity", timeout=20)
        assert event["data"]["conversationId"] == conversation

        reply = await bob.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                "kind": "text", "text": "reply from bob to profanity"})
        assert reply["ok"], reply
        await tmux.wait_for("reply from bob to profanity")
        await bob.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 90))
    finally:
        tmux.keys("Escape")
        tmux.text("/quit")
        tmux.keys("Enter")
        tmux.close()

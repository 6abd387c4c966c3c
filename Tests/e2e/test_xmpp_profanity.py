"""profanity (Debian's console Jabber client, driven in tmux) signs in to Parley's XMPP
listener and chats with a native client both ways."""
import asyncio
import shutil
import tempfile
import uuid

import pytest

from client import Session
from tmux import Tmux
from xmpp import PASSWORD, befriend, native_resource, register, wait_event

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
        # Bob's native client is a resource of its own, named after his device.
        tmux.text("/info bob@localhost")
        tmux.keys("Enter")
        await tmux.wait_for(native_resource(server, bob_token))
        await bob.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 90))
    finally:
        tmux.keys("Escape")
        tmux.text("/quit")
        tmux.keys("Enter")
        tmux.close()


def test_profanity_shows_no_error_and_its_own_room_messages_once(parley):
    """What a Jabber user sees in ordinary use: a 1:1 chat and a room chat without an error
    line (the gateway's bare `from` and refusal of `to`-less messages made profanity print
    one after every message), and each of the user's own room messages once."""
    server = parley("--password-cost", "minimum", xmpp=True)
    mei_token = register(server, "mei")
    bob_token = register(server, "bob")
    home = tempfile.mkdtemp(prefix="parley-profanity-")
    env = {"HOME": home, "XDG_CONFIG_HOME": f"{home}/.config", "XDG_DATA_HOME": f"{home}/.local/share",
           "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux(["profanity"], 160, 40, env)

    def command(line: str):
        tmux.text(line)
        tmux.keys("Enter")

    async def every_window_clean(windows: dict[int, str]):
        """Each window (by number, with a line it shows) has no error line."""
        for number, line in windows.items():
            command(f"/win {number}")
            screen = await tmux.wait_for(line)
            assert "Error" not in screen and "error" not in screen, screen

    async def scenario():
        mei = await Session.open(server.port, mei_token)
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend(mei, bob, "bob")
        await mei.close()

        await tmux.wait_for("Profanity")
        command(f"/connect mei@localhost server 127.0.0.1 port {server.xmpp_port} tls disable")
        await tmux.wait_for("Enter password")
        command(PASSWORD)
        await tmux.wait_for("logged in successfully")

        # 1:1, both ways, twice.
        for index in range(2):
            command(f"/msg bob@localhost one to one {index}")
            await wait_event(bob, lambda e, i=index: e["event"] == "message.new" and e["data"].get("text") == f"one to one {i}", timeout=20)
            reply = await bob.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                    "kind": "text", "text": f"bob answers {index}"})
            assert reply["ok"], reply
            await tmux.wait_for(f"bob answers {index}")

        # A room: Bob natively in it, Mei joins from profanity and talks.
        created = await bob.call("room.create", {"name": "teahouse"})
        assert created["ok"], created
        room = created["data"]["room"]["id"]
        command("/join teahouse@conference.localhost nick mei")
        await tmux.wait_for("You have joined the room")
        for index in range(2):
            command(f"room line {index} from mei")
            await wait_event(bob, lambda e, i=index: e["event"] == "message.new" and e["data"].get("text") == f"room line {i} from mei",
                             timeout=20)
        said = await bob.call("message.send", {"conversationId": room, "clientId": uuid.uuid4().hex, "kind": "text",
                                               "text": "bob in the room"})
        assert said["ok"], said
        await tmux.wait_for("bob in the room")
        await asyncio.sleep(1.5)
        screen = tmux.screen()
        for index in range(2):
            assert screen.count(f"room line {index} from mei") == 1, screen
        await every_window_clean({1: "logged in successfully", 2: "bob answers 1", 3: "bob in the room"})
        await bob.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        tmux.keys("Escape")
        tmux.text("/quit")
        tmux.keys("Enter")
        tmux.close()

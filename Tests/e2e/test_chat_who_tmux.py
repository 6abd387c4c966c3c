"""`/who` in `parley chat`: on which devices and Jabber clients the chat's other person is
online (`user.resources`), each with its show and status, and that they are on none once gone."""
import asyncio
import os
import tempfile

from api import sign_up
from client import Session, befriend_as
from conftest import binary
from tmux import Tmux
from xmpp import Bot


def test_who_lists_a_friends_devices_and_jabber_clients(parley):
    server = parley("--password-cost", "minimum", xmpp=True)
    alice = sign_up(server.url, "alice")
    bob_account = sign_up(server.url, "bob")
    home = tempfile.mkdtemp(prefix="parley-chat-who-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 140, 30, env)

    async def scenario():
        bob = await Session.open(server.port, bob_account["token"])
        await befriend_as(server.port, alice["token"], bob, "bob")
        gajim = Bot("bob@localhost/gajim")
        assert await gajim.sign_in(server.xmpp_port)
        gajim.send_presence(pshow="dnd", pstatus="busy")

        await tmux.sign_in("alice")
        await tmux.wait_for("bob")
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        tmux.text("/who")
        tmux.keys("Enter")
        # Bob's native session (a device) and his Jabber client with its show and status.
        await tmux.wait_for("bob is online on:", "gajim (Jabber, do not disturb, busy)")
        await gajim.stop()
        await bob.close()
        await asyncio.sleep(1.0)
        tmux.text("/who bob")
        tmux.keys("Enter")
        await tmux.wait_for("bob is not online")
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

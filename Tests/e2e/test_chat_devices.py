"""`parley chat`'s devices pane (v): the account's signed-in devices by name and address,
and signing all the others out (o)."""
import asyncio
import os
import shutil
import tempfile

import pytest

from api import call
from conftest import binary
from test_chat_tmux import Tmux, register

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_devices_pane_lists_and_signs_out_the_others(parley):
    server = parley("--password-cost", "minimum")
    alice = register(server.url, "alice")
    laptop = call(server.url, "POST", "/v1/auth/login", {"username": "alice", "password": "password123", "deviceName": "Work laptop"})
    assert laptop.status == 200
    home = tempfile.mkdtemp(prefix="parley-chat-e2e-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 170, 30, env)

    async def scenario():
        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "v devices")
        tmux.keys("v")
        screen = await tmux.wait_for("Devices", "Work laptop", "parley-chat  (this device)", "127.0.0.1")
        assert "o sign out all other devices" in screen
        tmux.keys("o")
        await tmux.wait_for("Sign out all other devices? (y/n)")
        tmux.text("y")
        tmux.keys("Enter")
        await tmux.wait_for("signed out", absent=("Work laptop",))
        tmux.keys("Escape")
        await tmux.wait_for("v devices")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    finally:
        tmux.close()
    assert call(server.url, "GET", "/v1/me", token=laptop.json["token"]).error_code == "unauthorized"
    assert call(server.url, "GET", "/v1/me", token=alice["token"]).error_code == "unauthorized"

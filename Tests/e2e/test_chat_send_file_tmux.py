"""`parley chat` in tmux sends any file from disk with `/send-file PATH`: a progress line
while it goes, `[file name size]` in the dialogue once sent (`[文件 …]` in Chinese), and
the other side downloads exactly the bytes on disk."""
import asyncio
import hashlib
import os
import shutil
import tempfile
import urllib.request

import pytest

from api import call, sign_up
from client import Session, befriend_as
from conftest import binary
from tmux import Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.mark.parametrize("language,label,sent,usage,login,main,dialogue", [
    ("en", "[file notes 2026.pdf 12 MB]", "Sent notes 2026.pdf", "Usage: /send-file PATH", ("Username", "sign in", "Esc quit"),
     ("● online", "q quit"), ("Enter send", "Ctrl-C quit")),
    ("zh", "[文件 notes 2026.pdf 12 MB]", "已发送 notes 2026.pdf", "用法：/send-file 文件路径", ("用户名", "短信验证码", "Esc 退出"),
     ("● 在线", "q 退出"), ("Enter 发送", "Ctrl-C 退出")),
])
def test_chat_sends_a_file_from_disk(parley, language, label, sent, usage, login, main, dialogue):
    server = parley()
    alice = sign_up(server.url, "alice")
    sign_up(server.url, "bob")
    bob_token = call(server.url, "POST", "/v1/auth/login", {"username": "bob", "password": "password123"}).json["token"]
    home = tempfile.mkdtemp(prefix="parley-chat-file-")
    # 12 MiB: more than one 8 MiB piece, so the upload takes two PATCHes.
    path = os.path.join(home, "notes 2026.pdf")
    content = b"%PDF-1.4\n" + bytes((i * 7 + i // 4096) % 251 for i in range(12 * 1024 * 1024 - 9))
    with open(path, "wb") as file:
        file.write(content)
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home, "--lang", language],
                110, 30, env)

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
        # The sign-in screen speaks the chosen language too.
        await tmux.wait_for(*login)
        await tmux.sign_in("alice")
        # So do the connection state and the key help, in the list and in a dialogue.
        await tmux.wait_for("bob", *main)
        tmux.keys("Enter")
        await tmux.wait_for(*dialogue)
        tmux.text("/send-file")
        tmux.keys("Enter")
        await tmux.wait_for(usage)
        tmux.text(f"/send-file {path}")
        tmux.keys("Enter")
        await tmux.wait_for(sent, label)
        # The progress line went by on the way (the chat log keeps every flash).
        log = open(os.path.join(home, "chat.log"), encoding="utf-8").read()
        assert "100%" in log and ("Uploading notes 2026.pdf" in log or "正在上传 notes 2026.pdf" in log), log[-2000:]

        history = await bob.call("message.history", {"conversationId": conversation})
        [message] = [m for m in history["data"]["messages"] if m["kind"] == "file"]
        assert message["file"]["name"] == "notes 2026.pdf" and message["file"]["size"] == len(content), message
        assert message["file"]["type"] == "application/pdf", message
        # With bob's token: downloads may come to need a member's sign-in.
        request = urllib.request.Request(server.url + message["file"]["url"], headers={"Authorization": f"Bearer {bob_token}"})
        with urllib.request.urlopen(request) as reply:
            assert hashlib.sha256(reply.read()).hexdigest() == hashlib.sha256(content).hexdigest()
        await bob.close()

    try:
        asyncio.run(scenario())
    finally:
        tmux.close()

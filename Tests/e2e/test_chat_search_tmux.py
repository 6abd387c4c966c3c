"""`parley chat` search in tmux: "/" on the list asks for words, the hits of every chat come
newest first with the chat's name and the matched words, Chinese too; a recalled message is
not among them; Enter opens the hit's conversation; "/search WORDS" in a dialogue searches
that chat only."""
import asyncio
import os
import shutil
import tempfile
import uuid

import pytest

from api import call
from client import Session
from conftest import binary
from test_chat_tmux import Tmux, befriend, register

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


async def send(session: Session, conversation: str, text: str) -> dict:
    reply = await session.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                "kind": "text", "text": text})
    assert reply["ok"], reply
    return reply["data"]


def test_chat_search_in_tmux(parley):
    server = parley()
    alice = register(server.url, "alice")
    register(server.url, "bob")
    bob_token = call(server.url, "POST", "/v1/auth/login", {"username": "bob", "password": "password123"}).json["token"]
    home = tempfile.mkdtemp(prefix="parley-chat-search-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend(server.port, alice, bob)
        await send(bob, conversation, "see you in Beijing 北京见")
        await send(bob, conversation, "filler in between")
        await send(bob, conversation, "我们去北京吃烤鸭")
        secret = await send(bob, conversation, "Beijing secret plan")
        recalled = await bob.call("message.recall", {"conversationId": conversation, "messageId": secret["id"],
                                                     "clientId": uuid.uuid4().hex})
        assert recalled["ok"], recalled
        await send(bob, conversation, "the last word")
        await bob.close()

        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "the last word")

        # "/" asks; the hits come with the chat's name and the match.
        tmux.text("/")
        await tmux.wait_for("Search messages:")
        tmux.text("beijing")
        tmux.keys("Enter")
        screen = await tmux.wait_for("Search: beijing", "1 found", "see you in Beijing")
        assert "secret plan" not in screen, "a recalled message is not found"
        assert "filler" not in screen

        # Chinese: a new search from the pane.
        tmux.text("/")
        await tmux.wait_for("Search messages:")
        tmux.text("北京")
        tmux.keys("Enter")
        screen = await tmux.wait_for("Search: 北京", "2 found", "我们去北京吃烤鸭", "see you in Beijing")
        hits = [line for line in screen.splitlines() if "北京吃烤鸭" in line or "see you in" in line]
        assert "烤鸭" in hits[0] and "see you" in hits[1], "newest first"

        # Enter opens the conversation of the selected hit.
        tmux.keys("Enter")
        await tmux.wait_for("Say something", "the last word")

        # "/search WORDS" in a dialogue: that chat only; Esc goes back to the dialogue.
        tmux.text("/search plan")
        tmux.keys("Enter")
        await tmux.wait_for("Search: plan in bob", "No messages found")
        tmux.text("/")
        await tmux.wait_for("Search messages:")
        tmux.keys("Escape")
        tmux.keys("Escape")
        await tmux.wait_for("Say something")
        tmux.text("/search 烤鸭")
        tmux.keys("Enter")
        await tmux.wait_for("Search: 烤鸭 in bob", "1 found", "我们去北京吃烤鸭")
        tmux.keys("Escape")
        await tmux.wait_for("Say something")
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

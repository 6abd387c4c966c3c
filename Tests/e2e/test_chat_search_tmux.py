"""`parley chat` search in tmux: "/" on the list asks for words, the hits of every chat come
newest first with the chat's name and the matched words, Chinese too; a recalled message is
not among them; Enter opens the hit's conversation; "/search WORDS" in a dialogue searches
that chat only."""
import uuid

from api import sign_up
from client import Session, befriend_as
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


async def send(session: Session, conversation: str, text: str) -> dict:
    reply = await session.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                "kind": "text", "text": text})
    assert reply["ok"], reply
    return reply["data"]


def test_chat_search_in_tmux(parley):
    server = parley()
    alice = sign_up(server.url, "alice")
    bob_token = sign_up(server.url, "bob")["token"]
    tmux = chat(server.url, prefix="parley-chat-search-")

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
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
        tmux.quit_chat()

    play(tmux, scenario(), timeout=90)

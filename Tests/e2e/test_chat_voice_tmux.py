"""`parley chat` in tmux shows a voice message as `[voice 0:03]` (`[语音 0:03]` in Chinese),
with a dot until it is played, and the sender sees "listened" once the other side played
it. The recording is Opus in Ogg, built here page by page."""
import struct
import uuid

import pytest

from api import call, sign_up
from client import Session, befriend_as
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


def ogg_page(data: bytes, granule: int, sequence: int, flags: int) -> bytes:
    # Checksum left 0: the server reads the structure and timestamps, not the checksum.
    header = b"OggS" + bytes([0, flags]) + struct.pack("<qII", granule, 0x5151, sequence) + b"\0\0\0\0"
    return header + bytes([1, len(data)]) + data


def ogg_opus(milliseconds: int, pre_skip: int = 312) -> bytes:
    """Opus in Ogg whose last granule position says `milliseconds` (the packets are filler)."""
    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", pre_skip, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 6) + b"parley" + struct.pack("<I", 0)
    pages = [ogg_page(head, 0, 0, 2), ogg_page(tags, 0, 1, 0)]
    pages.append(ogg_page(b"\xf8\xff\xfe" * 10, milliseconds * 48 + pre_skip, 2, 4))
    return b"".join(pages)


async def send_voice(session: Session, url: str, token: str, conversation: str, milliseconds: int) -> dict:
    media = call(url, "POST", "/v1/media", raw=ogg_opus(milliseconds), token=token).json
    assert media["type"] == "audio/ogg", media
    reply = await session.call("message.send", {
        "conversationId": conversation, "clientId": uuid.uuid4().hex, "kind": "voice", "mediaId": media["id"],
        "durationMs": milliseconds, "waveform": [(i * 5) % 32 for i in range(64)]})
    assert reply["ok"], reply
    return reply["data"]


@pytest.mark.parametrize("language,label,listened", [("en", "[voice 0:03]", "listened"), ("zh", "[语音 0:03]", "已听")])
def test_chat_shows_voice_messages(parley, language, label, listened):
    server = parley()
    alice = sign_up(server.url, "alice")
    bob_token = sign_up(server.url, "bob")["token"]
    tmux = chat(server.url, "--lang", language, prefix="parley-chat-voice-")

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        conversation = await befriend_as(server.port, alice["token"], bob, "bob")
        await send_voice(bob, server.url, bob_token, conversation, 3_200)
        await tmux.sign_in("alice")
        # The sessions list previews the note with its length; the dialogue shows the line
        # with the unplayed dot.
        await tmux.wait_for(label)
        tmux.keys("Enter")
        screen = await tmux.wait_for(label, f"• {label}")
        assert f"• {label}" in screen
        # Alice's own note: bob plays it and alice's line says so.
        alice_session = await Session.open(server.port, alice["token"])
        mine = await send_voice(alice_session, server.url, alice["token"], conversation, 3_000)
        await tmux.wait_for(f"{label} ")
        played = await bob.call("message.listened", {"conversationId": conversation, "messageId": mine["id"],
                                                     "clientId": uuid.uuid4().hex})
        assert played["ok"] and played["data"]["event"]["system"]["type"] == "message_listened", played
        await tmux.wait_for(listened)
        await alice_session.close()
        await bob.close()

    play(tmux, scenario(), timeout=120)

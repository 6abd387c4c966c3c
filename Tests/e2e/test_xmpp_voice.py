"""A voice message reaches a Jabber client as a message whose body is the recording's link
and which carries the same link as an out-of-band URL (XEP-0066) with a description naming
its length; the link serves the Opus recording."""
import urllib.request
import uuid

from api import call
from test_chat_voice_tmux import ogg_opus
from xmpp import Bot, mei_and_bob, run, server  # noqa: F401 (server is a fixture)


def test_voice_messages_reach_jabber_clients_as_out_of_band_links(server):
    async def scenario():
        mei_native, bob, conversation, _, bob_token = await mei_and_bob(server)
        await mei_native.close()
        recording = ogg_opus(12_400)
        upload = call(server.url, "POST", "/v1/media", token=bob_token, raw=recording)
        assert upload.status == 201 and upload.json["type"] == "audio/ogg", upload.body
        media = upload.json

        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex, "kind": "voice",
                                               "mediaId": media["id"], "durationMs": 12_400, "waveform": [7] * 64})
        assert sent["ok"], sent
        message = await mei.next_message()
        # A signed link: the Jabber client fetches it without a token (docs/xmpp.md, "Media links").
        link = message["body"]
        assert link.startswith(server.url + media["url"] + "?exp=") and "&sig=" in link
        assert message.xml.find("{jabber:x:oob}x/{jabber:x:oob}url").text == link
        assert message.xml.find("{jabber:x:oob}x/{jabber:x:oob}desc").text == "Voice message 0:12"
        with urllib.request.urlopen(link, timeout=10) as response:
            assert response.headers["Content-Type"] == "audio/ogg"
            assert response.read() == recording
        await mei.stop()
        await bob.close()
    run(scenario())

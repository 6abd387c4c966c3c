"""XEP-0357 push notifications, the server's side, with an app server on loopback: a Jabber
bot signed in to Parley as the account `pushapp` (Parley has no server-to-server
federation, so an app server elsewhere cannot be reached). While the user who enabled push
is away (every stream CSI-inactive, or broken and waiting to be resumed, and no native
client in front), each new message is published to the app server as a summary."""
import asyncio
import xml.etree.ElementTree as ET

from slixmpp.exceptions import IqError
from slixmpp.xmlstream.handler import Callback
from slixmpp.xmlstream.matcher import MatchXPath

from xmpp import Bot, error_condition, mei_and_bob, register, run, server

PUBSUB = "{http://jabber.org/protocol/pubsub}"
PUSH = "{urn:xmpp:push:0}"
FORM = "{jabber:x:data}"


class AppServer(Bot):
    """Collects the publish iqs it gets and answers them."""

    def __init__(self, jid: str):
        super().__init__(jid)
        self.publishes: list = []
        self.register_handler(Callback("publishes", MatchXPath("{jabber:client}iq/" + PUBSUB + "pubsub"), self._publish))

    def _publish(self, iq):
        self.publishes.append(iq)
        iq.reply().send()


def summary(iq) -> dict:
    form = iq.xml.find(f"{PUBSUB}pubsub/{PUBSUB}publish/{PUBSUB}item/{PUSH}notification/{FORM}x")
    return {field.get("var"): field.findtext(FORM + "value") for field in form.iter(FORM + "field")}


async def set_iq(bot: Bot, payload: str):
    stanza = bot.make_iq_set()
    stanza.append(ET.fromstring(payload))
    try:
        return await stanza.send(timeout=10)
    except IqError as error:
        return error.iq


async def until(predicate, timeout: float = 10):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.05)


def test_an_away_user_is_notified_through_the_app_server(server):
    register(server, "pushapp")

    async def scenario():
        mei_native, bob, conversation, _, _ = await mei_and_bob(server)
        await mei_native.close()
        app = AppServer("pushapp@localhost/service")
        assert await app.sign_in(server.xmpp_port)
        mei = Bot("mei@localhost/phone")
        mei.register_plugin("xep_0198")
        assert await mei.sign_in(server.xmpp_port)

        # Discovered on the account; an app server on another domain is refused.
        info = await mei.plugin["xep_0030"].get_info(jid="mei@localhost")
        assert "urn:xmpp:push:0" in info["disco_info"]["features"]
        elsewhere = await set_iq(mei, "<enable xmlns='urn:xmpp:push:0' jid='push.example.org' node='x'/>")
        assert elsewhere["type"] == "error" and error_condition(elsewhere) == "not-acceptable"
        enabled = await set_iq(mei, "<enable xmlns='urn:xmpp:push:0' jid='pushapp@localhost' node='node-1'>"
                                    "<x xmlns='jabber:x:data' type='submit'>"
                                    "<field var='FORM_TYPE'><value>http://jabber.org/protocol/pubsub#publish-options</value></field>"
                                    "<field var='secret'><value>s3cr3t</value></field></x></enable>")
        assert enabled["type"] == "result", enabled

        async def say(text: str):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": text, "kind": "text", "text": text})
            assert sent["ok"], sent

        # Present: no notification.
        await say("while present")
        await mei.next_message(predicate=lambda m: m["body"] == "while present")
        await asyncio.sleep(0.5)
        assert app.publishes == []

        # The app goes to the background (CSI): the message is published, as a summary.
        mei.send_raw("<inactive xmlns='urn:xmpp:csi:0'/>")
        await asyncio.sleep(0.3)
        await say("while inactive")
        await until(lambda: len(app.publishes) == 1)
        first = app.publishes[0]
        assert first["from"] == "mei@localhost"
        assert first.xml.find(f"{PUBSUB}pubsub/{PUBSUB}publish").get("node") == "node-1"
        fields = summary(first)
        assert fields["FORM_TYPE"] == "urn:xmpp:push:summary" and fields["message-count"] == "1"
        assert fields["last-message-sender"] == "bob@localhost"
        assert "while inactive" not in str(first)
        options = first.xml.find(f"{PUBSUB}pubsub/{PUBSUB}publish-options/{FORM}x")
        assert any(f.findtext(FORM + "value") == "s3cr3t" for f in options.iter(FORM + "field"))

        # Active again: none. The connection breaks (a phone losing its network) while the
        # stream waits to be resumed: away, so notified again.
        mei.send_raw("<active xmlns='urn:xmpp:csi:0'/>")
        await asyncio.sleep(0.3)
        await say("active again")
        await asyncio.sleep(0.5)
        assert len(app.publishes) == 1
        await until(lambda: mei.plugin["xep_0198"].sm_id is not None)
        mei.abort()
        await asyncio.sleep(0.5)
        await say("while the connection is broken")
        await until(lambda: len(app.publishes) == 2)
        assert summary(app.publishes[1])["message-count"] == "2"

        # Disabled: no more.
        other = Bot("mei@localhost/laptop")
        assert await other.sign_in(server.xmpp_port)
        other.send_raw("<inactive xmlns='urn:xmpp:csi:0'/>")
        disabled = await set_iq(other, "<disable xmlns='urn:xmpp:push:0' jid='pushapp@localhost'/>")
        assert disabled["type"] == "result"
        await asyncio.sleep(0.3)
        await say("after disable")
        await asyncio.sleep(0.8)
        assert len(app.publishes) == 2
        for bot in (other, app):
            await bot.stop()
        await bob.close()
    run(scenario())

"""Personal eventing (XEP-0163) for any node a client publishes, as OMEMO clients (Conversations,
Dino) need it: slixmpp's XEP-0060 plugin publishes a device list and a bundle, the friend's
client gets the events its caps ask for (`+notify`), reads both, gets the last published item
when it comes online; access models, limits, retraction and deletion. And the PEP events of
profile changes made natively (nickname, avatar)."""
import asyncio
import hashlib
import xml.etree.ElementTree as ET

from slixmpp.exceptions import IqError

from api import call
from client import Session
from xmpp import Bot, befriend, error_condition, register, run

PUBSUB = "{http://jabber.org/protocol/pubsub}"
EVENT = "{http://jabber.org/protocol/pubsub#event}"
AXOLOTL = "eu.siacs.conversations.axolotl"
DEVICES = AXOLOTL + ".devicelist"
BUNDLE = AXOLOTL + ".bundles:4711"
MOOD = "http://jabber.org/protocol/mood"
NICK = "http://jabber.org/protocol/nick"
METADATA = "urn:xmpp:avatar:metadata"
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + \
    (16).to_bytes(4, "big") + (8).to_bytes(4, "big") + bytes([8, 6, 0, 0, 0]) + bytes(64)


class PEPBot(Bot):
    """A `Bot` with slixmpp's pubsub plugins whose caps (XEP-0115) ask for the events of `nodes`."""

    def __init__(self, jid: str, nodes: list[str]):
        super().__init__(jid)
        self.register_plugin("xep_0004")
        self.register_plugin("xep_0060")
        self.register_plugin("xep_0115")
        self.register_plugin("xep_0163")
        self.plugin["xep_0163"].add_interest(nodes)

    def options(self, **fields) -> object:
        """Publish options (XEP-0060 §7.1.5) as a submitted form."""
        form = self.plugin["xep_0004"].make_form(ftype="submit")
        form.add_field(var="FORM_TYPE", ftype="hidden", value="http://jabber.org/protocol/pubsub#publish-options")
        for name, value in fields.items():
            form.add_field(var="pubsub#" + name, value=value)
        return form

    async def publish(self, node: str, item_id: str | None, payload: str, **options):
        return await self.plugin["xep_0060"].publish(None, node, id=item_id, payload=ET.fromstring(payload),
                                                     options=self.options(**options) if options else None, timeout=10)

    async def items(self, owner: str | None, node: str):
        """The node's items, or the error stanza."""
        try:
            return await self.plugin["xep_0060"].get_items(owner, node, timeout=10)
        except IqError as error:
            return error.iq

    async def pep_event(self, node: str, sender: str, timeout: float = 15):
        """The next PEP event of `node` from `sender`."""
        def matches(message):
            items = message.xml.find(f"{EVENT}event/{EVENT}items")
            return message["from"] == sender and items is not None and items.get("node") == node
        return await self.next_message(timeout=timeout, predicate=matches)

    def events_of(self, node: str) -> list:
        """PEP events of `node` already received (and not yet taken)."""
        return [m for m in list(self.messages._queue)
                if (items := m.xml.find(f"{EVENT}event/{EVENT}items")) is not None and items.get("node") == node]


async def caps_learned():
    """The server asks a client what its caps mean once it sees them: a moment for that."""
    await asyncio.sleep(1.0)


async def raw_iq(bot: Bot, kind: str, payload: str, to: str | None = None):
    stanza = bot.make_iq_set() if kind == "set" else bot.make_iq_get()
    if to:
        stanza["to"] = to
    stanza.append(ET.fromstring(payload))
    try:
        return await stanza.send(timeout=10)
    except IqError as error:
        return error.iq


def device_list(*ids: int) -> str:
    return f"<list xmlns='{AXOLOTL}'>" + "".join(f"<device id='{i}'/>" for i in ids) + "</list>"


def test_omemo_device_lists_and_bundles_between_two_friends(parley):
    server = parley("--password-cost", "minimum", xmpp=True)

    async def scenario():
        mei_token, bob_token = register(server, "mei"), register(server, "bob")
        register(server, "carol")
        mei_native = await Session.open(server.port, mei_token)
        bob_native = await Session.open(server.port, bob_token)
        await befriend(mei_native, bob_native, "bob")
        mei = PEPBot("mei@localhost/phone", [DEVICES])
        bob = PEPBot("bob@localhost/desk", [DEVICES])
        carol = PEPBot("carol@localhost/pc", [])
        for bot in (mei, bob, carol):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()

        # The account offers what OMEMO clients look for.
        info = await raw_iq(mei, "get", "<query xmlns='http://jabber.org/protocol/disco#info'/>", to="mei@localhost")
        features = {f.get("var") for f in info.xml.iter("{http://jabber.org/protocol/disco#info}feature")}
        assert "http://jabber.org/protocol/pubsub#publish-options" in features

        # Mei publishes her device list, open to anyone (as Conversations does).
        published = await mei.publish(DEVICES, "current", device_list(4711), access_model="open")
        assert published["type"] == "result"
        assert published.xml.find(f"{PUBSUB}pubsub/{PUBSUB}publish/{PUBSUB}item").get("id") == "current"
        # Bob's client asked for device list events: it gets hers, and so does Mei's own.
        event = await bob.pep_event(DEVICES, "mei@localhost")
        assert [d.get("id") for d in event.xml.iter(f"{{{AXOLOTL}}}device")] == ["4711"]
        await mei.pep_event(DEVICES, "mei@localhost")
        # Carol is no friend and asked for nothing: no event.
        await asyncio.sleep(0.3)
        assert not carol.events_of(DEVICES)

        # The bundle, read by Bob (a friend) and, being open, by Carol.
        bundle = (f"<bundle xmlns='{AXOLOTL}'><signedPreKeyPublic signedPreKeyId='1'>BQ==</signedPreKeyPublic>"
                  "<identityKey>BR==</identityKey></bundle>")
        assert (await mei.publish(BUNDLE, "current", bundle, access_model="open"))["type"] == "result"
        for reader in (bob, carol):
            got = await reader.items("mei@localhost", BUNDLE)
            assert got["type"] == "result", got
            key = got.xml.find(f"{PUBSUB}pubsub/{PUBSUB}items/{PUBSUB}item/{{{AXOLOTL}}}bundle/{{{AXOLOTL}}}identityKey")
            assert key is not None and key.text == "BR=="

        # A node with the default access model (presence): friends only.
        assert (await mei.publish(MOOD, None, f"<mood xmlns='{MOOD}'><happy/></mood>"))["type"] == "result"
        assert (await bob.items("mei@localhost", MOOD))["type"] == "result"
        refused = await carol.items("mei@localhost", MOOD)
        assert refused["type"] == "error" and error_condition(refused) == "forbidden"
        missing = await bob.items("mei@localhost", "urn:xmpp:nothing-here")
        assert missing["type"] == "error" and error_condition(missing) == "item-not-found"

        # Bob publishes his list too; Mei hears of it.
        assert (await bob.publish(DEVICES, "current", device_list(99, 100), access_model="open"))["type"] == "result"
        back = await mei.pep_event(DEVICES, "bob@localhost")
        assert [d.get("id") for d in back.xml.iter(f"{{{AXOLOTL}}}device")] == ["99", "100"]

        # A client that comes online later gets the last published item of each node it asks
        # for (XEP-0163 §6.1.2), from each friend and from its own account.
        laptop = PEPBot("bob@localhost/laptop", [DEVICES])
        assert await laptop.sign_in(server.xmpp_port)
        last = await laptop.pep_event(DEVICES, "mei@localhost")
        assert [d.get("id") for d in last.xml.iter(f"{{{AXOLOTL}}}device")] == ["4711"]
        own = await laptop.pep_event(DEVICES, "bob@localhost")
        assert [d.get("id") for d in own.xml.iter(f"{{{AXOLOTL}}}device")] == ["99", "100"]

        # Carol becomes Bob's friend: her client then gets his list at once.
        carol_token = call(server.url, "POST", "/v1/auth/login", {"username": "carol", "password": "password123"}).json["token"]
        carol_native = await Session.open(server.port, carol_token)
        carol_listening = PEPBot("carol@localhost/listening", [DEVICES])
        assert await carol_listening.sign_in(server.xmpp_port)
        await caps_learned()
        # Carol's Jabber client authorizes the subscription by itself (slixmpp's default),
        # which may accept Bob's request before her native session does: either way, friends.
        asked = await bob_native.call("friend.request", {"username": "carol"})
        assert asked["ok"], asked
        accepted = await carol_native.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
        assert accepted["ok"] or accepted["error"]["code"] == "not_found", accepted
        friends = await carol_native.call("friend.list", {})
        assert "bob" in [f["user"]["username"] for f in friends["data"]["friends"]], friends
        gained = await carol_listening.pep_event(DEVICES, "bob@localhost")
        assert [d.get("id") for d in gained.xml.iter(f"{{{AXOLOTL}}}device")] == ["99", "100"]

        for bot in (mei, bob, carol, laptop, carol_listening):
            await bot.stop()
        for session in (mei_native, bob_native, carol_native):
            await session.close()
    run(scenario())


def test_retract_delete_and_the_limits(parley):
    server = parley("--password-cost", "minimum", "--pep-max-nodes-per-user", "2", "--pep-max-item-bytes", "300", xmpp=True)

    async def scenario():
        mei_token, bob_token = register(server, "mei"), register(server, "bob")
        mei_native = await Session.open(server.port, mei_token)
        bob_native = await Session.open(server.port, bob_token)
        await befriend(mei_native, bob_native, "bob")
        mei = PEPBot("mei@localhost/phone", [])
        bob = PEPBot("bob@localhost/desk", [MOOD])
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()
        # max_items 2 keeps the newest two, newest first.
        for name in ("happy", "sad", "calm"):
            assert (await mei.publish(MOOD, name, f"<mood xmlns='{MOOD}'><{name}/></mood>", max_items="2"))["type"] == "result"
        got = await bob.items("mei@localhost", MOOD)
        assert [i.get("id") for i in got.xml.iter(f"{PUBSUB}item")] == ["calm", "sad"]

        # A retraction asked to notify is an event.
        retracted = await raw_iq(mei, "set", f"<pubsub xmlns='http://jabber.org/protocol/pubsub'><retract node='{MOOD}' notify='true'>"
                                             "<item id='calm'/></retract></pubsub>")
        assert retracted["type"] == "result"
        event = await bob.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}retract") is not None)
        assert event.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}retract").get("id") == "calm"

        # --pep-max-item-bytes: a bigger payload is refused with <payload-too-big/>.
        big = await raw_iq(mei, "set", f"<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='{MOOD}'><item id='big'>"
                                       f"<mood xmlns='{MOOD}'><text>{'x' * 400}</text></mood></item></publish></pubsub>")
        assert big["type"] == "error" and error_condition(big) == "not-acceptable"
        assert big.xml.find(".//{http://jabber.org/protocol/pubsub#errors}payload-too-big") is not None
        # --pep-max-nodes-per-user: a third node is refused; the two kept still take items.
        assert (await mei.publish("urn:example:second", "1", "<x xmlns='urn:example'/>"))["type"] == "result"
        third = await raw_iq(mei, "set", "<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:example:third'>"
                                         "<item id='1'><x xmlns='urn:example'/></item></publish></pubsub>")
        assert third["type"] == "error" and error_condition(third) == "resource-constraint"

        # Someone else's node cannot be deleted; the owner deletes it and friends hear of it.
        theirs = await raw_iq(bob, "set", f"<pubsub xmlns='http://jabber.org/protocol/pubsub#owner'><delete node='{MOOD}'/></pubsub>",
                              to="mei@localhost")
        assert theirs["type"] == "error" and error_condition(theirs) == "forbidden"
        deleted = await raw_iq(mei, "set", f"<pubsub xmlns='http://jabber.org/protocol/pubsub#owner'><delete node='{MOOD}'/></pubsub>")
        assert deleted["type"] == "result"
        gone = await bob.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event/{EVENT}delete") is not None)
        assert gone["from"] == "mei@localhost" and gone.xml.find(f"{EVENT}event/{EVENT}delete").get("node") == MOOD
        after = await bob.items("mei@localhost", MOOD)
        assert after["type"] == "error" and error_condition(after) == "item-not-found"
        for bot in (mei, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_native_profile_changes_are_pep_events_for_jabber_friends(parley):
    server = parley("--password-cost", "minimum", xmpp=True)

    async def scenario():
        mei_token, bob_token = register(server, "mei"), register(server, "bob")
        mei_native = await Session.open(server.port, mei_token)
        bob_native = await Session.open(server.port, bob_token)
        await befriend(mei_native, bob_native, "bob")
        bob = PEPBot("bob@localhost/desk", [NICK, METADATA])
        plain = PEPBot("bob@localhost/plain", [])
        for bot in (bob, plain):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()

        # A nickname set natively (WebSocket) is the nick node's event.
        changed = await mei_native.call("me.update", {"nickname": "Little Mei"})
        assert changed["ok"], changed
        nick = await bob.pep_event(NICK, "mei@localhost")
        assert nick.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item/{{{NICK}}}nick").text == "Little Mei"

        # An avatar set over HTTP is the metadata node's event, with the image's SHA-1.
        upload = call(server.url, "POST", "/v1/media", token=mei_token, raw=PNG)
        assert upload.status == 201, upload.body
        patched = call(server.url, "PATCH", "/v1/me", {"avatar": upload.json["url"]}, token=mei_token)
        assert patched.status == 200, patched.body
        avatar = await bob.pep_event(METADATA, "mei@localhost")
        info = avatar.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item/{{{METADATA}}}metadata/{{{METADATA}}}info")
        assert info is not None and info.get("id") == hashlib.sha1(PNG).hexdigest() and info.get("type") == "image/png"

        # Another field (the signature) is no event; the client without +notify got none.
        assert (await mei_native.call("me.update", {"signature": "hello"}))["ok"]
        await asyncio.sleep(0.5)
        assert not bob.events_of(NICK) and not bob.events_of(METADATA)
        assert not plain.events_of(NICK) and not plain.events_of(METADATA)
        for bot in (bob, plain):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_published_nodes_are_in_the_account_export(parley):
    """What a Jabber client published is the user's data: the export carries each node with its
    settings and items (newest first), payloads as the client sent them."""
    import io
    import json
    import time
    import zipfile

    server = parley("--password-cost", "minimum", xmpp=True)
    mei_token = register(server, "mei")

    async def scenario():
        mei = PEPBot("mei@localhost/phone", [])
        assert await mei.sign_in(server.xmpp_port)
        for name in ("happy", "calm"):
            assert (await mei.publish(MOOD, name, f"<mood xmlns='{MOOD}'><{name}/></mood>", max_items="5"))["type"] == "result"
        assert (await mei.publish("urn:example:notes", "n1", "<note xmlns='urn:example'>雨 &amp; tea</note>",
                                  access_model="whitelist"))["type"] == "result"
        await mei.stop()
    run(scenario())

    assert call(server.url, "POST", "/v1/me/export", token=mei_token).status == 202
    deadline = time.time() + 30
    while (reply := call(server.url, "GET", "/v1/me/export", token=mei_token)).status != 200:
        assert reply.status == 202 and time.time() < deadline, reply.body
        time.sleep(0.2)
    nodes = json.loads(zipfile.ZipFile(io.BytesIO(reply.body)).read("personal-events.json"))
    assert [n["node"] for n in nodes] == [MOOD, "urn:example:notes"]
    mood, notes = nodes
    assert (mood["accessModel"], mood["maxItems"]) == ("presence", 5)
    assert [i["id"] for i in mood["items"]] == ["calm", "happy"]
    assert ET.fromstring(mood["items"][0]["payload"]).find(f"{{{MOOD}}}calm") is not None
    assert notes["accessModel"] == "whitelist"
    assert ET.fromstring(notes["items"][0]["payload"]).text == "雨 & tea"

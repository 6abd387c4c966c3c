"""Personal eventing (XEP-0163) for User Nickname (XEP-0172): the nick node on a user's bare
JID is the Parley profile's nickname, both ways, and a publish reaches friends' Jabber
clients as a PEP event."""
import asyncio
import xml.etree.ElementTree as ET

from slixmpp.exceptions import IqError

from xmpp import Bot, error_condition, mei_and_bob, run, server, wait_event

PUBSUB = "{http://jabber.org/protocol/pubsub}"
EVENT = "{http://jabber.org/protocol/pubsub#event}"
NICK = "http://jabber.org/protocol/nick"


class PEPBot(Bot):
    """A `Bot` whose caps (XEP-0115) ask for the PEP events of `nodes` (`<node>+notify`), which
    the server learns by asking the client (disco#info of its caps)."""

    def __init__(self, jid: str, nodes: list[str]):
        super().__init__(jid)
        self.register_plugin("xep_0115")
        self.register_plugin("xep_0163")
        self.plugin["xep_0163"].add_interest(nodes)


async def caps_learned():
    """The server asks a client what its caps mean once it sees them: a moment for that."""
    await asyncio.sleep(1.0)


async def iq(bot: Bot, kind: str, to: str | None, payload: str):
    stanza = bot.make_iq_set() if kind == "set" else bot.make_iq_get()
    if to:
        stanza["to"] = to
    stanza.append(ET.fromstring(payload))
    try:
        return await stanza.send(timeout=10)
    except IqError as error:
        return error.iq


def test_the_nick_node_is_the_profile_nickname_both_ways(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        mei, bob = Bot("mei@localhost/phone"), PEPBot("bob@localhost/desk", [NICK])
        # Bob's other client does not ask for nickname events (no caps): it gets none.
        plain = Bot("bob@localhost/plain")
        for bot in (mei, bob, plain):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()

        # The account advertises PEP.
        info = await iq(bob, "get", "mei@localhost", "<query xmlns='http://jabber.org/protocol/disco#info'/>")
        identities = [(i.get("category"), i.get("type")) for i in info.xml.iter("{http://jabber.org/protocol/disco#info}identity")]
        assert ("pubsub", "pep") in identities

        # A native profile change is what the node reads.
        changed = await mei_native.call("me.update", {"nickname": "Little Mei"})
        assert changed["ok"], changed
        items = await iq(bob, "get", "mei@localhost", f"<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='{NICK}'/></pubsub>")
        assert items["type"] == "result"
        nick = items.xml.find(f"{PUBSUB}pubsub/{PUBSUB}items/{PUBSUB}item/{{{NICK}}}nick")
        assert nick is not None and nick.text == "Little Mei"
        # …and Bob's Jabber client hears of the native change as the node's event.
        native_event = await bob.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event") is not None)
        assert native_event.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item/{{{NICK}}}nick").text == "Little Mei"

        # Publishing from Jabber is a profile update: the native clients see it, and Bob's
        # Jabber client gets the event.
        published = await iq(mei, "set", None, f"<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='{NICK}'>"
                                               f"<item><nick xmlns='{NICK}'>Mei on Jabber</nick></item></publish></pubsub>")
        assert published["type"] == "result", published
        await wait_event(mei_native, lambda e: e["event"] == "me.updated" and e["data"].get("nickname") == "Mei on Jabber")
        event = await bob.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event") is not None)
        assert event["from"] == "mei@localhost" and event["type"] == "headline"
        assert event.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item/{{{NICK}}}nick").text == "Mei on Jabber"
        profile = await bob_native.call("user.get", {"username": "mei"})
        assert profile["data"]["nickname"] == "Mei on Jabber"
        await asyncio.sleep(0.3)
        assert not [m for m in list(plain.messages._queue) if m.xml.find(f"{EVENT}event") is not None]

        # A node nobody published to does not exist; someone else's node cannot be published to.
        other = await iq(mei, "get", None, "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='urn:xmpp:microblog:0'/></pubsub>")
        assert other["type"] == "error" and error_condition(other) == "item-not-found"
        theirs = await iq(mei, "set", "bob@localhost", f"<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='{NICK}'>"
                                                       f"<item><nick xmlns='{NICK}'>x</nick></item></publish></pubsub>")
        assert theirs["type"] == "error"
        for bot in (mei, bob, plain):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_pep_bookmarks_and_private_storage_bookmarks_are_one_list(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        modern, legacy = Bot("mei@localhost/modern"), PEPBot("mei@localhost/legacy", ["urn:xmpp:bookmarks:1"])
        for bot in (modern, legacy):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()
        # A XEP-0048 client keeps a bookmark in private storage.
        stored = await iq(legacy, "set", None, "<query xmlns='jabber:iq:private'><storage xmlns='storage:bookmarks'>"
                                               "<conference jid='tea@conference.localhost' name='Tea' autojoin='true'>"
                                               "<nick>mei</nick></conference></storage></query>")
        assert stored["type"] == "result"
        # A XEP-0402 client sees it on the PEP node…
        items = await iq(modern, "get", None, "<pubsub xmlns='http://jabber.org/protocol/pubsub'>"
                                              "<items node='urn:xmpp:bookmarks:1'/></pubsub>")
        got = items.xml.find(f"{PUBSUB}pubsub/{PUBSUB}items/{PUBSUB}item")
        assert got.get("id") == "tea@conference.localhost"
        conference = got.find("{urn:xmpp:bookmarks:1}conference")
        assert conference.get("name") == "Tea" and conference.get("autojoin") == "true"
        # …publishes one of its own, which the other resource hears of as an event and the
        # XEP-0048 client finds in private storage.
        published = await iq(modern, "set", None, "<pubsub xmlns='http://jabber.org/protocol/pubsub'>"
                                                  "<publish node='urn:xmpp:bookmarks:1'><item id='climbing@conference.localhost'>"
                                                  "<conference xmlns='urn:xmpp:bookmarks:1' name='Climbing' autojoin='true'/>"
                                                  "</item></publish></pubsub>")
        assert published["type"] == "result", published
        event = await legacy.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event") is not None)
        assert event.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item").get("id") == "climbing@conference.localhost"
        read = await iq(legacy, "get", None, "<query xmlns='jabber:iq:private'><storage xmlns='storage:bookmarks'/></query>")
        jids = [c.get("jid") for c in read.xml.iter("{storage:bookmarks}conference")]
        assert jids == ["tea@conference.localhost", "climbing@conference.localhost"]
        # Bob cannot read Mei's bookmarks.
        bob = Bot("bob@localhost/desk")
        assert await bob.sign_in(server.xmpp_port)
        theirs = await iq(bob, "get", "mei@localhost", "<pubsub xmlns='http://jabber.org/protocol/pubsub'>"
                                                       "<items node='urn:xmpp:bookmarks:1'/></pubsub>")
        assert theirs["type"] == "error" and error_condition(theirs) == "forbidden"
        for bot in (modern, legacy, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + \
    (16).to_bytes(4, "big") + (8).to_bytes(4, "big") + bytes([8, 6, 0, 0, 0]) + bytes(64)


def test_a_pep_avatar_is_the_profile_avatar_and_vcard_clients_see_its_hash(server):
    import base64
    import hashlib

    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        mei, bob = Bot("mei@localhost/phone"), PEPBot("bob@localhost/desk", ["urn:xmpp:avatar:metadata"])
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        await caps_learned()
        sha1 = hashlib.sha1(PNG).hexdigest()
        data = await iq(mei, "set", None, "<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:avatar:data'>"
                                          f"<item id='{sha1}'><data xmlns='urn:xmpp:avatar:data'>{base64.b64encode(PNG).decode()}</data>"
                                          "</item></publish></pubsub>")
        assert data["type"] == "result", data
        metadata = await iq(mei, "set", None, "<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:avatar:metadata'>"
                                              f"<item id='{sha1}'><metadata xmlns='urn:xmpp:avatar:metadata'>"
                                              f"<info id='{sha1}' bytes='{len(PNG)}' type='image/png'/></metadata></item></publish></pubsub>")
        assert metadata["type"] == "result", metadata
        # Natively it is the profile's avatar, an image that can be downloaded.
        profile = (await bob_native.call("user.get", {"username": "mei"}))["data"]
        assert profile["avatar"].startswith("/v1/media/")
        from api import call
        assert call(server.url, "GET", profile["avatar"]).body == PNG
        # Bob's Jabber client got the metadata event and reads the data node.
        event = await bob.next_message(predicate=lambda m: m.xml.find(f"{EVENT}event") is not None)
        info = event.xml.find(f"{EVENT}event/{EVENT}items/{EVENT}item/{{urn:xmpp:avatar:metadata}}metadata/{{urn:xmpp:avatar:metadata}}info")
        assert info.get("id") == sha1 and info.get("type") == "image/png"
        read = await iq(bob, "get", "mei@localhost", "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='urn:xmpp:avatar:data'/></pubsub>")
        assert base64.b64decode(read.xml.find(f"{PUBSUB}pubsub/{PUBSUB}items/{PUBSUB}item/{{urn:xmpp:avatar:data}}data").text) == PNG
        # XEP-0398: Mei's presence carries the hash for vCard-based clients, and her vCard
        # embeds the same image.
        mei.send_presence(pstatus="new look")
        seen = await bob.wait_presence(lambda p: p["from"] == "mei@localhost/phone" and p["status"] == "new look")
        assert seen.xml.find("{vcard-temp:x:update}x/{vcard-temp:x:update}photo").text == sha1
        card = await iq(bob, "get", "mei@localhost", "<vCard xmlns='vcard-temp'/>")
        assert base64.b64decode(card.xml.find(".//{vcard-temp}PHOTO/{vcard-temp}BINVAL").text) == PNG
        for bot in (mei, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())

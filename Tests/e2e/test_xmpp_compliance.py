"""What standards clients look for beyond chat, with slixmpp: the archive advertised on the
account's bare JID (XEP-0313 §7), subscriptions and the roster as RFC 6121 has them (the
server's `subscribed` for a contact already shared with, pending `ask` items, names and groups
kept and pushed to every resource), bookmarks in private XML storage (XEP-0048, XEP-0049), and
multi-user chat's room creation (status 201, the creator as owner), self-ping (XEP-0410) and
muc#admin lists of a room."""
import asyncio
import xml.etree.ElementTree as ET

from slixmpp.xmlstream.handler import Callback
from slixmpp.xmlstream.matcher import MatchXPath

from xmpp import Bot, error_condition, iq, mei_and_bob, native_resource, register, run, server

ROSTER = "{jabber:iq:roster}"
MUC_USER = "{http://jabber.org/protocol/muc#user}"
ADMIN = "http://jabber.org/protocol/muc#admin"


def record_roster_pushes(bot: Bot) -> list:
    pushes: list = []
    bot.register_handler(Callback("roster pushes", MatchXPath("{jabber:client}iq/{jabber:iq:roster}query"),
                                  lambda stanza: pushes.append(stanza) if stanza["type"] == "set" else None))
    return pushes


async def until(predicate, timeout: float = 15):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.05)


def test_the_archive_is_advertised_on_the_accounts_bare_jid_and_on_rooms(server):
    register(server, "mei")

    async def scenario():
        mei = Bot("mei@localhost/phone")
        assert await mei.sign_in(server.xmpp_port)
        own = await mei.plugin["xep_0030"].get_info(jid="mei@localhost", timeout=10)
        assert "urn:xmpp:mam:2" in own["disco_info"]["features"]
        mei.send_presence(pto="tearoom@conference.localhost/mei")
        await mei.wait_presence(lambda p: p["from"].bare == "tearoom@conference.localhost" and "110" in str(p))
        room = await mei.plugin["xep_0030"].get_info(jid="tearoom@conference.localhost", timeout=10)
        assert "urn:xmpp:mam:2" in room["disco_info"]["features"]
        await mei.stop()
    run(scenario())


def test_a_pending_subscription_is_on_every_resource_and_a_friend_is_answered_by_the_server(server):
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        phone, laptop = Bot("mei@localhost/phone"), Bot("mei@localhost/laptop")
        pushes = {bot: record_roster_pushes(bot) for bot in (phone, laptop)}
        for bot in (phone, laptop):
            assert await bot.sign_in(server.xmpp_port)
        phone.send_presence(pto="bob@localhost", ptype="subscribe")
        for bot in (phone, laptop):
            await until(lambda bot=bot: any(p.xml.find(f"{ROSTER}query/{ROSTER}item[@ask='subscribe']") is not None for p in pushes[bot]))
            item = next(p for p in pushes[bot]).xml.find(f"{ROSTER}query/{ROSTER}item")
            assert item.get("jid") == "bob@localhost" and item.get("subscription") == "none"
        roster = await laptop.get_roster()
        assert roster.xml.find(f"{ROSTER}query/{ROSTER}item[@jid='bob@localhost']").get("ask") == "subscribe"

        bob = Bot("bob@localhost/desk")
        assert await bob.sign_in(server.xmpp_port)
        await bob.wait_presence(lambda p: p["type"] == "subscribe" and p["from"].bare == "mei@localhost")
        bob.send_presence(pto="mei@localhost", ptype="subscribed")
        await phone.wait_presence(lambda p: p["type"] == "subscribed" and p["from"].bare == "bob@localhost")

        # Asking a friend again: the server answers for Bob at once (RFC 6121 §3.1.3).
        phone.presences.clear()
        phone.send_presence(pto="bob@localhost", ptype="subscribe")
        answer = await phone.wait_presence(lambda p: p["type"] == "subscribed")
        assert answer["from"] == "bob@localhost"
        for bot in (phone, laptop, bob):
            await bot.stop()
    run(scenario())


def test_creating_a_room_makes_its_creator_owner_and_self_ping_and_lists_work(server):
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei, bob = Bot("mei@localhost/phone"), Bot("bob@localhost/desk")
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        room = "newroom@conference.localhost"
        mei.send_presence(pto=f"{room}/mei")
        own = await mei.wait_presence(lambda p: p["from"].bare == room and "110" in str(p))
        statuses = {status.get("code") for status in own.xml.findall(f"{MUC_USER}x/{MUC_USER}status")}
        assert "201" in statuses
        assert own.xml.find(f"{MUC_USER}x/{MUC_USER}item").get("affiliation") == "owner"
        bob.send_presence(pto=f"{room}/bob")
        bobs = await bob.wait_presence(lambda p: p["from"].bare == room and "110" in str(p))
        assert "201" not in {status.get("code") for status in bobs.xml.findall(f"{MUC_USER}x/{MUC_USER}status")}

        # XEP-0410: pinging one's own occupant JID tells one is in.
        await mei.plugin["xep_0199"].ping(jid=f"{room}/mei", timeout=10)
        listed = await iq(mei, "get", room, f"<query xmlns='{ADMIN}'><item role='participant'/></query>")
        assert {item.get("nick") for item in listed.xml.iter(f"{{{ADMIN}}}item")} == {"mei", "bob"}

        mei.send_presence(pto=f"{room}/mei", ptype="unavailable")
        await mei.wait_presence(lambda p: p["from"] == f"{room}/mei" and p["type"] == "unavailable")
        answer = await iq(mei, "get", f"{room}/mei", "<ping xmlns='urn:xmpp:ping'/>")
        assert answer["type"] == "error" and error_condition(answer) == "not-acceptable"
        for bot in (mei, bob):
            await bot.stop()
    run(scenario())


def test_roster_names_and_groups_and_bookmarks_are_kept_for_every_resource(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        phone, laptop = Bot("mei@localhost/phone"), Bot("mei@localhost/laptop")
        pushes = record_roster_pushes(laptop)
        for bot in (phone, laptop):
            assert await bot.sign_in(server.xmpp_port)

        # A name and groups set on the phone: pushed to the laptop, and in the roster later.
        named = await iq(phone, "set", "mei@localhost", f"<query xmlns='jabber:iq:roster'><item jid='bob@localhost' name='Bobby'>"
                                                        "<group>Climbing</group><group>家</group></item></query>")
        assert named["type"] == "result"
        await until(lambda: any(p.xml.find(f"{ROSTER}query/{ROSTER}item[@name='Bobby']") is not None for p in pushes))
        roster = await iq(laptop, "get", "mei@localhost", "<query xmlns='jabber:iq:roster'/>")
        item = roster.xml.find(f"{ROSTER}query/{ROSTER}item[@jid='bob@localhost']")
        assert item.get("name") == "Bobby" and item.get("subscription") == "both"
        assert [group.text for group in item.findall(f"{ROSTER}group")] == ["Climbing", "家"]

        # Bookmarks (XEP-0048) in private XML storage (XEP-0049): stored on one resource,
        # read on the other.
        stored = await iq(phone, "set", "mei@localhost", "<query xmlns='jabber:iq:private'><storage xmlns='storage:bookmarks'>"
                                                         "<conference jid='tea@conference.localhost' autojoin='true' name='Tea'>"
                                                         "<nick>mei</nick></conference></storage></query>")
        assert stored["type"] == "result"
        got = await iq(laptop, "get", "mei@localhost", "<query xmlns='jabber:iq:private'><storage xmlns='storage:bookmarks'/></query>")
        conference = got.xml.find("{jabber:iq:private}query/{storage:bookmarks}storage/{storage:bookmarks}conference")
        assert conference.get("jid") == "tea@conference.localhost" and conference.get("autojoin") == "true"
        assert conference.find("{storage:bookmarks}nick").text == "mei"
        for bot in (phone, laptop):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_an_inactive_client_gets_presence_later_and_no_chat_states_but_messages_at_once(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        mei, bob = Bot("mei@localhost/phone"), Bot("bob@localhost/desk")
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        await bob.wait_presence(lambda p: p["from"] == "mei@localhost/phone")
        # XEP-0352: Bob's client goes inactive.
        bob.send_raw("<inactive xmlns='urn:xmpp:csi:0'/>")
        await asyncio.sleep(0.3)
        bob.presences.clear()
        mei.send_presence(pshow="away")
        mei.send_presence(pshow="dnd", pstatus="busy")
        typing = mei.make_message(mto="bob@localhost", mtype="chat")
        typing.append(ET.fromstring("<composing xmlns='http://jabber.org/protocol/chatstates'/>"))
        typing.send()
        mei.send_message(mto="bob@localhost", mbody="still delivered", mtype="chat")
        await bob.next_message(predicate=lambda m: m["body"] == "still delivered")
        assert [p for p in bob.presences if p["from"] == "mei@localhost/phone"] == []

        bob.send_raw("<active xmlns='urn:xmpp:csi:0'/>")
        latest = await bob.wait_presence(lambda p: p["from"] == "mei@localhost/phone")
        assert latest["show"] == "dnd" and latest["status"] == "busy"
        await asyncio.sleep(0.3)
        assert len([p for p in bob.presences if p["from"] == "mei@localhost/phone"]) == 1
        assert not [m for m in list(bob.messages._queue) if m.xml.find("{http://jabber.org/protocol/chatstates}composing") is not None]
        for bot in (mei, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_blocks_are_pushed_to_every_resource_markers_pass_and_own_native_clients_show(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        phone = Bot("mei@localhost/phone")
        assert await phone.sign_in(server.xmpp_port)
        # Mei's native client is signed in: her Jabber client sees it as a resource.
        app_jid = "mei@localhost/" + native_resource(server, mei_native.token)
        await phone.wait_presence(lambda p: p["from"] == app_jid and p["type"] == "available")

        laptop, bob = Bot("mei@localhost/laptop"), Bot("bob@localhost/desk")
        blocking: list = []
        laptop.register_handler(Callback("block pushes", MatchXPath("{jabber:client}iq/{urn:xmpp:blocking}block"),
                                         lambda stanza: blocking.append(stanza)))
        for bot in (laptop, bob):
            assert await bot.sign_in(server.xmpp_port)

        # XEP-0333: a displayed marker passes from Mei's Jabber client to Bob's.
        marker = phone.make_message(mto="bob@localhost", mtype="chat")
        marker.append(ET.fromstring("<displayed xmlns='urn:xmpp:chat-markers:0' id='b-1'/>"))
        marker.send()
        got = await bob.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:chat-markers:0}displayed") is not None)
        assert got["from"] == "mei@localhost/phone"
        assert got.xml.find("{urn:xmpp:chat-markers:0}displayed").get("id") == "b-1"

        # XEP-0191: a block on the phone is pushed to the laptop.
        blocked = await iq(phone, "set", "mei@localhost", "<block xmlns='urn:xmpp:blocking'><item jid='bob@localhost'/></block>")
        assert blocked["type"] == "result"
        await until(lambda: bool(blocking))
        assert blocking[0].xml.find("{urn:xmpp:blocking}block/{urn:xmpp:blocking}item").get("jid") == "bob@localhost"
        for bot in (phone, laptop, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_a_name_given_to_a_pending_item_survives_the_friendship(server):
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei, bob = Bot("mei@localhost/phone"), Bot("bob@localhost/desk")
        pushes = record_roster_pushes(mei)
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        # As Gajim does: name the item first, then subscribe.
        named = await iq(mei, "set", "mei@localhost", "<query xmlns='jabber:iq:roster'><item jid='bob@localhost' name='Bob the climber'>"
                                                      "<group>Climbing</group></item></query>")
        assert named["type"] == "result"
        mei.send_presence(pto="bob@localhost", ptype="subscribe")
        await bob.wait_presence(lambda p: p["type"] == "subscribe")
        bob.send_presence(pto="mei@localhost", ptype="subscribed")

        def final():
            items = [p.xml.find(f"{ROSTER}query/{ROSTER}item[@subscription='both']") for p in pushes]
            items = [item for item in items if item is not None]
            return items[-1] if items else None
        await until(lambda: final() is not None and final().get("name") == "Bob the climber")
        assert [group.text for group in final().findall(f"{ROSTER}group")] == ["Climbing"]
        for bot in (mei, bob):
            await bot.stop()
    run(scenario())


def test_private_items_at_their_limit(parley):
    limited = parley("--password-cost", "minimum", "--xmpp-max-private-items", "2", xmpp=True)
    register(limited, "mei")

    async def scenario():
        mei = Bot("mei@localhost/phone")
        assert await mei.sign_in(limited.xmpp_port)
        for index in range(2):
            kept = await iq(mei, "set", "mei@localhost", f"<query xmlns='jabber:iq:private'><x xmlns='urn:test:{index}'/></query>")
            assert kept["type"] == "result"
        over = await iq(mei, "set", "mei@localhost", "<query xmlns='jabber:iq:private'><x xmlns='urn:test:2'/></query>")
        assert over["type"] == "error" and error_condition(over) == "resource-constraint"
        # Replacing one at the limit still works.
        again = await iq(mei, "set", "mei@localhost", "<query xmlns='jabber:iq:private'><x xmlns='urn:test:0' v='2'/></query>")
        assert again["type"] == "result"
        await mei.stop()
    run(scenario())


def test_client_state_indication_is_offered_once_signed_in(server):
    import base64
    from xmpp import HEADER, PASSWORD, RawStream
    register(server, "mei")
    stream = RawStream(server.xmpp_port)
    try:
        stream.send(HEADER)
        # Not before signing in.
        assert "urn:xmpp:csi:0" not in stream.expect("<stream:features>.*</stream:features>").group(0)
        token = base64.b64encode(f"\0mei\0{PASSWORD}".encode()).decode()
        stream.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>")
        stream.expect("<success")
        stream.send(HEADER)
        features = stream.expect("<stream:features>.*</stream:features>").group(0)
        assert "<csi xmlns='urn:xmpp:csi:0'/>" in features
    finally:
        stream.close()

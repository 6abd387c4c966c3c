"""The Jabber gateway's per-resource model (RFC 6120, RFC 6121), with slixmpp clients: presence
from full JIDs with show, status and caps, the initial presence echoed to every resource of
the user (the sender included), unavailable passed on, messages and carbons from the sending
resource's full JID with their origin-id kept and the archive id added, and a message without
`to` addressed to the sender's own account."""
import asyncio
import xml.etree.ElementTree as ET

from client import Session
from xmpp import Bot, error_condition, mei_and_bob, native_resource, run, server

CLIENT = "{jabber:client}"
SID = "{urn:xmpp:sid:0}"
CAPS = "{http://jabber.org/protocol/caps}c"


async def enable_carbons(bot: Bot):
    iq = bot.make_iq_set()
    iq.append(ET.fromstring("<enable xmlns='urn:xmpp:carbons:2'/>"))
    await iq.send(timeout=10)


def errors(bot: Bot) -> list:
    """Every error stanza the bot received (messages and presence)."""
    found = [m for m in list(bot.messages._queue) if m["type"] == "error"]
    return found + [p for p in bot.presences if p["type"] == "error"]


def test_presence_is_per_resource_from_full_jids_with_show_status_and_caps(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        # Bob's laptop binds and becomes available, away, with a status and caps.
        bob = Bot("bob@localhost/laptop")
        assert await bob.sign_in(server.xmpp_port)
        caps = ET.fromstring("<c xmlns='http://jabber.org/protocol/caps' hash='sha-1' node='https://example.org' "
                             "ver='QgayPKawpkPSDYmwT/WM94uAlu0='/>")
        away = bob.make_presence(pshow="away", pstatus="climbing", ppriority=5)
        away.append(caps)
        away.send()

        # Mei's Jabber client sees Bob's resource as it is, by its full JID: no bare-JID
        # presence, and Bob's native clients are hidden behind his XMPP resource.
        mei = Bot("mei@localhost/phone")
        assert await mei.sign_in(server.xmpp_port)
        seen = await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["show"] == "away")
        assert seen["status"] == "climbing" and seen["priority"] == 5
        assert seen.xml.find(CAPS) is not None and seen.xml.find(CAPS).get("ver") == "QgayPKawpkPSDYmwT/WM94uAlu0="
        assert not [p for p in mei.presences if p["from"] == "bob@localhost"]

        # A change and an unavailable on the open stream reach Mei from the full JID.
        bob.send_presence(pshow="dnd", pstatus="on the wall")
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["show"] == "dnd")
        bob.send_presence(ptype="unavailable")
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["type"] == "unavailable")

        # Available again, then the stream ends: unavailable from the full JID again.
        mei.presences.clear()
        bob.send_presence()
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["type"] == "available")
        await bob.stop()
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["type"] == "unavailable")
        assert errors(mei) == []
        await mei.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_a_users_resources_see_each_other_and_the_sender_gets_its_own_presence(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        phone = Bot("mei@localhost/phone")
        assert await phone.sign_in(server.xmpp_port)
        # §4.2.2: the initial presence comes back to the resource that sent it.
        await phone.wait_presence(lambda p: p["from"] == "mei@localhost/phone" and p["type"] == "available")

        laptop = Bot("mei@localhost/laptop")
        assert await laptop.sign_in(server.xmpp_port)
        await laptop.wait_presence(lambda p: p["from"] == "mei@localhost/phone" and p["type"] == "available")
        await phone.wait_presence(lambda p: p["from"] == "mei@localhost/laptop" and p["type"] == "available")

        # A resource asking for a name another of the user's streams holds gets another.
        twin = Bot("mei@localhost/phone")
        assert await twin.sign_in(server.xmpp_port)
        assert twin.boundjid.resource != "phone" and twin.boundjid.resource.startswith("phone")
        await twin.stop()

        await laptop.stop()
        await phone.wait_presence(lambda p: p["from"] == "mei@localhost/laptop" and p["type"] == "unavailable")
        await phone.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_messages_and_carbons_come_from_the_sending_resource_with_origin_and_archive_ids(server):
    async def scenario():
        mei_native, bob_native, conversation, _, _ = await mei_and_bob(server)
        phone, laptop, bob = Bot("mei@localhost/phone"), Bot("mei@localhost/laptop"), Bot("bob@localhost/desk")
        for bot in (phone, laptop, bob):
            assert await bot.sign_in(server.xmpp_port)
        for bot in (phone, laptop):
            await enable_carbons(bot)

        message = phone.make_message(mto="bob@localhost", mbody="from my phone", mtype="chat")
        message["id"] = "p-1"
        message.append(ET.fromstring("<origin-id xmlns='urn:xmpp:sid:0' id='origin-p-1'/>"))
        message.send()

        got = await bob.next_message(predicate=lambda m: m["body"] == "from my phone")
        assert got["from"] == "mei@localhost/phone"
        assert got.xml.find(SID + "origin-id").get("id") == "origin-p-1"
        archive_id = got.xml.find(SID + "stanza-id").get("id")
        assert archive_id

        carbon = await laptop.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:carbons:2}sent") is not None)
        copy = carbon.xml.find("{urn:xmpp:carbons:2}sent/{urn:xmpp:forward:0}forwarded/" + CLIENT + "message")
        assert carbon["from"] == "mei@localhost"
        assert copy.get("from") == "mei@localhost/phone" and copy.get("to") == "bob@localhost"
        assert copy.find(SID + "origin-id").get("id") == "origin-p-1"
        assert copy.find(SID + "stanza-id").get("id") == archive_id

        # Mei's native client sends: both of her Jabber resources get the carbon, from the
        # resource of the device that sent it.
        own = await mei_native.call("message.send", {"conversationId": conversation, "clientId": "m-native", "kind": "text",
                                                     "text": "from mei's app"})
        assert own["ok"], own
        for bot in (phone, laptop):
            copy_of_own = await bot.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:carbons:2}sent") is not None)
            inner = copy_of_own.xml.find("{urn:xmpp:carbons:2}sent/{urn:xmpp:forward:0}forwarded/" + CLIENT + "message")
            assert inner.get("from") == "mei@localhost/" + native_resource(server, mei_native.token)
            assert inner.find(CLIENT + "body").text == "from mei's app"

        # Bob's native client answers: both of Mei's resources get it, from the resource
        # of his device that sent it.
        sent = await bob_native.call("message.send", {"conversationId": conversation, "clientId": "b-1", "kind": "text",
                                                      "text": "from bob's app"})
        assert sent["ok"], sent
        for bot in (phone, laptop):
            reply = await bot.next_message(predicate=lambda m: m["body"] == "from bob's app")
            assert reply["from"] == "bob@localhost/" + native_resource(server, bob_native.token)
            assert reply.xml.find(SID + "stanza-id").get("id") == sent["data"]["id"]

        for bot in (phone, laptop, bob):
            assert errors(bot) == []
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_a_message_without_to_goes_to_the_senders_own_account(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        phone, laptop = Bot("mei@localhost/phone"), Bot("mei@localhost/laptop")
        for bot in (phone, laptop):
            assert await bot.sign_in(server.xmpp_port)
        note = phone.make_message(mto="", mbody="note to self", mtype="chat")
        del note["to"]
        note.send()
        got = await laptop.next_message(predicate=lambda m: m["body"] == "note to self")
        assert got["from"] == "mei@localhost/phone"
        await asyncio.sleep(0.5)
        assert errors(phone) == []

        # A `to` that is not a JID is still malformed.
        bad = phone.make_message(mto="bob@localhost", mbody="x", mtype="chat")
        bad["to"] = "@@"
        bad.send()
        refused = await phone.next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "jid-malformed"
        for bot in (phone, laptop):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_a_rooms_messages_keep_their_origin_id_and_carry_the_archive_id(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        mei, bob = Bot("mei@localhost/phone"), Bot("bob@localhost/desk")
        room = "teahouse@conference.localhost"
        for bot, nick in ((mei, "mei"), (bob, "bob")):
            assert await bot.sign_in(server.xmpp_port)
            bot.send_presence(pto=f"{room}/{nick}")
            await bot.wait_presence(lambda p: p["from"].bare == room and "110" in str(p))

        message = mei.make_message(mto=room, mbody="hello room", mtype="groupchat")
        message["id"] = "g-1"
        message.append(ET.fromstring("<origin-id xmlns='urn:xmpp:sid:0' id='origin-g-1'/>"))
        message.send()

        reflected = await mei.next_message(predicate=lambda m: m["body"] == "hello room")
        assert reflected["id"] == "g-1" and reflected.xml.find(SID + "origin-id").get("id") == "origin-g-1"
        stanza_id = reflected.xml.find(SID + "stanza-id")
        assert stanza_id.get("by") == room and stanza_id.get("id")
        seen = await bob.next_message(predicate=lambda m: m["body"] == "hello room")
        assert seen["from"] == f"{room}/mei"
        assert seen.xml.find(SID + "origin-id").get("id") == "origin-g-1"
        assert seen.xml.find(SID + "stanza-id").get("id") == stanza_id.get("id")
        # Mei sees her own message once.
        await asyncio.sleep(0.5)
        assert not [m for m in list(mei.messages._queue) if m["body"] == "hello room"]
        for bot in (mei, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_ending_a_friendship_ends_the_presence_of_each_resource(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        mei, bob = Bot("mei@localhost/phone"), Bot("bob@localhost/laptop")
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["type"] == "available")
        roster = await bob.get_roster()
        assert "mei@localhost" in {str(item["jid"]) for item in roster["roster"]}
        # Bob ends the friendship: Mei sees his resource go, not only his bare JID.
        bob.send_presence(pto="mei@localhost", ptype="unsubscribe")
        await mei.wait_presence(lambda p: p["from"] == "bob@localhost/laptop" and p["type"] == "unavailable")
        for bot in (mei, bob):
            await bot.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())

"""Native Parley connections as Jabber resources of their own (issue 18): each signed-in
device is a resource named after it, available while connected, `away` while its app is in
the background, unavailable from that resource alone when it signs out; its messages come
from it; and a native client and a Jabber client of the same user see each other come and go."""
import asyncio

from api import call
from client import Session
from xmpp import PASSWORD, Bot, befriend, native_resource, register, run, server, wait_event


def sign_in_device(server, username: str, device: str) -> str:
    """A second sign-in of `username`, named `device`; its token."""
    reply = call(server.url, "POST", "/v1/auth/login", {"username": username, "password": PASSWORD, "deviceName": device})
    assert reply.status == 200, reply.body
    return reply.json["token"]


def test_each_native_device_is_a_resource_of_its_own(server):
    async def scenario():
        mei_token = register(server, "mei")
        register(server, "bob")
        mei_native = await Session.open(server.port, mei_token)
        phone_token = sign_in_device(server, "bob", "Bob's phone")
        laptop_token = sign_in_device(server, "bob", "Work laptop")
        phone, laptop = await Session.open(server.port, phone_token), await Session.open(server.port, laptop_token)
        conversation = await befriend(mei_native, phone, "bob")
        phone_jid = "bob@localhost/" + native_resource(server, phone_token)
        laptop_jid = "bob@localhost/" + native_resource(server, laptop_token)
        # The device name as typed, apostrophe and space kept (RFC 7622 allows both in a resource).
        assert phone_jid.startswith("bob@localhost/Bob's phone.") and laptop_jid.startswith("bob@localhost/Work laptop."), (phone_jid, laptop_jid)

        # Mei's Jabber client sees both of Bob's devices, each by its own full JID.
        mei = Bot("mei@localhost/desk")
        assert await mei.sign_in(server.xmpp_port)
        for jid in (phone_jid, laptop_jid):
            await mei.wait_presence(lambda p, jid=jid: p["from"] == jid and p["type"] == "available")
        assert not [p for p in mei.presences if str(p["from"]) in ("bob@localhost", "bob@localhost/parley")]

        # The laptop's app goes to the background: away, from the laptop only.
        assert (await laptop.call("client.state", {"state": "inactive"}))["ok"]
        await mei.wait_presence(lambda p: p["from"] == laptop_jid and p["show"] == "away")
        mei.presences.clear()
        assert (await laptop.call("client.state", {"state": "active"}))["ok"]
        back = await mei.wait_presence(lambda p: p["from"] == laptop_jid)
        assert back["type"] == "available" and back["show"] == ""

        # A message from the phone comes from the phone's resource.
        sent = await phone.call("message.send", {"conversationId": conversation, "clientId": "p-1", "kind": "text",
                                                 "text": "from the phone"})
        assert sent["ok"], sent
        got = await mei.next_message(predicate=lambda m: m["body"] == "from the phone")
        assert got["from"] == phone_jid

        # The laptop signs out: unavailable from the laptop, the phone stays.
        mei.presences.clear()
        await laptop.close()
        await mei.wait_presence(lambda p: p["from"] == laptop_jid and p["type"] == "unavailable")
        await asyncio.sleep(0.5)
        assert not [p for p in mei.presences if p["from"] == phone_jid]
        assert not [p for p in mei.presences if p["type"] == "error"]
        await mei.stop()
        await phone.close()
        await mei_native.close()
    run(scenario())


def test_a_native_client_and_a_jabber_client_of_one_user_see_each_other(server):
    async def scenario():
        mei_token = register(server, "mei")
        app = await Session.open(server.port, mei_token)
        app_jid = "mei@localhost/" + native_resource(server, mei_token)

        # The Jabber client sees the user's native client as a resource of its own…
        jabber = Bot("mei@localhost/phone")
        assert await jabber.sign_in(server.xmpp_port)
        await jabber.wait_presence(lambda p: p["from"] == app_jid and p["type"] == "available")
        # …and the native client sees the Jabber client come, with its show and status.
        jabber.send_presence(pshow="dnd", pstatus="in a meeting")
        await wait_event(app, lambda e: e["event"] == "presence.resource" and e["data"]["resource"] == "phone"
                         and e["data"]["available"] and e["data"].get("show") == "dnd"
                         and e["data"].get("status") == "in a meeting")

        # A native client that signs in later learns of the Jabber client at once.
        second = await Session.open(server.port, mei_token)
        await wait_event(second, lambda e: e["event"] == "presence.resource" and e["data"]["resource"] == "phone"
                         and e["data"]["available"])

        # The Jabber client leaves: both native clients see it go.
        await jabber.stop()
        for session in (app, second):
            await wait_event(session, lambda e: e["event"] == "presence.resource" and e["data"]["resource"] == "phone"
                             and not e["data"]["available"])

        # And the other way: a native client that closes goes from the Jabber client's view.
        watcher = Bot("mei@localhost/tablet")
        assert await watcher.sign_in(server.xmpp_port)
        await watcher.wait_presence(lambda p: p["from"] == app_jid and p["type"] == "available")
        await second.close()
        await app.close()
        await watcher.wait_presence(lambda p: p["from"] == app_jid and p["type"] == "unavailable")
        await watcher.stop()
    run(scenario())


def test_a_jabber_client_binds_a_resource_with_punctuation_as_a_device_name_keeps_it(server):
    # One rule for both sides (RFC 7622 resourceprep): a Jabber client's own resource keeps
    # its apostrophe, spaces and parentheses, as a native device's name does.
    async def scenario():
        register(server, "mei")
        jabber = Bot("mei@localhost/Mei's laptop (2)")
        assert await jabber.sign_in(server.xmpp_port)
        try:
            assert str(jabber.boundjid) == "mei@localhost/Mei's laptop (2)"
        finally:
            await jabber.stop()
    run(scenario())

"""Jabber clients (slixmpp) on Parley's XMPP listener: sign-in by SCRAM and PLAIN, roster and
presence as friends, 1:1 chat with a native client both ways in one history, offline delivery,
and hostile input that ends only the offending stream."""
import asyncio
import re

import pytest

from api import call
from client import Session
from xmpp import Bot, HEADER, PASSWORD, RawStream, mei_and_bob, raw_exchange, register, run, self_signed_certificate, server, stream_error, wait_event


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-1", "PLAIN"])
def test_sign_in_with_each_mechanism_and_a_wrong_password_fails(server, mechanism):
    register(server, "mei")

    async def scenario():
        mei = Bot("mei@localhost", mechanism=mechanism)
        assert await mei.sign_in(server.xmpp_port)
        assert mei.boundjid.bare == "mei@localhost"
        assert mei.boundjid.resource
        # The server answers pings and describes itself.
        await mei.plugin["xep_0199"].ping(jid="localhost", timeout=10)
        info = await mei.plugin["xep_0030"].get_info(jid="localhost", timeout=10)
        assert "jabber:iq:roster" in info["disco_info"]["features"]
        await mei.stop()

        wrong = Bot("mei@localhost", password="not-the-password", mechanism=mechanism)
        assert not await wrong.sign_in(server.xmpp_port)
        await wrong.stop()
    run(scenario())


def test_roster_presence_and_chat_with_a_native_client_share_one_history(server):
    bob_token = register(server, "bob")
    register(server, "mei")

    async def scenario():
        bob = await Session.open(server.port, bob_token)
        # Bob asks natively before Mei is on XMPP: she sees it as a subscription request.
        asked = await bob.call("friend.request", {"username": "mei", "greeting": "hi from bob"})
        assert asked["ok"], asked

        mei = Bot("mei@localhost", mechanism="PLAIN")
        assert await mei.sign_in(server.xmpp_port)
        assert mei.roster_items == {}
        request = await mei.wait_presence(lambda p: p["type"] == "subscribe")
        assert request["from"].bare == "bob@localhost"
        assert request["status"] == "hi from bob"

        # Accepting the subscription makes them friends; both sides hear of it.
        mei.send_presence(pto="bob@localhost", ptype="subscribed")
        added = await wait_event(bob, lambda e: e["event"] == "friend.added")
        conversation = added["data"]["conversationId"]
        assert added["data"]["user"]["username"] == "mei"
        # An XMPP connection counts as online for native friends.
        assert added["data"]["online"] is True
        # Bob is online natively: Mei sees him available.
        await mei.wait_presence(lambda p: p["from"].bare == "bob@localhost" and p["type"] == "available")
        roster = await mei.get_roster()
        items = {str(item["jid"]): item["subscription"] for item in roster["roster"]}
        assert items == {"bob@localhost": "both"}

        # Native to XMPP.
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "b-1", "kind": "text",
                                               "text": "你好 Mei <&>"})
        assert sent["ok"], sent
        message = await mei.next_message()
        assert message["from"].bare == "bob@localhost"
        assert message["type"] == "chat"
        assert message["body"] == "你好 Mei <&>"

        # XMPP to native, twice with the same id: stored once.
        for _ in range(2):
            reply = mei.make_message(mto="bob@localhost", mbody="hello Bob ☺", mtype="chat")
            reply["id"] = "mei-1"
            reply.send()
        event = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "hello Bob ☺")
        assert event["data"]["conversationId"] == conversation
        assert event["data"]["clientId"] == "mei-1"

        # Both ways are in the one history, in order, the retry stored once.
        await asyncio.sleep(0.5)
        history = await bob.call("message.history", {"conversationId": conversation})
        texts = [m.get("text") for m in history["data"]["messages"] if m["kind"] == "text"]
        assert texts == ["你好 Mei <&>", "hello Bob ☺"]

        # Bob leaves: Mei sees him go.
        await bob.close()
        await mei.wait_presence(lambda p: p["from"].bare == "bob@localhost" and p["type"] == "unavailable")
        # Mei's last (XMPP) connection goes: a native friend sees her go offline.
        bob = await Session.open(server.port, bob_token)
        await mei.stop()
        offline = await wait_event(bob, lambda e: e["event"] == "presence" and e["data"]["online"] is False)
        assert offline["data"]["userId"] == added["data"]["user"]["id"]
        await bob.close()
    run(scenario())


def test_messages_sent_while_offline_arrive_at_the_next_sign_in_once(server):
    async def scenario():
        mei_native, bob, conversation, _, _ = await mei_and_bob(server)
        await mei_native.close()
        for index, text in enumerate(["first while away", "second while away"]):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": f"away-{index}",
                                                   "kind": "text", "text": text})
            assert sent["ok"], sent

        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        first = await mei.next_message()
        second = await mei.next_message()
        assert [first["body"], second["body"]] == ["first while away", "second while away"]
        assert first["delay"]["stamp"] is not None
        await mei.stop()

        # Delivered once: the next sign-in has nothing waiting.
        again = Bot("mei@localhost")
        assert await again.sign_in(server.xmpp_port)
        with pytest.raises(asyncio.TimeoutError):
            await again.next_message(timeout=2)
        await again.stop()
        await bob.close()
    run(scenario())


def test_messages_a_jabber_client_displays_count_as_read_on_the_users_other_devices(server):
    async def scenario():
        mei_native, bob, conversation, mei, _ = await mei_and_bob(server, jabber=True)
        seqs = []
        for index in range(3):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": f"read-{index}",
                                                   "kind": "text", "text": f"number {index}"})
            assert sent["ok"], sent
            seqs.append(sent["data"].get("message", sent["data"])["seq"])
            assert (await mei.next_message())["body"] == f"number {index}"
        # Handed over is delivered, not read: still unread on the native device.
        listed = await mei_native.call("conversation.list")
        assert listed["data"]["totalUnread"] >= 3, listed
        # The client shows the last one (XEP-0333): the native device hears that all are read.
        from slixmpp.xmlstream import ET
        shown = mei.make_message(mto="bob@localhost", mtype="chat")
        shown.append(ET.Element("{urn:xmpp:chat-markers:0}displayed", {"id": "read-2"}))
        shown.send()
        read = await wait_event(mei_native, lambda e: e["event"] == "conversation.read" and e["data"]["readSeq"] == seqs[-1])
        assert read["data"]["conversationId"] == conversation
        assert read["data"]["unread"] == 0 and read["data"]["totalUnread"] == 0
        listed = await mei_native.call("conversation.list")
        assert listed["ok"], listed
        assert listed["data"]["totalUnread"] == 0
        await mei.stop()
        await mei_native.close()
        await bob.close()
    run(scenario())


def test_hostile_input_ends_only_the_offending_stream(server):
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)

        loop = asyncio.get_running_loop()
        port = server.xmpp_port
        bomb = ("<!DOCTYPE lolz [<!ENTITY lol 'lol'>" + "".join(
            f"<!ENTITY lol{i} '{('&lol' + (str(i - 1) if i > 1 else '') + ';') * 10}'>" for i in range(1, 10))
            + "]><message><body>&lol9;</body></message>")
        cases = {
            # A DTD inside the stream is not even well-formed XML; before the root it is a DTD.
            "entity bomb": (bomb.encode(), {"not-well-formed", "restricted-xml"}),
            "deep nesting": (("<a>" * 5000).encode(), {"policy-violation"}),
            "huge stanza": (b"<message><body>" + b"x" * (2 * 1024 * 1024), {"policy-violation"}),
            "broken xml": (b"<message></iq>", {"not-well-formed"}),
        }
        for name, (payload, conditions) in cases.items():
            text = await loop.run_in_executor(None, raw_exchange, port, payload)
            assert stream_error(text) in conditions, f"{name}: {text[-300:]}"
            assert text.endswith("</stream:stream>"), name

        # Bad SASL: garbage base64 and wrong passwords get SASL failures, then the stream ends.
        bad_sasl = b"".join(b"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>" + data + b"</auth>"
                            for data in [b"!!!not base64!!!", b"AG1laQB3cm9uZw==", b"AG1laQB3cm9uZw=="])
        text = await loop.run_in_executor(None, raw_exchange, port, bad_sasl)
        assert "<incorrect-encoding" in text and "<not-authorized" in text
        assert stream_error(text) == "policy-violation"

        # An entity bomb sent before the stream header is refused as a DTD.
        def bomb_first():
            import socket
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(("<?xml version='1.0'?>" + bomb).encode())
                received = b""
                while chunk := sock.recv(65536):
                    received += chunk
                return received.decode()
        assert stream_error(await loop.run_in_executor(None, bomb_first)) == "restricted-xml"

        # Meanwhile the good session still works.
        await mei.plugin["xep_0199"].ping(jid="localhost", timeout=10)
        await mei.stop()

        # And a login still works afterwards.
        later = Bot("bob@localhost", mechanism="SCRAM-SHA-1")
        assert await later.sign_in(server.xmpp_port)
        await later.stop()
    run(scenario())


def test_vcard_blocking_chat_states_and_receipts_between_two_jabber_clients(server):
    async def scenario():
        mei_native, bob_native, _, _, _ = await mei_and_bob(server)
        await bob_native.close()

        mei = Bot("mei@localhost")
        bob = Bot("bob@localhost", mechanism="SCRAM-SHA-1")
        assert await mei.sign_in(server.xmpp_port)
        assert await bob.sign_in(server.xmpp_port)
        assert set(mei.roster_items) == {"bob@localhost"}

        # vCard set is the profile: the native client hears of it, and Bob reads it.
        card = mei.plugin["xep_0054"].make_vcard()
        card["NICKNAME"] = "Mei Ling"
        await mei.plugin["xep_0054"].publish_vcard(card, timeout=10)
        updated = await wait_event(mei_native, lambda e: e["event"] == "me.updated")
        assert updated["data"]["nickname"] == "Mei Ling"
        seen = await bob.plugin["xep_0054"].get_vcard(jid="mei@localhost", cached=False, timeout=10)
        assert seen["vcard_temp"]["NICKNAME"] == ["Mei Ling"]

        # Chat states pass through to the other Jabber client without being stored.
        typing = bob.make_message(mto="mei@localhost", mtype="chat")
        typing["chat_state"] = "composing"
        typing.send()
        message = await mei.next_message(predicate=lambda m: m["chat_state"] == "composing")
        assert message["from"].bare == "bob@localhost" and not message["body"]

        # A message asks for a receipt; the receipt comes back to the sender.
        bob.send_message(mto="mei@localhost", mbody="ping with receipt", mtype="chat")
        got = await mei.next_message()
        assert got["body"] == "ping with receipt"
        assert got["request_receipt"]
        # (slixmpp's receipts plugin answers the request by itself.)
        message = await bob.next_message(predicate=lambda m: bool(m["receipt"]))
        assert message["receipt"] == got["id"]
        assert message["from"].bare == "mei@localhost"

        # Blocking: the block list is Parley's, and a blocked friend's message is refused.
        await mei.plugin["xep_0191"].block("bob@localhost", timeout=10)
        blocked = await mei.plugin["xep_0191"].get_blocked(timeout=10)
        assert {str(item["jid"]) for item in blocked["blocklist"]} == {"bob@localhost"}
        listed = await mei_native.call("block.list")
        assert [user["username"] for user in listed["data"]["users"]] == ["bob"]
        bob.send_message(mto="mei@localhost", mbody="can you hear me", mtype="chat")
        message = await bob.next_message(predicate=lambda m: m["type"] == "error")
        assert message["error"]["condition"] in {"not-acceptable", "forbidden"}
        await mei.plugin["xep_0191"].unblock("bob@localhost", timeout=10)
        assert (await mei_native.call("block.list"))["data"]["users"] == []

        await mei.stop()
        await bob.stop()
        await mei_native.close()
    run(scenario())


def test_carbons_and_the_message_archive(server):
    async def scenario():
        import xml.etree.ElementTree as ET
        mei_native, bob_native, conversation, mei, _ = await mei_and_bob(server, jabber=True)

        # Carbons: what Mei sends from her phone shows up in her Jabber client.
        enable = mei.make_iq_set()
        enable.append(ET.fromstring("<enable xmlns='urn:xmpp:carbons:2'/>"))
        await enable.send(timeout=10)
        sent = await mei_native.call("message.send", {"conversationId": conversation, "clientId": "phone-1",
                                                      "kind": "text", "text": "sent from my phone"})
        assert sent["ok"], sent
        carbon = await mei.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:carbons:2}sent") is not None)
        copy = carbon.xml.find("{urn:xmpp:carbons:2}sent/{urn:xmpp:forward:0}forwarded/{jabber:client}message")
        assert copy.get("to") == "bob@localhost" and copy.find("{jabber:client}body").text == "sent from my phone"

        for index in range(3):
            reply = await bob_native.call("message.send", {"conversationId": conversation, "clientId": f"b{index}",
                                                           "kind": "text", "text": f"bob {index}"})
            assert reply["ok"], reply

        async def query(before: str | None):
            iq = mei.make_iq_set()
            marker = f"<before>{before}</before>" if before else "<before/>"
            iq.append(ET.fromstring(
                "<query xmlns='urn:xmpp:mam:2' queryid='q'><x xmlns='jabber:x:data' type='submit'>"
                "<field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>"
                "<field var='with'><value>bob@localhost</value></field></x>"
                f"<set xmlns='http://jabber.org/protocol/rsm'><max>2</max>{marker}</set></query>"))
            result = await iq.send(timeout=10)
            fin = result.xml.find("{urn:xmpp:mam:2}fin")
            bodies = []
            while not mei.messages.empty():
                message = mei.messages.get_nowait()
                found = message.xml.find("{urn:xmpp:mam:2}result/{urn:xmpp:forward:0}forwarded/{jabber:client}message/{jabber:client}body")
                if found is not None:
                    bodies.append(found.text)
            return fin, bodies

        # The live messages are read first so the queue holds only archive results.
        for _ in range(3):
            await mei.next_message()
        fin, bodies = await query(None)
        assert bodies == ["bob 1", "bob 2"]
        assert fin.get("complete") == "false"
        first = fin.find("{http://jabber.org/protocol/rsm}set/{http://jabber.org/protocol/rsm}first").text
        fin, bodies = await query(first)
        assert bodies == ["sent from my phone", "bob 0"]
        await mei.stop()
        await mei_native.close()
        await bob_native.close()
    run(scenario())


def test_starttls_then_sign_in_and_chat(parley, tmp_path):
    cert, key = self_signed_certificate(str(tmp_path))
    server = parley("--password-cost", "minimum", "--xmpp-tls-cert", cert, "--xmpp-tls-key", key, xmpp=True)
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei = Bot("mei@localhost", mechanism="PLAIN", trust=cert)
        bob = Bot("bob@localhost", mechanism="SCRAM-SHA-256", trust=cert)
        assert await mei.sign_in(server.xmpp_port)
        assert await bob.sign_in(server.xmpp_port)
        for bot in (mei, bob):
            assert bot.transport.get_extra_info("ssl_object") is not None
        # Friends over XMPP alone, then a message through TLS both ways.
        mei.send_presence(pto="bob@localhost", ptype="subscribe")
        await bob.wait_presence(lambda p: p["type"] == "subscribe")
        bob.send_presence(pto="mei@localhost", ptype="subscribed")
        await mei.wait_presence(lambda p: p["type"] == "subscribed")
        mei.send_message(mto="bob@localhost", mbody="over TLS " + "x" * 3_900, mtype="chat")
        got = await bob.next_message()
        assert got["body"] == "over TLS " + "x" * 3_900
        await mei.stop()
        await bob.stop()
    run(scenario())


def test_a_bad_tls_certificate_setting_stops_the_server(parley, tmp_path):
    missing = str(tmp_path / "missing.pem")
    with pytest.raises(RuntimeError):
        parley("--xmpp-tls-cert", missing, "--xmpp-tls-key", missing, xmpp=True)


def test_stream_management_acknowledges_handled_stanzas(server):
    register(server, "mei")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("mei")
    stream.send("<enable xmlns='urn:xmpp:sm:3'/>")
    stream.expect("<enabled xmlns='urn:xmpp:sm:3'/>")
    for index in range(3):
        stream.send(f"<iq type='get' id='p{index}'><ping xmlns='urn:xmpp:ping'/></iq>")
    stream.send("<r xmlns='urn:xmpp:sm:3'/>")
    assert stream.expect("<a xmlns='urn:xmpp:sm:3' h='(\\d+)'/>").group(1) == "3"
    # A bound stream cannot resume another.
    stream.send("<resume xmlns='urn:xmpp:sm:3' h='0' previd='x'/>")
    stream.expect("<failed xmlns='urn:xmpp:sm:3'>")
    stream.send("</stream:stream>")
    stream.expect("</stream:stream>")
    stream.close()


def test_stanzas_written_at_once_are_answered_in_order(server):
    """A thousand pings and ten roster queries in one write: a ping is answered within the read
    that brought it, a roster query waits for the store, and the one task that takes the
    stream's stanzas in turn answers every one, in the order they came, the stream still open."""
    register(server, "mei")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("mei")
    expected = []
    stanzas = []
    for index in range(1000):
        if index % 100 == 50:
            expected.append(f"r{index}")
            stanzas.append(f"<iq type='get' id='r{index}'><query xmlns='jabber:iq:roster'/></iq>")
        expected.append(f"p{index}")
        stanzas.append(f"<iq type='get' id='p{index}'><ping xmlns='urn:xmpp:ping'/></iq>")
    stream.send("".join(stanzas))
    answered = []
    while len(answered) < len(expected):
        answered.append(stream.expect("<iq [^>]*>").group(0))
    ids = [re.search("id='([^']+)'", tag).group(1) for tag in answered]
    assert ids == expected
    assert all("type='result'" in tag for tag in answered)
    stream.send("</stream:stream>")
    stream.expect("</stream:stream>")
    stream.close()


def test_pipelined_chat_messages_are_stored_delivered_and_answered_in_order(server):
    """Thirty chat messages to a friend in one write, the sixteenth too long: each stored one
    reaches the friend's stream in order with its own, rising stanza-id; the long one is
    refused with its error before the ping that follows them all is answered; stream
    management counts every stanza handled (the 1:1 messages take the send with no task)."""
    async def befriend():
        friends = await mei_and_bob(server)
        await friends.mei_native.close()
        await friends.bob.close()
    run(befriend())
    mei = RawStream(server.xmpp_port)
    mei.sign_in("mei")
    bob = RawStream(server.xmpp_port)
    bob.sign_in("bob")
    for stream in (mei, bob):
        stream.send("<iq type='get' id='roster'><query xmlns='jabber:iq:roster'/></iq>")
        stream.expect("<iq [^>]*id='roster'[^>]*>")
    mei.send("<enable xmlns='urn:xmpp:sm:3'/>")
    mei.expect("<enabled xmlns='urn:xmpp:sm:3'/>")
    stanzas = []
    for index in range(30):
        body = "x" * 4001 if index == 15 else f"note {index}"
        stanzas.append(f"<message type='chat' to='bob@localhost' id='m{index}'><body>{body}</body>"
                       "<request xmlns='urn:xmpp:receipts'/></message>")
    stanzas.append("<iq type='get' id='after'><ping xmlns='urn:xmpp:ping'/></iq>")
    stanzas.append("<r xmlns='urn:xmpp:sm:3'/>")
    mei.send("".join(stanzas))
    error = mei.expect("<message [^>]*type='error'[^>]*>")
    assert "id='m15'" in error.group(0)
    mei.expect("not-acceptable|bad-request")
    mei.expect("<iq [^>]*id='after'[^>]*>")
    assert mei.expect("<a xmlns='urn:xmpp:sm:3' h='(\\d+)'/>").group(1) == "31"
    bodies, archive_ids = [], []
    while len(bodies) < 29:
        stanza = bob.expect("<message [^>]*>.*?</message>").group(0)
        body = re.search("<body>([^<]*)</body>", stanza)
        if body is None:
            continue
        bodies.append(body.group(1))
        archive_ids.append(int(re.search("<stanza-id [^>]*id='([^']+)'", stanza).group(1)))
    assert bodies == [f"note {index}" for index in range(30) if index != 15]
    assert archive_ids == sorted(set(archive_ids))
    for stream in (mei, bob):
        stream.send("</stream:stream>")
        stream.expect("</stream:stream>")
        stream.close()


def test_groups_and_rooms_as_multi_user_chats(server):
    mei_token = register(server, "mei")
    bob_token = register(server, "bob")
    register(server, "ann")

    async def scenario():
        mei_native = await Session.open(server.port, mei_token)
        bob = await Session.open(server.port, bob_token)
        created = await mei_native.call("group.create", {"name": "Tea Club"})
        assert created["ok"], created
        group = created["data"]["id"]
        joined = await bob.call("group.join", {"name": "Tea Club"})
        assert joined["ok"], joined
        await mei_native.close()

        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        info = await mei.plugin["xep_0030"].get_items(jid="conference.localhost", timeout=10)
        assert (f"group-{group}@conference.localhost", None, "Tea Club") in info["disco_items"]["items"]

        # Joining the group's room: members as occupants, our own presence (110, and 210 as
        # the service sets the nickname), then the subject.
        room = f"group-{group}@conference.localhost"
        mei.send_presence(pto=f"{room}/Meimei")
        own = await mei.wait_presence(lambda p: p["from"].bare == room and "110" in str(p))
        assert own["from"].resource == "mei" and "210" in str(own)
        assert any(p["from"] == f"{room}/bob" for p in mei.presences)
        subject = await mei.next_message(predicate=lambda m: m["type"] == "groupchat" and m["subject"])
        assert subject["subject"] == "Tea Club"

        # Groupchat from XMPP: reflected to the sender, delivered to the native member.
        mei.send_message(mto=room, mbody="hello tea club", mtype="groupchat")
        reflected = await mei.next_message(predicate=lambda m: m["type"] == "groupchat" and m["body"] == "hello tea club")
        assert reflected["from"] == f"{room}/mei"
        await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "hello tea club")
        # And from the native member to XMPP.
        sent = await bob.call("message.send", {"conversationId": group, "clientId": "g1", "kind": "text", "text": "hi Mei"})
        assert sent["ok"], sent
        got = await mei.next_message(predicate=lambda m: m["type"] == "groupchat" and m["body"] == "hi Mei")
        assert got["from"] == f"{room}/bob"

        # Not a member: refused as members-only.
        ann = Bot("ann@localhost")
        assert await ann.sign_in(server.xmpp_port)
        ann.send_presence(pto=f"{room}/ann")
        refused = await ann.wait_presence(lambda p: p["type"] == "error")
        assert refused["error"]["condition"] == "registration-required"

        # A Parley room by name: joining creates it; a native user enters and talks.
        lobby = "lobby@conference.localhost"
        ann.send_presence(pto=f"{lobby}/ann")
        await ann.wait_presence(lambda p: p["from"].bare == lobby and "110" in str(p))
        entered = await bob.call("room.enter", {"name": "lobby"})
        assert entered["ok"], entered
        lobby_id = entered["data"]["room"]["id"]
        # Bob's entering shows as his occupant presence.
        await ann.wait_presence(lambda p: p["from"] == f"{lobby}/bob" and p["type"] == "available")
        sent = await bob.call("message.send", {"conversationId": lobby_id, "clientId": "r1", "kind": "text", "text": "anyone here?"})
        assert sent["ok"], sent
        got = await ann.next_message(predicate=lambda m: m["type"] == "groupchat" and m["body"] == "anyone here?")
        assert got["from"] == f"{lobby}/bob"
        # Leaving the room is Parley's room.leave: the native occupant sees the notice.
        ann.send_presence(pto=f"{lobby}/ann", ptype="unavailable")
        await wait_event(bob, lambda e: e["event"] == "message.new" and (e["data"].get("system") or {}).get("type") == "room_left")

        await ann.stop()
        await mei.stop()
        await bob.close()
    run(scenario())


def test_two_jabber_users_who_both_subscribe_become_friends_and_both_see_it(server):
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei = Bot("mei@localhost")
        bob = Bot("bob@localhost")
        assert await mei.sign_in(server.xmpp_port)
        assert await bob.sign_in(server.xmpp_port)
        mei.send_presence(pto="bob@localhost", ptype="subscribe")
        await bob.wait_presence(lambda p: p["type"] == "subscribe" and p["from"].bare == "mei@localhost")
        # Bob subscribes back instead of approving: that is the friendship too.
        bob.send_presence(pto="mei@localhost", ptype="subscribe")
        for bot, other in ((mei, "bob@localhost"), (bob, "mei@localhost")):
            await bot.wait_presence(lambda p, other=other: p["type"] == "subscribed" and p["from"].bare == other)
            await bot.wait_presence(lambda p, other=other: p["type"] == "available" and p["from"].bare == other)
            roster = await bot.get_roster()
            assert {str(item["jid"]): item["subscription"] for item in roster["roster"]} == {other: "both"}
        # Typing notifications stop once one blocks the other.
        await mei.plugin["xep_0191"].block("bob@localhost", timeout=10)
        typing = bob.make_message(mto="mei@localhost", mtype="chat")
        typing["chat_state"] = "composing"
        typing.send()
        refused = await bob.next_message(predicate=lambda m: m["type"] == "error")
        assert refused["error"]["condition"] == "not-acceptable"
        await mei.stop()
        await bob.stop()
    run(scenario())


def test_streams_keep_working_after_their_idle_parsers_are_freed(parley):
    """With --xmpp-parser-release-ms 500 the parser of a stream silent for half a second is freed; the
    next stanza goes to a new one primed with the stream's header. Chat, iq and the stream's
    clean end must work across that, repeatedly."""
    server = parley("--password-cost", "minimum", "--xmpp-parser-release-ms", "500", xmpp=True)
    register(server, "mei")
    register(server, "bob")

    async def scenario():
        mei = Bot("mei@localhost")
        bob = Bot("bob@localhost", mechanism="PLAIN")
        assert await mei.sign_in(server.xmpp_port)
        assert await bob.sign_in(server.xmpp_port)
        mei.send_presence(pto="bob@localhost", ptype="subscribe")
        await bob.wait_presence(lambda p: p["type"] == "subscribe" and p["from"].bare == "mei@localhost")
        bob.send_presence(pto="mei@localhost", ptype="subscribed")
        await mei.wait_presence(lambda p: p["type"] == "subscribed" and p["from"].bare == "bob@localhost")
        for round in range(3):
            await asyncio.sleep(2.5)
            mei.send_message(mto="bob@localhost", mbody=f"after a pause {round} & <more>", mtype="chat")
            got = await bob.next_message()
            assert got["body"] == f"after a pause {round} & <more>"
            await asyncio.sleep(2.5)
            bob.send_message(mto="mei@localhost", mbody=f"answer {round} 😀", mtype="chat")
            assert (await mei.next_message())["body"] == f"answer {round} 😀"
            await mei.plugin["xep_0199"].ping(jid="localhost", timeout=10)
        await asyncio.sleep(2.5)
        await mei.stop()
        await bob.stop()
    run(scenario())


def test_a_stream_not_signed_in_and_bound_in_time_ends_and_a_bound_one_stays(parley):
    """--xmpp-auth-timeout 1: a stream that opened but never signed in, and one signed in but
    never bound, end with policy-violation after about a second (the deadline is the
    connection's, on the loop's deadline wheel); one bound in time is still answered after."""
    import time
    server = parley("--password-cost", "minimum", "--xmpp-auth-timeout", "1", xmpp=True)
    register(server, "mei")
    register(server, "bob")
    bound = RawStream(server.xmpp_port)
    bound.sign_in("bob")
    started = time.monotonic()
    silent = RawStream(server.xmpp_port)
    silent.send(HEADER)
    silent.expect("</stream:features>")
    unbound = RawStream(server.xmpp_port)
    unbound.sign_in("mei", resource=None)
    for stream in (silent, unbound):
        stream.expect("<policy-violation")
        stream.expect("</stream:stream>")
        stream.close()
    elapsed = time.monotonic() - started
    assert 0.9 <= elapsed < 8, elapsed
    time.sleep(1.5)
    bound.send("<iq type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>")
    bound.expect("id='p1'")
    bound.close()


def test_shutdown_ends_open_streams_with_system_shutdown(server):
    register(server, "mei")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("mei")
    assert server.stop() == 0
    stream.expect("<system-shutdown xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>")
    stream.expect("</stream:stream>")
    stream.close()
    assert any(line.get("msg") == "stopped" for line in server.log_lines())


def test_a_broken_stream_is_resumed_without_losing_messages_or_going_offline(server):
    async def scenario():
        mei_native, bob, conversation, _, _ = await mei_and_bob(server)
        await mei_native.close()
        await wait_event(bob, lambda e: e["event"] == "presence" and e["data"]["online"] is False)
        bob.events.clear()

        async def say(text: str):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": text, "kind": "text", "text": text})
            assert sent["ok"], sent

        stream = RawStream(server.xmpp_port)
        stream.sign_in("mei")
        stream.send("<presence/>")
        stream.send("<enable xmlns='urn:xmpp:sm:3' resume='true'/>")
        resumption = stream.expect("<enabled xmlns='urn:xmpp:sm:3' id='([^']+)' resume='true'").group(1)
        await say("one")
        stream.expect("<body>one</body>")
        # The connection breaks without the stream being closed.
        stream.close()
        await asyncio.sleep(0.3)
        await say("two")

        again = RawStream(server.xmpp_port)
        again.sign_in("mei", resource=None)
        again.send(f"<resume xmlns='urn:xmpp:sm:3' previd='{resumption}' h='0'/>")
        again.expect(f"<resumed xmlns='urn:xmpp:sm:3' previd='{re.escape(resumption)}' h='\\d+'/>")
        # Nothing was acknowledged: both come, in order.
        again.expect("<body>one</body>")
        again.expect("<body>two</body>")
        await say("three")
        again.expect("<body>three</body>")
        await asyncio.sleep(0.3)
        went = [e for e in bob.events if e["event"] == "presence" and e["data"]["online"] is False]
        assert went == [], "Mei never went offline"

        # Someone else cannot take it, even knowing its id.
        stranger = RawStream(server.xmpp_port)
        stranger.sign_in("bob", resource=None)
        stranger.send(f"<resume xmlns='urn:xmpp:sm:3' previd='{resumption}' h='0'/>")
        stranger.expect("<failed xmlns='urn:xmpp:sm:3'><item-not-found")
        stranger.close()

        # A client whose connection broke unnoticed takes its stream over again; what it
        # acknowledged is not sent again.
        again.send("<a xmlns='urn:xmpp:sm:3' h='2'/>")
        third = RawStream(server.xmpp_port)
        third.sign_in("mei", resource=None)
        third.send(f"<resume xmlns='urn:xmpp:sm:3' previd='{resumption}' h='2'/>")
        third.expect("<resumed xmlns='urn:xmpp:sm:3'")
        third.expect("<body>three</body>")
        assert "<body>one</body>" not in third.received and "<body>two</body>" not in third.received

        # A clean end is the end: Bob sees Mei go.
        third.send("</stream:stream>")
        third.expect("</stream:stream>")
        third.close()
        again.close()
        await wait_event(bob, lambda e: e["event"] == "presence" and e["data"]["online"] is False)
        await bob.close()
    run(scenario())


def test_a_broken_stream_not_resumed_in_time_ends(parley):
    server = parley("--password-cost", "minimum", "--xmpp-resume-timeout", "1", xmpp=True)

    async def scenario():
        mei_native, bob, _, _, _ = await mei_and_bob(server)
        await mei_native.close()
        await wait_event(bob, lambda e: e["event"] == "presence" and e["data"]["online"] is False)
        bob.events.clear()
        stream = RawStream(server.xmpp_port)
        stream.sign_in("mei")
        stream.send("<enable xmlns='urn:xmpp:sm:3' resume='true'/>")
        resumption = stream.expect("<enabled xmlns='urn:xmpp:sm:3' id='([^']+)'").group(1)
        stream.close()
        await wait_event(bob, lambda e: e["event"] == "presence" and e["data"]["online"] is False, timeout=10)
        late = RawStream(server.xmpp_port)
        late.sign_in("mei", resource=None)
        late.send(f"<resume xmlns='urn:xmpp:sm:3' previd='{resumption}' h='0'/>")
        late.expect("<failed xmlns='urn:xmpp:sm:3'><item-not-found")
        late.close()
        await bob.close()
    run(scenario())


def test_many_streams_of_one_user_each_get_every_message(server):
    async def scenario():
        from concurrent.futures import ThreadPoolExecutor
        mei_native, bob, conversation, _, _ = await mei_and_bob(server)
        loop = asyncio.get_running_loop()
        count = 40
        with ThreadPoolExecutor(max_workers=count) as pool:
            def open_stream(index):
                stream = RawStream(server.xmpp_port)
                stream.sign_in("mei", resource=f"device-{index}")
                return stream
            streams = await asyncio.gather(*(loop.run_in_executor(pool, open_stream, i) for i in range(count)))
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "fan-out", "kind": "text",
                                                   "text": "to every device"})
            assert sent["ok"], sent
            results = await asyncio.gather(*(loop.run_in_executor(pool, s.expect, "<body>to every device</body>") for s in streams))
            assert len(results) == count
        # The native device of the same user got it too, once.
        await wait_event(mei_native, lambda e: e["event"] == "message.new" and e["data"].get("text") == "to every device")
        assert len([e for e in mei_native.events if e["event"] == "message.new" and e["data"].get("clientId") == "fan-out"]) == 1
        for stream in streams:
            stream.close()
        await mei_native.close()
        await bob.close()
    run(scenario())


PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + \
    (16).to_bytes(4, "big") + (8).to_bytes(4, "big") + bytes([8, 6, 0, 0, 0]) + bytes(64)


def test_images_and_avatars_reach_jabber_clients_as_links_they_can_open(server):
    async def scenario():
        import urllib.request
        mei_native, bob, conversation, _, bob_token = await mei_and_bob(server)
        await mei_native.close()
        upload = call(server.url, "POST", "/v1/media", token=bob_token, raw=PNG)
        assert upload.status == 201, upload.body
        media = upload.json
        updated = await bob.call("me.update", {"avatar": media["url"]})
        assert updated["ok"], updated

        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "img", "kind": "image",
                                               "mediaId": media["id"]})
        assert sent["ok"], sent
        message = await mei.next_message()
        # A message's link is signed (docs/xmpp.md, "Media links"); the avatar's is plain (public).
        link = server.url + media["url"]
        assert message["body"].startswith(link + "?exp=") and "&sig=" in message["body"]
        assert message.xml.find("{jabber:x:oob}x/{jabber:x:oob}url").text == message["body"]
        with urllib.request.urlopen(message["body"], timeout=10) as response:
            assert response.read() == PNG

        card = await mei.plugin["xep_0054"].get_vcard(jid="bob@localhost", cached=False, timeout=10)
        assert card.xml.find(".//{vcard-temp}PHOTO/{vcard-temp}EXTVAL").text == link
        with urllib.request.urlopen(link, timeout=10) as response:
            assert response.read() == PNG
        await mei.stop()
        await bob.close()
    run(scenario())


def test_a_stream_gets_messages_after_its_initial_presence_each_once(server):
    async def scenario():
        mei_native, bob, conversation, _, _ = await mei_and_bob(server)
        stream = RawStream(server.xmpp_port)
        stream.sign_in("mei", available=False)
        stream.send("<iq type='get' id='r1'><query xmlns='jabber:iq:roster'/></iq>")
        stream.expect("id='r1'")
        for index in range(5):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": f"early-{index}",
                                                   "kind": "text", "text": f"early {index}"})
            assert sent["ok"], sent
        # Not available yet (RFC 6121 §8.5.3): nothing comes.
        stream.send("<iq type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>")
        stream.expect("id='p1'")
        assert "<body>" not in stream.received
        # The initial presence brings them, in order, while more arrive live: each once.
        stream.send("<presence/>")
        for index in range(5):
            sent = await bob.call("message.send", {"conversationId": conversation, "clientId": f"live-{index}",
                                                   "kind": "text", "text": f"live {index}"})
            assert sent["ok"], sent
        bodies = []
        while "live 4" not in bodies:
            bodies.append(stream.expect("<body>([^<]*)</body>").group(1))
        await asyncio.sleep(0.3)
        stream.send("<iq type='get' id='p2'><ping xmlns='urn:xmpp:ping'/></iq>")
        bodies += re.findall(r"<body>([^<]*)</body>", stream.expect("id='p2'").string)
        assert bodies == [f"early {i}" for i in range(5)] + [f"live {i}" for i in range(5)], bodies
        stream.close()
        await mei_native.close()
        await bob.close()
    run(scenario())

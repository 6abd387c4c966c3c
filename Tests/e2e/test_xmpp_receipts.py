"""Receipts across the native/Jabber boundary. A Jabber user's message to a native user that
asks for a receipt (XEP-0184) and is markable (XEP-0333) is answered with `<received/>` when
it reaches the native user's connection and `<displayed/>` when they mark it read, both
naming the stanza id it was sent with; with read receipts turned off only `<received/>`
comes. The other way, a native message handed to the Jabber client (and its `<received/>`)
moves the Jabber user's delivered marker only; the client's `<displayed/>` moves the read
marker, and the native sender gets `conversation.receipt` with the message's seq for each."""
import asyncio

from xmpp import Bot, mei_and_bob, run, wait_event


def receipt_of(message) -> str | None:
    """The id a `<received/>` in `message` names, if any."""
    element = message.xml.find("{urn:xmpp:receipts}received")
    return None if element is None else element.get("id")


def displayed_of(message) -> str | None:
    element = message.xml.find("{urn:xmpp:chat-markers:0}displayed")
    return None if element is None else element.get("id")


def test_native_markers_answer_a_jabber_sender_and_jabber_delivery_moves_native_ticks(parley):
    srv = parley("--password-cost", "minimum", xmpp=True)

    async def scenario():
        friends = await mei_and_bob(srv, jabber=True)
        mei, bob, conversation = friends.mei, friends.bob, friends.conversation

        # Jabber → native: Mei's message asks for a receipt and is markable.
        stanza = mei.make_message(mto="bob@localhost", mbody="did it arrive?", mtype="chat")
        stanza["id"] = "jab-1"
        stanza["request_receipt"] = True
        stanza.append(_markable())
        stanza.send()
        new = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "did it arrive?")
        seq = new["data"]["seq"]
        received = await mei.next_message(predicate=lambda m: receipt_of(m) is not None)
        assert receipt_of(received) == "jab-1"
        assert received["from"].bare == "bob@localhost"
        # Not read yet: nothing displayed until Bob marks it.
        marked = await bob.call("conversation.read", {"conversationId": conversation, "seq": seq})
        assert marked["ok"], marked
        displayed = await mei.next_message(predicate=lambda m: displayed_of(m) is not None)
        assert displayed_of(displayed) == "jab-1" and displayed["from"].bare == "bob@localhost"

        # A message that asked for nothing gets nothing; one without markable gets no displayed.
        plain = mei.make_message(mto="bob@localhost", mbody="no receipt please", mtype="chat")
        plain["id"] = "jab-2"
        plain.send()
        asked = mei.make_message(mto="bob@localhost", mbody="receipt only", mtype="chat")
        asked["id"] = "jab-3"
        asked["request_receipt"] = True
        asked.send()
        last = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "receipt only")
        received = await mei.next_message(predicate=lambda m: receipt_of(m) is not None)
        assert receipt_of(received) == "jab-3"
        marked = await bob.call("conversation.read", {"conversationId": conversation, "seq": last["data"]["seq"]})
        assert marked["ok"], marked
        with_marker = await _next_or_none(mei, lambda m: receipt_of(m) is not None or displayed_of(m) is not None)
        assert with_marker is None, with_marker.xml if with_marker is not None else None

        # Read receipts off on Bob's side: delivered still answers, read does not.
        privacy = await bob.call("privacy.set", {"readReceipts": False, "typing": True, "lastSeen": "everyone"})
        assert privacy["ok"], privacy
        quiet = mei.make_message(mto="bob@localhost", mbody="private read", mtype="chat")
        quiet["id"] = "jab-4"
        quiet["request_receipt"] = True
        quiet.append(_markable())
        quiet.send()
        new = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "private read")
        received = await mei.next_message(predicate=lambda m: receipt_of(m) is not None)
        assert receipt_of(received) == "jab-4"
        marked = await bob.call("conversation.read", {"conversationId": conversation, "seq": new["data"]["seq"]})
        assert marked["ok"], marked
        assert await _next_or_none(mei, lambda m: displayed_of(m) is not None) is None

        # Native → Jabber: Bob's message handed to Mei's client (which acknowledges it, as the
        # gateway asks) moves Mei's delivered marker, and Bob gets it at the message's seq.
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "n-1", "kind": "text", "text": "to jabber"})
        assert sent["ok"], sent
        got = await mei.next_message(predicate=lambda m: m["body"] == "to jabber")
        assert got.xml.find("{urn:xmpp:receipts}request") is not None and got["id"] == "n-1"
        tick = await wait_event(bob, lambda e: e["event"] == "conversation.receipt"
                                and (e["data"].get("deliveredSeq") or 0) >= sent["data"]["seq"])
        assert tick["data"]["conversationId"] == conversation
        await mei.stop()
        await bob.close()
        await friends.mei_native.close()
    run(scenario())


def test_a_jabber_receipt_is_delivered_and_only_displayed_is_read(parley):
    srv = parley("--password-cost", "minimum", xmpp=True)

    async def scenario():
        friends = await mei_and_bob(srv, jabber=True)
        mei, bob, conversation, mei_native = friends.mei, friends.bob, friends.conversation, friends.mei_native
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "tick-1", "kind": "text",
                                               "text": "delivered, not read"})
        assert sent["ok"], sent
        seq = sent["data"]["seq"]
        got = await mei.next_message(predicate=lambda m: m["body"] == "delivered, not read")
        assert got["id"] == "tick-1"
        # The client's automatic <received/> (slixmpp acknowledges receipt requests) and the
        # hand-over move the delivered marker: Bob sees two ticks, not read.
        delivered = await wait_event(bob, lambda e: e["event"] == "conversation.receipt"
                                     and (e["data"].get("deliveredSeq") or 0) >= seq)
        assert (delivered["data"].get("readSeq") or 0) < seq, delivered
        await asyncio.sleep(0.5)
        listed = await mei_native.call("conversation.list", {})
        assert listed["ok"], listed
        mine = [c for c in listed["data"]["conversations"] if c["id"] == conversation]
        assert mine and mine[0]["unread"] >= 1 and mine[0]["readSeq"] < seq, mine
        # Nothing moved the read marker meanwhile.
        read_early = [e for e in bob.events if e["event"] == "conversation.receipt" and (e["data"].get("readSeq") or 0) >= seq]
        assert read_early == [], read_early

        # The client shows it: <displayed/> names the stanza id it came with.
        marker = mei.make_message(mto="bob@localhost", mtype="chat")
        marker.append(_marker("displayed", "tick-1"))
        marker.send()
        read = await wait_event(bob, lambda e: e["event"] == "conversation.receipt" and (e["data"].get("readSeq") or 0) >= seq)
        assert read["data"]["conversationId"] == conversation
        moved = await wait_event(mei_native, lambda e: e["event"] == "conversation.read" and e["data"]["readSeq"] >= seq)
        assert moved["data"]["unread"] == 0

        # A marker naming a message that is not Bob's in this chat moves nothing.
        stray = mei.make_message(mto="bob@localhost", mtype="chat")
        stray.append(_marker("displayed", "no-such-id"))
        stray.send()
        await mei.stop()

        # Signed in again: the delivered message is not handed over a second time.
        again = Bot("mei@localhost")
        assert await again.sign_in(srv.xmpp_port)
        assert await _next_or_none(again, lambda m: bool(m["body"]), timeout=2) is None
        await again.stop()
        await bob.close()
        await mei_native.close()
    run(scenario())


def _marker(name: str, stanza_id: str):
    from slixmpp.xmlstream import ET
    return ET.Element("{urn:xmpp:chat-markers:0}" + name, {"id": stanza_id})


def _markable():
    from slixmpp.xmlstream import ET
    return ET.Element("{urn:xmpp:chat-markers:0}markable")


async def _next_or_none(bot, predicate, timeout: float = 1.5):
    try:
        return await bot.next_message(timeout=timeout, predicate=predicate)
    except asyncio.TimeoutError:
        return None

"""Typing across the native/Jabber boundary: a native `typing.start` reaches a Jabber client as
a `<composing/>` chat state and the server's end of it as `<paused/>`; a Jabber client's
`<composing/>` reaches a native client as a `typing` event. The Jabber client's displayed
marker is a read receipt for the native sender."""
from xmpp import mei_and_bob, run, wait_event


def test_typing_and_read_state_between_native_and_jabber(parley):
    srv = parley("--password-cost", "minimum", "--typing-timeout", "1", xmpp=True)

    async def scenario():
        friends = await mei_and_bob(srv, jabber=True)
        mei, bob, conversation = friends.mei, friends.bob, friends.conversation
        # Native → Jabber: composing, then paused when the server ends it.
        started = await bob.call("typing.start", {"conversationId": conversation})
        assert started["ok"], started
        composing = await mei.next_message(predicate=lambda m: m["chat_state"] == "composing")
        assert composing["from"].bare == "bob@localhost" and not composing["body"]
        await mei.next_message(predicate=lambda m: m["chat_state"] == "paused")

        # Jabber → native: a typing event for Bob, from Mei.
        typing = mei.make_message(mto="bob@localhost", mtype="chat")
        typing["chat_state"] = "composing"
        typing.send()
        event = await wait_event(bob, lambda e: e["event"] == "typing" and e["data"]["typing"])
        assert event["data"]["conversationId"] == conversation

        # Bob's message shown by Mei's Jabber client (XEP-0333 displayed) is read: Bob's ticks say so.
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "t-1", "kind": "text", "text": "seen?"})
        assert sent["ok"], sent
        await mei.next_message(predicate=lambda m: m["body"] == "seen?")
        from slixmpp.xmlstream import ET
        shown = mei.make_message(mto="bob@localhost", mtype="chat")
        shown.append(ET.Element("{urn:xmpp:chat-markers:0}displayed", {"id": "t-1"}))
        shown.send()
        receipt = await wait_event(bob, lambda e: e["event"] == "conversation.receipt" and (e["data"].get("readSeq") or 0) >= sent["data"]["seq"])
        assert receipt["data"]["conversationId"] == conversation
        await mei.stop()
        await bob.close()
        await friends.mei_native.close()
    run(scenario())

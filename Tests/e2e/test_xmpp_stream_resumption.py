"""XEP-0198 stream management with slixmpp's own implementation (a client Parley did not
write): the TCP connection drops without the stream ending, the client resumes it with the
previous id, gets what it had not acknowledged, sends again what the server had not
acknowledged, and nothing arrives twice; meanwhile the resource stays available to its
contacts (issue 18: resumption across the per-resource model)."""
import asyncio

from xmpp import Bot, mei_and_bob, run, server, wait_event


class ResumingBot(Bot):
    """A `Bot` with stream management (XEP-0198) and resumption on."""

    def __init__(self, jid: str):
        super().__init__(jid)
        self.register_plugin("xep_0198")
        self.sm_enabled = asyncio.Event()
        self.resumed = asyncio.Event()
        self.add_event_handler("sm_enabled", lambda _: self.sm_enabled.set())
        self.add_event_handler("session_resumed", lambda _: self.resumed.set())


def test_a_dropped_connection_is_resumed_with_the_unacknowledged_stanzas_and_no_duplicates(server):
    async def scenario():
        _, bob_native, conversation, _, _ = await mei_and_bob(server)
        watcher = Bot("bob@localhost/desk")
        assert await watcher.sign_in(server.xmpp_port)
        mei = ResumingBot("mei@localhost/phone")
        assert await mei.sign_in(server.xmpp_port)
        await asyncio.wait_for(mei.sm_enabled.wait(), 10)
        sm = mei.plugin["xep_0198"]
        first_id = sm.sm_id
        assert first_id
        await watcher.wait_presence(lambda p: p["from"] == "mei@localhost/phone" and p["type"] == "available")

        async def say(text: str):
            sent = await bob_native.call("message.send", {"conversationId": conversation, "clientId": text, "kind": "text",
                                                          "text": text})
            assert sent["ok"], sent

        await say("before")
        await mei.next_message(predicate=lambda m: m["body"] == "before")

        # Mei sends, and the connection drops before the server's acknowledgement can come:
        # the stanza stays in slixmpp's unacknowledged queue.
        mei.send_message(mto="bob@localhost", mbody="sent as it broke", mtype="chat")
        assert len(sm.unacked_queue) >= 1
        mei.ended.clear()
        mei.abort()
        await asyncio.wait_for(mei.ended.wait(), 10)
        await say("during the break")
        await asyncio.sleep(0.3)

        # The same client connects again: slixmpp resumes the stream by its id.
        mei.connect("127.0.0.1", server.xmpp_port)
        await asyncio.wait_for(mei.resumed.wait(), 15)
        assert sm.sm_id == first_id
        assert str(mei.boundjid) == "mei@localhost/phone"
        got = await mei.next_message(predicate=lambda m: m["body"] == "during the break")
        assert got["from"].bare == "bob@localhost"
        await say("after")
        await mei.next_message(predicate=lambda m: m["body"] == "after")

        # Nothing twice: what Mei had handled is not sent again, and her message (sent again
        # by slixmpp if the server had not acknowledged it) is stored once.
        await asyncio.sleep(0.5)
        bodies = [m["body"] for m in list(mei.messages._queue) if m["body"]]
        assert "before" not in bodies and bodies.count("during the break") == 0 and bodies.count("after") == 0
        history = await bob_native.call("message.history", {"conversationId": conversation, "limit": 50})
        assert history["ok"], history
        texts = [m.get("text") for m in history["data"]["messages"]]
        assert texts.count("sent as it broke") == 1, texts
        assert texts.count("during the break") == 1
        await wait_event(bob_native, lambda e: e["event"] == "message.new" and e["data"].get("text") == "sent as it broke")
        await asyncio.sleep(0.3)
        heard = [e for e in bob_native.events if e["event"] == "message.new" and e["data"].get("text") == "sent as it broke"]
        assert len(heard) == 1

        # Bob's Jabber client never saw Mei's resource go during the break.
        assert not [p for p in watcher.presences if p["from"] == "mei@localhost/phone" and p["type"] == "unavailable"]
        assert not [e for e in bob_native.events if e["event"] == "presence" and e["data"]["online"] is False]

        # A clean end is the end: the resource goes.
        await mei.stop()
        await watcher.wait_presence(lambda p: p["from"] == "mei@localhost/phone" and p["type"] == "unavailable")
        await watcher.stop()
        await bob_native.close()
    run(scenario())

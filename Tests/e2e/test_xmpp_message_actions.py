"""Message actions between a Jabber client (slixmpp) and a native one, both ways: a correction
(XEP-0308) is an edit, a retraction (XEP-0424) a recall, reactions (XEP-0444) Parley's
reactions, a reply (XEP-0461) a message with `replyTo`; the native side's edit, reaction and
recall reach the Jabber client as those stanzas."""
import xml.etree.ElementTree as ET

from xmpp import mei_and_bob, run, server, wait_event  # noqa: F401 (fixture)

CORRECT = "urn:xmpp:message-correct:0"
RETRACT = "urn:xmpp:message-retract:1"
REACTIONS = "urn:xmpp:reactions:0"
REPLY = "urn:xmpp:reply:0"


def stanza(bot, stanza_id: str, body: str | None, *extra: str):
    message = bot.make_message(mto="bob@localhost", mbody=body, mtype="chat")
    message["id"] = stanza_id
    for xml in extra:
        message.xml.append(ET.fromstring(xml))
    message.send()


def updated(event, type_: str) -> bool:
    return event["event"] == "message.updated" and event["data"]["event"]["system"]["type"] == type_


def test_actions_between_a_jabber_client_and_a_native_one(server):
    async def scenario():
        f = await mei_and_bob(server, jabber=True)
        mei, bob = f.mei, f.bob

        # Mei writes with a typo, then corrects it: one message, edited, on bob's side.
        stanza(mei, "x-1", "helo bob")
        sent = (await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "helo bob"))["data"]
        stanza(mei, "x-2", "hello bob", f'<replace xmlns="{CORRECT}" id="x-1"/>')
        edit = (await wait_event(bob, lambda e: updated(e, "message_edited")))["data"]
        assert edit["message"]["id"] == sent["id"] and edit["message"]["text"] == "hello bob" and edit["message"]["editedAt"]
        history = (await bob.call("message.history", {"conversationId": f.conversation}))["data"]["messages"]
        assert [m["text"] for m in history if m["kind"] == "text"] == ["hello bob"], "a correction is no new message"

        # Bob writes natively; mei reacts and replies to it by the id it reached her with.
        ping = (await bob.call("message.send", {"conversationId": f.conversation, "clientId": "b-1", "kind": "text",
                                                "text": "ping"}))["data"]
        received = await mei.next_message(predicate=lambda m: m["body"] == "ping")
        assert received["id"] == "b-1"
        stanza(mei, "x-3", None, f'<reactions xmlns="{REACTIONS}" id="b-1"><reaction>👍</reaction></reactions>')
        reacted = (await wait_event(bob, lambda e: updated(e, "reaction_added")))["data"]
        assert reacted["message"]["reactions"] == [{"emoji": "👍", "users": [sent["sender"]]}]
        stanza(mei, "x-4", "pong", f'<reply xmlns="{REPLY}" id="b-1" to="bob@localhost"/>')
        reply = (await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "pong"))["data"]
        assert reply["replyTo"]["messageId"] == ping["id"] and reply["replyTo"]["excerpt"] == "ping"

        # Bob edits, reacts and recalls natively: mei's client gets the XMPP forms.
        await bob.call("message.edit", {"conversationId": f.conversation, "messageId": ping["id"], "clientId": "b-2", "text": "ping!"})
        correction = await mei.next_message(predicate=lambda m: m.xml.find(f"{{{CORRECT}}}replace") is not None)
        assert correction.xml.find(f"{{{CORRECT}}}replace").get("id") == "b-1" and correction["body"] == "ping!"
        await bob.call("message.react", {"conversationId": f.conversation, "messageId": sent["id"], "clientId": "b-3", "emoji": "🎉"})
        reactions = await mei.next_message(predicate=lambda m: m.xml.find(f"{{{REACTIONS}}}reactions") is not None)
        element = reactions.xml.find(f"{{{REACTIONS}}}reactions")
        assert element.get("id") == "x-1" and [r.text for r in element] == ["🎉"]
        await bob.call("message.recall", {"conversationId": f.conversation, "messageId": ping["id"], "clientId": "b-4"})
        retraction = await mei.next_message(predicate=lambda m: m.xml.find(f"{{{RETRACT}}}retract") is not None)
        assert retraction.xml.find(f"{{{RETRACT}}}retract").get("id") == "b-1"

        # Mei retracts her message: recalled on bob's side, its text gone.
        stanza(mei, "x-5", None, f'<retract xmlns="{RETRACT}" id="x-1"/>')
        recalled = (await wait_event(bob, lambda e: updated(e, "message_recalled") and e["data"]["message"]["id"] == sent["id"]))["data"]
        assert recalled["message"].get("recalled") and "text" not in recalled["message"]
        await mei.stop()
        await bob.close()
        await f.mei_native.close()
    run(scenario())

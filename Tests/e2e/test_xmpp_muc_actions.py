"""Message actions and mentions in a group chat across the native/Jabber boundary, with
slixmpp against a live server: a Jabber occupant's correction (XEP-0308), reaction (XEP-0444)
and retraction (XEP-0424) in the room are Parley's edit, reaction and recall; a native
member's edit and reaction reach the Jabber occupant as the same stanzas; a native @mention
comes with an XEP-0372 reference, and a Jabber occupant's reference or `@nick` becomes a
native mention (so the mentions count and mentions-only mutes work)."""
import xml.etree.ElementTree as ET

from client import Session
from xmpp import Bot, join, make_group, register, run, server, wait_event  # noqa: F401  (server is a fixture)

REFS = "{urn:xmpp:reference:0}"


def test_actions_and_mentions_in_a_group_both_ways(server):
    tokens = {name: register(server, name) for name in ("mei", "bob")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        group = await make_group(native["bob"], "Tea Club", native["mei"])
        me = await native["mei"].call("me.get", {})
        mei_id = me["data"]["profile"]["id"] if "profile" in me["data"] else me["data"]["id"]
        room = f"group-{group}@conference.localhost"
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        await join(mei, room, "mei")
        bob = native["bob"]

        # Native → Jabber: a mention carries a reference to the occupant.
        sent = await bob.call("message.send", {"conversationId": group, "clientId": "b1", "kind": "text",
                                               "text": "tea, @mei?", "mentions": [mei_id]})
        assert sent["ok"], sent
        got = await mei.next_message(predicate=lambda m: m["body"] == "tea, @mei?")
        reference = got.xml.find(f"{REFS}reference")
        assert reference is not None and reference.get("type") == "mention", got.xml
        assert reference.get("uri") == f"xmpp:{room}/mei" and (reference.get("begin"), reference.get("end")) == ("5", "9")
        bob_stanza_id = got.xml.find("{urn:xmpp:sid:0}stanza-id").get("id")
        assert bob_stanza_id == sent["data"]["id"]

        # Jabber → native: "@bob" in the body is a mention of bob.
        said = mei.make_message(mto=room, mbody="yes @bob, at five", mtype="groupchat")
        said["id"] = "mei-1"
        said.send()
        new = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == "yes @bob, at five")
        bob_id = sent["data"]["sender"]
        assert new["data"].get("mentions") == [bob_id], new
        listed = await bob.call("conversation.list", {})
        summary = next(c for c in listed["data"]["conversations"] if c["id"] == group)
        assert summary.get("mentions") == 1, summary

        # A correction of her message is an edit.
        fix = mei.make_message(mto=room, mbody="yes @bob, at six", mtype="groupchat")
        fix.append(ET.fromstring("<replace xmlns='urn:xmpp:message-correct:0' id='mei-1'/>"))
        fix.send()
        edited = await wait_event(bob, lambda e: e["event"] == "message.updated" and e["data"]["message"].get("text") == "yes @bob, at six")
        assert edited["data"]["message"]["id"] == new["data"]["id"] and edited["data"]["message"].get("editedAt")

        # A reaction to bob's message, named by its stanza-id as XEP-0444 says for rooms.
        react = mei.make_message(mto=room, mtype="groupchat")
        react.append(ET.fromstring(f"<reactions xmlns='urn:xmpp:reactions:0' id='{bob_stanza_id}'><reaction>👍</reaction></reactions>"))
        react.send()
        reacted = await wait_event(bob, lambda e: e["event"] == "message.updated" and e["data"]["message"]["id"] == sent["data"]["id"]
                                   and e["data"]["message"].get("reactions"))
        assert reacted["data"]["message"]["reactions"] == [{"emoji": "👍", "users": [mei_id]}], reacted

        # Native → Jabber: bob edits and reacts; the occupant gets XEP-0308 and XEP-0444 stanzas.
        edit = await bob.call("message.edit", {"conversationId": group, "messageId": sent["data"]["id"], "clientId": "be1",
                                               "text": "tea at six, @mei?"})
        assert edit["ok"], edit
        correction = await mei.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:message-correct:0}replace") is not None)
        assert correction["type"] == "groupchat" and correction["from"] == f"{room}/bob"
        assert correction.xml.find("{urn:xmpp:message-correct:0}replace").get("id") == "b1"
        assert correction["body"] == "tea at six, @mei?"
        react_back = await bob.call("message.react", {"conversationId": group, "messageId": new["data"]["id"], "clientId": "br1",
                                                      "emoji": "🎉"})
        assert react_back["ok"], react_back
        reactions = await mei.next_message(predicate=lambda m: m.xml.find("{urn:xmpp:reactions:0}reactions") is not None)
        element = reactions.xml.find("{urn:xmpp:reactions:0}reactions")
        assert element.get("id") == new["data"]["id"] and [r.text for r in element] == ["🎉"]

        # A retraction of her own message is a recall.
        retract = mei.make_message(mto=room, mtype="groupchat")
        retract.append(ET.fromstring("<retract xmlns='urn:xmpp:message-retract:1' id='mei-1'/>"))
        retract.send()
        recalled = await wait_event(bob, lambda e: e["event"] == "message.updated" and e["data"]["message"]["id"] == new["data"]["id"]
                                    and e["data"]["message"].get("recalled"))
        assert "text" not in recalled["data"]["message"]
        await mei.stop()
        for session in native.values():
            await session.close()
    run(scenario())

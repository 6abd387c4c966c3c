"""Moderated message retraction (XEP-0425) in a group chat, with slixmpp's own plugin against a live
server: a Jabber owner's moderation is Parley's recall of a member's message, seen natively and
by every Jabber occupant as a retraction `<moderated>` by the owner; a native admin's recall of
a member's message reaches Jabber occupants the same way; a member may not moderate."""
from slixmpp import JID
from slixmpp.exceptions import IqError

from client import Session
from xmpp import join, make_group
from xmpp import Bot, error_condition, register, run, server, wait_event  # noqa: F401  (server is a fixture)

RETRACT = "{urn:xmpp:message-retract:1}"
MODERATE = "{urn:xmpp:message-moderate:1}"


class Moderator(Bot):
    def __init__(self, jid: str):
        super().__init__(jid)
        self.register_plugin("xep_0425")


def moderation(message) -> tuple[str | None, str | None]:
    """The retracted stanza-id and who moderated it, of a moderation message."""
    retract = message.xml.find(f"{RETRACT}retract")
    moderated = retract.find(f"{MODERATE}moderated") if retract is not None else None
    return (retract.get("id") if retract is not None else None, moderated.get("by") if moderated is not None else None)


def test_moderation_both_ways(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        # Mei owns the group; Ann becomes an admin; Bob is a member.
        group = await make_group(native["mei"], "Tea Club", native["bob"], native["ann"])
        ann_id = (await native["ann"].call("me.get", {}))["data"]
        ann_id = ann_id["profile"]["id"] if "profile" in ann_id else ann_id["id"]
        made = await native["mei"].call("group.admin.add", {"conversationId": group, "userId": ann_id})
        assert made["ok"], made
        room = f"group-{group}@conference.localhost"
        mei, bob = Moderator("mei@localhost/phone"), Moderator("bob@localhost/desk")
        for bot in (mei, bob):
            assert await bot.sign_in(server.xmpp_port)
        await join(mei, room, "mei")
        await join(bob, room, "bob")

        # The room says it moderates.
        info = await mei.plugin["xep_0030"].get_info(jid=room, timeout=10)
        assert "urn:xmpp:message-moderate:1" in info["disco_info"]["features"]

        # Bob's message, moderated by Mei (the owner) over XMPP: recalled natively, and every
        # occupant (Bob's client, Mei's own) gets the room's retraction naming her.
        sent = await native["bob"].call("message.send", {"conversationId": group, "clientId": "b1", "kind": "text", "text": "spam"})
        assert sent["ok"], sent
        stanza_id = sent["data"]["id"]
        await mei.plugin["xep_0425"].moderate(JID(room), stanza_id, "off topic", timeout=10)
        recalled = await wait_event(native["ann"], lambda e: e["event"] == "message.updated"
                                    and e["data"]["message"]["id"] == stanza_id and e["data"]["message"].get("recalled"))
        assert "text" not in recalled["data"]["message"]
        for bot in (bob, mei):
            got = await bot.next_message(predicate=lambda m: m.xml.find(f"{RETRACT}retract/{MODERATE}moderated") is not None)
            assert got["type"] == "groupchat" and got["from"] == JID(room)
            assert moderation(got) == (stanza_id, f"{room}/mei")

        # A member may not moderate the owner's message.
        own = await native["mei"].call("message.send", {"conversationId": group, "clientId": "m1", "kind": "text", "text": "rules"})
        assert own["ok"], own
        try:
            await bob.plugin["xep_0425"].moderate(JID(room), own["data"]["id"], timeout=10)
            raise AssertionError("a member moderated")
        except IqError as error:
            assert error_condition(error.iq) == "forbidden"

        # Native: Ann (an admin) recalls Bob's message; the Jabber occupants see a moderation by her.
        again = await native["bob"].call("message.send", {"conversationId": group, "clientId": "b2", "kind": "text", "text": "more spam"})
        assert again["ok"], again
        done = await native["ann"].call("message.recall", {"conversationId": group, "messageId": again["data"]["id"], "clientId": "a1"})
        assert done["ok"], done
        for bot in (mei, bob):
            got = await bot.next_message(predicate=lambda m: m.xml.find(f"{RETRACT}retract/{MODERATE}moderated") is not None)
            assert moderation(got) == (again["data"]["id"], f"{room}/ann")
        # Bob's recall of his own message stays a plain retraction (XEP-0424) from him.
        third = await native["bob"].call("message.send", {"conversationId": group, "clientId": "b3", "kind": "text", "text": "oops"})
        assert third["ok"], third
        assert (await native["bob"].call("message.recall", {"conversationId": group, "messageId": third["data"]["id"],
                                                           "clientId": "b4"}))["ok"]
        plain = await mei.next_message(predicate=lambda m: m.xml.find(f"{RETRACT}retract") is not None)
        assert plain["from"] == JID(f"{room}/bob") and moderation(plain) == (third["data"]["id"], None)
        for bot in (mei, bob):
            await bot.stop()
        for session in native.values():
            await session.close()
    run(scenario())

"""Multi-user chat beyond joining and talking, with slixmpp against a live server: private
messages (1:1 messages between friends), the subject (the description), moderation and
affiliation lists (the group's owner), the configuration form, and invitations (mediated and
direct) with registration as the way to join a group."""
import xml.etree.ElementTree as ET

from client import Session
from xmpp import (ADMIN, DATA, MUC_USER, OWNER, Bot, befriend, error_condition, iq, join, make_group, register,  # noqa: F401
                  register_account, run, server, wait_event)

def test_private_messages_go_to_the_1_1_conversation_of_friends_and_the_subject_is_the_description(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        direct = await befriend(native["mei"], native["bob"], "bob")
        group = await make_group(native["mei"], "Tea Club", native["bob"], native["ann"])
        room = f"group-{group}@conference.localhost"
        bots = {name: Bot(f"{name}@localhost") for name in ("mei", "bob", "ann")}
        for name, bot in bots.items():
            assert await bot.sign_in(server.xmpp_port)
            await join(bot, room, name)

        # Mei writes to bob privately through the room: it is a 1:1 message between friends,
        # from Mei's own address, and it is in their shared history.
        bots["mei"].send_message(mto=f"{room}/bob", mbody="psst, bob", mtype="chat")
        got = await bots["bob"].next_message(predicate=lambda m: m["body"] == "psst, bob")
        assert got["type"] == "chat" and got["from"].bare == "mei@localhost"
        history = await native["bob"].call("message.history", {"conversationId": direct})
        assert [m.get("text") for m in history["data"]["messages"]][-1] == "psst, bob"

        # Ann is no friend of bob's: refused with a clear error, nothing stored.
        bots["ann"].send_message(mto=f"{room}/bob", mbody="hello stranger", mtype="chat")
        refused = await bots["ann"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "forbidden"
        assert "friends" in refused["error"]["text"]
        # Nor to someone who is not there at all.
        bots["ann"].send_message(mto=f"{room}/nobody", mbody="hello?", mtype="chat")
        missing = await bots["ann"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(missing) == "item-not-found"

        # Bob sets the subject: the group's description changes (one info_changed notice for
        # native members) and every occupant gets the new subject from bob.
        subject = bots["bob"].make_message(mto=room, mtype="groupchat")
        subject["subject"] = "Oolong week"
        subject.send()
        for name in ("mei", "ann", "bob"):
            got = await bots[name].next_message(predicate=lambda m: m["subject"] == "Oolong week")
            assert got["from"] == f"{room}/bob", got
        notice = await wait_event(native["mei"], lambda e: e["event"] == "message.new"
                                  and (e["data"].get("system") or {}).get("type") == "info_changed")
        assert notice["data"]["system"]["fields"] == ["description"]
        info = await native["ann"].call("group.get", {"conversationId": group})
        assert info["data"]["description"] == "Oolong week"

        # Entering again shows the current subject.
        bots["ann"].send_presence(pto=f"{room}/ann", ptype="unavailable")
        await bots["ann"].wait_presence(lambda p: p["from"] == f"{room}/ann" and p["type"] == "unavailable")
        await join(bots["ann"], room, "ann")
        again = await bots["ann"].next_message(predicate=lambda m: m["subject"] == "Oolong week" and m["from"] == room)
        assert again["type"] == "groupchat"

        # A subject Parley refuses (longer than a description may be) is a clear error, and
        # changes nothing.
        too_long = bots["ann"].make_message(mto=room, mtype="groupchat")
        too_long["subject"] = "x" * 500
        too_long.send()
        refused = await bots["ann"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "bad-request"
        info = await native["ann"].call("group.get", {"conversationId": group})
        assert info["data"]["description"] == "Oolong week"

        for bot in bots.values():
            await bot.stop()
        for session in native.values():
            await session.close()
    run(scenario())


def test_the_owner_moderates_and_configures_a_group_others_may_not(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        group = await make_group(native["mei"], "Tea Club", native["bob"], native["ann"])
        room = f"group-{group}@conference.localhost"
        bots = {name: Bot(f"{name}@localhost") for name in ("mei", "bob", "ann")}
        for name, bot in bots.items():
            assert await bot.sign_in(server.xmpp_port)
        own = await join(bots["mei"], room, "mei")
        assert own.xml.find(f"{MUC_USER}x/{MUC_USER}item").get("affiliation") == "owner"
        await join(bots["bob"], room, "bob")
        await join(bots["ann"], room, "ann")

        # Affiliation lists: the owner, and the members.
        owners = await iq(bots["bob"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='owner'/></query>")
        assert [item.get("nick") for item in owners.xml.iter(f"{{{ADMIN}}}item")] == ["mei"]
        members = await iq(bots["bob"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='member'/></query>")
        assert sorted(item.get("jid") for item in members.xml.iter(f"{{{ADMIN}}}item")) == ["ann@localhost", "bob@localhost"]

        # Bob is not the owner: his kick is forbidden and changes nothing.
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='ann' role='none'/></query>")
        assert refused["type"] == "error" and error_condition(refused) == "forbidden"
        count = await native["mei"].call("group.get", {"conversationId": group})
        assert count["data"]["memberCount"] == 3

        # Mei kicks ann: she is removed from the group (group.remove); she is told (307, 110),
        # the others see her go, native members get the notice.
        kicked = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='ann' role='none'/></query>")
        assert kicked["type"] == "result"
        gone = await bots["ann"].wait_presence(lambda p: p["from"] == f"{room}/ann" and p["type"] == "unavailable")
        assert "307" in str(gone) and "110" in str(gone)
        seen = await bots["bob"].wait_presence(lambda p: p["from"] == f"{room}/ann" and p["type"] == "unavailable")
        assert "307" in str(seen)
        await wait_event(native["bob"], lambda e: e["event"] == "message.new"
                         and (e["data"].get("system") or {}).get("type") == "member_removed")
        # Ann is no longer a member: entering again is refused.
        bots["ann"].presences.clear()
        bots["ann"].send_presence(pto=f"{room}/ann")
        error = await bots["ann"].wait_presence(lambda p: p["type"] == "error")
        assert error["error"]["condition"] == "registration-required"

        # A ban by address removes too, and shows as a ban (301).
        banned = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item jid='bob@localhost' affiliation='outcast'/></query>")
        assert banned["type"] == "result"
        await bots["bob"].wait_presence(lambda p: p["from"] == f"{room}/bob" and p["type"] == "unavailable" and "301" in str(p))
        count = await native["mei"].call("group.get", {"conversationId": group})
        assert count["data"]["memberCount"] == 1

        # Configuration: the form carries the name and description; a submitted form is a
        # group update, which native members see as the group's new info.
        form = await iq(bots["mei"], "get", room, f"<query xmlns='{OWNER}'/>")
        fields = {f.get("var"): f.findtext(f"{DATA}value") for f in form.xml.iter(f"{DATA}field")}
        assert fields["muc#roomconfig_roomname"] == "Tea Club" and fields["muc#roomconfig_membersonly"] == "1"
        submitted = await iq(bots["mei"], "set", room, (
            f"<query xmlns='{OWNER}'><x xmlns='jabber:x:data' type='submit'>"
            "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
            "<field var='muc#roomconfig_roomname'><value>Tea House</value></field>"
            "<field var='muc#roomconfig_roomdesc'><value>Green and black</value></field>"
            "<field var='muc#roomconfig_whois'><value>anyone</value></field></x></query>"))
        assert submitted["type"] == "result"
        info = await native["mei"].call("group.get", {"conversationId": group})
        assert (info["data"]["name"], info["data"]["description"]) == ("Tea House", "Green and black")
        subject = await bots["mei"].next_message(predicate=lambda m: m["subject"] == "Green and black")
        assert subject["from"] == f"{room}/mei"

        # What a group is cannot be configured away.
        open_room = await iq(bots["mei"], "set", room, (
            f"<query xmlns='{OWNER}'><x xmlns='jabber:x:data' type='submit'>"
            "<field var='muc#roomconfig_membersonly'><value>0</value></field></x></query>"))
        assert error_condition(open_room) == "not-acceptable"
        # A name Parley refuses is a clear error too.
        bad_name = await iq(bots["mei"], "set", room, (
            f"<query xmlns='{OWNER}'><x xmlns='jabber:x:data' type='submit'>"
            "<field var='muc#roomconfig_roomname'><value>x</value></field></x></query>"))
        assert error_condition(bad_name) == "bad-request"
        info = await native["mei"].call("group.get", {"conversationId": group})
        assert info["data"]["name"] == "Tea House"

        for bot in bots.values():
            await bot.stop()
        for session in native.values():
            await session.close()
    run(scenario())


def test_invitations_reach_the_invitee_who_joins_by_registering(server):
    accounts = {name: register_account(server, name) for name in ("mei", "bob", "ann", "carl")}
    tokens = {name: account["token"] for name, account in accounts.items() if name != "carl"}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        carl_native = await Session.open(server.port, accounts["carl"]["token"])
        group = await make_group(native["mei"], "Tea Club")
        room = f"group-{group}@conference.localhost"
        bots = {name: Bot(f"{name}@localhost") for name in ("mei", "bob", "ann")}
        for name, bot in bots.items():
            assert await bot.sign_in(server.xmpp_port)
        await join(bots["mei"], room, "mei")

        # Mediated: through the room, to Ann, who is no member and no friend.
        invite = bots["mei"].make_message(mto=room)
        invite.append(ET.fromstring(f"<x xmlns='http://jabber.org/protocol/muc#user'><invite to='ann@localhost'>"
                                    "<reason>come for tea</reason></invite></x>"))
        invite.send()
        got = await bots["ann"].next_message(predicate=lambda m: m.xml.find(f"{MUC_USER}x/{MUC_USER}invite") is not None)
        assert got["from"] == room
        invitation = got.xml.find(f"{MUC_USER}x/{MUC_USER}invite")
        assert invitation.get("from") == "mei@localhost" and invitation.findtext(f"{MUC_USER}reason") == "come for tea"

        # Told, not added: she registers with the room (group.join) and can then enter.
        status = await iq(bots["ann"], "get", room, "<query xmlns='jabber:iq:register'/>")
        assert status.xml.find("{jabber:iq:register}query/{jabber:iq:register}registered") is None
        registered = await iq(bots["ann"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert registered["type"] == "result"
        status = await iq(bots["ann"], "get", room, "<query xmlns='jabber:iq:register'/>")
        assert status.xml.find("{jabber:iq:register}query/{jabber:iq:register}registered") is not None
        await wait_event(native["mei"], lambda e: e["event"] == "message.new"
                         and (e["data"].get("system") or {}).get("type") == "member_joined")
        await bots["mei"].wait_presence(lambda p: p["from"] == f"{room}/ann" and p["type"] == "available")
        await join(bots["ann"], room, "ann")

        # Direct (XEP-0249): from Mei to Bob, naming the room.
        direct = bots["mei"].make_message(mto="bob@localhost")
        direct.append(ET.fromstring(f"<x xmlns='jabber:x:conference' jid='{room}' reason='tea time'/>"))
        direct.send()
        got = await bots["bob"].next_message(predicate=lambda m: m.xml.find("{jabber:x:conference}x") is not None)
        assert got["from"].bare == "mei@localhost"
        assert got.xml.find("{jabber:x:conference}x").get("jid") == room

        # Someone who blocked the inviter is not reached; a room the inviter is not in is refused.
        blocked = await carl_native.call("block.add", {"userId": accounts["mei"]["user"]["id"]})
        assert blocked["ok"], blocked
        invite = bots["mei"].make_message(mto=room)
        invite.append(ET.fromstring("<x xmlns='http://jabber.org/protocol/muc#user'><invite to='carl@localhost'/></x>"))
        invite.send()
        refused = await bots["mei"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "not-acceptable"
        elsewhere = bots["bob"].make_message(mto="ann@localhost")
        elsewhere.append(ET.fromstring(f"<x xmlns='jabber:x:conference' jid='{room}'/>"))
        elsewhere.send()
        refused = await bots["bob"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "not-acceptable"

        for bot in bots.values():
            await bot.stop()
        for session in [*native.values(), carl_native]:
            await session.close()
    run(scenario())

"""Group governance over XMPP, with slixmpp against a live server: affiliations and roles
mapped both ways onto a group's owner, admins, members, bans (outcasts) and mutes (visitors);
the join mode in the configuration form; mediated invitations that follow the invite rules;
a room's creator kicking and banning."""
import xml.etree.ElementTree as ET

from xmpp import (ADMIN, DATA, items, MUC_USER, OWNER, befriend, error_condition, iq, jabber_clients, join, make_group, native_sessions,
                  register, run, server, sign_out)  # noqa: F401  (server is a fixture)


def test_affiliations_and_roles_are_the_groups_roles_bans_and_mutes(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = await native_sessions(server, tokens)
        group = await make_group(native["mei"], "Tea Club", native["bob"], native["ann"])
        room = f"group-{group}@conference.localhost"
        bots = await jabber_clients(server, tokens)
        for name, bot in bots.items():
            await join(bot, room, name)

        # Mei (the owner) makes bob an admin with an affiliation: the group's role changes,
        # and every occupant sees bob as an admin and moderator.
        made = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='bob' affiliation='admin'/></query>")
        assert made["type"] == "result", made
        seen = await bots["ann"].wait_presence(lambda p: p["from"] == f"{room}/bob" and "admin" in str(p))
        assert seen.xml.find(f"{MUC_USER}x/{MUC_USER}item").get("role") == "moderator"
        members = await native["mei"].call("group.members", {"conversationId": group})
        assert {m["user"]["username"]: m["role"] for m in members["data"]["members"]} == {"mei": "owner", "bob": "admin", "ann": "member"}
        admins = await iq(bots["ann"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='admin'/></query>")
        assert items(admins) == [("bob", "admin", "moderator")]
        moderators = await iq(bots["ann"], "get", room, f"<query xmlns='{ADMIN}'><item role='moderator'/></query>")
        assert items(moderators) == [("bob", "admin", "moderator"), ("mei", "owner", "moderator")]
        # Ann is a member, not an admin: her attempt is refused and changes nothing.
        refused = await iq(bots["ann"], "set", room, f"<query xmlns='{ADMIN}'><item nick='ann' affiliation='admin'/></query>")
        assert error_condition(refused) == "forbidden"

        # Bob (an admin) takes ann's voice: she is muted natively, a visitor over XMPP.
        muted = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='ann' role='visitor'/></query>")
        assert muted["type"] == "result", muted
        visitors = await iq(bots["mei"], "get", room, f"<query xmlns='{ADMIN}'><item role='visitor'/></query>")
        assert items(visitors) == [("ann", "member", "visitor")]
        said = await native["ann"].call("message.send", {"conversationId": group, "clientId": "a1", "kind": "text", "text": "hi"})
        assert said["error"]["code"] == "muted"
        voiced = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='ann' role='participant'/></query>")
        assert voiced["type"] == "result", voiced
        said = await native["ann"].call("message.send", {"conversationId": group, "clientId": "a2", "kind": "text", "text": "hi"})
        assert said["ok"], said

        # An admin cannot ban the owner; bob bans ann with a reason: she is an outcast (301),
        # in the outcast list with the reason, and cannot come back by registering.
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='mei' affiliation='outcast'/></query>")
        assert refused["type"] == "error"
        banned = await iq(bots["bob"], "set", room, (f"<query xmlns='{ADMIN}'><item jid='ann@localhost' affiliation='outcast'>"
                                                     "<reason>spam</reason></item></query>"))
        assert banned["type"] == "result", banned
        gone = await bots["ann"].wait_presence(lambda p: p["from"] == f"{room}/ann" and p["type"] == "unavailable")
        assert "301" in str(gone) and gone.xml.find(f"{MUC_USER}x/{MUC_USER}item").get("affiliation") == "outcast"
        outcasts = await iq(bots["mei"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='outcast'/></query>")
        assert items(outcasts) == [("ann", "outcast", "none")]
        assert outcasts.xml.find(f"{{{ADMIN}}}query/{{{ADMIN}}}item/{{{ADMIN}}}reason").text == "spam"
        again = await iq(bots["ann"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert error_condition(again) == "forbidden"
        joined = await native["ann"].call("group.join", {"name": "Tea Club"})
        assert joined["error"]["code"] == "banned"
        # Affiliation none lifts the ban; she may join again.
        lifted = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item jid='ann@localhost' affiliation='none'/></query>")
        assert lifted["type"] == "result", lifted
        registered = await iq(bots["ann"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert registered["type"] == "result", registered

        # Mei takes bob's admin away with affiliation member.
        demoted = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='bob' affiliation='member'/></query>")
        assert demoted["type"] == "result"
        admins = await iq(bots["mei"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='admin'/></query>")
        assert items(admins) == []

        await sign_out(bots, native)
    run(scenario())


def test_join_mode_is_configured_and_mediated_invitations_follow_it(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann", "carl")}

    async def scenario():
        native = await native_sessions(server, tokens)
        group = await make_group(native["mei"], "Quiet Room", native["bob"])
        # Friends before the Jabber clients sign in (they answer subscriptions themselves).
        await befriend(native["bob"], native["ann"], "ann")
        room = f"group-{group}@conference.localhost"
        bots = await jabber_clients(server, tokens)
        await join(bots["mei"], room, "mei")
        await join(bots["bob"], room, "bob")

        # The form carries the join mode; bob (a member) may not change it, mei may.
        form = await iq(bots["mei"], "get", room, f"<query xmlns='{OWNER}'/>")
        fields = {f.get("var"): f.findtext(f"{DATA}value") for f in form.xml.iter(f"{DATA}field")}
        assert fields["parley#roomconfig_joinmode"] == "open" and fields["parley#roomconfig_showhistory"] == "0"
        submit = (f"<query xmlns='{OWNER}'><x xmlns='jabber:x:data' type='submit'>"
                  "<field var='parley#roomconfig_joinmode'><value>invite</value></field></x></query>")
        assert error_condition(await iq(bots["bob"], "set", room, submit)) == "forbidden"
        assert (await iq(bots["mei"], "set", room, submit))["type"] == "result"
        info = await native["mei"].call("group.get", {"conversationId": group})
        assert info["data"]["joinMode"] == "invite"

        # Invite-only: carl, uninvited, cannot register.
        refused = await iq(bots["carl"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert error_condition(refused) == "registration-required"

        # Bob invites his friend ann through the room: the invitation lets her in.
        invite = bots["bob"].make_message(mto=room)
        invite.append(ET.fromstring("<x xmlns='http://jabber.org/protocol/muc#user'><invite to='ann@localhost'/></x>"))
        invite.send()
        got = await bots["ann"].next_message(predicate=lambda m: m.xml.find(f"{MUC_USER}x/{MUC_USER}invite") is not None)
        assert got["from"] == room
        registered = await iq(bots["ann"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert registered["type"] == "result", registered
        await join(bots["ann"], room, "ann")

        # Bob invites carl, who is no friend: refused, and carl still cannot join.
        invite = bots["bob"].make_message(mto=room)
        invite.append(ET.fromstring("<x xmlns='http://jabber.org/protocol/muc#user'><invite to='carl@localhost'/></x>"))
        invite.send()
        refused = await bots["bob"].next_message(predicate=lambda m: m["type"] == "error")
        assert error_condition(refused) == "forbidden"
        refused = await iq(bots["carl"], "set", room, "<query xmlns='jabber:iq:register'/>")
        assert error_condition(refused) == "registration-required"

        await sign_out(bots, native)
    run(scenario())


def test_a_rooms_creator_kicks_and_bans(server):
    tokens = {name: register(server, name) for name in ("mei", "bob")}

    async def scenario():
        native = await native_sessions(server, tokens)
        bots = await jabber_clients(server, tokens)
        room = "lounge@conference.localhost"
        await join(bots["mei"], room, "mei")
        await join(bots["bob"], room, "bob")
        # Bob did not create the room: no kicking.
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='mei' role='none'/></query>")
        assert error_condition(refused) == "forbidden"
        banned = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='bob' affiliation='outcast'/></query>")
        assert banned["type"] == "result", banned
        gone = await bots["bob"].wait_presence(lambda p: p["from"] == f"{room}/bob" and p["type"] == "unavailable")
        assert "301" in str(gone)
        bots["bob"].presences.clear()
        bots["bob"].send_presence(pto=f"{room}/bob")
        error = await bots["bob"].wait_presence(lambda p: p["type"] == "error")
        assert error["error"]["condition"] == "forbidden"
        entered = await native["bob"].call("room.enter", {"name": "lounge"})
        assert entered["error"]["code"] == "banned"
        outcasts = await iq(bots["mei"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='outcast'/></query>")
        assert items(outcasts) == [("bob", "outcast", "none")]

        await sign_out(bots, native)
    run(scenario())

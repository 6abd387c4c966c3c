"""Message archive management (XEP-0313) with slixmpp against a live server: the whole 1:1
archive of a user without a contact, filtered by time, paged forwards and backwards with
result set management (first, last, count, complete), the archive of a group on its room
JID, and clear errors for unknown markers, bad dates and rooms that are not the user's."""
import xml.etree.ElementTree as ET

from client import Session
from xmpp import Bot, befriend, error_condition, register, run, server

MAM = "urn:xmpp:mam:2"
RSM = "{http://jabber.org/protocol/rsm}"


def stamp(milliseconds: int) -> str:
    import datetime
    moment = datetime.datetime.fromtimestamp(milliseconds / 1000, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{milliseconds % 1000:03d}Z"


async def query(bot: Bot, to: str | None = None, fields: dict | None = None, page: str = "", queryid: str = "q"):
    """One archive query; returns (the fin element or the error condition, [(id, from, body)])."""
    from slixmpp.exceptions import IqError
    iq = bot.make_iq_set()
    if to:
        iq["to"] = to
    form = "".join(f"<field var='{name}'><value>{value}</value></field>" for name, value in (fields or {}).items())
    iq.append(ET.fromstring(
        f"<query xmlns='{MAM}' queryid='{queryid}'><x xmlns='jabber:x:data' type='submit'>"
        f"<field var='FORM_TYPE' type='hidden'><value>{MAM}</value></field>{form}</x>"
        f"<set xmlns='http://jabber.org/protocol/rsm'>{page}</set></query>"))
    try:
        result = await iq.send(timeout=10)
    except IqError as error:
        return error_condition(error.iq), []
    found = []
    # The results come before the iq result, on the same stream: all are queued by now.
    while not bot.messages.empty():
        message = bot.messages.get_nowait()
        result_element = message.xml.find(f"{{{MAM}}}result")
        if result_element is None or result_element.get("queryid") != queryid:
            continue
        inner = result_element.find("{urn:xmpp:forward:0}forwarded/{jabber:client}message")
        found.append((result_element.get("id"), inner.get("from"), inner.findtext("{jabber:client}body")))
    return result.xml.find(f"{{{MAM}}}fin"), found


def paging(fin) -> tuple[str, str, int, str]:
    s = fin.find(f"{RSM}set")
    return s.findtext(f"{RSM}first"), s.findtext(f"{RSM}last"), int(s.findtext(f"{RSM}count")), fin.get("complete")


def test_the_whole_archive_by_time_and_paged_both_ways(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        with_bob = await befriend(native["mei"], native["bob"], "bob")
        with_ann = await befriend(native["mei"], native["ann"], "ann")
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)

        # Six messages in two conversations, interleaved; the friend_added notices are not
        # in the archive.
        plan = [("bob", with_bob, "b0"), ("ann", with_ann, "n0"), ("mei", with_bob, "m0"),
                ("bob", with_bob, "b1"), ("ann", with_ann, "n1"), ("mei", with_ann, "m1")]
        sent = []
        for index, (who, conversation, text) in enumerate(plan):
            reply = await native[who].call("message.send", {"conversationId": conversation, "clientId": f"c{index}",
                                                             "kind": "text", "text": text})
            assert reply["ok"], reply
            sent.append(reply["data"])
        # The live stanza-id is the archive id.
        live = await mei.next_message(predicate=lambda m: m["body"] == "b0")
        assert live.xml.find("{urn:xmpp:sid:0}stanza-id").get("id") == sent[0]["id"]
        await mei.next_message(predicate=lambda m: m["body"] == "n1")
        while not mei.messages.empty():
            mei.messages.get_nowait()
        order = [m["text"] for m in sorted(sent, key=lambda m: (m["createdAt"], int(m["id"])))]

        # Without a contact: everything, oldest first, with who wrote to whom.
        fin, found = await query(mei)
        assert [body for _, _, body in found] == order
        assert paging(fin)[2] == 6 and fin.get("complete") == "true"
        by_body = {body: sender for _, sender, body in found}
        assert by_body["b0"] == "bob@localhost" and by_body["m1"] == "mei@localhost"

        # Forwards, two at a time, from the start.
        pages, after = [], None
        while True:
            fin, found = await query(mei, page="<max>2</max>" + (f"<after>{after}</after>" if after else ""))
            pages.append([body for _, _, body in found])
            first, last, count, complete = paging(fin)
            assert count == 6 and first == found[0][0] and last == found[-1][0]
            after = last
            if complete == "true":
                break
            assert len(pages) < 5
        assert pages == [order[0:2], order[2:4], order[4:6]]

        # Backwards from the end.
        pages, before = [], ""
        while True:
            fin, found = await query(mei, page=f"<max>4</max><before>{before}</before>")
            pages.append([body for _, _, body in found])
            first, _, _, complete = paging(fin)
            before = first
            if complete == "true":
                break
            assert len(pages) < 5
        assert pages == [order[2:6], order[0:2]]

        # By time: both ends inclusive.
        start, end = sent[1]["createdAt"], sent[4]["createdAt"]
        fin, found = await query(mei, fields={"start": stamp(start), "end": stamp(end)})
        expected = [m["text"] for m in sorted(sent, key=lambda m: (m["createdAt"], int(m["id"]))) if start <= m["createdAt"] <= end]
        assert [body for _, _, body in found] == expected and paging(fin)[2] == len(expected)
        fin, found = await query(mei, fields={"start": stamp(sent[-1]["createdAt"] + 60_000)})
        assert found == [] and paging(fin)[2] == 0 and fin.get("complete") == "true"

        # One contact, as before.
        fin, found = await query(mei, fields={"with": "ann@localhost"})
        assert [body for _, _, body in found] == [t for t in order if t in ("n0", "n1", "m1")]

        # Clear errors: a marker that is not in this archive, a date that is not one, a start
        # after the end.
        condition, _ = await query(mei, page="<after>999999</after>")
        assert condition == "item-not-found"
        condition, _ = await query(mei, fields={"start": "yesterday"})
        assert condition == "bad-request"
        condition, _ = await query(mei, fields={"start": stamp(end), "end": stamp(start - 1)})
        assert condition == "bad-request"
        # Bob cannot page from a message of Mei's conversation with Ann.
        bob = Bot("bob@localhost")
        assert await bob.sign_in(server.xmpp_port)
        condition, _ = await query(bob, page=f"<after>{sent[1]['id']}</after>")
        assert condition == "item-not-found"

        await bob.stop()
        await mei.stop()
        for session in native.values():
            await session.close()
    run(scenario())


def test_a_groups_archive_on_its_room_jid_for_members_only(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        created = await native["mei"].call("group.create", {"name": "Tea Club"})
        group = created["data"]["id"]
        assert (await native["bob"].call("group.join", {"name": "Tea Club"}))["ok"]
        for index, (who, text) in enumerate([("mei", "g0"), ("bob", "g1"), ("mei", "g2")]):
            reply = await native[who].call("message.send", {"conversationId": group, "clientId": f"g{index}", "kind": "text", "text": text})
            assert reply["ok"], reply
        room = f"group-{group}@conference.localhost"
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        info = await mei.plugin["xep_0030"].get_info(jid=room, timeout=10)
        assert MAM in info["disco_info"]["features"]

        # Without joining: the group's messages (not its notices), from the members' room JIDs.
        fin, found = await query(mei, to=room)
        assert [(sender, body) for _, sender, body in found] == [(f"{room}/mei", "g0"), (f"{room}/bob", "g1"), (f"{room}/mei", "g2")]
        assert paging(fin)[2] == 3 and fin.get("complete") == "true"
        fin, found = await query(mei, to=room, page="<max>1</max><before/>")
        assert [body for _, _, body in found] == ["g2"] and fin.get("complete") == "false"

        # Ann is no member: forbidden.
        ann = Bot("ann@localhost")
        assert await ann.sign_in(server.xmpp_port)
        condition, _ = await query(ann, to=room)
        assert condition == "forbidden"
        await ann.stop()
        await mei.stop()
        for session in native.values():
            await session.close()
    run(scenario())


def test_withtext_searches_the_archive_in_english_and_chinese_with_the_same_rights(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "ann")}

    async def scenario():
        native = {name: await Session.open(server.port, token) for name, token in tokens.items()}
        with_bob = await befriend(native["mei"], native["bob"], "bob")
        plan = [("bob", "tea at five o'clock"), ("mei", "我们明天去喝茶吧"), ("bob", "coffee, maybe?"),
                ("mei", "茶还是咖啡"), ("bob", "tea it is")]
        for index, (who, text) in enumerate(plan):
            reply = await native[who].call("message.send", {"conversationId": with_bob, "clientId": f"t{index}", "kind": "text", "text": text})
            assert reply["ok"], reply
        recalled = await native["bob"].call("message.send", {"conversationId": with_bob, "clientId": "t-gone", "kind": "text",
                                                             "text": "secret tea plan"})
        gone = await native["bob"].call("message.recall", {"conversationId": with_bob, "messageId": recalled["data"]["id"],
                                                           "clientId": "r-gone"})
        assert gone["ok"], gone
        created = await native["bob"].call("group.create", {"name": "Tea House"})
        group = created["data"]["id"]
        reply = await native["bob"].call("message.send", {"conversationId": group, "clientId": "gt", "kind": "text", "text": "tea for the group 茶会"})
        assert reply["ok"], reply

        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        while not mei.messages.empty():
            mei.messages.get_nowait()
        # The form names the field.
        form = mei.make_iq_get()
        form.append(ET.fromstring(f"<query xmlns='{MAM}'/>"))
        answer = await form.send(timeout=10)
        fields = [f.get("var") for f in answer.xml.iter("{jabber:x:data}field")]
        assert {"FORM_TYPE", "with", "start", "end", "withtext"} <= set(fields), fields

        # English words, oldest first; a recalled message never matches; the group is not in
        # the 1:1 archive.
        fin, found = await query(mei, fields={"withtext": "tea"})
        assert [body for _, _, body in found] == ["tea at five o'clock", "tea it is"], found
        assert fin.get("complete") == "true"
        # Chinese, with the contact named.
        fin, found = await query(mei, fields={"with": "bob@localhost", "withtext": "茶"}, queryid="zh")
        assert [body for _, _, body in found] == ["我们明天去喝茶吧", "茶还是咖啡"], found
        fin, found = await query(mei, fields={"withtext": "喝茶"}, queryid="zh2")
        assert [body for _, _, body in found] == ["我们明天去喝茶吧"], found
        # Paged backwards: the newest hit, then the one before it.
        fin, found = await query(mei, fields={"withtext": "tea"}, page="<max>1</max><before/>", queryid="p1")
        assert [body for _, _, body in found] == ["tea it is"] and fin.get("complete") == "false"
        first = paging(fin)[0]
        fin, found = await query(mei, fields={"withtext": "tea"}, page=f"<max>1</max><before>{first}</before>", queryid="p2")
        assert [body for _, _, body in found] == ["tea at five o'clock"]

        # A group's archive is searched on its room JID, by members only.
        room = f"group-{group}@conference.localhost"
        condition, _ = await query(mei, to=room, fields={"withtext": "茶会"}, queryid="g0")
        assert condition == "forbidden"
        assert (await native["mei"].call("group.join", {"name": "Tea House"}))["ok"]
        fin, found = await query(mei, to=room, fields={"withtext": "茶会"}, queryid="g1")
        assert [(sender, body) for _, sender, body in found] == [(f"{room}/bob", "tea for the group 茶会")], found
        # An empty query is refused as search refuses it.
        condition, _ = await query(mei, fields={"withtext": "  "}, queryid="e")
        assert condition == "bad-request"
        await mei.stop()
        for session in native.values():
            await session.close()
    run(scenario())

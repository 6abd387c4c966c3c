"""A Parley room's admins over XMPP (muc#admin), with slixmpp: the creator is `owner`, makes
an occupant `admin`, who then kicks like the creator but may not act on the creator; the
`owner` and `admin` lists show them; `member` takes the role away again."""
from xmpp import Bot, error_condition, register, run, server  # noqa: F401  (the fixture)
from xmpp import ADMIN, iq, items, join


def test_a_rooms_creator_appoints_admins_who_kick(server):
    tokens = {name: register(server, name) for name in ("mei", "bob", "carl")}

    async def scenario():
        bots = {name: Bot(f"{name}@localhost") for name in tokens}
        for bot in bots.values():
            assert await bot.sign_in(server.xmpp_port)
        room = "terrace@conference.localhost"
        for name, bot in bots.items():
            await join(bot, room, name)

        # Only the creator appoints.
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='carl' affiliation='admin'/></query>")
        assert error_condition(refused) == "forbidden"
        made = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='bob' affiliation='admin'/></query>")
        assert made["type"] == "result", made
        owners = await iq(bots["carl"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='owner'/></query>")
        assert items(owners) == [("mei", "owner", "moderator")]
        admins = await iq(bots["carl"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='admin'/></query>")
        assert items(admins) == [("bob", "admin", "moderator")]

        # The admin kicks an occupant, but not the creator.
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='mei' role='none'/></query>")
        assert error_condition(refused) == "forbidden"
        kicked = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='carl' role='none'/></query>")
        assert kicked["type"] == "result", kicked
        gone = await bots["carl"].wait_presence(lambda p: p["from"] == f"{room}/carl" and p["type"] == "unavailable")
        assert "307" in str(gone)

        # Taken away: bob is an occupant again, and his kick is refused.
        demoted = await iq(bots["mei"], "set", room, f"<query xmlns='{ADMIN}'><item nick='bob' affiliation='member'/></query>")
        assert demoted["type"] == "result", demoted
        admins = await iq(bots["mei"], "get", room, f"<query xmlns='{ADMIN}'><item affiliation='admin'/></query>")
        assert items(admins) == []
        bots["carl"].presences.clear()
        await join(bots["carl"], room, "carl")
        refused = await iq(bots["bob"], "set", room, f"<query xmlns='{ADMIN}'><item nick='carl' role='none'/></query>")
        assert error_condition(refused) == "forbidden"

        for bot in bots.values():
            await bot.stop()
    run(scenario())

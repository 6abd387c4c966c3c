"""Moderation in `parley chat` (tmux against a live server): the owner mutes and bans by
username from the group's dialogue, the notices show in the reader's language, the other side
is refused with the matching codes, and /invite makes a link that /joinlink uses."""
import asyncio
import re

from api import sign_up
from client import Session
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


def test_owner_moderates_from_the_terminal(parley):
    server = parley("--password-cost", "minimum")
    alice = sign_up(server.url, "alice")
    tokens = {name: sign_up(server.url, name)["token"] for name in ("bob", "cyd")}
    tmux = chat(server.url, "--lang", "zh", width=120, height=34, prefix="parley-chat-governance-")

    async def scenario():
        owner = await Session.open(server.port, alice["token"])
        bob = await Session.open(server.port, tokens["bob"])
        cyd = await Session.open(server.port, tokens["cyd"])
        group = (await owner.call("group.create", {"name": "Tea Club"}))["data"]["id"]
        assert (await bob.call("group.join", {"name": "Tea Club"}))["ok"]

        await tmux.sign_in("alice")
        await tmux.wait_for("Tea Club")
        tmux.keys("Enter")
        await tmux.wait_for("bob 加入了群聊")

        # Mute bob for five minutes: the notice shows, and bob is refused with `muted`.
        tmux.text("/mute bob 5")
        tmux.keys("Enter")
        await tmux.wait_for("你将 bob 禁言")
        said = await bob.call("message.send", {"conversationId": group, "clientId": "b1", "kind": "text", "text": "hi"})
        assert said["error"]["code"] == "muted", said

        # Ban him with a reason: removed, barred, the reason kept.
        tmux.text("/ban bob spam")
        tmux.keys("Enter")
        await tmux.wait_for("你将 bob 加入了黑名单")
        joined = await bob.call("group.join", {"name": "Tea Club"})
        assert joined["error"]["code"] == "banned", joined
        bans = await owner.call("group.bans", {"conversationId": group})
        assert [(b["user"]["username"], b.get("reason")) for b in bans["data"]["bans"]] == [("bob", "spam")]

        # Invite-only: cyd cannot join by name and needs the link.
        assert (await owner.call("group.update", {"conversationId": group, "joinMode": "invite"}))["ok"]
        refused = await cyd.call("group.join", {"name": "Tea Club"})
        assert refused["error"]["code"] == "invite_only", refused

        # A link: /invite makes it, cyd joins through it.
        tmux.text("/invite")
        tmux.keys("Enter")
        screen = await tmux.wait_for("邀请链接")
        token = re.search(r"邀请链接：(\S+)（", screen).group(1)
        entered = await cyd.call("group.invite.join", {"token": token})
        assert entered["ok"] and entered["data"]["memberCount"] == 2, entered
        await tmux.wait_for("cyd 加入了群聊")

        for session in (owner, bob, cyd):
            await session.close()
        tmux.quit_chat()

    play(tmux, scenario(), timeout=120)


def test_room_creator_moderates_from_the_terminal(parley):
    """A room's creator appoints an admin and lists the admins, kicks, bans (the banned user is
    refused at the door), lists the bans, unbans and takes the role away, all by slash command."""
    server = parley("--password-cost", "minimum")
    alice = sign_up(server.url, "alice")
    people = {name: sign_up(server.url, name) for name in ("bob", "cyd")}
    tmux = chat(server.url, "--lang", "en", width=140, height=34, prefix="parley-chat-room-admins-")

    async def scenario():
        bob = await Session.open(server.port, people["bob"]["token"])
        cyd = await Session.open(server.port, people["cyd"]["token"])
        await tmux.sign_in("alice")
        await tmux.wait_for("Chats")
        tmux.keys("R")
        await tmux.wait_for("New room (name):")
        tmux.text("Tea Room")
        tmux.keys("Enter")
        await tmux.wait_for("created the room")
        room = (await bob.call("room.enter", {"name": "Tea Room"}))["data"]["room"]
        assert room["ownerId"] == alice["user"]["id"], room
        assert (await cyd.call("room.enter", {"name": "Tea Room"}))["ok"]
        await tmux.wait_for("bob entered the room", "cyd entered the room")

        # The creator makes bob an admin and lists the admins.
        tmux.text("/admin bob")
        tmux.keys("Enter")
        await tmux.wait_for("You made bob an admin")
        tmux.text("/admins")
        tmux.keys("Enter")
        await tmux.wait_for("Creator: alice · Admins: bob")

        # A kick puts cyd out (they may come back); a ban bars them, with the reason kept.
        tmux.text("/kick cyd")
        tmux.keys("Enter")
        await tmux.wait_for("You removed cyd from the room")
        assert (await cyd.call("room.enter", {"name": "Tea Room"}))["ok"]
        tmux.text("/ban cyd flooding")
        tmux.keys("Enter")
        await tmux.wait_for("You banned cyd")
        refused = await cyd.call("room.enter", {"name": "Tea Room"})
        assert refused["error"]["code"] == "banned", refused
        tmux.text("/bans")
        tmux.keys("Enter")
        await tmux.wait_for("Banned: cyd (flooding)")

        # Unbanned, cyd enters again; the role taken away, bob may not kick.
        tmux.text("/unban cyd")
        tmux.keys("Enter")
        await tmux.wait_for("You lifted the ban on cyd")
        for _ in range(100):
            entered = await cyd.call("room.enter", {"name": "Tea Room"})
            if entered["ok"]:
                break
            assert entered["error"]["code"] == "banned", entered
            await asyncio.sleep(0.1)
        assert entered["ok"], entered
        tmux.text("/unadmin bob")
        tmux.keys("Enter")
        await tmux.wait_for("You removed bob as admin")
        tmux.text("/admins")
        tmux.keys("Enter")
        await tmux.wait_for("Creator: alice · Admins: none")
        kicked = await bob.call("room.kick", {"conversationId": room["id"], "userId": people["cyd"]["user"]["id"]})
        assert kicked["error"]["code"] == "not_admin", kicked

        for session in (bob, cyd):
            await session.close()
        tmux.quit_chat()

    play(tmux, scenario(), timeout=150)

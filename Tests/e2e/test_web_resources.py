"""A friend's resources in the web client: the dialogue's header and the friend's profile list the
devices and Jabber clients they are online on, each with its show (and status on the profile),
live as they change (`presence.resource`), in English and Chinese."""
import asyncio
import time

from client import Session
from web import PHONE, WEB_ROOT, register, ws
from xmpp import RawStream


def answer(port: int, token: str, op: str, data: dict) -> dict:
    """One call's whole reply, refusals included."""
    async def run():
        session = await Session.open(port, token)
        try:
            return await session.call(op, data)
        finally:
            await session.close()
    return asyncio.run(asyncio.wait_for(run(), 30))


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def test_a_friends_jabber_client_shows_in_the_header_and_on_the_profile(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, xmpp=True)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    # Ben is online on a Jabber client, "do not disturb".
    gajim = RawStream(server.xmpp_port)
    gajim.sign_in("ben", resource="gajim", available=False)
    gajim.send("<presence><show>dnd</show><status>in a meeting</status></presence>")
    listed = {"resources": []}
    for _ in range(50):
        [listed] = ws(server.port, ann["token"], ("user.resources", {"userId": ben["user"]["id"]}))
        if listed["resources"]:
            break
        time.sleep(0.1)
    assert [(r["resource"], r["client"], r.get("show"), r.get("status")) for r in listed["resources"]] == \
        [("gajim", "xmpp", "dnd", "in a meeting")], listed

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    browser.wait(".topbar-subtitle", text="gajim (do not disturb)")
    browser.screenshot("resources-header")
    browser.route(f"#/chats/u/{ben['user']['id']}")
    browser.wait(".resource-item", text="gajim (Jabber, do not disturb: in a meeting)")

    # The client changes its show: the profile follows live.
    gajim.send("<presence><show>away</show></presence>")
    browser.wait(".resource-item", text="gajim (Jabber, away)")
    # It goes: no resource is left to list, and Ben is offline.
    gajim.send("</stream:stream>")
    gajim.close()
    browser.wait(".presence-label", text="Offline")
    assert browser.count(".resource-item") == 0
    assert browser.console_errors() == []

    # A stranger may not ask.
    cal = register(server.url, "cal")
    refused = answer(server.port, cal["token"], "user.resources", {"userId": ben["user"]["id"]})
    assert not refused["ok"] and refused["error"]["code"] == "not_friends", refused


def test_resources_in_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, xmpp=True)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    gajim = RawStream(server.xmpp_port)
    gajim.sign_in("ben", resource="gajim", available=False)
    gajim.send("<presence><show>dnd</show></presence>")
    browser = browsers(server.url, size=PHONE, language="zh-CN")
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".topbar-subtitle", text="gajim (请勿打扰)")
    browser.route(f"#/chats/u/{ben['user']['id']}")
    browser.wait(".kv-label", text="在线设备")
    browser.wait(".resource-item", text="gajim (Jabber, 请勿打扰)")
    gajim.close()

"""A friend's resources in the web client: the dialogue's header and the friend's profile list the
devices and Jabber clients they are online on, each with its show (and status on the profile),
live as they change (`presence.resource`), in English and Chinese."""
import asyncio
import time

from api import call
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


def sign_in_named_device(server, browsers, watcher: dict, user: dict, device_name: str):
    """`user` signs in with a password under `device_name` and opens the web client (a phone);
    the browser, and the one resource `watcher` then sees for `user`."""
    login = call(server.url, "POST", "/v1/auth/login", {"username": user["user"]["username"], "password": "password123",
                                                        "deviceName": device_name})
    assert login.status == 200, login.body
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token({"token": login.json["token"], "user": user["user"]})
    listed = {"resources": []}
    deadline = time.monotonic() + 10
    while not listed["resources"] and time.monotonic() < deadline:
        [listed] = ws(server.port, watcher["token"], ("user.resources", {"userId": user["user"]["id"]}))
    [device] = listed["resources"]
    return browser, device


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


def test_a_friends_device_reads_as_its_name_not_its_jabber_resource(parley, browsers):
    """Ben's browser is a native device: its resource is "Chrome on Linux.<tag>" on the wire
    (and to Jabber contacts), and the header and profile read "Chrome on Linux" in English,
    "Linux 上的 Chrome" in Chinese; his own devices list reads the same."""
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, xmpp=True)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    bens, device = sign_in_named_device(server, browsers, ann, ben, "Chrome on Linux")
    assert device["client"] == "parley" and device["resource"].startswith("Chrome on Linux."), device

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    subtitle = browser.wait(".topbar-subtitle", text="Chrome on Linux").text
    assert device["resource"] not in subtitle
    browser.route(f"#/chats/u/{ben['user']['id']}")
    assert browser.wait(".resource-item", text="Chrome on Linux").text == "Chrome on Linux (Parley)"
    browser.screenshot("resources-device-name")

    zh = browsers(server.url, size=PHONE, language="zh-CN")
    zh.sign_in_with_token(ann, route=f"#/chats/u/{ben['user']['id']}")
    assert zh.wait(".resource-item", text="Linux 上的 Chrome").text == "Linux 上的 Chrome (Parley)"
    bens_zh = browsers(server.url, size=PHONE, language="zh-CN")
    bens_zh.sign_in_with_token(ben, route="#/me")
    bens_zh.wait_until(lambda: "Linux 上的 Chrome" in bens_zh.wait(".device-list").text, 10, "the device named in Chinese")
    assert bens.console_errors() == [] and browser.console_errors() == [] and zh.console_errors() == []


def test_a_typed_device_name_keeps_its_punctuation_and_is_not_reworded(parley, browsers):
    # "Bob's iPhone (2)" stays that on the wire and for Jabber contacts (a resource may hold
    # it) and reads as typed, in Chinese too: not "Bob s iPhone 2", not reworded as "X on Y".
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, xmpp=True)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    typed = "Bob's iPhone (2) on holiday"
    bens, device = sign_in_named_device(server, browsers, ann, ben, typed)
    assert device["resource"].startswith(typed + "."), device
    for language in ("en-US", "zh-CN"):
        browser = browsers(server.url, size=PHONE, language=language)
        browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
        subtitle = browser.wait(".topbar-subtitle", text=typed).text
        assert "上的" not in subtitle, subtitle
        browser.route(f"#/chats/u/{ben['user']['id']}")
        assert browser.wait(".resource-item", text=typed).text.startswith(typed + " (")

"""Last seen in the web client: a friend who went offline shows "last seen …" under the
dialogue's header and on their profile (en and zh), and nothing but "Offline" once they show
it to nobody. The server keeps the time when their last connection closed, to the minute."""
import time

from web import PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def last_seen(server, viewer: dict, user: dict) -> dict:
    """`user.lastSeen` once the server has written it (a sign-out is recorded after the
    presence settle time), within 15 s."""
    deadline = time.monotonic() + 15
    while True:
        [seen] = ws(server.port, viewer["token"], ("user.lastSeen", {"userId": user["user"]["id"]}))
        if "lastSeenAt" in seen or time.monotonic() > deadline:
            return seen
        time.sleep(0.2)


def test_last_seen_under_the_header_and_on_the_profile_by_privacy(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    # Ben's connections (friend.accept above) came and went: his last seen is kept.
    conversation = befriend(server, ann, ben)
    seen = last_seen(server, ann, ben)
    assert seen["online"] is False and seen["lastSeenAt"] % 60000 == 0, seen

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    browser.wait(".topbar-subtitle", text="last seen just now")
    browser.screenshot("last-seen-header")
    browser.route(f"#/chats/u/{ben['user']['id']}")
    browser.wait(".kv-data", text="last seen just now")

    # The kept time is the start of its minute: the time since counts from the minute's end,
    # so someone who left in the last seconds of a minute is still "just now" after it.
    minute = 60_000
    start = seen["lastSeenAt"]
    labels = browser.driver.execute_async_script("""
        const [start, minute, done] = arguments;
        import('/js/lastseen.js').then((m) => done([
          m.relative(start, start + minute + 50_000),
          m.relative(start, start + 2 * minute + 10_000),
          m.relative(start, start + 4 * minute),
        ])).catch((error) => done(String(error)));""", start, minute)
    assert labels == ["last seen just now", "last seen 1 min ago", "last seen 3 min ago"], labels

    # Ben shows it to nobody: the header says only Offline, the profile has no row.
    [saved] = ws(server.port, ben["token"], ("privacy.set", {"readReceipts": True, "typing": True, "lastSeen": "nobody"}))
    assert saved["lastSeen"] == "nobody"
    [hidden] = ws(server.port, ann["token"], ("user.lastSeen", {"userId": ben["user"]["id"]}))
    assert hidden == {"userId": ben["user"]["id"]}
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".topbar-subtitle", text="Offline")
    assert browser.console_errors() == []


def test_last_seen_in_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    assert "lastSeenAt" in last_seen(server, ann, ben)
    browser = browsers(server.url, size=PHONE, language="zh-CN")
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".topbar-subtitle", text="刚刚在线")
    browser.screenshot("last-seen-header-zh")

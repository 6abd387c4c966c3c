"""The installable web app in headless Chromium: the manifest and its icons, the service
worker (registered, caching the app so it opens with the server stopped, the saved sessions
list under the connection banner), a push delivered through the DevTools protocol shown as
a notification for its conversation, the notification settings and mute."""
import json
import pathlib
import re
import struct
import time

from api import call
from web import DESKTOP, PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    [friends] = ws(server.port, a["token"], ("friend.list", {}))
    return friends["friends"][0]["conversationId"]


def test_the_service_worker_keeps_every_file_of_the_app():
    """sw.js lists the app's files to keep for offline use: none may be missing."""
    root = pathlib.Path(WEB_ROOT)
    source = (root / "sw.js").read_text()
    listed = set(re.findall(r"'([^']+)'", source[source.index("const SHELL"):source.index("];")]))
    files = {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file() and path.name != "sw.js"}
    assert files - listed == set(), "files missing from sw.js SHELL"
    assert listed - files - {"./"} == set(), "sw.js lists files that do not exist"


def test_manifest_and_icons(parley):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    reply = call(server.url, "GET", "/manifest.webmanifest")
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("application/manifest+json")
    manifest = reply.json
    assert manifest["name"] == "Parley" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = set()
    for entry in manifest["icons"]:
        icon = call(server.url, "GET", "/" + entry["src"])
        assert icon.status == 200, entry
        if entry["type"] == "image/png":
            assert icon.body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", icon.body[16:24])
            assert f"{width}x{height}" == entry["sizes"]
            sizes.add(width)
    assert {192, 512} <= sizes
    assert any(entry.get("purpose") == "maskable" for entry in manifest["icons"])


def wait_for_worker(browser):
    """Waits until the page is controlled by the service worker (after a reload)."""
    scope = browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then((r) => done(r.scope)).catch((e) => done('error ' + e));")
    assert scope.startswith("http://"), scope
    browser.driver.refresh()
    browser.wait_until(lambda: browser.js("return !!navigator.serviceWorker.controller"), 10, "the page controlled by the worker")
    return scope


def test_offline_shell_push_notification_settings_and_mute(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben", nickname="Ben 🌿")
    conversation = befriend(server, ann, ben)
    ws(server.port, ben["token"], ("message.send", {"conversationId": conversation, "clientId": "c1", "kind": "text", "text": "tea at five?"}))
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.wait(".row", text="Ben 🌿")
    scope = wait_for_worker(browser)
    browser.wait(".row", text="Ben 🌿")
    # The manifest as Chromium reads it: no errors.
    manifest = browser.driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].endswith("/manifest.webmanifest")

    # ---- Mute from the conversation's details; the sessions list shows it. ----
    browser.route(f"#/chats/c/{conversation}/info")
    browser.click("[data-action=mute]")
    browser.wait("[data-action=mute][aria-pressed=true]")
    [listed] = ws(server.port, ann["token"], ("conversation.list", {}))
    assert listed["conversations"][0]["mute"] == {"mentionsOnly": False}
    browser.route("#/chats")
    browser.wait(".row .row-muted")
    browser.screenshot("push-muted-sessions-phone")

    # ---- The notification settings on the profile page. ----
    browser.route("#/me")
    browser.wait("#notifications-switch")
    assert browser.js("return document.getElementById('notifications-switch').checked") is False
    browser.click("[data-preview=sender]")
    browser.wait("[data-preview=sender][aria-checked=true]")
    assert call(server.url, "GET", "/v1/me", token=ann["token"]).json["notificationPreview"] == "sender"
    browser.shoot_both("push-profile-settings")

    # ---- A push delivered through DevTools shows a notification for its conversation. ----
    origin = server.url
    browser.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})
    browser.driver.execute_cdp_cmd("ServiceWorker.enable", {})
    payload = json.dumps({"type": "message", "conversationId": conversation, "seq": 3, "sender": "Ben 🌿",
                          "preview": "see you there", "count": 2, "unread": 2, "totalUnread": 2})
    def notifications():
        return browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.ready.then((r) => r.getNotifications())"
            ".then((list) => done(list.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}))))"
            ".catch((e) => done([{error: String(e)}]));")
    def deliver() -> bool:
        # The DevTools protocol names the registration by id; a new profile's first is small.
        for registration in range(0, 8):
            try:
                browser.driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                               {"origin": origin, "registrationId": str(registration), "data": payload})
                return True
            except Exception:
                continue
        return False

    # A worker the browser has just started may miss a push delivered through DevTools:
    # delivered again, a few times at most (the tag makes a second copy replace the first).
    for attempt in range(4):
        assert deliver(), "no service worker registration took the push"
        try:
            browser.wait_until(lambda: len(notifications()) == 1, 4, "the notification")
            break
        except Exception:
            if attempt == 3:
                raise
    [shown] = notifications()
    assert shown["title"] == "Ben 🌿"
    assert "see you there" in shown["body"] and "2 new messages" in shown["body"]
    assert shown["tag"] == f"conversation-{conversation}"
    assert shown["data"]["conversationId"] == conversation

    # ---- A click on it opens its conversation. Headless Chromium has no notification
    # centre to click in, so the click event is dispatched in the worker itself, through
    # the DevTools protocol: the worker's own `notificationclick` handler runs. ----
    browser.route("#/chats")
    browser.wait(".row", text="Ben 🌿")
    targets = browser.driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    worker = next(target for target in targets if target["type"] == "service_worker")
    session = browser.driver.execute_cdp_cmd("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": False})["sessionId"]
    click = ("self.registration.getNotifications().then(([shown]) =>"
             " self.dispatchEvent(new NotificationEvent('notificationclick', {notification: shown})))")
    browser.driver.execute_cdp_cmd("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
        {"id": 1, "method": "Runtime.evaluate", "params": {"expression": click}})})
    browser.wait_until(lambda: browser.js("return location.hash") == f"#/chats/c/{conversation}", 10,
                       "the conversation the notification was for")
    browser.wait(".view--dialogue .dialogue-title", text="Ben 🌿")
    browser.wait_until(lambda: notifications() == [], 5, "the clicked notification closed")
    browser.screenshot("push-notification-click-phone")

    # ---- With the server stopped, the app still opens: the saved list, the banner. ----
    browser.route("#/chats")
    server.stop()
    browser.driver.refresh()
    browser.wait(".shell", timeout=15)
    browser.wait(".row", text="Ben 🌿", timeout=10)
    browser.wait(".conn-banner", timeout=15)
    assert browser.js("return !!navigator.serviceWorker.controller")
    browser.shoot_both("push-offline-shell")
    assert scope.rstrip("/") == origin


"""States a person must never wonder about, each seen in a real browser against a real
server: the connection banner on a page changed to while offline, a refused message that can
be deleted and says why, a conversation one can no longer post to, a room opened from a link
by someone not in it, and a room's enter/leave notices after reloads."""
import json
import time

from web import PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict):
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))


def banner_text(browser, view: str) -> str | None:
    """The text of the view's connection banner when shown, else None."""
    return browser.js(
        "const b = document.querySelector(arguments[0] + ' .conn-banner');"
        "return b && b.isConnected && !b.hidden && b.offsetParent !== null ? b.textContent : null", view)


def test_the_banner_follows_every_outage_on_pages_changed_to(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.open_chat_titled("ben")
    browser.click(".topbar-back")
    browser.wait(".view--list:not([hidden]) a.row", text="ben")

    for outage in (1, 2):
        server.stop()
        browser.wait(".view--list:not([hidden]) .conn-banner", text="No connection", timeout=15)
        # The dialogue, off screen when the outage began, shows it once opened.
        browser.open_chat_titled("ben")
        browser.wait_until(lambda: "No connection" in (banner_text(browser, ".view--dialogue") or ""), 5,
                           f"the dialogue's banner in outage {outage}")
        if outage == 1:
            browser.screenshot("banner-dialogue-offline-phone")
        server = parley("--password-cost", "minimum", web_root=WEB_ROOT, data_dir=server.data_dir, port=server.port)
        browser.wait_until(lambda: banner_text(browser, ".view--dialogue") is None, 30, "the banner to leave")
        # Presence shows again only while connected (Ben has no session: when he was last
        # seen, since he accepted the friend request).
        browser.wait(".view--dialogue .topbar-subtitle", text="last seen")
        # It stays gone: no stale countdown comes back.
        time.sleep(1.2)
        assert banner_text(browser, ".view--dialogue") is None
        browser.click(".topbar-back")
        browser.wait(".view--list:not([hidden]) a.row", text="ben")
        assert banner_text(browser, ".view--list:not([hidden])") is None


def test_a_refused_message_says_why_and_can_be_deleted(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    befriend(server, ann, ben)
    [friends] = ws(server.port, ann["token"], ("friend.list", {}))
    conversation = friends["friends"][0]["conversationId"]
    # Ben unfriends Ann while a send of hers waits in her outbox (written while offline).
    ws(server.port, ben["token"], ("friend.remove", {"userId": ann["user"]["id"]}))
    browser = browsers(server.url, size=PHONE)
    browser.open()
    browser.js("localStorage.setItem(arguments[0], arguments[1])", f"parley.outbox.{ann['user']['id']}", json.dumps([{
        "conversationId": conversation, "kind": "text", "text": "are you there?", "clientId": "c-refused-1",
        "createdAt": int(time.time() * 1000), "state": "pending", "error": None}]))
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")

    failed = browser.wait(".msg[data-state=failed]", timeout=15)
    assert "are you there?" in failed.text
    reason = browser.wait(".msg[data-state=failed] .msg-error")
    assert reason.text.startswith("Not sent:") and "friend" in reason.text.lower(), reason.text
    # No composer: the page says why one cannot post here.
    note = browser.wait(".view--dialogue .cannot-post")
    assert "no longer friends" in note.text
    assert not browser.visible(".view--dialogue .composer")
    browser.screenshot("refused-message-phone")

    browser.click(".msg[data-state=failed] .msg-delete")
    browser.wait_until(lambda: "are you there?" not in browser.bubble_texts(), 5, "the refused message to go")
    browser.driver.refresh()
    browser.wait(".view--dialogue .cannot-post")
    time.sleep(1.0)
    assert "are you there?" not in browser.bubble_texts()
    assert browser.js("return localStorage.getItem(arguments[0])", f"parley.outbox.{ann['user']['id']}") == "[]"

    # Friends again: the composer comes back by itself.
    befriend(server, ann, ben)
    browser.wait(".view--dialogue .composer")
    assert not browser.visible(".view--dialogue .cannot-post")


def test_a_room_opened_from_a_link_can_be_entered(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    host = browsers(server.url, size=PHONE)
    host.sign_in_with_token(ben)
    host.menu_action("create_room")
    host.fill("Room name", "Attic")
    host.submit_modal()
    host.wait(".view--dialogue .dialogue-title", text="Attic")
    room = host.js("return decodeURIComponent(location.hash.split('/')[3])")

    guest = browsers(server.url, size=PHONE)
    guest.sign_in_with_token(ann, route=f"#/chats/c/{room}/info")
    text = guest.wait(".not-in-block").text
    assert "not in this conversation" in text and "check the name" not in text
    guest.route(f"#/chats/c/{room}")
    # The room's name comes from room.find, without entering: the title says it, the page
    # says the user is not in this room, and the button enters at once.
    guest.wait(".view--dialogue .dialogue-title", text="Attic")
    guest.wait(".view--dialogue .not-member", text="not in this room")
    guest.screenshot("room-link-outside-phone")
    guest.click(".view--dialogue .not-member button", text="Enter again")
    guest.wait_gone(".view--dialogue .not-member:not([hidden])")
    guest.send_message("hello attic")
    host.wait_bubble("hello attic")


def test_room_notices_skip_reload_bounces_and_repeats(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    watcher = browsers(server.url, size=PHONE)
    watcher.sign_in_with_token(ann)
    watcher.menu_action("create_room")
    watcher.fill("Room name", "Porch")
    watcher.submit_modal()
    watcher.wait(".view--dialogue .dialogue-title", text="Porch")

    visitor = browsers(server.url, size=PHONE)
    visitor.sign_in_with_token(ben)
    visitor.menu_action("enter_room")
    visitor.fill("Room name", "Porch")
    visitor.submit_modal()
    visitor.wait(".view--dialogue .dialogue-title", text="Porch")
    watcher.wait_system("ben entered the room")
    for _ in range(2):
        visitor.driver.refresh()
        visitor.wait(".view--dialogue .dialogue-title", text="Porch", timeout=15)
        visitor.wait_system("You entered the room")
    visitor.send_message("back again")
    watcher.wait_bubble("back again")
    # The server told of each leave and entry; none of the bounces shows.
    notices = watcher.system_texts()
    assert notices.count("ben entered the room") == 1, notices
    assert "ben left the room" not in notices, notices
    assert visitor.system_texts().count("You entered the room") == 1, visitor.system_texts()
    watcher.screenshot("room-notices-phone")

    # A real leave shows, once.
    visitor.click(".view--dialogue .topbar-action")
    visitor.click(".btn-danger-outline", text="Leave room")
    watcher.wait_system("ben left the room")
    time.sleep(0.5)
    assert watcher.system_texts().count("ben left the room") == 1


def test_a_refused_upload_leaves_no_empty_bubble(parley, browsers):
    import pathlib
    import tempfile

    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.open_chat_titled("ben")
    # Named like a picture, but not one: the server refuses the upload.
    fake = pathlib.Path(tempfile.mkdtemp()) / "holiday.png"
    fake.write_text("these are words, not pixels")
    browser.driver.find_element("css selector", ".composer input[type=file]").send_keys(str(fake))
    failed = browser.wait(".msg[data-state=failed]", timeout=15)
    assert browser.wait(".msg[data-state=failed] .image-unavailable").text == "Image not available"
    assert "Not sent:" in browser.wait(".msg[data-state=failed] .msg-error").text
    assert failed.size["height"] > 40
    browser.screenshot("refused-upload-phone")
    browser.click(".msg[data-state=failed] .msg-delete")
    browser.wait_gone(".msg[data-state=failed]")

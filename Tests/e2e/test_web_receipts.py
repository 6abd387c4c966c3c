"""Receipts and typing in the web client: ticks on one's own bubbles (sent, delivered when the
other side syncs, read in the accent colour when they read, and no line under the bubble in a
1:1 chat), the typing line under the header
while the other side types and gone after the server's timeout, a group message's read count
with the list on a tap, and the privacy settings on the profile page (zh and en)."""
import time

from web import DESKTOP, PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def test_ticks_read_line_and_typing_line(parley, browsers):
    server = parley("--password-cost", "minimum", "--typing-timeout", "2", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    browser.send_message("are you there?")
    # Ben is offline: one tick.
    browser.wait(".msg--self .msg-ticks[data-tick=sent]")
    assert browser.wait(".msg--self .msg-ticks").text == "✓"
    # Ben's sync fetches it: delivered, two grey ticks.
    [synced] = ws(server.port, ben["token"], ("sync", {"since": {}}))
    seq = max(m["seq"] for m in synced["messages"] if m.get("text") == "are you there?")
    browser.wait(".msg--self .msg-ticks[data-tick=delivered]")
    assert browser.wait(".msg--self .msg-ticks").text == "✓✓"
    assert not browser.visible(".msg-read-note")
    # Ben reads it: two ticks in the accent colour, and (a 1:1 chat) no read line under it.
    ws(server.port, ben["token"], ("conversation.read", {"conversationId": conversation, "seq": seq}))
    browser.wait(".msg--self .msg-ticks[data-tick=read]")
    ticks = browser.wait(".msg--self .msg-ticks")
    assert ticks.text == "✓✓"
    accent = browser.js("const probe = document.createElement('i'); probe.style.color = 'var(--accent)';"
                        "document.body.append(probe); const c = getComputedStyle(probe).color; probe.remove(); return c")
    assert browser.js("return getComputedStyle(arguments[0]).color", ticks) == accent
    assert browser.driver.find_elements("css selector", ".msg-read-note") == []
    browser.screenshot("receipts-ticks-read")

    # Ben types: the line replaces the header's subtitle; without a stop it goes after the
    # server's timeout (2 s here).
    ws(server.port, ben["token"], ("typing.start", {"conversationId": conversation}))
    browser.wait(".topbar-subtitle.is-typing", text="ben is typing…")
    browser.screenshot("receipts-typing-line")
    started = time.monotonic()
    browser.wait_until(lambda: not browser.visible(".topbar-subtitle.is-typing"), 10, "the typing line to go")
    assert time.monotonic() - started > 0.5
    assert browser.console_errors() == []


def test_group_read_count_and_privacy_settings(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cy = register(server.url, "ann"), register(server.url, "ben"), register(server.url, "cyd")
    [group] = ws(server.port, ann["token"], ("group.create", {"name": "club"}))
    for person in (ben, cy):
        ws(server.port, person["token"], ("group.join", {"name": "club"}))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{group['id']}")
    browser.wait(".view--dialogue .dialogue-title", text="club")
    browser.send_message("who reads this?")
    browser.wait(".msg-read-count", text="Read by 0 of 2")
    [page] = ws(server.port, ben["token"], ("message.history", {"conversationId": group["id"]}))
    seq = max(m["seq"] for m in page["messages"] if m.get("text") == "who reads this?")
    ws(server.port, ben["token"], ("conversation.read", {"conversationId": group["id"], "seq": seq}))
    # The count is asked again when the dialogue renders; a tap lists the readers.
    browser.route("#/chats")
    time.sleep(0.6)
    browser.route(f"#/chats/c/{group['id']}")
    browser.wait(".msg-read-count", text="Read by 1 of 2")
    browser.click(".msg-read-count")
    browser.wait(".toast", text="Read by 1 of 2: ben")
    browser.screenshot("receipts-group-count")

    # Privacy on the profile page: saved on change, read back by the server.
    browser.route("#/me")
    box = browser.wait(".privacy-read-receipts:not([disabled])")
    assert box.is_selected()
    box.click()
    browser.wait(".toast", text="Privacy settings saved")
    [settings] = ws(server.port, ann["token"], ("privacy.get", {}))
    assert settings == {"readReceipts": False, "typing": True, "lastSeen": "everyone"}
    browser.screenshot("receipts-privacy-en")
    zh = browsers(server.url, size=PHONE, language="zh-CN")
    zh.sign_in_with_token(ann, route="#/me")
    zh.wait(".privacy-settings", text="隐私")
    assert not zh.wait(".privacy-read-receipts:not([disabled])").is_selected()
    zh.screenshot("receipts-privacy-zh")

"""Message actions in the web client: the per-message menu (right-click, keyboard, the hover
button), reactions with who reacted (live from the other side too), a reply with its quote
and the jump to the quoted message, an edit with its mark, a recall notice, a pin in the
pinned bar, delete for me, and the mention badge in the sessions list. Screenshots at phone
and desktop size, English and Chinese."""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from web import DESKTOP, WEB_ROOT, png, register, upload, ws


def befriend(port: int, a: dict, b: dict) -> str:
    request = ws(port, a["token"], ("friend.request", {"userId": b["user"]["id"]}))[0]
    friend = ws(port, b["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]
    return friend["conversationId"]


def bubble_row(browser, text: str, rows: str = ".view--dialogue .msg"):
    """The message row (among `rows`) whose bubble text is `text`."""
    return browser.wait_until(lambda: next((row for row in browser.driver.find_elements("css selector", rows)
                                            if text in [p.text for p in row.find_elements("css selector", ".bubble-text")]), None),
                              10, f"the row of {text!r}")


def open_menu_by_right_click(browser, text: str):
    row = bubble_row(browser, text)
    ActionChains(browser.driver).context_click(row.find_element("css selector", ".bubble")).perform()
    return browser.wait(".msg-menu")


def test_message_actions_in_the_browser(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    first = ws(server.port, bob["token"], ("message.send", {"conversationId": chat, "clientId": "b1", "kind": "text",
                                                            "text": "first from bob"}))[0]
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(alice)
    browser.open_chat_titled("bob")
    browser.wait_bubble("first from bob")

    # Right-click opens the menu; a quick reaction puts a chip under the bubble.
    menu = open_menu_by_right_click(browser, "first from bob")
    actions = [b.get_attribute("data-action") for b in menu.find_elements("css selector", ".msg-menu-item")]
    # In the fixed order: reply, (react above), copy, forward, (edit, recall), delete for me, pin; report last.
    assert actions == ["reply", "copy", "forward", "hide", "pin", "report"], actions
    assert "edit" not in actions and "recall" not in actions, "not alice's message"
    menu.find_element("css selector", ".msg-menu-emoji").click()
    chip = browser.wait(".reaction-chip.is-mine")
    assert "👍" in chip.text and "1" in chip.text and "You" in chip.get_attribute("title")

    # Bob reacts from elsewhere: the chip comes live, saying who.
    ws(server.port, bob["token"], ("message.react", {"conversationId": chat, "messageId": first["id"], "clientId": "r1", "emoji": "🎉"}))
    party = browser.wait_until(lambda: next((c for c in browser.driver.find_elements("css selector", ".reaction-chip")
                                             if "🎉" in c.text), None), 10, "bob's reaction")
    assert "bob" in party.get_attribute("title")

    # The keyboard opens the menu too (Enter on the focused bubble); Reply quotes the message.
    bubble = bubble_row(browser, "first from bob").find_element("css selector", ".bubble")
    browser.js("arguments[0].focus()", bubble)
    bubble.send_keys(Keys.ENTER)
    browser.wait(".msg-menu .msg-menu-item[data-action=reply]")
    assert browser.js("return document.activeElement.dataset.action") == "reply", "the menu takes the focus"
    browser.js("document.activeElement.click()")
    browser.wait(".composer-context", text="Replying to bob")
    browser.send_message("an answer")
    browser.wait_bubble("an answer")
    # The quote comes with the server's copy of the reply (the pending bubble has none yet).
    quote = browser.wait_until(lambda: next(iter(bubble_row(browser, "an answer").find_elements("css selector", ".bubble-quote")), None),
                               10, "the reply's quote")
    assert "first from bob" in quote.text
    quote.click()
    browser.wait(".msg.is-highlighted .bubble-text", text="first from bob")

    # Alice edits her own message: the new text and the "edited" mark, on both sides.
    browser.send_message("a tpyo here")
    browser.wait_bubble("a tpyo here")
    menu = open_menu_by_right_click(browser, "a tpyo here")
    actions = [b.get_attribute("data-action") for b in menu.find_elements("css selector", ".msg-menu-item")]
    assert actions == ["reply", "copy", "forward", "edit", "recall", "hide", "pin"], actions
    browser.click(".msg-menu-item[data-action=edit]")
    box = browser.wait("textarea.composer-input")
    assert box.get_attribute("value") == "a tpyo here"
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("a typo here", Keys.ENTER)
    browser.wait_bubble("a typo here")
    browser.wait(".msg-edited", text="edited")
    page = ws(server.port, bob["token"], ("message.history", {"conversationId": chat}))[0]
    edited = next(m for m in page["messages"] if m.get("text") == "a typo here")
    assert edited.get("editedAt")

    # Bob edits his message: alice sees the new text without reloading.
    ws(server.port, bob["token"], ("message.edit", {"conversationId": chat, "messageId": first["id"], "clientId": "e1",
                                                    "text": "first from bob, fixed"}))
    browser.wait_bubble("first from bob, fixed")

    # Pin: the pinned bar shows it.
    open_menu_by_right_click(browser, "an answer")
    browser.click(".msg-menu-item[data-action=pin]")
    browser.wait(".pinned-bar:not([hidden])", text="an answer")

    # Recall: a notice takes the bubble's place.
    browser.send_message("sent to the wrong chat")
    browser.wait_bubble("sent to the wrong chat")
    open_menu_by_right_click(browser, "sent to the wrong chat")
    browser.click(".msg-menu-item[data-action=recall]")
    browser.wait_system("You recalled a message")
    assert "sent to the wrong chat" not in browser.bubble_texts()
    # The notice ends the run: the next message starts a new one (avatar and name again).
    browser.send_message("sent to the right chat")
    assert "run-start" in bubble_row(browser, "sent to the right chat").get_attribute("class").split()

    # The hover button opens the same menu; delete for me hides the bubble here only.
    row = bubble_row(browser, "a typo here")
    ActionChains(browser.driver).move_to_element(row.find_element("css selector", ".bubble")).perform()
    row.find_element("css selector", ".msg-menu-btn").click()
    browser.click(".msg-menu-item[data-action=hide]")
    # Asked first, since it cannot be undone: Cancel keeps the bubble, the confirmation hides it.
    browser.wait(".modal--confirm .modal-title", text="Delete for you?")
    browser.screenshot("message-hide-confirm-desktop")
    browser.click(".modal--confirm button", text="Cancel")
    browser.wait_until(lambda: not browser.visible(".modal--confirm"), 10, "the confirmation closed")
    assert "a typo here" in browser.bubble_texts(), "cancel keeps the message"
    ActionChains(browser.driver).move_to_element(row.find_element("css selector", ".bubble")).perform()
    row.find_element("css selector", ".msg-menu-btn").click()
    browser.click(".msg-menu-item[data-action=hide]")
    browser.wait(".modal--confirm .modal-title", text="Delete for you?")
    browser.click(".modal--confirm .btn-danger", text="Delete for me")
    browser.wait_until(lambda: "a typo here" not in browser.bubble_texts(), 10, "the hidden bubble gone")
    page = ws(server.port, bob["token"], ("message.history", {"conversationId": chat}))[0]
    assert any(m.get("text") == "a typo here" for m in page["messages"]), "still there for bob"
    browser.shoot_both("message-actions", check=lambda b, label: b.wait(".reaction-chip"))

    # A mention in a group: the sessions list shows the @ badge beside the unread count.
    group = ws(server.port, bob["token"], ("group.create", {"name": "club"}))[0]["id"]
    ws(server.port, alice["token"], ("group.join", {"name": "club"}))
    ws(server.port, bob["token"], ("message.send", {"conversationId": group, "clientId": "g1", "kind": "text",
                                                    "text": "@alice look", "mentions": [alice["user"]["id"]]}))
    badge = browser.wait(".view--list:not([hidden]) a.row .row-mention")
    assert badge.text == "@" and "mention" in badge.get_attribute("aria-label")
    browser.shoot_both("message-actions-mention-badge")
    browser.open_chat_titled("club")
    browser.wait(".bubble--mention .bubble-text", text="@alice look")
    # The "@name" itself is in the accent colour (UI.md), the rest of the text is not; the
    # owner's "@Everyone" (mentionsAll) too.
    mention = browser.wait(".bubble--mention .bubble-text .mention")
    assert mention.text == "@alice"
    accent = browser.js("const probe = document.createElement('i'); probe.style.color = 'var(--accent)';"
                        "document.body.append(probe); const c = getComputedStyle(probe).color; probe.remove(); return c")
    assert browser.js("return getComputedStyle(arguments[0]).color", mention) == accent
    assert browser.js("return getComputedStyle(arguments[0].parentNode).color", mention) != accent
    ws(server.port, bob["token"], ("message.send", {"conversationId": group, "clientId": "g2", "kind": "text",
                                                    "text": "@Everyone dinner at 7", "mentionsAll": True}))
    browser.wait(".bubble-text .mention", text="@Everyone")
    assert browser.texts(".bubble-text .mention") == ["@alice", "@Everyone"]
    # A member this browser has not met yet: the name arrives after the bubble and is marked then.
    dan = register(server.url, "dan")
    ws(server.port, dan["token"], ("group.join", {"name": "club"}))
    ws(server.port, bob["token"], ("message.send", {"conversationId": group, "clientId": "g3", "kind": "text",
                                                    "text": "welcome @dan!", "mentions": [dan["user"]["id"]]}))
    browser.wait(".bubble-text .mention", text="@dan")
    assert browser.texts(".bubble-text .mention") == ["@alice", "@Everyone", "@dan"]
    browser.wait_until(lambda: browser.count(".view--list:not([hidden]) a.row .row-mention") == 0, 10, "the badge cleared by reading")
    assert browser.console_errors() == []


def reply_to(browser, bubble, text: str):
    """Replies to the message of `bubble` from its menu (right-click) with `text`."""
    ActionChains(browser.driver).context_click(bubble).perform()
    browser.click(".msg-menu-item[data-action=reply]")
    browser.wait(".composer-context")
    browser.send_message(text)


def pending_quote(browser, text: str) -> str:
    """The quote's text above the pending (clock) bubble of `text`."""
    row = bubble_row(browser, text, ".view--dialogue .msg[data-state=pending]")
    return browser.wait_until(lambda: next((q.text for q in row.find_elements("css selector", ".bubble-quote") if q.text), None),
                              5, f"the quote above the pending {text!r}")


def test_a_pending_reply_shows_its_quote_at_once_and_after_a_reload(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice, bob = register(server.url, "alice"), register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    [first] = ws(server.port, bob["token"], ("message.send", {"conversationId": chat, "clientId": "b1", "kind": "text",
                                                              "text": "first from bob"}))
    picture = upload(server.url, alice["token"], png(60, 40)).rsplit("/", 1)[1]
    [image] = ws(server.port, alice["token"], ("message.send", {"conversationId": chat, "clientId": "a1", "kind": "image",
                                                                "mediaId": picture}))
    english = browsers(server.url, size=DESKTOP)
    english.sign_in_with_token(alice)
    english.open_chat_titled("bob")
    english.wait_bubble("first from bob")
    chinese = browsers(server.url, size=DESKTOP, language="zh-CN")
    chinese.sign_in_with_token(bob)
    chinese.open_chat_titled("alice")
    chinese.wait(".bubble--image img")

    # The server is gone: the replies stay pending, each with its quote from the start.
    server.stop()
    english.wait(".view--dialogue .conn-banner", text="No connection", timeout=15)
    chinese.wait(".view--dialogue .conn-banner:not([hidden])", timeout=15)
    assert len(english.visible(".conn-banner")) == 1, "one banner for the two panes"
    reply_to(english, bubble_row(english, "first from bob").find_element("css selector", ".bubble"), "an answer")
    quote = pending_quote(english, "an answer")
    assert "bob" in quote and "first from bob" in quote, quote
    reply_to(chinese, chinese.wait(".bubble--image"), "好看")
    quote = pending_quote(chinese, "好看")
    assert "alice" in quote and "[图片]" in quote, quote
    english.shoot_both("pending-reply-quote", check=lambda b, label: b.wait(".msg[data-state=pending] .bubble-quote"))

    # After a reload the quoted message is not loaded yet (still offline): the outbox kept the quote.
    english.driver.refresh()
    english.wait(".shell")
    quote = pending_quote(english, "an answer")
    assert "bob" in quote and "first from bob" in quote, quote
    # Not a blank page: the dialogue says the history comes with the connection.
    english.wait(".view--dialogue .dialogue-empty--offline:not([hidden])", text="when the connection is back")
    english.screenshot("dialogue-opened-offline")

    # Back online: both go out as replies; the server's copies keep the quote.
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, data_dir=server.data_dir, port=server.port)
    english.wait(".view--dialogue .msg[data-state=sent] .bubble-quote", text="first from bob", timeout=30)
    english.wait_bubble("first from bob")
    english.wait_gone(".view--dialogue .dialogue-empty:not([hidden])")
    chinese.wait(".view--dialogue .msg[data-state=sent] .bubble-quote", text="[图片]", timeout=30)
    [page] = ws(server.port, bob["token"], ("message.history", {"conversationId": chat}))
    replies = {m["text"]: m["replyTo"]["messageId"] for m in page["messages"] if m.get("replyTo")}
    assert replies == {"an answer": first["id"], "好看": image["id"]}, replies
    assert english.console_errors() == [] and chinese.console_errors() == []


def test_a_replys_quote_follows_the_quoted_messages_edit_and_recall(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice, bob = register(server.url, "alice"), register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    [plan, secret] = ws(server.port, alice["token"],
                        ("message.send", {"conversationId": chat, "clientId": "a1", "kind": "text", "text": "meet at nine"}),
                        ("message.send", {"conversationId": chat, "clientId": "a2", "kind": "text", "text": "the door code is 4711"}))
    ws(server.port, bob["token"],
       ("message.send", {"conversationId": chat, "clientId": "b1", "kind": "text", "text": "ok", "replyTo": plan["id"]}),
       ("message.send", {"conversationId": chat, "clientId": "b2", "kind": "text", "text": "noted", "replyTo": secret["id"]}))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(bob)
    browser.open_chat_titled("alice")
    quote = lambda text: bubble_row(browser, text).find_element("css selector", ".bubble-quote-text").text
    browser.wait_until(lambda: quote("ok") == "meet at nine" and quote("noted") == "the door code is 4711", 10, "both quotes")

    # Alice edits one and recalls the other elsewhere: the quotes follow at once, without a reload.
    ws(server.port, alice["token"],
       ("message.edit", {"conversationId": chat, "messageId": plan["id"], "clientId": "e1", "text": "meet at ten"}),
       ("message.recall", {"conversationId": chat, "messageId": secret["id"], "clientId": "r1"}))
    browser.wait_until(lambda: quote("ok") == "meet at ten", 10, "the edited quote")
    browser.wait_until(lambda: quote("noted") == "[Recalled]", 10, "the recalled quote")
    assert "4711" not in browser.driver.find_element("css selector", ".view--dialogue .messages").text
    assert browser.console_errors() == []


def test_mention_autocomplete_and_menu_in_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    owner = register(server.url, "olga")
    member = register(server.url, "mei", nickname="小梅")
    group = ws(server.port, owner["token"], ("group.create", {"name": "读书会"}))[0]["id"]
    ws(server.port, member["token"], ("group.join", {"name": "读书会"}))
    browser = browsers(server.url, size=DESKTOP, language="zh-CN")
    browser.sign_in_with_token(owner)
    browser.open_chat_titled("读书会")
    box = browser.wait("textarea.composer-input")
    box.send_keys("@")
    options = browser.wait_until(lambda: browser.texts(".mention-list .mention-option") or None, 10, "suggestions")
    assert "@所有人" in options and "@小梅" in options, options
    box.send_keys("小")
    browser.wait_until(lambda: browser.texts(".mention-list .mention-option") == ["@小梅"], 10, "filtered suggestions")
    box.send_keys(Keys.ENTER)
    assert box.get_attribute("value") == "@小梅 "
    box.send_keys("看这里", Keys.ENTER)
    browser.wait_bubble("@小梅 看这里")
    page = ws(server.port, member["token"], ("message.history", {"conversationId": group}))[0]
    sent = next(m for m in page["messages"] if m.get("text") == "@小梅 看这里")
    assert sent["mentions"] == [member["user"]["id"]]
    menu = open_menu_by_right_click(browser, "@小梅 看这里")
    labels = [b.text for b in menu.find_elements("css selector", ".msg-menu-item")]
    assert labels[:3] == ["回复", "复制", "转发"] and "编辑" in labels and "撤回" in labels and "仅为我删除" in labels
    time.sleep(0.2)
    browser.shoot_both("message-actions-menu-zh", check=lambda b, label: None)
    assert browser.console_errors() == []

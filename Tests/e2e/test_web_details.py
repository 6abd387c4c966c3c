"""Details a person notices: the sender and time of every message (a tap shows the full
time, notices show theirs), the Chats badge beside its icon rather than on it, a phone
placeholder that fits a phone, and emoji in colour wherever a profile's text shows."""
import re

from web import DESKTOP, PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def send(server, session: dict, conversation: str, *texts: str):
    ws(server.port, session["token"], *[("message.send", {"conversationId": conversation, "clientId": f"c-{i}-{text}",
                                                          "kind": "text", "text": text}) for i, text in enumerate(texts)])


def test_every_message_shows_sender_and_time_and_a_tap_shows_the_full_time(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    send(server, ben, conversation, "one", "two", "three")
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait_bubble("three")
    browser.send_message("mine")
    browser.wait_until(lambda: browser.visible(".msg--self[data-state=sent]"), 10, "the send to be stored")

    hms = re.compile(r"^\d{2}:\d{2}:\d{2}$")
    times = browser.texts(".view--dialogue .msg:not(.msg--system) .msg-time")
    assert len(times) == 4 and all(hms.match(t) for t in times), times
    # One name per run, in a 1:1 chat too: Ben's run and Ann's.
    senders = browser.texts(".view--dialogue .msg-sender")
    assert senders == ["ben", "ann"], senders
    # A system notice shows its time with its text.
    notice_time = browser.wait(".view--dialogue .msg--system .msg-system-time").text
    assert hms.match(notice_time), notice_time

    bubble = browser.wait(".view--dialogue .msg--other .bubble", text="two")
    bubble.click()
    full = browser.js("return arguments[0].closest('.msg').querySelector('.msg-time').textContent", bubble)
    assert re.match(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", full), full
    browser.screenshot("dialogue-times-phone")
    bubble.click()
    assert hms.match(browser.js("return arguments[0].closest('.msg').querySelector('.msg-time').textContent", bubble))


def test_the_chats_badge_sits_beside_its_icon(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    send(server, ben, conversation, *[f"m{i}" for i in range(12)])
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.wait(".tab[data-tab=chats] .badge", text="13")
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        browser.resize(*size)
        covered = browser.js("""
            const icon = document.querySelector('.tab[data-tab=chats] .tab-icon svg').getBoundingClientRect();
            const badge = document.querySelector('.tab[data-tab=chats] .badge').getBoundingClientRect();
            const w = Math.max(0, Math.min(icon.right, badge.right) - Math.max(icon.left, badge.left));
            const h = Math.max(0, Math.min(icon.bottom, badge.bottom) - Math.max(icon.top, badge.top));
            return (w * h) / (icon.width * icon.height);""")
        assert covered < 0.12, (label, covered)
    browser.resize(*PHONE)
    browser.screenshot("chats-badge-phone")


def test_the_phone_placeholder_fits_at_phone_width(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    for language in ("en-US", "zh-CN"):
        browser = browsers(server.url, size=PHONE, language=language)
        browser.open("#/phone")
        field = browser.wait("input[type=tel]")
        spare = browser.js("""
            const input = arguments[0];
            const style = getComputedStyle(input);
            const context = document.createElement('canvas').getContext('2d');
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return room - context.measureText(input.placeholder).width;""", field)
        assert spare > 0, (language, spare)


def emoji_fonts(browser, css: str) -> list[str]:
    """The first font family of the element holding each ☕ inside css's elements."""
    return browser.js("""
        const found = [];
        for (const root of document.querySelectorAll(arguments[0])) {
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            if (walker.currentNode.data.includes('\\u2615'))
              found.push(getComputedStyle(walker.currentNode.parentElement).fontFamily.split(',')[0].replace(/"/g, '').trim());
          }
        }
        return found;""", css)


def test_emoji_in_profile_rows_and_cards_are_in_colour(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann = register(server.url, "ann", signature="coffee first ☕")
    register(server.url, "cat", nickname="Cat", age=30, hobbies=["tea"], signature="tea or ☕?")
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route="#/me")
    browser.wait(".view--profile .kv-list")
    fonts = emoji_fonts(browser, ".view--profile .kv-list, .view--profile .hero")
    assert len(fonts) == 2 and all(f == "Noto Color Emoji" for f in fonts), fonts
    browser.click(".tab[data-tab=discover]")
    browser.wait(".swipe-card.is-top", text="Cat")
    fonts = emoji_fonts(browser, ".swipe-card.is-top")
    assert fonts == ["Noto Color Emoji"], fonts


def test_the_me_page_shows_the_id_once_as_a_row(parley, browsers):
    """The Me page lists the id among its rows (id, username, nickname, …); the card above it
    shows the name and handle, not the id a second time."""
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann = register(server.url, "ann")
    user_id = str(ann["user"]["id"])
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route="#/me")
    browser.wait(".view--profile .kv-list")
    rows = dict(zip(browser.texts(".view--profile .kv-label"), browser.texts(".view--profile .kv-data")))
    assert rows["ID"] == user_id
    assert browser.driver.find_elements("css selector", ".view--profile .id-chip") == []
    assert not re.search(rf"(?<!\d){re.escape(user_id)}(?!\d)", browser.wait(".view--profile .hero").text)
    browser.screenshot("me-id-once")


def test_a_count_of_one_reads_in_the_singular(parley, browsers):
    """"1 member", not "1 members", for a group just made (its details and, once they are
    known, the dialogue's header); "2 members" once someone joins; Chinese has no plural."""
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    [group] = ws(server.port, ann["token"], ("group.create", {"name": "solo"}))
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{group['id']}/info")
    assert "· 1 member" in browser.wait(".view--info", text="member").text
    assert "1 members" not in browser.wait(".view--info").text
    browser.route(f"#/chats/c/{group['id']}")
    assert browser.wait(".topbar-subtitle", text="member").text == "1 member"
    ws(server.port, ben["token"], ("group.join", {"name": "solo"}))
    browser.route("#/chats")
    browser.route(f"#/chats/c/{group['id']}/info")
    browser.wait(".view--info", text="2 members")
    zh = browsers(server.url, size=PHONE, language="zh-CN")
    [lone] = ws(server.port, ann["token"], ("group.create", {"name": "独处"}))
    zh.sign_in_with_token(ann, route=f"#/chats/c/{lone['id']}/info")
    zh.wait(".view--info", text="1 位成员")

"""The web client end to end: two people in two browsers (one phone-sized, one desktop)
register, become friends, chat both ways with text, an image and emoticons, watch unread
badges come and go, share a group and a room, meet a third person on Discover, and edit a
profile."""
import pathlib
import tempfile

from selenium.webdriver.common.keys import Keys

from web import DESKTOP, PHONE, WEB_ROOT, png, register, ws


def register_in_browser(browser, username: str):
    browser.open("#/register")
    browser.fill("Username", username)
    browser.fill("Password", "password123")
    browser.fill("Password again", "password123")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".shell")
    browser.wait(".tabbar .tab[data-tab=chats].is-active")


def test_two_people_chat_in_two_browsers(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = browsers(server.url, size=DESKTOP)
    bob = browsers(server.url, size=PHONE)

    # Both register through the page.
    register_in_browser(alice, "alice")
    register_in_browser(bob, "bob")
    assert "No chats yet" in alice.wait(".view--list:not([hidden]) .empty").text

    # Alice asks Bob to be friends from the + menu; Bob accepts on Contacts.
    alice.menu_action("add_friend")
    alice.fill("Their username", "bob")
    alice.submit_modal()
    alice.wait(".toast", text="Friend request sent to bob")
    bob.wait(".tab[data-tab=contacts] .badge", text="1")
    bob.click(".tab[data-tab=contacts]")
    bob.wait(".contact-section[data-section=requests]", text="alice")
    bob.click(".contact-section[data-section=requests] .btn-primary", text="Accept")
    bob.wait(".contact-section[data-section=friends] .row", text="alice")
    bob.click(".tab[data-tab=chats]")

    # Alice opens the new conversation and writes; an emoticon shows as emoji.
    alice.wait(".view--list:not([hidden]) a.row", text="bob")
    alice.open_chat_titled("bob")
    alice.wait_system("accepted the friend request")
    alice.send_message("Hello Bob :)")
    alice.wait_bubble("Hello Bob 🙂")
    assert alice.js("return document.querySelector('.msg--self .emoji').title") == ":)"

    # Bob sees an unread badge on the row and on the Chats tab (the "friends now" notice
    # and Alice's message); reading clears both.
    bob.wait(".tab[data-tab=chats] .badge", text="2")
    row_badge = bob.wait(".view--list:not([hidden]) a.row .row-badge")
    assert row_badge.text == "2"
    bob.open_chat_titled("alice")
    bob.wait_bubble("Hello Bob 🙂")
    bob.click(".topbar-back")
    bob.wait_until(lambda: not bob.visible(".tab[data-tab=chats] .badge"), 10, "the Chats badge to clear")
    assert not bob.visible(".view--list:not([hidden]) a.row .row-badge")
    bob.open_chat_titled("alice")
    bob.send_message("Hi Alice <3")
    alice.wait_bubble("Hi Alice ❤️")
    # Shift+Enter makes a new line instead of sending.
    box = bob.wait("textarea.composer-input")
    box.send_keys("two")
    box.send_keys(Keys.SHIFT, Keys.ENTER)
    box.send_keys("lines")
    assert bob.js("return document.querySelector('textarea.composer-input').value") == "two\nlines"
    box.send_keys(Keys.ENTER)
    alice.wait_bubble("two\nlines")

    # An image: uploaded from the input bar, shown in a bubble with its size reserved.
    picture = pathlib.Path(tempfile.mkdtemp()) / "sunset.png"
    picture.write_bytes(png(320, 200, (250, 170, 90), (200, 60, 110)))
    alice.driver.find_element("css selector", ".composer input[type=file]").send_keys(str(picture))
    image = bob.wait(".view--dialogue .msg--other .bubble-image img", timeout=15)
    bob.wait_until(lambda: bob.js("const i = document.querySelector('.msg--other .bubble-image img'); return i.complete && i.naturalWidth === 320"), 10, "the image to load")
    assert image.get_attribute("width") and int(image.get_attribute("width")) > 0
    # Narrower than its reserved width on a phone, it keeps its shape (not cropped to a squarer box).
    shown = bob.js("const i = document.querySelector('.msg--other .bubble-image img'); return [i.clientWidth, i.clientHeight]")
    assert abs(shown[0] / shown[1] - 320 / 200) < 0.03, shown
    bob.click(".msg--other .bubble-image")
    bob.wait(".lightbox img")
    bob.press(Keys.ESCAPE)
    bob.wait_gone(".lightbox")
    alice.wait_until(lambda: not alice.visible(".msg-pending"), 10, "the image to be acknowledged")

    # A group: Alice creates it, Bob joins by name; Bob's edit reaches both as a notice.
    alice.menu_action("create_group")
    alice.fill("Group name", "Tea Club")
    alice.fill("Description", "Oolong on Fridays")
    alice.submit_modal()
    alice.wait(".view--dialogue .dialogue-title", text="Tea Club")
    alice.wait_system("created the group")
    bob.click(".topbar-back")
    bob.menu_action("join_group")
    bob.fill("Group name", "tea club")
    bob.submit_modal()
    bob.wait(".view--dialogue .dialogue-title", text="Tea Club")
    alice.wait_system("bob joined the group")
    bob.click(".view--dialogue .topbar-action")
    bob.wait(".view--info .hero-name", text="Tea Club")
    bob.wait(".view--info .person", text="alice")
    bob.click(".view--info .topbar-text-btn")
    bob.fill("Description", "Oolong on Fridays, pu'er on Mondays")
    bob.click(".view--info form button[type=submit]")
    bob.wait(".view--info .kv-list", text="pu'er on Mondays")
    bob.click(".view--info .topbar-back")
    bob.wait_system("You changed the group’s description")
    alice.wait_system("bob changed the group’s description")
    alice.send_message("Welcome to the club!")
    bob.wait_bubble("Welcome to the club!")
    assert "alice" in bob.texts(".msg--other.run-start .msg-sender")

    # A room: Alice creates it, Bob enters and leaves; Alice sees both.
    alice.menu_action("create_room")
    alice.fill("Room name", "Lobby")
    alice.submit_modal()
    alice.wait(".view--dialogue .dialogue-title", text="Lobby")
    bob.click(".topbar-back")
    bob.menu_action("enter_room")
    bob.fill("Room name", "lobby")
    bob.submit_modal()
    bob.wait(".view--dialogue .dialogue-title", text="Lobby")
    alice.wait_system("bob entered the room")
    bob.send_message("Anyone here?")
    alice.wait_bubble("Anyone here?")
    bob.click(".view--dialogue .topbar-action")
    # Anyone in a room may edit its details; everyone inside sees the notice.
    bob.click(".view--info .topbar-text-btn")
    bob.fill("Description", "Say hello on the way in")
    bob.click(".view--info form button[type=submit]")
    bob.wait(".view--info .kv-list", text="Say hello on the way in")
    alice.wait_system("bob changed the room’s description")
    bob.click(".view--info .btn-danger-outline", text="Leave room")
    bob.wait(".view--list:not([hidden])")
    alice.wait_system("bob left the room")

    # Discover: Carol already liked Alice; Alice likes Carol back and it is a match.
    carol = register(server.url, "carol", nickname="Carol", age=29, hobbies=["hiking", "jazz"], signature="Mountains and music")
    ws(server.port, carol["token"], ("discover.like", {"userId": alice.js("return JSON.parse(localStorage.getItem('parley.account')).id")}))
    alice.click(".tab[data-tab=discover]")
    card = alice.wait(".swipe-card.is-top", text="Carol")
    assert "hiking" in card.text and "29" in card.text
    alice.click(".round--like")
    alice.wait(".modal--match", text="Carol")
    alice.click(".modal--match .say-hi")
    alice.wait(".view--dialogue .dialogue-title", text="Carol")
    alice.wait_system("liked each other")

    # Profile: Alice edits hers.
    alice.click(".tab[data-tab=me]")
    alice.click(".view--profile .topbar-text-btn")
    alice.fill("Nickname", "Alice Liddell")
    alice.fill("Signature", "Curiouser and curiouser")
    alice.fill("Age", "30")
    alice.fill("Hobbies", "tea, croquet")
    alice.click(".view--profile form button[type=submit]")
    alice.wait(".view--profile .hero-name", text="Alice Liddell")
    profile = alice.wait(".view--profile .kv-list").text
    assert "Curiouser and curiouser" in profile and "30" in profile and "croquet" in profile

    assert alice.console_errors() == []
    assert bob.console_errors() == []


def test_history_new_message_button_and_failed_sends(parley, browsers):
    """Older history loads above without moving what the reader looks at; a message that
    arrives while reading older ones brings up the "new message" button; once the friendship
    ends, the page says one cannot post there."""
    import os

    from web import register

    server = parley("--password-cost", "minimum", "--ws-rate", "1000", "--ws-burst", "1000", web_root=WEB_ROOT)
    ann, bo = register(server.url, "ann"), register(server.url, "bob")
    [asked] = ws(server.port, ann["token"], ("friend.request", {"username": "bob"}))
    [friend] = ws(server.port, bo["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    chat = friend["conversationId"]
    ws(server.port, bo["token"], *[("message.send", {"conversationId": chat, "clientId": os.urandom(8).hex(), "kind": "text",
                                                     "text": f"message {i}"}) for i in range(1, 131)])
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{chat}")
    browser.wait_bubble("message 130")
    assert "message 60" not in browser.bubble_texts()

    # Scroll to the top: the page above arrives and the bubble we looked at stays put.
    anchor_before = browser.js("""
        const list = document.querySelector('.messages');
        list.scrollTop = 0;
        const first = [...document.querySelectorAll('.view--dialogue .msg .bubble-text')][0];
        first.id = 'anchor';
        return first.getBoundingClientRect().top;""")
    browser.wait_bubble("message 60")
    browser.wait_until(lambda: not browser.visible(".history-top .spinner"), 10, "loading to finish")
    anchor_after = browser.js("return document.getElementById('anchor').getBoundingClientRect().top")
    assert abs(anchor_after - anchor_before) <= 2, (anchor_before, anchor_after)
    assert browser.js("return document.querySelector('.messages').scrollTop") > 0

    # While reading old messages, a new one arrives: the button appears and jumps to it.
    ws(server.port, bo["token"], ("message.send", {"conversationId": chat, "clientId": "late-1", "kind": "text", "text": "are you there?"}))
    pill = browser.wait(".new-pill", text="New message")
    pill.click()
    browser.wait_gone(".new-pill")
    browser.wait_until(lambda: browser.js(
        "const m = document.querySelector('.messages'); return m.scrollHeight - m.scrollTop - m.clientHeight < 60"), 5, "the bottom")

    # Keep scrolling up to the very first message.
    for _ in range(6):
        browser.js("document.querySelector('.messages').scrollTop = 0")
        if "message 1" in browser.bubble_texts():
            break
        browser.wait_until(lambda: not browser.visible(".history-top .spinner"), 10, "loading to finish")
    browser.wait_bubble("message 1")
    browser.wait(".history-top", text="beginning")
    texts = browser.bubble_texts()
    assert texts == [f"message {i}" for i in range(1, 131)] + ["are you there?"]

    # Bo ends the friendship: the page says Ann can no longer post here instead of offering
    # a composer (a send refused meanwhile is covered in test_web_states.py).
    ws(server.port, bo["token"], ("friend.remove", {"userId": ann["user"]["id"]}))
    browser.wait(".view--dialogue .cannot-post", text="no longer friends")
    assert not browser.visible(".view--dialogue .composer")
    browser.screenshot("failed-send-phone")
    assert browser.console_errors() == []

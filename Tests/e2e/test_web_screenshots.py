"""A screenshot of every page of the web client at phone size (390×844) and desktop size
(1280×800), saved under Tests/e2e/output/, each checked for the elements it must show."""
import os
import signal
import time

from selenium.webdriver import ActionChains

from web import PHONE, WEB_ROOT, png, register, upload, ws


def make_people(server):
    """Mei and the people around her, with pictures, friendships, a group and messages."""
    url = server.url
    mei = register(url, "mei", nickname="Mei", signature="Tea, trails and terrible puns", age=27,
                   hobbies=["climbing", "tea", "film"])
    upload_avatar = lambda session, colours: upload(url, session["token"], png(96, 96, *colours))
    mei_avatar = upload_avatar(mei, ((255, 190, 120), (230, 90, 110)))
    ws(server.port, mei["token"], ("me.update", {"avatar": mei_avatar}))
    mei["user"]["avatar"] = mei_avatar
    li = register(url, "liwei", nickname="Li Wei", signature="Coffee first", age=31, hobbies=["cycling"])
    ws(server.port, li["token"], ("me.update", {"avatar": upload_avatar(li, ((120, 200, 255), (60, 90, 200)))}))
    sam = register(url, "sam", signature="Out hiking", age=24, hobbies=["hiking", "jazz"])
    zhang = register(url, "zhangwei", nickname="张伟", signature="周末去爬山", age=35, hobbies=["摄影", "徒步"])
    kai = register(url, "kai", nickname="Kai", age=33, hobbies=["guitar", "cooking"], signature="Tea house regular")
    people = {"mei": mei, "li": li, "sam": sam, "zhang": zhang, "kai": kai}
    for name in ("li", "sam", "zhang"):
        [asked] = ws(server.port, people[name]["token"], ("friend.request", {"username": "mei", "greeting": "hi!"}))
        ws(server.port, mei["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    ws(server.port, kai["token"], ("friend.request", {"username": "mei", "greeting": "We met at the tea house!"}))

    # Discover candidates; Yuki already likes Mei, so liking her back is a match.
    for name, nickname, age, hobbies, colours in [
        ("yuki", "Yuki", 26, ["photography", "ramen", "cats"], ((255, 160, 190), (120, 70, 200))),
        ("omar", "Omar", 30, ["chess", "running"], ((90, 210, 190), (20, 90, 130))),
        ("lena", "Lena", 28, ["painting", "jazz", "tea"], ((250, 210, 110), (220, 110, 60))),
    ]:
        person = register(url, name, nickname=nickname, age=age, hobbies=hobbies, signature=f"Hi, I'm {nickname}")
        ws(server.port, person["token"], ("me.update", {"avatar": upload_avatar(person, colours)}))
        people[name] = person
    ws(server.port, people["yuki"]["token"], ("discover.like", {"userId": mei["user"]["id"]}))

    # A 1:1 conversation with text, emoticons, a link, Chinese and a picture.
    [li_friend] = ws(server.port, li["token"], ("friend.list", {}))
    chat = li_friend["friends"][0]["conversationId"]
    photo = upload(url, li["token"], png(480, 320, (255, 200, 120), (90, 60, 160)))
    media = photo.rsplit("/", 1)[1]
    send = lambda session, **body: (session, ("message.send", {"conversationId": chat, "clientId": os.urandom(8).hex(), **body}))
    for session, request in [
        send(li, kind="text", text="Morning! Are we still on for the climb on Saturday? :)"),
        send(mei, kind="text", text="Yes! I'll bring the rope and snacks <3"),
        send(li, kind="image", mediaId=media),
        send(li, kind="text", text="Sunrise from the ridge last week. Route notes: https://example.com/routes/ridge"),
        send(mei, kind="text", text="Wow, that light 😍 我们周六早上七点见？"),
        send(li, kind="text", text="七点可以！See you there ;)"),
        send(li, kind="text", text=":D"),
    ]:
        ws(server.port, session["token"], request)

    # A group with notices and a few voices.
    [group] = ws(server.port, mei["token"], ("group.create", {"name": "Weekend Hikers", "description": "Trails every Saturday"}))
    ws(server.port, sam["token"], ("group.join", {"name": "Weekend Hikers"}))
    ws(server.port, li["token"], ("group.join", {"name": "weekend hikers"}))
    group_send = lambda session, text: ws(server.port, session["token"], ("message.send", {
        "conversationId": group["id"], "clientId": os.urandom(8).hex(), "kind": "text", "text": text}))
    group_send(sam, "Who's driving on Saturday?")
    group_send(li, "I can take three people 🚗")
    group_send(li, "Leaving at 6:30 sharp")
    ws(server.port, sam["token"], ("group.update", {"conversationId": group["id"], "description": "Trails every Saturday, rain or shine"}))
    group_send(mei, "Count me in! :P")
    group_send(sam, "Great, see you all there")
    return people, chat, group["id"]


def test_screenshots_of_every_page(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    people, chat, group = make_people(server)
    browser = browsers(server.url, size=PHONE)

    # ---- Signed out ----
    browser.open("#/login")
    browser.wait(".auth-card")
    browser.shoot_both("01-login", lambda b, size: (b.wait(".auth-avatar"), b.wait("form.auth-form button[type=submit]"), b.wait("a.auth-switch")))
    browser.fill("Username", "mei")
    browser.fill("Password", "wrong-password")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".auth-result", text="Login failed")
    browser.shoot_both("02-login-failed", lambda b, size: b.wait(".auth-result-text", text="Wrong username or password"))
    browser.route("#/phone")
    browser.fill("Phone number", "13912345678")
    browser.shoot_both("03-phone-login", lambda b, size: (b.wait("button.get-code"), b.field("Verification code")))
    browser.route("#/register")
    browser.fill("Username", "a")
    browser.fill("Password", "password123")
    browser.fill("Password again", "password321")
    browser.click("form.auth-form button[type=submit]")
    browser.shoot_both("04-register", lambda b, size: b.wait(".field-msg.is-error", text="different"))

    # ---- A brand-new account: empty states ----
    browser.sign_in_with_token(people["omar"])
    browser.wait(".view--list:not([hidden]) .empty")
    browser.shoot_both("05-chats-empty", lambda b, size: b.wait(".empty-title", text="No chats yet"))

    # ---- Mei ----
    browser.sign_in_with_token(people["mei"])
    browser.wait(".view--list:not([hidden]) a.row", text="Li Wei")
    browser.wait(".view--list:not([hidden]) a.row", text="Weekend Hikers")

    def sessions_check(b, size):
        rows = b.texts(".view--list:not([hidden]) a.row .row-name")
        assert rows[:3] == ["Weekend Hikers", "Li Wei", "张伟"] or rows[0] == "Weekend Hikers", rows
        assert b.wait(".tab[data-tab=chats] .badge").text
        assert b.wait(".view--list:not([hidden]) a.row .row-badge").text
    browser.shoot_both("06-chats", sessions_check)

    browser.click(".view--list:not([hidden]) .topbar-action")
    browser.shoot_both("07-action-menu", lambda b, size: (len(b.visible(".menu-item")) == 5) or (_ for _ in ()).throw(AssertionError("menu")))
    browser.click(".menu-item[data-action=add_friend]")
    browser.fill("Their username", "nobody_here")
    browser.click(".modal button[type=submit]")
    browser.wait(".modal .field-msg.is-error", text="No one has that username")
    browser.shoot_both("08-add-friend-error", lambda b, size: b.wait(".modal-title", text="Add friend"))
    browser.press("\ue00c")  # Escape
    browser.wait_gone(".modal-backdrop")

    browser.click(".tab[data-tab=contacts]")
    browser.wait(".contact-section[data-section=requests]", text="Kai")
    browser.shoot_both("09-contacts", lambda b, size: (
        b.wait(".contact-section[data-section=friends]", text="Li Wei"),
        b.wait(".contact-section[data-section=groups]", text="Weekend Hikers"),
        b.wait(".contact-section[data-section=requests] .btn-primary", text="Accept")))

    # The 1:1 dialogue.
    browser.route(f"#/chats/c/{chat}")
    browser.wait_bubble("七点可以！See you there 😉")
    browser.wait_until(lambda: browser.js("const i = document.querySelector('.bubble-image img'); return i && i.complete && i.naturalWidth > 0"), 10, "the picture")

    def dialogue_check(b, size):
        b.wait(".view--dialogue .dialogue-title", text="Li Wei")
        b.wait(".msg--self .bubble")
        b.wait(".msg--other .bubble-image img")
        b.wait(".view--dialogue a[href^='https://example.com']")
        b.wait(".day-header", text="Today")
        assert b.wait("textarea.composer-input").get_attribute("placeholder") == "say something…"
        if size == "desktop":
            b.wait(".view--list:not([hidden]) a.row.is-active", text="Li Wei")
    browser.shoot_both("10-dialogue", dialogue_check)
    browser.click(".msg--other .bubble-image")
    browser.shoot_both("11-lightbox", lambda b, size: b.wait(".lightbox img"))
    browser.press("\ue00c")
    browser.wait_gone(".lightbox")

    browser.click(".view--dialogue .topbar-action")
    browser.wait(".view--info .hero-name", text="Li Wei")
    # Idle, the page stays as it is (it once fetched the profile on every render, and each
    # answer rendered it again).
    assert browser.mutations(".view--info") < 10
    browser.shoot_both("12-contact-info", lambda b, size: (
        b.wait(".view--info .hero-name", text="Li Wei"),
        b.wait(".view--info .btn-primary", text="Send message"),
        b.wait(".view--info .btn", text="Block")))

    # The group dialogue and its details.
    browser.route(f"#/chats/c/{group}")
    browser.wait_bubble("Great, see you all there")
    browser.shoot_both("13-group-dialogue", lambda b, size: (
        b.wait(".msg-sender", text="Li Wei"),
        b.wait(".msg-system-text", text="sam changed the group’s description"),
        b.wait(".msg-system-text", text="joined the group")))
    browser.route(f"#/chats/c/{group}/info")
    browser.wait(".view--info .person", text="sam")
    browser.shoot_both("14-group-info", lambda b, size: (
        b.wait(".view--info .hero-name", text="Weekend Hikers"),
        b.wait(".view--info .person-tag", text="Owner"),
        b.wait(".view--info .topbar-text-btn", text="Edit")))
    browser.click(".view--info .topbar-text-btn")
    browser.shoot_both("15-group-edit", lambda b, size: b.field("Group name"))
    browser.click(".view--info form .btn-secondary", text="Cancel")

    # A room, entered from the menu.
    browser.route("#/chats")
    browser.click(".view--list:not([hidden]) .topbar-action")
    browser.click(".menu-item[data-action=create_room]")
    browser.fill("Room name", "Night Owls")
    browser.fill("Description", "For people who should be asleep")
    browser.click(".modal button[type=submit]")
    browser.wait(".view--dialogue .dialogue-title", text="Night Owls")
    browser.send_message("Anyone awake? :O")
    browser.wait_bubble("Anyone awake? 😮")
    browser.shoot_both("16-room-dialogue", lambda b, size: b.wait(".msg-system-text", text="created the room"))
    browser.click(".view--dialogue .topbar-action")
    browser.wait(".view--info .person", text="Mei")
    browser.shoot_both("17-room-info", lambda b, size: (b.wait(".view--info .topbar-text-btn", text="Edit"), b.wait(".view--info .btn", text="Leave room")))

    # Me.
    browser.route("#/me")
    browser.shoot_both("18-me", lambda b, size: (
        b.wait(".view--profile .hero-name", text="Mei"),
        b.wait(".view--profile .kv-list", text="climbing"),
        b.wait(".view--profile .segmented"),
        b.wait(".view--profile .logout")))
    browser.click(".view--profile .topbar-text-btn")
    browser.shoot_both("19-me-edit", lambda b, size: (b.field("Nickname"), b.field("Avatar URL"), b.wait(".upload-btn")))
    browser.click(".view--profile form .btn-secondary", text="Cancel")

    # Chinese.
    browser.click(".segment[data-lang=zh]")
    browser.wait(".tab[data-tab=chats]", text="消息")
    browser.route("#/chats")
    browser.shoot_both("20-chats-zh", lambda b, size: b.wait(".topbar-title", text="消息"))
    browser.route(f"#/chats/c/{group}")
    browser.shoot_both("21-group-dialogue-zh", lambda b, size: b.wait(".msg-system-text", text="修改了群简介"))
    browser.route("#/me")
    browser.click(".segment[data-lang=en]")
    browser.wait(".tab[data-tab=chats]", text="Chats")

    # Discover: the stack, a drag with its stamp, a match.
    browser.route("#/discover")
    browser.wait(".swipe-card.is-top")
    browser.shoot_both("22-discover", lambda b, size: (
        b.wait(".swipe-card.is-top .card-name"), b.wait(".swipe-card.is-top .chip"),
        b.wait(".round--pass"), b.wait(".round--undo"), b.wait(".round--like")))
    for label, size in (("phone", PHONE), ("desktop", (1280, 800))):
        browser.resize(*size)
        time.sleep(0.3)
        card = browser.wait(".swipe-card.is-top")
        actions = ActionChains(browser.driver, duration=60)
        actions.move_to_element(card).click_and_hold().move_by_offset(30, 4).move_by_offset(30, 4).move_by_offset(25, 2).perform()
        time.sleep(0.25)
        ActionChains(browser.driver, duration=60).move_by_offset(1, 0).perform()
        opacity = float(browser.js("return getComputedStyle(document.querySelector('.swipe-card.is-top .stamp--like')).opacity"))
        assert opacity > 0.5
        browser.screenshot(f"23-discover-drag-{label}")
        ActionChains(browser.driver).release().perform()
        time.sleep(0.6)
        browser.wait(".swipe-card.is-top")
    browser.resize(*PHONE)
    # ← passes, Backspace brings the card back.
    first = browser.wait(".swipe-card.is-top .card-name").text
    browser.press("\ue012")
    browser.wait_until(lambda: browser.wait(".swipe-card.is-top .card-name").text != first, 5, "the next card")
    browser.press("\ue003")
    browser.wait(".swipe-card.is-top .card-name", text=first)
    # Swipe until Yuki is on top, then like her: she liked Mei first.
    for _ in range(4):
        if "Yuki" in browser.wait(".swipe-card.is-top").text:
            break
        browser.press("\ue012")  # ← pass
        time.sleep(0.5)
    browser.wait(".swipe-card.is-top", text="Yuki")
    browser.click(".round--like")
    browser.wait(".modal--match", text="Yuki")
    time.sleep(0.3)
    browser.shoot_both("24-match", lambda b, size: (b.wait(".match-avatars"), b.wait(".say-hi", text="Say hi")))
    browser.click(".say-hi")
    browser.wait(".view--dialogue .dialogue-title", text="Yuki")

    # The dark theme, from the system's preference.
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    browser.route(f"#/chats/c/{chat}")
    browser.wait_bubble("七点可以！See you there 😉")
    browser.shoot_both("25-dialogue-dark", lambda b, size: b.wait_until(
        lambda: b.js("return getComputedStyle(document.body).backgroundColor") == "rgb(14, 15, 17)", 5, "the dark theme"))
    browser.route("#/contacts")
    browser.shoot_both("26-contacts-dark", lambda b, size: b.wait(".contact-section[data-section=friends]"))

    # Every signed-in page in each language and theme not shown above.
    pages = [("chats", "#/chats", ".view--list:not([hidden]) a.row"),
             ("contacts", "#/contacts", ".contact-section[data-section=strangers]"),
             ("discover", "#/discover", ".view--discover .topbar .round"),
             ("me", "#/me", ".view--profile .kv-list"),
             ("dialogue", f"#/chats/c/{chat}", ".view--dialogue .bubble"),
             ("group-info", f"#/chats/c/{group}/info", ".people .person")]
    for language, theme in (("en", "dark"), ("zh", "dark"), ("zh", "light")):
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
        browser.route("#/me")
        browser.click(f".segment[data-lang={language}]")
        browser.wait(".tab[data-tab=chats]", text="消息" if language == "zh" else "Chats")
        for name, route, ready in pages:
            browser.route(route)
            browser.shoot_both(f"28-{name}-{language}-{theme}", lambda b, size, ready=ready: b.wait(ready, timeout=15))
    browser.route("#/me")
    browser.click(".segment[data-lang=en]")
    browser.wait(".tab[data-tab=chats]", text="Chats")
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # The connection lost.
    browser.route("#/chats")
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    server.log.close()
    browser.wait(".view--list:not([hidden]) .conn-banner", text="No connection")
    browser.shoot_both("27-connection-lost", lambda b, size: b.wait(".conn-banner", text="retrying in"))
    assert browser.console_errors() == []

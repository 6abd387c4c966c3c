"""Seed 000's strangers and seed 004's top bar: people met in a group, a room or on Discover
who are not friends are listed in Contacts (newest first, opening their page, kept across a
reload, gone once friends), and Discover has round buttons at the top as well as below."""
from web import PHONE, WEB_ROOT, register, ws


def test_people_met_in_groups_rooms_and_discover_are_listed_as_strangers(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann = register(server.url, "ann")
    ben = register(server.url, "ben", nickname="Ben")
    cat = register(server.url, "cat", nickname="Cat", age=31, hobbies=["chess"])
    dan = register(server.url, "dan")
    [group] = ws(server.port, ben["token"], ("group.create", {"name": "Choir"}))
    ws(server.port, ann["token"], ("group.join", {"name": "Choir"}))
    ws(server.port, ben["token"], ("message.send", {"conversationId": group["id"], "clientId": "c-1", "kind": "text", "text": "hi all"}))
    # Dan is Ann's friend: never a stranger.
    [asked] = ws(server.port, ann["token"], ("friend.request", {"username": "dan"}))
    ws(server.port, dan["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    ws(server.port, dan["token"], ("group.join", {"name": "Choir"}))
    # Ann passed on Ben's card elsewhere (Discover then only shows Cat here).
    ws(server.port, ann["token"], ("discover.pass", {"userId": ben["user"]["id"]}))

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.click(".tab[data-tab=contacts]")
    empty = browser.wait(".contact-section[data-section=strangers]")
    assert "not your friends" in empty.text
    browser.click(".tab[data-tab=chats]")
    browser.open_chat_titled("Choir")
    browser.wait_bubble("hi all")
    browser.click(".topbar-back")

    # Cat is seen on Discover and passed.
    browser.click(".tab[data-tab=discover]")
    browser.wait(".swipe-card.is-top", text="Cat")
    browser.click(".deck-actions .round--pass")
    browser.wait_gone(".swipe-card.is-top[data-user='%s']" % cat["user"]["id"])

    browser.click(".tab[data-tab=contacts]")
    section = browser.wait(".contact-section[data-section=strangers]", text="Ben")
    names = browser.texts(".contact-section[data-section=strangers] .row-name")
    assert names == ["Cat", "Ben"], names
    assert "Seen on Discover" in section.text and "Met in a group" in section.text
    assert "dan" not in names
    browser.screenshot("contacts-strangers-phone")

    browser.driver.refresh()
    browser.wait(".contact-section[data-section=strangers]", text="Cat")
    browser.click(".contact-section[data-section=strangers] a.row", text="Ben")
    browser.wait(".hero-name", text="Ben")
    browser.click(".action-stack .btn-primary", text="Add friend")
    browser.wait(".action-stack .btn-secondary", text="Waiting")
    [requests] = ws(server.port, ben["token"], ("friend.requests", {}))
    ws(server.port, ben["token"], ("friend.accept", {"requestId": requests["incoming"][0]["id"]}))
    browser.route("#/contacts")
    browser.wait(".contact-section[data-section=friends]", text="Ben")
    browser.wait_until(lambda: browser.texts(".contact-section[data-section=strangers] .row-name") == ["Cat"], 10, "only Cat left")


def test_discover_has_a_top_bar_of_round_buttons(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann = register(server.url, "ann")
    register(server.url, "cat", nickname="Cat", age=31, hobbies=["chess"])
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann, route="#/discover")
    browser.wait(".swipe-card.is-top", text="Cat")
    top = browser.visible(".view--discover .topbar .round")
    assert [b.get_attribute("aria-label") for b in top] == ["My profile", "Chats"]
    for button in top:
        size = button.size
        assert size["width"] >= 44 and size["height"] >= 44
    assert browser.count(".view--discover .deck-actions .round") == 3
    browser.screenshot("discover-topbar-phone")
    browser.click(".view--discover .topbar .round[aria-label='Chats']")
    browser.wait(".tab[data-tab=chats].is-active")

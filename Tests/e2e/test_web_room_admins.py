"""A room's creator and the admins the creator appoints moderate it from its details page:
the creator makes someone an admin; the admin removes a third person, then bans them; the
banned person is refused at the door with a clear error until the admin lifts the ban. Only
the creator and admins see the menus and the moderation card. Screenshots (light and dark) in
Tests/e2e/output/."""
import time

from selenium.webdriver.common.keys import Keys

from web import DESKTOP, PHONE, WEB_ROOT, register, ws

DARK = {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
LIGHT = {"features": []}


def enter_room(browser, name: str):
    browser.menu_action("enter_room")
    browser.fill("Room name", name)
    browser.submit_modal()
    browser.wait(".view--dialogue .dialogue-title", text=name)


def test_room_creator_appoints_an_admin_who_kicks_and_bans(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cat = (register(server.url, name) for name in ("ann", "ben", "cat"))
    creator = browsers(server.url, size=DESKTOP)
    creator.sign_in_with_token(ann)
    creator.menu_action("create_room")
    creator.fill("Room name", "Lounge")
    creator.submit_modal()
    creator.wait(".view--dialogue .dialogue-title", text="Lounge")
    room = creator.js("return location.hash").rsplit("/", 1)[1]
    admin = browsers(server.url, size=DESKTOP)
    admin.sign_in_with_token(ben)
    enter_room(admin, "Lounge")
    guest = browsers(server.url, size=PHONE)
    guest.sign_in_with_token(cat)
    enter_room(guest, "Lounge")
    info = f"#/chats/c/{room}/info"

    # The creator's page: her tag, a menu on each of the others, the moderation card.
    creator.route(info)
    creator.wait(".people .person", text="cat", timeout=20)
    creator.wait(".people .person-cell[data-role=owner] .person-tag", text="Creator")
    creator.wait(".governance[data-kind=room] .empty-text", text="No admins yet")
    assert creator.count(".people .person-manage") == 2
    creator.click(".people .person-manage[aria-label='Manage ben']")
    menu = creator.wait(".modal[data-action=manage-member]")
    # A room has no owner to hand over and no mutes: make admin, remove, ban.
    assert [b.get_attribute("data-manage") for b in menu.find_elements("css selector", "button[data-manage]")] \
        == ["make_admin", "kick_member", "ban_member"]
    creator.click(".modal[data-action=manage-member] button[data-manage=make_admin]")
    creator.wait(".people .person-cell[data-role=admin] .person-tag", text="Admin")
    creator.wait(".governance .admin-row .row-name", text="ben")
    creator.route(f"#/chats/c/{room}")
    creator.wait_system("You made ben an admin")
    creator.route(info)
    creator.wait(".governance .admin-row", text="ben")
    creator.screenshot("room-admins-creator-desktop")

    # Someone who does not moderate sees the roles and nothing to act with.
    guest.route(info)
    guest.wait(".people .person-cell[data-role=admin] .person-tag", text="Admin", timeout=20)
    assert guest.count(".people .person-manage") == 0 and guest.count(".governance") == 0

    # The admin: a menu on cat only (not on the creator), and no making of admins.
    admin.route(info)
    admin.wait(".governance[data-kind=room]", timeout=20)
    assert admin.count(".people .person-manage") == 1
    admin.click(".people .person-manage[aria-label='Manage cat']")
    menu = admin.wait(".modal[data-action=manage-member]")
    assert [b.get_attribute("data-manage") for b in menu.find_elements("css selector", "button[data-manage]")] \
        == ["kick_member", "ban_member"]
    admin.click(".modal[data-action=manage-member] button[data-manage=kick_member]")
    admin.click(".modal .btn-danger", text="Remove from room")
    admin.wait(".toast", text="cat was removed from the room")
    guest.wait(".toast", text="ben removed you from “Lounge”", timeout=20)
    admin.wait_until(lambda: "cat" not in admin.texts(".people .person-name"), 15, "cat to leave the list")

    # Removed is not banned: cat enters again from the room's page.
    guest.route(f"#/chats/c/{room}")
    guest.wait_system("ben removed you from the room", timeout=20)
    guest.click(".not-member button", text="Enter again")
    guest.wait(".view--dialogue .composer", timeout=20)
    admin.wait(".people .person", text="cat", timeout=20)

    # Banned: out again, told so, and refused at the door, by the page and by the "+" form.
    admin.click(".people .person-manage[aria-label='Manage cat']")
    admin.click(".modal[data-action=manage-member] button[data-manage=ban_member]")
    admin.click(".modal .btn-danger", text="Ban")
    admin.wait(".governance .ban-row .row-name", text="cat", timeout=20)
    guest.wait(".toast", text="ben banned you from “Lounge”", timeout=20)
    guest.wait(".not-member button", text="Enter again", timeout=20)
    time.sleep(0.5)  # the toast of the ban goes first, so the refusal's toast is the one seen
    guest.click(".not-member button", text="Enter again")
    guest.wait(".toast--error", text="You are banned from this room.", timeout=20)
    guest.shoot_both("room-banned-guest")
    guest.route("#/chats")
    guest.menu_action("enter_room")
    guest.fill("Room name", "Lounge")
    guest.click(".modal button[type=submit]")
    guest.wait(".modal .modal-error", text="You are banned from this room.", timeout=20)
    guest.screenshot("room-banned-enter-form-phone")
    guest.press(Keys.ESCAPE)
    guest.wait_gone(".modal-backdrop")
    admin.shoot_both("room-admins-bans")
    admin.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", DARK)
    admin.wait_until(lambda: admin.js("return getComputedStyle(document.body).backgroundColor") == "rgb(14, 15, 17)", 5, "the dark theme")
    admin.shoot_both("room-admins-bans-dark")
    admin.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", LIGHT)
    [bans] = ws(server.port, ann["token"], ("room.bans", {"conversationId": room}))
    assert [(b["user"]["username"], b["bannedBy"]) for b in bans["bans"]] == [("cat", ben["user"]["id"])]

    # Lifted, cat comes back in.
    admin.click(".governance .ban-row button[data-ban=lift]")
    admin.wait(".governance .empty-text", text="Nobody is banned", timeout=20)
    guest.route("#/chats")
    guest.route(f"#/chats/c/{room}")
    guest.click(".not-member button", text="Enter again")
    guest.wait(".view--dialogue .composer", timeout=20)
    creator.route(f"#/chats/c/{room}")
    creator.wait_system("cat entered the room", timeout=20)

    # The creator takes the role away from her card.
    creator.route(info)
    creator.click(".governance .admin-row button[data-admin=remove]")
    creator.wait(".governance .empty-text", text="No admins yet", timeout=20)
    [admins] = ws(server.port, ann["token"], ("room.admins", {"conversationId": room}))
    assert admins["users"] == []

    # In Chinese: the creator's tag and the card's words.
    creator.route("#/me")
    creator.click(".segment[data-lang=zh]")
    creator.route(info)
    creator.wait(".people .person-cell[data-role=owner] .person-tag", text="创建者")
    creator.wait(".governance[data-kind=room] .card-title", text="聊天室管理")
    creator.shoot_both("room-moderation-zh")
    creator.route("#/me")
    creator.click(".segment[data-lang=en]")
    for browser in (creator, admin, guest):
        assert browser.console_errors() == []

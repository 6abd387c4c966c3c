"""A group's owner manages it from its details page: removes a member and hands the group
over, each confirmed first, and everyone sees the notice."""
from web import DESKTOP, WEB_ROOT, register, ws


def test_the_owner_removes_a_member_and_hands_the_group_over(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cat = register(server.url, "ann"), register(server.url, "ben"), register(server.url, "cat")
    [group] = ws(server.port, ann["token"], ("group.create", {"name": "Band"}))
    for member in (ben, cat):
        ws(server.port, member["token"], ("group.join", {"name": "Band"}))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{group['id']}/info")
    browser.wait(".people .person", text="cat")
    # Only the owner's page offers it, and not for the owner herself.
    assert browser.count(".people .person-manage") == 2
    browser.screenshot("group-manage-desktop")

    browser.click(".people .person-manage[aria-label='Manage ben']")
    browser.click(".modal[data-action=manage-member] button[data-manage=remove]")
    browser.click(".modal .btn-danger", text="Remove from group")
    browser.wait(".toast", text="ben was removed from the group")
    browser.wait_until(lambda: "ben" not in browser.texts(".people .person-name"), 10, "ben to leave the list")
    [members] = ws(server.port, cat["token"], ("group.members", {"conversationId": group["id"]}))
    assert sorted(m["user"]["username"] for m in members["members"]) == ["ann", "cat"]

    browser.click(".people .person-manage[aria-label='Manage cat']")
    browser.click(".modal[data-action=manage-member] button[data-manage=transfer]")
    browser.click(".modal .btn-danger", text="Make owner")
    browser.wait(".toast", text="cat is the owner now")
    browser.wait_until(lambda: not browser.visible(".people .person-manage"), 10, "the manage buttons to go")
    owner_tile = browser.wait(".people .person", text="cat")
    assert "Owner" in owner_tile.text

    browser.route(f"#/chats/c/{group['id']}")
    browser.wait_system("You removed ben from the group")
    browser.wait_system("You made cat the group owner")

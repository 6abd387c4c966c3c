"""A group's owner manages it from its details page: removes a member and hands the group
over, each confirmed first, and everyone sees the notice."""
import asyncio

from web import DESKTOP, WEB_ROOT, register, ws


def refused(port: int, token: str, op: str, data: dict) -> str:
    """The error code of a call that must fail."""
    from client import Session

    async def run():
        session = await Session.open(port, token)
        try:
            reply = await session.call(op, data)
            assert not reply["ok"], (op, reply)
            return reply["error"]["code"]
        finally:
            await session.close()
    return asyncio.run(asyncio.wait_for(run(), 30))


def band(server, owner: dict, members) -> dict:
    """The group "Band", made by `owner`, that each of `members` joined."""
    [group] = ws(server.port, owner["token"], ("group.create", {"name": "Band"}))
    for member in members:
        ws(server.port, member["token"], ("group.join", {"name": "Band"}))
    return group


def test_the_owner_removes_a_member_and_hands_the_group_over(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cat = register(server.url, "ann"), register(server.url, "ben"), register(server.url, "cat")
    group = band(server, ann, (ben, cat))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{group['id']}/info")
    browser.wait(".people .person", text="cat")
    # Only the owner's page offers it, and not for the owner herself.
    assert browser.count(".people .person-manage") == 2
    browser.screenshot("group-manage-desktop")

    browser.click(".people .person-manage[aria-label='Manage ben']")
    browser.click(".modal[data-action=manage-member] button[data-manage=remove]")
    # The confirmation names its action in its title, not just "Confirm".
    browser.wait(".modal--confirm .modal-title", text="Remove from the group?")
    browser.screenshot("group-confirm-remove-desktop")
    browser.click(".modal .btn-danger", text="Remove from group")
    browser.wait(".toast", text="ben was removed from the group")
    browser.wait_until(lambda: "ben" not in browser.texts(".people .person-name"), 10, "ben to leave the list")
    [members] = ws(server.port, cat["token"], ("group.members", {"conversationId": group["id"]}))
    assert sorted(m["user"]["username"] for m in members["members"]) == ["ann", "cat"]

    browser.click(".people .person-manage[aria-label='Manage cat']")
    browser.click(".modal[data-action=manage-member] button[data-manage=transfer]")
    browser.wait(".modal--confirm .modal-title", text="Hand the group over?")
    browser.click(".modal .btn-danger", text="Make owner")
    browser.wait(".toast", text="cat is the owner now")
    browser.wait_until(lambda: not browser.visible(".people .person-manage"), 10, "the manage buttons to go")
    owner_tile = browser.wait(".people .person", text="cat")
    assert "Owner" in owner_tile.text

    browser.route(f"#/chats/c/{group['id']}")
    browser.wait_system("You removed ben from the group")
    browser.wait_system("You made cat the group owner")


def test_admins_moderate_links_and_requests_from_the_details_page(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cat, dan = (register(server.url, name) for name in ("ann", "ben", "cat", "dan"))
    group = band(server, ann, (ben, cat))
    ws(server.port, ann["token"], ("group.admin.add", {"conversationId": group["id"], "userId": ben["user"]["id"]}))
    browser = browsers(server.url, size=DESKTOP)
    # Ben is an admin: badges for the owner and him, a menu for cat only (not the owner).
    browser.sign_in_with_token(ben, route=f"#/chats/c/{group['id']}/info")
    browser.wait(".people .person", text="cat")
    browser.wait(".people .person-cell[data-role=admin] .person-tag", text="Admin")
    assert browser.count(".people .person-manage") == 1

    # Mute cat from the menu: the badge shows and cat is refused natively.
    browser.click(".people .person-manage[aria-label='Manage cat']")
    browser.click(".modal[data-action=manage-member] button[data-manage=mute_member]")
    browser.wait(".people .person-tag--muted", text="Muted")
    assert refused(server.port, cat["token"], "message.send",
                   {"conversationId": group["id"], "clientId": "c1", "kind": "text", "text": "hi"}) == "muted"

    # The rules: approval, then a request from dan that ben accepts from the page.
    browser.js("const s = document.querySelector('select[name=joinMode]'); s.value = 'approval'; s.dispatchEvent(new Event('change'));")
    browser.wait_until(lambda: ws(server.port, ann["token"], ("group.get", {"conversationId": group["id"]}))[0]["joinMode"] == "approval",
                       10, "the join mode to change")
    [pending] = ws(server.port, dan["token"], ("group.join", {"name": "Band"}))
    assert pending["pending"] is True
    browser.route(f"#/chats/c/{group['id']}")
    browser.route(f"#/chats/c/{group['id']}/info")
    browser.wait(".request-row .request-name", text="dan")
    browser.screenshot("group-governance-desktop")
    browser.click(".request-row button[data-request=accept]")
    browser.wait(".people .person", text="dan")

    # A link: created, shown; cat's friend opens it and sees the preview, then joins.
    browser.click(".governance button[data-invite=create]")
    code = browser.wait(".invite-row .invite-url")
    token = code.text.rsplit("/", 1)[1]
    eve = register(server.url, "eve")
    landing = browsers(server.url, size=DESKTOP)
    landing.sign_in_with_token(eve, route=f"#/invite/{token}")
    landing.wait(".modal[data-action=invite] .invite-name", text="Band")
    landing.wait(".modal[data-action=invite] .invite-count", text="4 members")
    landing.screenshot("group-invite-landing")
    landing.click(".modal[data-action=invite] button[data-invite=join]")
    landing.wait_until(lambda: ws(server.port, ann["token"], ("group.get", {"conversationId": group["id"]}))[0]["memberCount"] == 5,
                       10, "eve to join")
    # Revoked, the link stops working.
    browser.click(".invite-row button[data-invite=revoke]")
    browser.wait(".governance .empty-text", text="No links yet")
    assert refused(server.port, dan["token"], "group.invite.preview", {"token": token}) == "invite_revoked"


def test_a_group_opened_from_its_link_shows_its_member_count_at_once(parley, browsers):
    # Opened straight from its address (before the chats list came) or from the list, the
    # header says the same: the name and how many are in the group.
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, cat = register(server.url, "ann"), register(server.url, "ben"), register(server.url, "cat")
    group = band(server, ann, (ben, cat))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(ben, route=f"#/chats/c/{group['id']}")
    browser.wait(".dialogue-title", text="Band")
    browser.wait(".view--dialogue .topbar-subtitle", text="3 members")
    # Chinese: the same count, worded in Chinese.
    chinese = browsers(server.url, size=DESKTOP, language="zh-CN")
    chinese.sign_in_with_token(cat, route=f"#/chats/c/{group['id']}")
    chinese.wait(".view--dialogue .topbar-subtitle", text="3 位成员")


def notice_texts(browser) -> list[str]:
    """The system notices as the client wrote them (the page's layout collapses spaces)."""
    return browser.js("return [...document.querySelectorAll('.view--dialogue .msg-system-text')].map((e) => e.textContent)")


def test_a_notice_keeps_the_spaces_inside_a_name_and_sets_latin_names_apart_in_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann = register(server.url, "ann", nickname="Ann  Lee")
    ben = register(server.url, "ben", nickname="小林Lin")
    cat = register(server.url, "cat", nickname="Mei")
    dan = register(server.url, "dan")
    group = band(server, ann, (dan, ben, cat))
    ws(server.port, ann["token"], ("group.remove", {"conversationId": group["id"], "userId": cat["user"]["id"]}))
    chinese = browsers(server.url, size=DESKTOP, language="zh-CN")
    chinese.sign_in_with_token(dan, route=f"#/chats/c/{group['id']}")
    chinese.wait_system("移出了群聊")
    texts = notice_texts(chinese)
    # The name's two spaces stay; a space sets a Latin edge apart from the Chinese words
    # (inside the sentence only, none at its start); a Chinese edge needs none.
    assert "Ann  Lee 将 Mei 移出了群聊" in texts, texts
    assert "小林Lin 加入了群聊" in texts, texts
    assert "你加入了群聊" in texts, texts
    english = browsers(server.url, size=DESKTOP)
    english.sign_in_with_token(ben, route=f"#/chats/c/{group['id']}")
    english.wait_system("removed")
    texts = notice_texts(english)
    assert "Ann  Lee removed Mei from the group" in texts, texts
    assert "Mei joined the group" in texts, texts

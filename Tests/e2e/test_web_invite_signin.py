"""An invite link opened while signed out survives the sign-in: the login page says why it
is there, and right after signing in (or registering) the group's join preview opens for
that link, once; the kept token is gone from the tab's storage after use."""
from web import DESKTOP, WEB_ROOT, register, ws


def invite_link(server, owner: dict, name: str) -> str:
    group = ws(server.port, owner["token"], ("group.create", {"name": name}))[0]
    return ws(server.port, owner["token"], ("group.invite.create", {"conversationId": group["id"]}))[0]["token"]


def test_an_invite_link_opened_signed_out_lands_on_the_preview_after_sign_in(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    owner = register(server.url, "host")
    register(server.url, "guest")
    token = invite_link(server, owner, "Night Owls")

    browser = browsers(server.url, size=DESKTOP)
    browser.open(f"#/invite/{token}")
    browser.wait(".auth-notice", text="invited")
    assert browser.js("return sessionStorage.getItem('parley.pendingInvite')") == token
    browser.fill("Username", "guest")
    browser.fill("Password", "password123")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".modal[data-action=invite] .invite-name", text="Night Owls")
    browser.wait(".modal[data-action=invite] .invite-count", text="1 member")
    assert browser.js("return sessionStorage.getItem('parley.pendingInvite')") is None
    browser.screenshot("web-invite-after-sign-in")
    browser.click(".modal[data-action=invite] button[data-invite=join]")
    browser.wait(".view--dialogue .dialogue-title", text="Night Owls")
    # Joined through the link, the header counts the newcomer at once, as from the list.
    browser.wait(".view--dialogue .topbar-subtitle", text="2 members")

    # Used once: a reload does not bring the preview back.
    browser.driver.refresh()
    browser.wait(".shell")
    assert browser.count(".modal[data-action=invite]") == 0


def test_registration_after_an_invite_link_lands_on_the_preview_too(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    owner = register(server.url, "keeper")
    token = invite_link(server, owner, "Early Birds")

    browser = browsers(server.url, size=DESKTOP, language="zh-CN")
    browser.open(f"#/invite/{token}")
    browser.wait(".auth-notice", text="邀请")
    browser.route("#/register")
    browser.fill("用户名", "newcomer")
    browser.fill("密码", "password123")
    browser.fill("确认密码", "password123")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".modal[data-action=invite] .invite-name", text="Early Birds")
    assert browser.js("return sessionStorage.getItem('parley.pendingInvite')") is None
    browser.screenshot("web-invite-after-register-zh")

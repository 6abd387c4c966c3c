"""The profile page's Security section in the browser: devices (sign one out, all others),
a wrong and a right password change, binding a phone with the code from the outbox, an
export with progress and its download link, and deleting the account behind a typed
confirmation; screenshots of each state in Tests/e2e/output/."""
from api import call
import time

from web import PHONE, WEB_ROOT, outbox_codes, register, ws


def test_security_section(parley, browsers):
    server = parley("--password-cost", "minimum", "--sms-resend-interval", "1", web_root=WEB_ROOT)
    session = register(server.url, "mei", nickname="Mei")
    for name in ("Old laptop", "Tablet"):
        other = call(server.url, "POST", "/v1/auth/login", {"username": "mei", "password": "password123", "deviceName": name})
        assert other.status == 200
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(session, "#/me")
    browser.wait("#security")

    # Devices: three, this one marked; sign one out, then all others.
    browser.wait_until(lambda: browser.count(".device") == 3, 10, "three devices")
    assert "Old laptop" in browser.wait(".device-list").text
    assert browser.count(".device[data-current='true']") == 1
    browser.js("document.querySelector('#security').scrollIntoView()")
    browser.screenshot("security-devices-phone")
    browser.click(".device button[data-action='sign-out']")
    browser.wait_until(lambda: browser.count(".device") == 2, 10, "one device signed out")
    browser.click("button[data-action='sign-out-others']")
    browser.click(".modal button", text="Sign out all other devices")
    browser.wait_until(lambda: browser.count(".device") == 1, 10, "only this device left")

    # Password: a wrong current one is explained next to it; the right one works.
    browser.fill("Current password", "not-the-password")
    browser.fill("New password", "second-password")
    browser.click("form[data-form='password'] button[type=submit]")
    browser.wait("form[data-form='password'] .field-msg.is-error", text="password is wrong")
    browser.screenshot("security-wrong-password-phone")
    browser.fill("Current password", "password123")
    browser.click("form[data-form='password'] button[type=submit]")
    browser.wait(".toast", text="Password changed")
    assert call(server.url, "POST", "/v1/auth/login", {"username": "mei", "password": "second-password"}).status == 200

    # Phone: the code from the outbox binds the number.
    browser.fill("New phone number", "13800138055")
    browser.click("button[data-action='phone-send']")
    browser.field("Code from the text message")
    [sms] = [code for code in outbox_codes(server.data_dir) if code["phone"] == "+8613800138055"]
    browser.fill("Code from the text message", sms["code"])
    browser.click("button[data-action='phone-verify']")
    browser.wait(".security-phone", text="+8613800138055")

    # Export: progress, then a download link.
    browser.click("button[data-action='export']")
    browser.wait("a[data-action='export-download']", timeout=30)
    assert browser.wait("[data-export='ready']").text
    browser.js("document.querySelector('[data-security=security_export]').scrollIntoView()")
    browser.shoot_both("security-export")

    # Deleting needs the password and the username typed exactly.
    # (The phone's unbind form has a "Password" field too: this is the delete form's.)
    browser.type("form[data-form='delete'] input[name='delete-password']", "second-password")
    browser.fill("Type “mei” to confirm", "me")
    browser.click("form[data-form='delete'] button[type=submit]")
    browser.wait("form[data-form='delete'] .field-msg.is-error", text="does not match")
    browser.js("document.querySelector('[data-form=delete]').scrollIntoView()")
    browser.screenshot("security-delete-mismatch-phone")
    browser.fill("Type “mei” to confirm", "mei")
    browser.click("form[data-form='delete'] button[type=submit]")
    browser.wait("form.auth-form", timeout=15)
    assert call(server.url, "GET", "/v1/me", token=session["token"]).error_code == "unauthorized"
    taken = call(server.url, "POST", "/v1/auth/register", {"username": "mei", "password": "password123"})
    assert taken.error_code == "username_taken"
    assert browser.console_errors() == []


def test_security_section_in_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    session = register(server.url, "lan")
    # A name the user typed reads as typed; one like the server makes up is worded in Chinese.
    for name in ("Bob on holiday", "Firefox on Windows"):
        other = call(server.url, "POST", "/v1/auth/login", {"username": "lan", "password": "password123", "deviceName": name})
        assert other.status == 200
    browser = browsers(server.url, size=PHONE, language="zh-CN")
    browser.sign_in_with_token(session, "#/me")
    browser.wait(".security-heading", text="账号安全")
    browser.fill("当前密码", "not-the-password")
    browser.fill("新密码", "second-password")
    browser.click("form[data-form='password'] button[type=submit]")
    browser.wait("form[data-form='password'] .field-msg.is-error", text="密码不正确")
    browser.wait(".device-list .device", text="本设备")
    devices = browser.wait(".device-list").text
    assert "Bob on holiday" in devices and "Windows 上的 Firefox" in devices, devices
    assert "holiday 上的" not in devices, devices
    browser.js("document.querySelector('#security').scrollIntoView()")
    browser.screenshot("security-zh-phone")
    browser.type("form[data-form='delete'] input[name='delete-password']", "password123")
    browser.fill("输入「lan」以确认", "lan")
    browser.click("form[data-form='delete'] button[type=submit]")
    browser.wait("form.auth-form", timeout=15)


def test_a_phone_account_deletes_itself_with_a_code_and_its_friend_sees_deleted_user(parley, browsers):
    server = parley("--password-cost", "minimum", "--sms-resend-interval", "1", web_root=WEB_ROOT)
    assert call(server.url, "POST", "/v1/auth/sms/request", {"phone": "13800138066"}).status == 200
    [first] = outbox_codes(server.data_dir)
    signed_in = call(server.url, "POST", "/v1/auth/sms/verify", {"phone": "13800138066", "code": first["code"]}).json
    assert call(server.url, "PATCH", "/v1/me", {"username": "pho"}, token=signed_in["token"]).status == 200
    signed_in["user"] = call(server.url, "GET", "/v1/me", token=signed_in["token"]).json
    ann = register(server.url, "ann")
    [asked] = ws(server.port, signed_in["token"], ("friend.request", {"username": "ann"}))
    [accepted] = ws(server.port, ann["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    ws(server.port, signed_in["token"], ("message.send", {"conversationId": accepted["conversationId"], "clientId": "c1",
                                                          "kind": "text", "text": "bye for now"}))

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(signed_in, "#/me")
    browser.wait("#security")
    # The account has no password: the server says so, and the form asks for a code instead.
    browser.type("form[data-form='delete'] input[name='delete-password']", "anything-at-all")
    browser.fill("Type “pho” to confirm", "pho")
    browser.click("form[data-form='delete'] button[type=submit]")
    browser.wait("form[data-form='delete'] .field-msg.is-error", text="Request a code")
    time.sleep(1.1)
    assert call(server.url, "POST", "/v1/auth/sms/request", {"phone": "13800138066"}).status == 200
    code = outbox_codes(server.data_dir)[-1]["code"]
    browser.fill("Code from the text message", code)
    browser.js("document.querySelector('[data-form=delete]').scrollIntoView()")
    browser.screenshot("security-delete-code-phone")
    browser.click("form[data-form='delete'] button[type=submit]")
    browser.wait("form.auth-form", timeout=15)

    # Ann's chat keeps the message, from "Deleted user".
    friend = browsers(server.url, size=PHONE)
    friend.sign_in_with_token(ann, "#/chats")
    friend.wait(".row .row-name", text="Deleted user")
    friend.open_chat_titled("Deleted user")
    friend.wait_bubble("bye for now")
    friend.screenshot("security-deleted-user-seen-by-friend-phone")

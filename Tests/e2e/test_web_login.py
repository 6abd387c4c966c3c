"""The web client's entrance: phone login with the code read from the SMS outbox, the
login page's remembered user, show/hide password, disabled button and failure screen, and
the register page's per-field messages."""
from web import PHONE, WEB_ROOT, outbox_codes, register


def test_phone_login_with_code_from_the_outbox(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    browser = browsers(server.url, size=PHONE)
    browser.open("#/login")
    browser.click("a.auth-switch", text="phone")
    phone = browser.field("Phone number")
    get_code = browser.wait("button.get-code")
    assert not get_code.is_enabled()
    phone.send_keys("1380013")
    browser.field("Verification code").click()
    browser.wait(".field-msg.is-error", text="11-digit mobile number")
    phone.send_keys("8000x9")                  # letters are dropped, the length is capped
    assert browser.js("return arguments[0].value", phone) == "13800138000"
    browser.wait_until(lambda: get_code.is_enabled(), 5, "get code to be enabled")
    browser.screenshot("phone-login-filled-phone")
    get_code.click()
    browser.wait("button.get-code", text="Resend in")
    assert not browser.wait("button.get-code").is_enabled()
    [sms] = outbox_codes(server.data_dir)
    assert sms["phone"] == "+8613800138000"
    code = browser.field("Verification code")
    assert code.get_attribute("maxlength") == "6"
    login = browser.wait("form.auth-form button[type=submit]")
    assert not login.is_enabled()
    wrong = sms["code"][:-1] + str((int(sms["code"][-1]) + 1) % 10)
    code.send_keys(wrong + "99")
    assert browser.js("return arguments[0].value", code) == wrong
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".auth-result", text="Login failed")
    assert "code is wrong" in browser.wait(".auth-result").text
    browser.screenshot("phone-login-failed-phone")
    browser.click(".auth-result button", text="Try again")
    code = browser.field("Verification code")
    code.send_keys(sms["code"])
    browser.click("form.auth-form button[type=submit]")

    # A new phone account lands on its profile, ready to pick a username.
    browser.wait(".view--profile form")
    browser.fill("Username", "phone_person")
    browser.click(".view--profile form button[type=submit]")
    browser.wait(".view--profile .hero-handle", text="@phone_person")
    assert "+8613800138000" in browser.wait(".view--profile .kv-list").text


def test_login_page_remembers_and_explains(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    register(server.url, "mei", nickname="Mei")
    browser = browsers(server.url, size=PHONE)
    browser.open("#/login")
    button = browser.wait("form.auth-form button[type=submit]")
    assert not button.is_enabled()
    browser.fill("Username", "mei")
    password = browser.fill("Password", "short")
    assert not button.is_enabled()
    browser.field("Username").click()
    browser.wait(".field-msg.is-error", text="At least 8 characters")
    # Show and hide the password.
    assert password.get_attribute("type") == "password"
    browser.click(".input-toggle")
    assert password.get_attribute("type") == "text"
    browser.click(".input-toggle")
    assert password.get_attribute("type") == "password"
    # A wrong password: the failure screen says why.
    browser.fill("Password", "not-the-password")
    browser.wait_until(lambda: button.is_enabled(), 5, "the login button")
    button.click()
    browser.wait(".auth-result", text="Wrong username or password")
    browser.click(".auth-result button")
    browser.fill("Password", "password123")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".shell")

    # Log out: the login page shows Mei's avatar and name again.
    browser.click(".tab[data-tab=me]")
    browser.click(".view--profile .logout")
    # It asks first; cancelling keeps the session.
    browser.wait(".modal", text="Log out of Parley on this device?")
    browser.click(".modal .btn-secondary", text="Cancel")
    browser.wait_gone(".modal-backdrop")
    assert browser.visible(".view--profile .logout")
    browser.click(".view--profile .logout")
    browser.click(".modal .btn-danger", text="Log out")
    browser.wait(".auth-card")
    assert browser.js("return document.querySelector('.auth-card input[autocomplete=username]').value") == "mei"
    browser.wait(".auth-avatar .avatar-initial", text="M")
    assert browser.wait(".auth-last").text
    # Another username shows the default avatar.
    browser.fill("Username", "someone_else")
    browser.wait(".auth-avatar .avatar--placeholder")

    # A token the server no longer knows: back to the login page, told why.
    browser.js("localStorage.setItem('parley.token', 'not-a-real-token');"
               "localStorage.setItem('parley.account', JSON.stringify({id: '1', username: 'mei', hobbies: [], createdAt: 0}));"
               "history.replaceState(null, '', '#/chats');")
    browser.driver.refresh()
    browser.wait(".auth-notice", text="Your session has ended")


def test_register_names_each_problem(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    register(server.url, "taken_name")
    browser = browsers(server.url, size=PHONE)
    browser.open("#/register")
    # Like Login's, the button waits for every field; leaving each empty names its problem.
    submit = browser.wait("form.auth-form button[type=submit]")
    assert not submit.is_enabled()
    for label in ("Username", "Password", "Password again"):
        browser.field(label).click()
    browser.field("Username").click()
    assert not submit.is_enabled()
    messages = browser.texts(".field-msg.is-error")
    assert messages == ["Enter your username", "Enter your password", "Enter the password a second time"], messages
    browser.fill("Username", "x")
    browser.fill("Password", "password123")
    browser.fill("Password again", "password124")
    browser.click("form.auth-form button[type=submit]")
    messages = browser.texts(".field-msg.is-error")
    assert messages == ["3–32 letters, digits, _ . or -", "The two passwords are different"], messages
    browser.fill("Username", "Taken_Name")
    browser.fill("Password again", "password123")
    browser.click("form.auth-form button[type=submit]")
    browser.wait(".auth-result", text="Registration failed")
    assert "taken" in browser.wait(".auth-result-text").text

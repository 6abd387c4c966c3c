"""The web client's small rules, run in the browser from its own modules: seed 000's time
format, day headers, the display-name rule, and emoticons turned into emoji."""
from web import PHONE, WEB_ROOT


def page(parley, browsers):
    """A browser on the sign-in page, where the client's modules can be imported."""
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    browser = browsers(server.url, size=PHONE)
    browser.open("#/login")
    browser.wait(".auth-card")
    return browser


def test_time_names_and_emoticons(parley, browsers):
    result = page(parley, browsers).driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all([import('/js/time.js'), import('/js/emoticons.js'), import('/js/store.js')]).then(([time, emo, store]) => {
          const now = new Date(2025, 0, 15, 12, 0, 0).getTime();
          const hour = 3600 * 1000;
          done({
            recent: time.messageTime(now - 3 * hour - 59 * 60 * 1000, now),
            old: time.messageTime(now - 4 * hour, now),
            future: time.messageTime(now + 5000, now),
            today: time.dayHeader(now - hour, now),
            yesterday: time.dayHeader(now - 24 * hour, now),
            longAgo: time.dayHeader(new Date(2024, 11, 1, 9, 0, 0).getTime(), now),
            names: [store.displayName({id: '7', nickname: 'Mei', username: 'mei'}),
                    store.displayName({id: '7', nickname: '', username: 'mei'}),
                    store.displayName({id: '7'}), store.displayName(null, '9')],
            emoji: emo.emojify(':) :( ;) :D :P <3 :-) XD'),
            untouched: emo.emojify('http://example.com/a:/b at 10:30, a:b, <30, EXDATE'),
            chinese: emo.emojify('你好:)'),
          });
        });""")
    assert result["recent"] == "08:01:00"
    assert result["old"] == "2025-01-15 08:00:00"
    assert result["future"] == "12:00:05"
    assert result["today"] == "Today" and result["yesterday"] == "Yesterday"
    assert result["longAgo"] == "2024-12-01 Sunday"
    assert result["names"] == ["Mei", "mei", "ID: 7", "ID: 9"]
    assert result["emoji"] == "🙂 🙁 😉 😄 😛 ❤️ 🙂 😆"
    assert result["untouched"] == "http://example.com/a:/b at 10:30, a:b, <30, EXDATE"
    assert result["chinese"] == "你好🙂"


def test_the_browser_language_picks_chinese(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    browser = browsers(server.url, size=PHONE, language="zh-CN")
    browser.open("#/login")
    browser.wait(".auth-title", text="欢迎回来")
    assert browser.js("return document.documentElement.lang") == "zh-CN"
    assert browser.wait("form.auth-form button[type=submit]").text == "登录"
    # The switch on the page overrides it, and is remembered.
    browser.click(".auth-lang")
    browser.wait(".auth-title", text="Welcome back")
    browser.driver.refresh()
    browser.wait(".auth-title", text="Welcome back")


def test_a_refusal_in_a_room_names_its_creator_not_a_groups_owner(parley, browsers):
    result = page(parley, browsers).driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/i18n.js').then((i18n) => {
          const said = (code, kind) => i18n.errorText({ code }, kind ? { kind } : undefined);
          done({
            group: [said('not_admin', 'group'), said('not_owner', 'group')],
            room: [said('not_admin', 'room'), said('not_owner', 'room')],
            plain: said('not_admin'),
            otherInRoom: said('not_member', 'room'),
          });
        });""")
    assert result["group"] == ["Only the group’s owner or an admin can do that.", "Only the group’s owner can do that."]
    assert result["room"] == ["Only the room’s creator or an admin can do that.", "Only the room’s creator can do that."]
    assert result["plain"] == result["group"][0]
    assert result["otherInRoom"] != "" and "room’s creator" not in result["otherInRoom"]

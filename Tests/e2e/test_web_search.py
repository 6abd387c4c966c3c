"""Message search in the web client: from the sessions list (all chats) and from a chat's
header (that chat only); hits newest first with the chat's name, the sender and the matched
words marked, in English and Chinese; "Load more" pages back; a hit older than the first
history page opens its chat scrolled to the message, highlighted; a recalled message is not
found; the Chinese interface. Screenshots at phone and desktop size."""
from selenium.webdriver.common.keys import Keys

from web import DESKTOP, WEB_ROOT, register, ws


def befriend(port: int, a: dict, b: dict) -> str:
    request = ws(port, a["token"], ("friend.request", {"userId": b["user"]["id"]}))[0]
    friend = ws(port, b["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]
    return friend["conversationId"]


def send(port: int, session: dict, chat: str, *texts: str) -> list[dict]:
    calls = [("message.send", {"conversationId": chat, "clientId": f"{session['user']['id']}-{i}-{abs(hash(text))}",
                               "kind": "text", "text": text}) for i, text in enumerate(texts)]
    return ws(port, session["token"], *calls)


def hits(browser) -> list[dict]:
    """The visible hits: chat line, sender line, snippet, and the marked parts."""
    return browser.js("""
        return [...document.querySelectorAll('.view--search .search-hit')].map(a => ({
          chat: a.querySelector('.search-chat').textContent,
          sender: a.querySelector('.search-sender')?.textContent ?? null,
          snippet: a.querySelector('.search-snippet').textContent,
          marks: [...a.querySelectorAll('mark.search-match')].map(m => m.textContent),
          markup: a.querySelector('.search-snippet').innerHTML,
          seq: Number(a.dataset.seq),
        }))""")


def search(browser, words: str, expect: int, enter: bool = False):
    browser.type(".view--search input.search-input", words)
    if enter:
        browser.wait(".view--search input.search-input").send_keys(Keys.ENTER)
    else:
        browser.click(".view--search .search-submit")
    browser.wait_until(lambda: len(hits(browser)) == expect
                       and not browser.visible(".view--search .search-status .spinner"), 10, f"{expect} hits for {words!r}")
    return hits(browser)


def test_search_in_the_browser(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    carol = register(server.url, "carol")
    with_bob = befriend(server.port, alice, bob)
    with_carol = befriend(server.port, alice, carol)

    # The oldest hit sits behind more than one history page (the client loads 50 at a time).
    old = send(server.port, alice, with_bob, "我们下个月去北京吧")[0]
    send(server.port, bob, with_bob, "Meet me in Beijing, near the <b>station</b>")
    send(server.port, bob, with_bob, *[f"weather report {i}" for i in range(25)])
    send(server.port, bob, with_bob, *[f"filler line {i}" for i in range(40)])
    send(server.port, carol, with_carol, "北京的天气很好", "I flew to BEIJING yesterday")
    secret = send(server.port, bob, with_bob, "Beijing secret plan")[0]
    ws(server.port, bob["token"], ("message.recall", {"conversationId": with_bob, "messageId": secret["id"], "clientId": "rc1"}))

    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(alice)
    browser.wait(".view--list a.row", text="carol")

    # All chats, from the sessions list header; the box takes the focus.
    browser.click(".view--list a.sessions-search")
    browser.wait(".view--search input.search-input")
    assert browser.js("return document.activeElement.classList.contains('search-input')")
    found = search(browser, "beijing", 2)
    assert [h["chat"] for h in found] == ["carol", "bob"], "newest first, each with its chat's name"
    assert [h["sender"] for h in found] == ["carol", "bob"]
    assert found[0]["marks"] == ["BEIJING"] and found[1]["marks"] == ["Beijing"]
    assert "<b>station</b>" in found[1]["snippet"], "the message's text shows as text"
    assert "<b>" not in found[1]["markup"].replace("&lt;b&gt;", ""), "never inserted as markup"
    assert all("secret" not in h["snippet"] for h in found), "a recalled message is not found"
    assert "2 found" in browser.wait(".view--search .search-status").text

    found = search(browser, "北京", 2)
    assert [h["chat"] for h in found] == ["carol", "bob"]
    assert [h["marks"] for h in found] == [["北京"], ["北京"]]
    assert found[1]["sender"] == "You"
    browser.shoot_both("search-results", check=lambda b, label: b.wait(".view--search mark.search-match"))

    # No hit: the empty state.
    search(browser, "zanzibar", 0)
    browser.wait(".view--search .search-status--empty", text="No messages found")

    # A refused query: the error state names the field, and the old hits are gone.
    search(browser, "a b c d e f g h i", 0)
    browser.wait(".view--search .search-status--error", text="Search words")

    # Paging: 25 weather reports, 20 a page, then "Load more" and no more.
    found = search(browser, "weather", 20)
    assert [h["snippet"] for h in found[:2]] == ["weather report 24", "weather report 23"]
    browser.click(".view--search .search-more")
    browser.wait_until(lambda: len(hits(browser)) == 25, 10, "the second page")
    assert hits(browser)[-1]["snippet"] == "weather report 0"
    browser.wait_gone(".view--search .search-more")

    # A hit opens its chat at the message, though it is older than the first history page.
    search(browser, "北京", 2)
    browser.click(".view--search .search-hit", text="我们下个月去北京吧")
    browser.wait(".view--dialogue .dialogue-title", text="bob")
    row = browser.wait(".view--dialogue .msg.is-highlighted", timeout=15)
    assert "我们下个月去北京吧" in row.text
    assert int(row.get_attribute("data-seq")) == old["seq"]
    browser.wait_until(lambda: browser.js("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", row),
                       5, "the message scrolled into view")
    assert browser.js("return location.hash") == f"#/chats/c/{with_bob}", "the jump is not kept in the route"

    # Within one chat, from its header: carol's Beijing is not among the hits.
    browser.click(".view--dialogue a.dialogue-search")
    browser.wait(".view--search .topbar-subtitle", text="In bob")
    found = search(browser, "beijing", 1, enter=True)
    assert found[0]["chat"] == "bob" and found[0]["marks"] == ["Beijing"]
    browser.click(".view--search .search-hit")
    browser.wait(".view--dialogue .msg.is-highlighted", text="Meet me in Beijing")

    # By keyboard: Enter in the box searches, Tab goes to the button and then to the hits
    # (links), and Enter on a hit opens it.
    browser.click(".view--list a.sessions-search")
    search(browser, "北京", 2, enter=True)
    box = browser.wait(".view--search input.search-input")
    box.send_keys(Keys.TAB)
    assert browser.js("return document.activeElement.classList.contains('search-submit')")
    browser.js("document.activeElement.blur(); document.querySelector('.view--search .search-submit').focus()")
    browser.driver.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.js("return document.activeElement.classList.contains('search-hit')"), "the first hit takes the focus next"
    browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
    browser.wait(".view--dialogue .msg.is-highlighted", text="北京的天气很好")

    # Phone size, Chinese interface.
    phone = browsers(server.url, language="zh-CN")
    phone.sign_in_with_token(alice, route="#/chats/search")
    phone.wait(".view--search .topbar-title", text="搜索聊天记录")
    found = search(phone, "北京", 2)
    assert phone.wait(".view--search .search-status").text.startswith("找到 2 条")
    phone.screenshot("search-results-zh-phone")
    phone.click(".view--search .search-hit", text="北京的天气很好")
    phone.wait(".view--dialogue .msg.is-highlighted", text="北京的天气很好")
    phone.screenshot("search-jump-zh-phone")
    assert not browser.console_errors() and not phone.console_errors()

"""Every page of the web client passes axe-core's WCAG 2.x A and AA rules with no serious or
critical violation, at phone size, in the light and the dark theme, in English and Chinese;
and every icon-only button has a name a screen reader can say."""
import pytest
from axe_selenium_python import Axe

from web import PHONE, WEB_ROOT, register, ws

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def run_axe(browser) -> dict:
    """axe-selenium-python's axe-core on the page as it is now, WCAG A and AA rules only.
    (Its own run() passes options where axe-core 3 expects a context, and never answers; the
    axe-core it ships on Python 3.11 has no WCAG 2.1 tags, so only the tags it knows are asked.)"""
    Axe(browser.driver).inject()
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const known = new Set(axe.getRules().flatMap((r) => r.tags || []));"
        "const tags = arguments[0].filter((t) => known.has(t));"
        # "one-time-code" is an autofill token of the HTML standard newer than that axe-core.
        "axe.configure({checks: [{id: 'autocomplete-valid', options: {stateTerms: ['none', 'false', 'true', 'disabled', 'enabled', 'undefined', 'null', 'one-time-code']}}]});"
        "axe.run(document, {runOnly: {type: 'tag', values: tags}},"
        "  (error, results) => done(error ? {error: String(error)} : results));", WCAG_TAGS)


def people(server):
    """Ann with a friend (a chat with messages and notices), a group, a request waiting,
    someone on Discover and a stranger."""
    ann = register(server.url, "ann", nickname="Ann", signature="coffee ☕ and books")
    ben = register(server.url, "ben", nickname="Ben", age=28, hobbies=["climbing", "jazz"], signature="say hi")
    cat = register(server.url, "cat", nickname="Cat", age=31, hobbies=["chess"])
    register(server.url, "dot", nickname="Dot", age=25, hobbies=["film"])
    [asked] = ws(server.port, ann["token"], ("friend.request", {"username": "ben"}))
    [friend] = ws(server.port, ben["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    chat = friend["conversationId"]
    ws(server.port, ben["token"], *[("message.send", {"conversationId": chat, "clientId": f"b{i}", "kind": "text", "text": text})
                                   for i, text in enumerate(["Hello Ann :)", "Coffee later?", "https://example.org/menu"])])
    [group] = ws(server.port, ann["token"], ("group.create", {"name": "Readers", "description": "Books we like"}))
    ws(server.port, cat["token"], ("group.join", {"name": "Readers"}))
    ws(server.port, cat["token"], ("friend.request", {"username": "ann", "greeting": "We met in Readers"}))
    return ann, ben, chat, group["id"]


def pages(chat: str, group: str, ben: str):
    return [
        ("login", "#/login", ".auth-card"),
        ("register", "#/register", ".auth-card"),
        ("phone", "#/phone", ".auth-card"),
        ("chats", "#/chats", ".view--list:not([hidden]) a.row"),
        ("contacts", "#/contacts", ".contact-section[data-section=requests]"),
        ("discover", "#/discover", ".swipe-card.is-top"),
        ("me", "#/me", ".view--profile .kv-list"),
        ("dialogue", f"#/chats/c/{chat}", ".view--dialogue .bubble"),
        ("search", f"#/chats/c/{chat}/search", ".view--search input.search-input"),
        ("group", f"#/chats/c/{group}/info", ".people .person"),
        ("user", f"#/contacts/u/{ben}", ".hero-name"),
    ]


def serious(results) -> list[str]:
    found = []
    for violation in results["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [", ".join(node["target"]) + " :: " + node.get("failureSummary", "").replace("\n", " ")[:160]
                       for node in violation["nodes"][:4]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


@pytest.mark.parametrize("language", ["en-US", "zh-CN"])
def test_every_page_passes_axe_in_both_themes(parley, browsers, language):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, chat, group = people(server)
    browser = browsers(server.url, size=PHONE, language=language)
    problems = []
    for theme in ("light", "dark"):
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
        for name, route, ready in pages(chat, group, ben["user"]["id"]):
            if name == "login":
                browser.open(route)
                browser.js("localStorage.clear()")
                browser.driver.refresh()
            elif name == "chats":
                browser.sign_in_with_token(ann, route=route)
            else:
                browser.route(route)
            browser.wait(ready, timeout=15)
            browser.js("return document.fonts.ready")
            results = run_axe(browser)
            assert "error" not in results, results
            for problem in serious(results):
                problems.append(f"{theme} {name}: {problem}")
            if name == "phone":
                browser.open("#/login")
    assert not problems, "\n".join(problems)


def test_icon_only_buttons_have_names(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben, chat, group = people(server)
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    unnamed = []
    for name, route, ready in pages(chat, group, ben["user"]["id"])[3:]:
        browser.route(route)
        browser.wait(ready, timeout=15)
        unnamed += [f"{name}: {html}" for html in browser.js("""
            return [...document.querySelectorAll('button, a[href], [role=button]')]
              .filter((b) => b.offsetParent !== null && !b.textContent.trim())
              .filter((b) => !(b.getAttribute('aria-label') || b.getAttribute('title') || '').trim())
              .map((b) => b.outerHTML.slice(0, 120));""")]
    assert not unnamed, unnamed

"""Message actions done while the connection is down wait in the web client's action queue
(persisted like the outbox of sends) and go out in order on reconnect: a reaction and an edit
made with the server stopped are stored once each after it comes back, and the bubble says
"waiting to send" meanwhile."""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from web import DESKTOP, WEB_ROOT, register, ws


def befriend(port: int, a: dict, b: dict) -> str:
    request = ws(port, a["token"], ("friend.request", {"userId": b["user"]["id"]}))[0]
    friend = ws(port, b["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]
    return friend["conversationId"]


def open_menu(browser, text: str):
    row = browser.wait_until(lambda: next((row for row in browser.driver.find_elements("css selector", ".view--dialogue .msg")
                                           if text in [p.text for p in row.find_elements("css selector", ".bubble-text")]), None),
                             10, f"the row of {text!r}")
    ActionChains(browser.driver).context_click(row.find_element("css selector", ".bubble")).perform()
    return browser.wait(".msg-menu")


def test_actions_made_offline_are_sent_in_order_once_on_reconnect(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice, bob = register(server.url, "alice"), register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    [mine] = ws(server.port, alice["token"], ("message.send", {"conversationId": chat, "clientId": "a1", "kind": "text",
                                                               "text": "meet at nine"}))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(alice)
    browser.open_chat_titled("bob")
    browser.wait_bubble("meet at nine")

    server.stop()
    browser.wait(".view--dialogue .conn-banner", text="No connection", timeout=15)
    # A reaction, then an edit, both offline.
    open_menu(browser, "meet at nine").find_element("css selector", ".msg-menu-emoji").click()
    browser.wait(".toast", text="it will be done when the connection is back")
    open_menu(browser, "meet at nine")
    browser.click(".msg-menu-item[data-action=edit]")
    box = browser.wait("textarea.composer-input")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("meet at ten", Keys.ENTER)
    browser.wait(".msg-action-waiting", text="waiting to send")
    browser.screenshot("offline-actions-waiting")
    # Kept across a reload, in order, each with its client id.
    saved = json.loads(browser.js("return localStorage.getItem(arguments[0])", f"parley.actions.{alice['user']['id']}"))
    assert [entry["op"] for entry in saved] == ["message.react", "message.edit"], saved
    assert all(entry["data"]["clientId"] for entry in saved)
    browser.driver.refresh()
    browser.wait(".shell")

    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, data_dir=server.data_dir, port=server.port)
    browser.wait_bubble("meet at ten", timeout=30)
    browser.wait(".reaction-chip.is-mine")
    browser.wait_gone(".msg-action-waiting")
    assert browser.js("return localStorage.getItem(arguments[0])", f"parley.actions.{alice['user']['id']}") == "[]"

    # Stored once each, in the order they were made.
    [page] = ws(server.port, bob["token"], ("message.history", {"conversationId": chat, "events": True}))
    message = next(m for m in page["messages"] if m["id"] == mine["id"])
    assert message["text"] == "meet at ten" and message.get("editedAt")
    assert [(r["emoji"], r["users"]) for r in message["reactions"]] == [("👍", [alice["user"]["id"]])]
    notices = [m["system"]["type"] for m in page["messages"] if m.get("kind") == "system" and m["seq"] > mine["seq"]]
    assert notices == ["reaction_added", "message_edited"], notices
    assert browser.console_errors() == []

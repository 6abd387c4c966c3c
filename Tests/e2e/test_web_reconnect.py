"""The web client across a server crash: kill -9 the server mid-chat, see the
connection-lost banner, send while it is down, restart the server on the same port with the
same data, and check the banner leaves by itself and every message shows exactly once."""
import os
import signal
import time

from web import DESKTOP, PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict):
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))


def test_kill_nine_mid_chat_then_restart_on_the_same_port(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    befriend(server, ann, ben)
    left = browsers(server.url, size=PHONE)
    right = browsers(server.url, size=DESKTOP)
    left.sign_in_with_token(ann)
    right.sign_in_with_token(ben)
    # Ann is in a room too: after the restart the client enters it again by itself.
    left.menu_action("create_room")
    left.fill("Room name", "Kiln")
    left.submit_modal()
    left.wait(".view--dialogue .dialogue-title", text="Kiln")
    left.click(".topbar-back")
    left.open_chat_titled("ben")
    right.open_chat_titled("ann")
    left.send_message("before the crash")
    right.wait_bubble("before the crash")
    right.send_message("me too, before")
    left.wait_bubble("me too, before")

    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    server.log.close()

    for browser in (left, right):
        browser.wait(".view--dialogue .conn-banner", text="No connection")
    assert "retrying in" in left.wait(".view--dialogue .conn-banner").text
    left.send_message("sent while the server was down")
    right.send_message("and one from the other side")
    left.wait(".msg[data-state=pending] .msg-pending")
    right.wait(".msg[data-state=pending] .msg-pending")
    left.screenshot("connection-lost-dialogue-phone")
    time.sleep(1.0)

    restarted = parley("--password-cost", "minimum", web_root=WEB_ROOT, data_dir=server.data_dir, port=server.port)
    assert restarted.port == server.port
    for browser in (left, right):
        browser.wait_gone(".view--dialogue .conn-banner", timeout=30)
    left.send_message("after the restart")

    expected = ["before the crash", "me too, before", "sent while the server was down",
                "and one from the other side", "after the restart"]
    for browser in (left, right):
        browser.wait_until(lambda b=browser: all(text in b.bubble_texts() for text in expected), 20, "every message")
        browser.wait_until(lambda b=browser: not b.visible(".msg-pending, .msg-retry"), 15, "no pending sends")
        texts = browser.bubble_texts()
        for text in expected:
            assert texts.count(text) == 1, (text, texts)
        # The two sends made during the outage may land in either order.
        assert texts[:2] == expected[:2] and texts[-1] == expected[-1] and sorted(texts) == sorted(expected), texts

    # Back in the room without doing anything: a message there goes through.
    left.click(".topbar-back")
    left.open_chat_titled("Kiln")
    left.send_message("still in the kiln")
    left.wait_bubble("still in the kiln")
    left.wait_until(lambda: not left.visible(".msg-pending, .msg-retry"), 10, "the room message to be stored")
    left.wait_system("You entered the room")
    left.click(".topbar-back")
    left.open_chat_titled("ben")

    # A reload of the page shows the same, once each.
    left.driver.refresh()
    left.wait(".view--dialogue .dialogue-title", text="ben")
    left.wait_until(lambda: all(text in left.bubble_texts() for text in expected), 15, "history after reload")
    assert sorted(left.bubble_texts()) == sorted(expected)

"""A mute set on another device reaches the open web client live (`conversation.muted`): the
sessions list shows the muted mark at once, and drops it when the other device unmutes."""
from web import PHONE, WEB_ROOT, register, ws


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def test_a_mute_on_another_device_shows_live(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(ann)
    browser.wait(".row", text="ben")
    assert not browser.visible(".row .row-muted")
    # Another device of ann's mutes it: the mark comes without a reload.
    [mute] = ws(server.port, ann["token"], ("conversation.mute", {"conversationId": conversation}))
    assert mute == {"mentionsOnly": False}
    browser.wait(".row .row-muted")
    browser.screenshot("mute-live-sessions")
    ws(server.port, ann["token"], ("conversation.unmute", {"conversationId": conversation}))
    browser.wait_gone(".row .row-muted")
    assert browser.console_errors() == []

"""Who may fetch an upload, against the real server: a picture Li sends Mei is refused to
Sam (not in the conversation) and to anyone without a token or a signed link; Mei's browser
shows the picture's server-made thumbnail through a signed link (media.url) in a box of the
picture's shape and opens the whole picture on click; once the link has expired the server
refuses it (url_expired) while the browser shows the picture again through a new one."""
import os
import time

from selenium.webdriver.common.keys import Keys

from api import call
from web import PHONE, WEB_ROOT, png, register, upload, ws


def people(server):
    mei = register(server.url, "mei", nickname="Mei")
    li = register(server.url, "liwei", nickname="Li Wei")
    sam = register(server.url, "sam")
    [asked] = ws(server.port, li["token"], ("friend.request", {"username": "mei"}))
    [accepted] = ws(server.port, mei["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return mei, li, sam, accepted["conversationId"]


def send_picture(server, sender, chat, path):
    [sent] = ws(server.port, sender["token"], ("message.send", {
        "conversationId": chat, "clientId": os.urandom(8).hex(), "kind": "image", "mediaId": path.rsplit("/", 1)[1]}))
    return sent


def test_only_the_conversation_may_fetch_a_picture(parley):
    server = parley("--password-cost", "minimum")
    mei, li, sam, chat = people(server)
    path = upload(server.url, li["token"], png(64, 48))
    send_picture(server, li, chat, path)
    media_id = path.rsplit("/", 1)[1]

    assert call(server.url, "GET", path).error_code == "unauthorized"
    outsider = call(server.url, "GET", path, token=sam["token"])
    assert outsider.status == 403 and outsider.error_code == "forbidden"
    assert call(server.url, "GET", path, token=mei["token"]).status == 200
    assert call(server.url, "GET", path, token=li["token"]).status == 200

    from client import Session
    import asyncio

    async def ask(token):
        session = await Session.open(server.port, token)
        try:
            return await session.call("media.url", {"mediaId": media_id})
        finally:
            await session.close()

    refused = asyncio.run(ask(sam["token"]))
    assert not refused["ok"] and refused["error"]["code"] == "forbidden"
    granted = asyncio.run(ask(mei["token"]))
    assert granted["ok"], granted
    link = granted["data"]["url"]
    assert link.startswith(path + "?exp=") and "&sig=" in link
    fetched = call(server.url, "GET", link)
    assert fetched.status == 200 and fetched.headers["Cache-Control"].startswith("private, max-age=")
    forged = call(server.url, "GET", link[:-1] + ("1" if link.endswith("0") else "0"))
    assert forged.status == 403 and forged.error_code == "bad_signature"


def test_the_browser_renews_an_expired_link(parley, browsers):
    lifetime = 3
    server = parley("--password-cost", "minimum", "--media-url-seconds", str(lifetime), web_root=WEB_ROOT)
    mei, li, _, chat = people(server)
    path = upload(server.url, li["token"], png(480, 320, (255, 200, 120), (90, 60, 160)))
    send_picture(server, li, chat, path)

    browser = browsers(server.url, size=PHONE)
    browser.sign_in_with_token(mei)
    browser.open_chat_titled("Li Wei")
    loaded = "return [...document.querySelectorAll('.msg--other .bubble-image img')].map(i => [i.src, i.complete && i.naturalWidth])"
    # The thumbnail (320 pixels wide), in a box of the picture's 3:2 shape.
    first = browser.wait_until(lambda: [p for p in browser.js(loaded) if p[1] == 320], message="the thumbnail through a signed link")
    first_src = first[0][0]
    assert "/thumbnail?exp=" in first_src and "&sig=" in first_src
    # The box is sized from the message's width and height before anything loads.
    box = browser.js("const i = document.querySelector('.msg--other .bubble-image img'); return [+i.getAttribute('width'), +i.getAttribute('height')]")
    assert abs(box[0] / box[1] - 1.5) < 0.05, box
    browser.screenshot("media-thumbnail-in-chat")
    # A click opens the whole picture.
    browser.click(".msg--other .bubble-image")
    browser.wait_until(lambda: browser.js("const i = document.querySelector('.lightbox img'); return i && i.complete && i.naturalWidth === 480"),
                       message="the whole picture in the lightbox")
    assert "/thumbnail" not in browser.js("return document.querySelector('.lightbox img').src")
    browser.screenshot("media-full-picture")
    browser.press(Keys.ESCAPE)
    browser.wait_gone(".lightbox")

    # Past its expiry the same link is refused, as the page itself sees it.
    time.sleep(lifetime + 2)
    status = browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {cache: 'no-store'}).then(async r => done([r.status, (await r.json()).error.code]), e => done([0, String(e)]));",
        first_src)
    assert status == [403, "url_expired"], status

    # The picture again (a new message with it): the page asks for a new link and shows it.
    send_picture(server, li, chat, path)
    renewed = browser.wait_until(lambda: [p for p in browser.js(loaded)[1:] if p[1] == 320], timeout=15,
                                 message="the picture again through a new link")
    assert renewed[0][0] != first_src and "sig=" in renewed[0][0]
    browser.screenshot("media-signed-link-renewed")
    assert browser.console_errors() == []

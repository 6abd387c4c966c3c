"""HTTP file upload (XEP-0363) with slixmpp against a live server: discovery with the size
limit, slots whose PUT link takes a file of any type once (type from the bytes,
--max-file-bytes), signed download links that carry the file's name, clear HTTP errors for
wrong, used, expired and mis-sized uploads, the per-user slot limit; files both ways: an image
sent from a Jabber client arrives at a native client as an image message and any other file
as a file message, and a native file message reaches the Jabber client as a link it can
fetch without a token, with out-of-band data."""
import time
import xml.etree.ElementTree as ET

import pytest

from api import call
from rawhttp import png_of_size
from xmpp import Bot, error_condition, mei_and_bob, register, run, wait_event

UPLOAD = "urn:xmpp:http:upload:0"


@pytest.fixture
def server(parley):
    return parley("--password-cost", "minimum", "--max-file-bytes", "4096", "--upload-slots-per-user", "3", xmpp=True)


async def request_slot(bot: Bot, size: int, content_type: str | None = "image/png", filename: str = "tea.png"):
    """The slot's (put, get) links, or the error stanza."""
    from slixmpp.exceptions import IqError
    iq = bot.make_iq_get(ito="upload.localhost")
    attributes = f" content-type='{content_type}'" if content_type else ""
    iq.append(ET.fromstring(f"<request xmlns='{UPLOAD}' filename='{filename}' size='{size}'{attributes}/>"))
    try:
        result = await iq.send(timeout=10)
    except IqError as error:
        return error.iq
    slot = result.xml.find(f"{{{UPLOAD}}}slot")
    return slot.find(f"{{{UPLOAD}}}put").get("url"), slot.find(f"{{{UPLOAD}}}get").get("url")


def put(url: str, data: bytes):
    return call("", "PUT", url, raw=data)


def path_of(link: str, server) -> str:
    """A media link's path on the server, without the signature and name."""
    return link.removeprefix(server.url).split("?", 1)[0]


def test_slots_take_one_file_each_and_refuse_everything_else_clearly(server):
    register(server, "mei")
    register(server, "ann")

    async def scenario():
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        # Discovery: the server lists the upload service, which gives its largest file.
        items = await mei.plugin["xep_0030"].get_items(jid="localhost", timeout=10)
        assert ("upload.localhost", None, "File upload") in items["disco_items"]["items"]
        info = await mei.plugin["xep_0030"].get_info(jid="upload.localhost", timeout=10)
        assert ("store", "file", None, "File upload") in info["disco_info"]["identities"]
        assert UPLOAD in info["disco_info"]["features"]
        form = info.xml.find("{http://jabber.org/protocol/disco#info}query/{jabber:x:data}x")
        fields = {f.get("var"): f.findtext("{jabber:x:data}value") for f in form}
        assert fields["max-file-size"] == "4096"

        # A slot, its upload, and the image at the announced link, as any media.
        image = png_of_size(1000)
        put_url, get_url = await request_slot(mei, len(image))
        assert put_url.startswith(server.url + "/v1/uploads/") and get_url.startswith(server.url + "/v1/media/")
        # A signed link (a Jabber client fetches without a token) that names the file.
        assert "?exp=" in get_url and "&sig=" in get_url and get_url.endswith("&name=tea.png")
        assert len(put_url.rsplit("/", 1)[1]) >= 40
        assert call("", "GET", get_url).status == 404
        stored = put(put_url, image)
        assert stored.status == 201, stored.body
        assert stored.json["url"] == path_of(get_url, server) and stored.json["type"] == "image/png"
        fetched = call("", "GET", get_url)
        assert fetched.status == 200 and fetched.body == image and fetched.headers["Content-Type"] == "image/png"
        assert call(server.url, "GET", path_of(get_url, server)).status == 401
        # Single use.
        again = put(put_url, image)
        assert again.status == 404 and again.error_code == "not_found"
        # An unknown token.
        assert put(server.url + "/v1/uploads/" + "A" * 43, image).error_code == "not_found"

        # Not what the slot was for: a different size. Bytes of any type are a file.
        put_url, get_url = await request_slot(mei, 1000)
        wrong = put(put_url, png_of_size(999))
        assert wrong.status == 400 and wrong.error_code == "invalid_field"
        assert call("", "GET", get_url).status == 404
        put_url, get_url = await request_slot(mei, 1000, "image/png", "notes.txt")
        text = put(put_url, b"x" * 1000)
        assert text.status == 201 and text.json["type"] != "image/png", text.body
        got = call("", "GET", get_url)
        assert got.status == 200 and got.body == b"x" * 1000 and "notes.txt" in got.headers["Content-Disposition"]

        # Too big is refused at the slot, with the limit; a declared type counts for nothing.
        refused = await request_slot(mei, 5000)
        assert error_condition(refused) == "not-acceptable"
        assert refused.xml.findtext(f".//{{{UPLOAD}}}file-too-large/{{{UPLOAD}}}max-file-size") == "4096"
        assert isinstance(await request_slot(mei, 100, "application/x-msdownload"), tuple)
        assert error_condition(await request_slot(mei, 0)) == "bad-request"

        # Three unused slots at most per user; using one frees its place.
        ann = Bot("ann@localhost")
        assert await ann.sign_in(server.xmpp_port)
        slots = [await request_slot(ann, 1000) for _ in range(3)]
        assert all(isinstance(slot, tuple) for slot in slots)
        assert error_condition(await request_slot(ann, 1000)) == "resource-constraint"
        assert put(slots[0][0], png_of_size(1000)).status == 201
        assert isinstance(await request_slot(ann, 1000), tuple)

        await ann.stop()
        await mei.stop()
    run(scenario())


def test_an_expired_slot_is_refused(parley):
    server = parley("--password-cost", "minimum", "--upload-slot-lifetime", "1", xmpp=True)
    register(server, "mei")

    async def scenario():
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
        put_url, get_url = await request_slot(mei, 1000)
        time.sleep(1.2)
        expired = put(put_url, png_of_size(1000))
        assert expired.status == 403 and expired.error_code == "forbidden" and "expired" in expired.json["error"]["message"]
        assert call("", "GET", get_url).status == 404
        await mei.stop()
    run(scenario())


def test_files_both_ways_between_jabber_and_native_clients(server):
    async def scenario():
        mei_native, bob, conversation, mei, bob_token = await mei_and_bob(server, jabber=True)
        image = png_of_size(1200)
        put_url, get_url = await request_slot(mei, len(image))
        assert put(put_url, image).status == 201

        # As Jabber clients send a shared file: the link as the body and as out-of-band data.
        message = mei.make_message(mto="bob@localhost", mbody=get_url, mtype="chat")
        message.append(ET.fromstring(f"<x xmlns='jabber:x:oob'><url>{get_url.replace('&', '&amp;')}</url></x>"))
        message.send()
        event = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"]["conversationId"] == conversation
                                 and e["data"]["kind"] == "image")
        assert event["data"]["image"]["url"] == path_of(get_url, server)
        assert event["data"]["image"]["width"] == 1 and event["data"]["image"]["height"] == 1

        # Any other file is a file message, named as the Jabber client named the upload.
        notes = b"Tea at four.\n" * 20
        put_url, get_url = await request_slot(mei, len(notes), "text/plain", "tea plan.txt")
        assert put(put_url, notes).status == 201
        message = mei.make_message(mto="bob@localhost", mbody=get_url, mtype="chat")
        message.append(ET.fromstring(f"<x xmlns='jabber:x:oob'><url>{get_url.replace('&', '&amp;')}</url></x>"))
        message.send()
        event = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"]["conversationId"] == conversation
                                 and e["data"]["kind"] == "file")
        assert event["data"]["file"]["name"] == "tea plan.txt" and event["data"]["file"]["size"] == len(notes)
        assert event["data"]["file"]["url"] == path_of(get_url, server)

        # A link to no upload of Mei's stays text.
        other = server.url + "/v1/media/nosuchimage"
        mei.send_message(mto="bob@localhost", mbody=other, mtype="chat")
        event = await wait_event(bob, lambda e: e["event"] == "message.new" and e["data"].get("text") == other)
        assert event["data"]["kind"] == "text"
        history = await bob.call("message.history", {"conversationId": conversation})
        kinds = [m["kind"] for m in history["data"]["messages"] if m["kind"] != "system"]
        assert kinds == ["image", "file", "text"]

        # A native file message reaches the Jabber client as a link it may fetch without a
        # token, in the body and as out-of-band data with the name.
        report = b"%PDF-1.7\n" + bytes(range(256)) * 4
        uploaded = call(server.url, "POST", "/v1/files", token=bob_token, raw=report)
        assert uploaded.status == 201, uploaded.body
        sent = await bob.call("message.send", {"conversationId": conversation, "clientId": "pdf-1", "kind": "file",
                                               "mediaId": uploaded.json["id"], "name": "report.pdf"})
        assert sent["ok"], sent
        got = await mei.next_message(predicate=lambda m: "/v1/media/" + uploaded.json["id"] in m["body"])
        link = got["body"]
        assert link.startswith(server.url + "/v1/media/" + uploaded.json["id"] + "?exp=") and link.endswith("&name=report.pdf")
        oob = got.xml.find("{jabber:x:oob}x")
        assert oob is not None and oob.findtext("{jabber:x:oob}url") == link and oob.findtext("{jabber:x:oob}desc") == "report.pdf"
        fetched = call("", "GET", link)
        assert fetched.status == 200 and fetched.body == report
        assert fetched.headers["Content-Disposition"].startswith('attachment; filename="report.pdf"')

        await mei.stop()
        await mei_native.close()
        await bob.close()
    run(scenario())

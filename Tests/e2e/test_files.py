"""Files of any type against a live server: uploads streamed to disk (a 100 MiB file with the
server's memory watched while it arrives), the size limit refused before the body, quotas,
downloads with the headers that keep a browser from running what it fetched (attachment,
nosniff, a sandboxing CSP), names made safe in Content-Disposition, and byte ranges for
resuming and seeking."""
import hashlib
import http.client
import json
import os
import threading
import time

from urllib.parse import quote

import pytest

from api import call, register

MIB = 1024 * 1024


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pattern(size: int, piece: int = 256 * 1024):
    """`size` bytes of a fixed, position-dependent pattern, as pieces (never all in memory)."""
    block = bytes((i * 7 + i // 251) & 0xFF for i in range(piece))
    sent = 0
    while sent < size:
        count = min(piece, size - sent)
        # Each piece differs (its index in front), so a misplaced range shows.
        chunk = (sent // piece).to_bytes(8, "big") + block[8:count] if count >= 8 else block[:count]
        yield chunk
        sent += count


def upload(server, token: str | None, body, size: int, headers: dict | None = None):
    """POST /v1/files with a body given as bytes or an iterable of pieces; (status, json, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    all_headers = {"Content-Length": str(size), "Content-Type": "application/octet-stream", **(headers or {})}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    connection.request("POST", "/v1/files", body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, (json.loads(data) if data else None), response.headers


def incoming(server) -> list[str]:
    return os.listdir(os.path.join(server.data_dir, "incoming"))


@pytest.fixture
def server(parley):
    return parley("--password-cost", "minimum")


def test_a_100_mib_file_streams_to_disk_with_bounded_memory_and_comes_back_whole(server):
    token = register(server, "amy")
    size = 100 * MIB
    pid = server.process.pid
    before = rss_kib(pid)
    peak = [before]
    done = threading.Event()

    def watch():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    digest = hashlib.sha256()

    def body():
        for piece in pattern(size):
            digest.update(piece)
            yield piece
    started = time.monotonic()
    try:
        status, info, _ = upload(server, token, body(), size)
    finally:
        elapsed = time.monotonic() - started
        done.set()
        watcher.join()
    assert status == 201, info
    assert info["size"] == size and info["type"] == "application/octet-stream"
    growth_mib = (peak[0] - before) / 1024
    print(f"server RSS before {before / 1024:.1f} MiB, peak during the upload {peak[0] / 1024:.1f} MiB, growth {growth_mib:.1f} MiB; "
          f"upload {elapsed:.2f} s ({size / MIB / elapsed:.0f} MiB/s)")
    assert growth_mib < 32, f"the server's memory grew by {growth_mib:.1f} MiB while a 100 MiB file arrived"
    assert incoming(server) == []

    # The download streams back the same bytes.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    connection.request("GET", info["url"], headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    assert response.status == 200
    assert int(response.headers["Content-Length"]) == size
    back = hashlib.sha256()
    while piece := response.read(MIB):
        back.update(piece)
    connection.close()
    assert back.hexdigest() == digest.hexdigest()


def test_zero_bytes_and_executable_types_are_attachments_in_a_sandbox(server):
    token = register(server, "ben")
    status, empty, _ = upload(server, token, b"", 0)
    assert status == 201 and empty["size"] == 0
    got = call(server.url, "GET", empty["url"] + "?name=empty.txt", token=token)
    assert got.status == 200 and got.body == b""
    assert got.headers["Content-Disposition"].startswith("attachment;")

    for content, sniffed in [(b"<!doctype html><script>alert(document.cookie)</script>", "text/html"),
                             (b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>", "image/svg+xml")]:
        # What the client claims does not count: the bytes decide.
        status, info, _ = upload(server, token, content, len(content), headers={"Content-Type": "image/png"})
        assert status == 201 and info["type"] == sniffed
        got = call(server.url, "GET", info["url"] + "?name=cute.png", token=token)
        assert got.status == 200 and got.body == content
        assert got.headers["Content-Type"] == sniffed
        assert got.headers["Content-Disposition"].startswith("attachment;")
        assert got.headers["X-Content-Type-Options"] == "nosniff"
        policy = got.headers["Content-Security-Policy"]
        assert "sandbox" in policy and "default-src 'none'" in policy

    # An image the page shows stays inline.
    png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + bytes([0, 0, 0, 8, 0, 0, 0, 4, 8, 6, 0, 0, 0]) + bytes(40)
    status, info, _ = upload(server, token, png, len(png))
    assert status == 201 and info["type"] == "image/png" and (info["width"], info["height"]) == (8, 4)
    assert call(server.url, "GET", info["url"], token=token).headers["Content-Disposition"].startswith("inline;")


def test_names_with_slashes_quotes_and_bidi_marks_are_made_safe(server):
    token = register(server, "cyd")
    status, info, _ = upload(server, token, b"hello", 5)
    assert status == 201
    cases = {
        "../../etc/passwd": ('filename="_.._etc_passwd"', "filename*=UTF-8''_.._etc_passwd"),
        'say "hi"; x=1.txt': ('filename="say _hi_; x=1.txt"', "filename*=UTF-8''say%20_hi_%3B%20x%3D1.txt"),
        "invoice\u202Efdp.exe": ('filename="invoicefdp.exe"', "filename*=UTF-8''invoicefdp.exe"),
        "报告.txt": ('filename="__.txt"', "filename*=UTF-8''%E6%8A%A5%E5%91%8A.txt"),
    }
    for name, (ascii_part, exact_part) in cases.items():
        got = call(server.url, "GET", info["url"] + "?name=" + quote(name, safe=""), token=token)
        disposition = got.headers["Content-Disposition"]
        assert ascii_part in disposition and exact_part in disposition, (name, disposition)
        assert "\n" not in disposition and "\u202E" not in disposition


def test_ranges_resume_and_seek(server):
    token = register(server, "dee")
    content = b"".join(pattern(3 * 256 * 1024 + 17))
    status, info, _ = upload(server, token, content, len(content))
    assert status == 201
    url = info["url"]
    whole = call(server.url, "GET", url, token=token)
    assert whole.status == 200 and whole.body == content and whole.headers["Accept-Ranges"] == "bytes"
    etag = whole.headers["ETag"]

    # Resume: the first part, then the rest from where it stopped.
    first = call(server.url, "GET", url, token=token, headers={"Range": "bytes=0-99999"})
    assert first.status == 206 and first.body == content[:100000]
    assert first.headers["Content-Range"] == f"bytes 0-99999/{len(content)}"
    rest = call(server.url, "GET", url, token=token, headers={"Range": "bytes=100000-", "If-Range": etag})
    assert rest.status == 206 and first.body + rest.body == content
    # Seek: a piece in the middle, and the last bytes.
    middle = call(server.url, "GET", url, token=token, headers={"Range": "bytes=300000-300009"})
    assert middle.status == 206 and middle.body == content[300000:300010]
    tail = call(server.url, "GET", url, token=token, headers={"Range": "bytes=-17"})
    assert tail.status == 206 and tail.body == content[-17:]
    # Past the end: 416 with the size; several ranges or a stale If-Range: the whole file.
    beyond = call(server.url, "GET", url, token=token, headers={"Range": f"bytes={len(content)}-"})
    assert beyond.status == 416 and beyond.error_code == "range_not_satisfiable"
    assert beyond.headers["Content-Range"] == f"bytes */{len(content)}"
    several = call(server.url, "GET", url, token=token, headers={"Range": "bytes=0-1,5-6"})
    assert several.status == 200 and several.body == content
    stale = call(server.url, "GET", url, token=token, headers={"Range": "bytes=0-1", "If-Range": '"other"'})
    assert stale.status == 200 and stale.body == content
    assert call(server.url, "GET", url, token=token, headers={"If-None-Match": etag}).status == 304


def test_limits_refuse_early_and_leave_no_temporary_file(parley):
    server = parley("--password-cost", "minimum", "--max-file-bytes", "100000", "--media-quota-bytes-per-day", "150000")
    token = register(server, "eve")
    # Over the limit by Content-Length: 413 before a byte of the body is sent.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    connection.putrequest("POST", "/v1/files")
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Length", "100001")
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["error"]["code"] == "payload_too_large"
    connection.close()
    # Over the limit in a chunked body: refused when it passes the limit.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    connection.request("POST", "/v1/files", body=iter([b"x" * 60000, b"y" * 60000]),
                       headers={"Authorization": f"Bearer {token}"}, encode_chunked=True)
    response = connection.getresponse()
    assert response.status == 413
    connection.close()
    # No session: 401, and the body's file is gone.
    status, info, _ = upload(server, None, b"z" * 1000, 1000)
    assert status == 401
    # The day's quota: the second file would pass it.
    status, info, _ = upload(server, token, b"a" * 90000, 90000)
    assert status == 201
    status, info, headers = upload(server, token, b"b" * 90000, 90000)
    assert status == 429 and info["error"]["code"] == "quota_exceeded"
    deadline = time.time() + 5
    while incoming(server) and time.time() < deadline:
        time.sleep(0.05)
    assert incoming(server) == []


def test_a_file_message_carries_the_safe_name_the_sniffed_type_and_a_caption(server):
    import asyncio
    from client import Session
    amy = register(server, "amyf")
    bob = register(server, "bobf")
    content = b"%PDF-1.7\n" + bytes(range(256)) * 40
    status, info, _ = upload(server, amy, content, len(content), headers={"Content-Type": "text/html"})
    assert status == 201 and info["type"] == "application/pdf"

    async def scenario():
        a = await Session.open(server.port, amy)
        b = await Session.open(server.port, bob)
        try:
            asked = await a.call("friend.request", {"username": "bobf"})
            accepted = await b.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
            direct = accepted["data"]["conversationId"]
            sent = await a.call("message.send", {"conversationId": direct, "clientId": "f1", "kind": "file", "mediaId": info["id"],
                                                 "name": "../minutes \"final\"\u202Efdp.exe", "text": "the minutes"})
            assert sent["ok"], sent
            message = sent["data"]
            assert message["kind"] == "file" and message["text"] == "the minutes"
            assert message["file"] == {"mediaId": info["id"], "url": info["url"], "name": "_minutes _final_fdp.exe",
                                       "size": len(content), "type": "application/pdf"}
            # The other member sees the same in history; the download saves under the name.
            history = await b.call("message.history", {"conversationId": direct})
            assert history["data"]["messages"][-1]["file"] == message["file"]
            got = call(server.url, "GET", message["file"]["url"] + "?name=" + quote(message["file"]["name"]), token=bob)
            assert got.body == content and got.headers["Content-Disposition"].startswith('attachment; filename="_minutes _final_fdp.exe"')
            # Someone else's upload cannot be sent, and a file message needs its upload.
            stolen = await b.call("message.send", {"conversationId": direct, "clientId": "f2", "kind": "file", "mediaId": info["id"], "name": "x"})
            assert not stolen["ok"] and stolen["error"]["code"] == "invalid_field"
            missing = await b.call("message.send", {"conversationId": direct, "clientId": "f3", "kind": "file"})
            assert not missing["ok"] and missing["error"]["code"] == "missing_field"
            # A recall takes the file away from the message.
            recalled = await a.call("message.recall", {"conversationId": direct, "messageId": message["id"], "clientId": "r1"})
            assert recalled["ok"], recalled
            history = await b.call("message.history", {"conversationId": direct})
            assert "file" not in history["data"]["messages"][-1]
        finally:
            await a.close()
            await b.close()
    asyncio.run(scenario())

"""Every limit of `parley serve` at its boundary: exactly the limit is allowed, one more is
refused the way docs/operations.md's settings table says. Each test sets small limits with
the same flags an operator would use."""
import asyncio
import socket

from api import call, register
from client import Session
from rawhttp import png_of_size, raw_http, status
from rawws import RawWebSocket, frame, request


# MARK: HTTP


def test_http_head_bytes_count_uri_and_body_at_their_limits(parley):
    server = parley("--max-header-bytes", "1024", "--max-header-count", "8", "--max-uri-length", "256",
                    "--max-body-bytes", "1024")

    def head_of(total: int) -> bytes:
        start = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
        end = b"\r\nConnection: close\r\n\r\n"
        return start + b"p" * (total - len(start) - len(end)) + end

    assert len(head_of(1024)) == 1024
    assert status(raw_http(server.port, head_of(1024))) == 200
    assert status(raw_http(server.port, head_of(1025))) == 431

    def with_fields(count: int) -> bytes:
        fields = ["Host: 127.0.0.1", "Connection: close"] + [f"X-F{i}: v" for i in range(count - 2)]
        return ("GET /healthz HTTP/1.1\r\n" + "\r\n".join(fields) + "\r\n\r\n").encode()

    assert status(raw_http(server.port, with_fields(8))) == 200
    over = raw_http(server.port, with_fields(9))
    assert status(over) == 431 and b"headers_too_large" in over

    def uri(length: int) -> bytes:
        target = "/" + "u" * (length - 1)
        return f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()

    assert status(raw_http(server.port, uri(256))) == 404
    over = raw_http(server.port, uri(257))
    assert status(over) == 414 and b"uri_too_long" in over

    def body(length: int) -> bytes:
        return (f"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {length}\r\n\r\n".encode()
                + b"b" * length)

    # /healthz is GET-only: a body within the limit is read whole and answered 405.
    assert status(raw_http(server.port, body(1024))) == 405
    over = raw_http(server.port, body(1025))
    assert status(over) == 413 and b"payload_too_large" in over


def test_connections_per_address_and_in_total_at_their_limits(parley):
    server = parley("--max-connections-per-address", "3")
    keep_alive = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    held = []
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        sock.sendall(keep_alive)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        held.append(sock)
    # The fourth from the same address is closed without an answer; another address gets in.
    assert raw_http(server.port, keep_alive) == b""
    assert status(raw_http(server.port, keep_alive.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"),
                           source="127.0.0.2")) == 200
    for sock in held:
        sock.close()

    total = parley("--max-connections", "3")
    held = []
    for source in ("127.0.0.1", "127.0.0.2", "127.0.0.3"):
        sock = socket.create_connection(("127.0.0.1", total.port), timeout=20, source_address=(source, 0))
        sock.sendall(keep_alive)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        held.append(sock)
    assert raw_http(total.port, keep_alive, source="127.0.0.4") == b""
    for sock in held:
        sock.close()


def test_media_size_at_its_limit(parley):
    server = parley("--password-cost", "minimum", "--max-media-bytes", "2048")
    token = register(server, "uploader")
    at_limit = call(server.url, "POST", "/v1/media", token=token, raw=png_of_size(2048))
    assert at_limit.status == 201, at_limit.body
    over = call(server.url, "POST", "/v1/media", token=token, raw=png_of_size(2049))
    assert over.status == 413 and over.error_code == "payload_too_large"


# MARK: WebSocket


def padded(op: str, request_id, size: int) -> bytes:
    """A request whose JSON text is exactly `size` bytes (white space fills it)."""
    text = request(op, request_id)
    assert len(text) <= size
    return text[:-1] + b" " * (size - len(text)) + b"}"


def test_websocket_frame_and_message_sizes_at_their_limits(parley):
    server = parley("--password-cost", "minimum", "--max-ws-frame-bytes", "1000", "--max-ws-message-bytes", "3000")
    token = register(server, "framer")

    ws = RawWebSocket(server.port)
    ws.auth(token)
    ws.send_raw(frame(padded("ping", "exact-frame", 1000)))
    assert ws.next_json()["id"] == "exact-frame"
    # A message of exactly 3,000 bytes in three frames of 1,000.
    message = padded("ping", "exact-message", 3000)
    ws.send_raw(frame(message[:1000], fin=False) + frame(message[1000:2000], opcode=0, fin=False)
                + frame(message[2000:], opcode=0))
    assert ws.next_json()["id"] == "exact-message"
    ws.send_raw(frame(padded("ping", "big-frame", 1001)))
    assert ws.close_code() == 1009
    ws.close()

    ws = RawWebSocket(server.port)
    ws.auth(token)
    message = padded("ping", "big-message", 3001)
    ws.send_raw(frame(message[:1000], fin=False) + frame(message[1000:2000], opcode=0, fin=False)
                + frame(message[2000:3000], opcode=0, fin=False) + frame(message[3000:], opcode=0))
    assert ws.close_code() == 1009
    ws.close()


def test_queued_requests_at_their_limit(parley):
    # Every frame of one write is read in one loop turn, before the first request (running
    # as a task) can finish: the first runs and the others wait in the queue.
    server = parley("--password-cost", "minimum", "--max-queued-requests", "3", "--ws-burst", "1000")
    token = register(server, "queuer")
    ws = RawWebSocket(server.port)
    ws.auth(token)
    ws.send_raw(b"".join(frame(request("me.get", f"a{i}")) for i in range(1 + 3)))
    assert [ws.next_json()["id"] for _ in range(4)] == ["a0", "a1", "a2", "a3"]
    ws.send_raw(b"".join(frame(request("me.get", f"b{i}")) for i in range(1 + 3 + 1)))
    assert ws.close_code() == 1008
    ws.close()


def test_request_burst_at_its_limit(parley):
    # One request a second, five in a burst; the whole burst arrives in one write, far
    # quicker than a second, so no token is earned back in between.
    server = parley("--password-cost", "minimum", "--ws-rate", "1", "--ws-burst", "5")
    token = register(server, "burster")
    ws = RawWebSocket(server.port)
    ws.send_raw(frame(request("auth", "auth", {"token": token}))
                + b"".join(frame(request("ping", f"p{i}")) for i in range(4 + 1)))
    replies = {}
    while len(replies) < 6:
        reply = ws.next_json()
        replies[reply["id"]] = reply
    assert all(replies[i]["ok"] for i in ["auth", "p0", "p1", "p2", "p3"])
    assert replies["p4"]["error"]["code"] == "rate_limited"
    assert replies["p4"]["error"]["retryAfterSeconds"] == 1
    ws.close()


def test_text_length_counts_characters(parley):
    server = parley("--password-cost", "minimum", "--max-text-length", "5")
    amy, ben = register(server, "amy"), register(server, "ben")

    async def scenario():
        a, b = await Session.open(server.port, amy), await Session.open(server.port, ben)
        request_reply = await a.call("friend.request", {"username": "ben"})
        await b.call("friend.accept", {"requestId": request_reply["data"]["request"]["id"]})
        friends = await a.call("friend.list")
        conversation = friends["data"]["friends"][0]["conversationId"]
        # Five characters, of which two take several bytes, are within the limit.
        ok = await a.call("message.send", {"conversationId": conversation, "clientId": "c1", "kind": "text", "text": "ab🌸中d"})
        over = await a.call("message.send", {"conversationId": conversation, "clientId": "c2", "kind": "text", "text": "ab🌸中de"})
        await a.close()
        await b.close()
        return ok, over

    ok, over = asyncio.run(scenario())
    assert ok["ok"], ok
    assert over["error"]["code"] == "invalid_field" and over["error"].get("field") == "text"


def test_history_page_and_sync_at_their_limits(parley):
    server = parley("--password-cost", "minimum", "--max-history-page", "3", "--sync-messages-per-conversation", "4")
    amy, ben = register(server, "amy"), register(server, "ben")

    async def scenario():
        a, b = await Session.open(server.port, amy), await Session.open(server.port, ben)
        request_reply = await a.call("friend.request", {"username": "ben"})
        await b.call("friend.accept", {"requestId": request_reply["data"]["request"]["id"]})
        conversation = (await a.call("friend.list"))["data"]["friends"][0]["conversationId"]
        results = {}
        # The conversation starts with a `friend_added` system message: seq 1.
        for i in range(3):
            await a.call("message.send", {"conversationId": conversation, "clientId": f"m{i}", "kind": "text", "text": f"m{i}"})
        results["sync at limit"] = (await b.call("sync", {"since": {conversation: 0}}))["data"]
        await a.call("message.send", {"conversationId": conversation, "clientId": "m3", "kind": "text", "text": "m3"})
        results["sync over"] = (await b.call("sync", {"since": {conversation: 0}}))["data"]
        results["page at limit"] = (await b.call("message.history", {"conversationId": conversation, "limit": 3}))["data"]
        results["page over"] = (await b.call("message.history", {"conversationId": conversation, "limit": 4}))["data"]
        await a.close()
        await b.close()
        return conversation, results

    conversation, results = asyncio.run(scenario())
    at_limit = [m["seq"] for m in results["sync at limit"]["messages"] if m["conversationId"] == conversation]
    assert at_limit == [1, 2, 3, 4] and conversation not in results["sync at limit"].get("truncated", [])
    over = [m["seq"] for m in results["sync over"]["messages"] if m["conversationId"] == conversation]
    assert over == [2, 3, 4, 5] and conversation in results["sync over"]["truncated"]
    assert [m["seq"] for m in results["page at limit"]["messages"]] == [3, 4, 5]
    assert [m["seq"] for m in results["page over"]["messages"]] == [3, 4, 5]
    assert results["page over"]["hasMore"] is True


def test_sms_requests_per_address_at_their_limit(parley):
    server = parley("--sms-per-address-per-hour", "2")
    for phone in ("+4915100000001", "+4915100000002"):
        assert call(server.url, "POST", "/v1/auth/sms/request", {"phone": phone}).status == 200
    over = call(server.url, "POST", "/v1/auth/sms/request", {"phone": "+4915100000003"})
    assert over.status == 429 and over.error_code == "rate_limited"
    assert int(over.headers["Retry-After"]) > 0


def test_auth_timeout_closes_with_4000(parley):
    server = parley("--ws-auth-timeout", "1")
    ws = RawWebSocket(server.port)
    assert ws.close_code() == 4000
    ws.close()


def test_daily_sms_limit_per_number_survives_a_restart(parley):
    server = parley("--sms-per-phone-per-day", "1")
    phone = "+4915100000042"
    assert call(server.url, "POST", "/v1/auth/sms/request", {"phone": phone}).status == 200
    server.stop()
    restarted = parley("--sms-per-phone-per-day", "1", data_dir=server.data_dir)
    again = call(restarted.url, "POST", "/v1/auth/sms/request", {"phone": phone})
    assert again.status == 429 and again.error_code == "rate_limited"
    # The daily limit, not the 60-second resend interval, is what refuses it.
    assert int(again.headers["Retry-After"]) > 3600

"""Browser-facing protections on every kind of response `parley serve` sends, and the
WebSocket `Origin` check under each policy."""
import re

import pytest

from api import call, register
from rawhttp import png_of_size, raw_http
from rawws import RawWebSocket


def headers_of(response: bytes) -> dict[str, str]:
    head = response.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")[1:]
    return {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in head)}


def assert_protected(response: bytes, what: str):
    headers = headers_of(response)
    policy = headers.get("content-security-policy", "")
    assert policy, f"{what}: no Content-Security-Policy"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, f"{what}: {policy}"
    assert re.search(r"frame-ancestors 'none'", policy), f"{what}: {policy}"
    assert headers.get("x-content-type-options") == "nosniff", what
    assert headers.get("x-frame-options") == "DENY", what
    assert headers.get("referrer-policy") == "no-referrer", what


def get(path: str, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode()


def test_every_kind_of_response_carries_the_security_headers(parley):
    server = parley("--password-cost", "minimum", "--max-header-bytes", "1024")
    token = register(server, "headers")
    upload = call(server.url, "POST", "/v1/media", token=token, raw=png_of_size(200))
    assert upload.status == 201
    cases = {
        "web client page": (get("/"), 200),
        "web client script": (get("/js/app.js"), 200),
        "missing static file": (get("/no-such-file.txt"), 404),
        "API health": (get("/healthz"), 200),
        "API metrics": (get("/metrics"), 200),
        "API needing a token": (get("/v1/me"), 401),
        "API with a token": (get("/v1/me", f"Authorization: Bearer {token}\r\n"), 200),
        "media file": (get(upload.json["url"], f"Authorization: Bearer {token}\r\n"), 200),
        "media file without a token": (get(upload.json["url"]), 401),
        "unknown API route": (get("/v1/nothing-here"), 404),
        "wrong method": (b"DELETE /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 405),
        "head over its limit": (get("/healthz", "X-Pad: " + "p" * 2000 + "\r\n"), 431),
        "malformed request": (b"NOT HTTP AT ALL\r\n\r\n", 400),
        "WebSocket handshake of another version": (
            get("/v1/ws", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 8\r\n").replace(b"Connection: close\r\n", b""), 426),
    }
    for what, (data, expected) in cases.items():
        response = raw_http(server.port, data)
        assert response.startswith(f"HTTP/1.1 {expected} ".encode()), f"{what}: {response[:200]!r}"
        assert_protected(response, what)
    # Pages may load the client's own scripts and styles, and nothing inline.
    page = headers_of(raw_http(server.port, get("/")))["content-security-policy"]
    assert "script-src 'self'" in page and "style-src 'self'" in page
    # Everything else is not a page and may load nothing at all.
    api = headers_of(raw_http(server.port, get("/healthz")))["content-security-policy"]
    assert "default-src 'none'" in api


@pytest.mark.parametrize("origin, allowed", [
    (None, True),                                  # not a browser
    ("http://127.0.0.1:{port}", True),             # the page the server itself served
    ("HTTP://127.0.0.1:{port}", True),             # scheme and host compare without case
    ("https://127.0.0.1:{port}", False),           # another scheme is another origin (see --trusted-proxies)
    ("http://127.0.0.1:1", False),                 # another port is another origin
    ("http://localhost:{port}", False),            # another host name, even if it resolves here
    ("https://evil.example", False),
    ("null", False),                               # sandboxed frames and file: pages
])
def test_websocket_origin_default_is_same_origin(parley, origin, allowed):
    server = parley()
    ws = RawWebSocket(server.port, origin=origin.format(port=server.port) if origin else None)
    if allowed:
        assert ws.status == 101
    else:
        assert ws.status == 403
        assert "forbidden" in (ws.response_head + ws.buffer.decode("latin-1"))
        assert_protected(ws.response_head.encode() + b"\r\n\r\n", "refused handshake")
    ws.close()


def test_websocket_origin_allow_list_and_any(parley):
    listed = parley("--allowed-origins", "https://app.example, http://other.example:8443")
    for origin, expected in [("https://app.example", 101), ("https://APP.example:443", 101),
                             ("http://other.example:8443", 101), ("http://app.example", 403),
                             ("http://other.example", 403), (f"http://127.0.0.1:{listed.port}", 403), (None, 101)]:
        ws = RawWebSocket(listed.port, origin=origin)
        assert ws.status == expected, origin
        ws.close()
    anyone = parley("--allowed-origins", "*")
    for origin in ("https://evil.example", "null", None):
        ws = RawWebSocket(anyone.port, origin=origin)
        assert ws.status == 101, origin
        ws.close()

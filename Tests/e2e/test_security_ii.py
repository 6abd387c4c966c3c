"""Defects found when Parley was attacked as an outsider would (issue "Security II"): each
test here failed before its fix. Driven by raw sockets, curl and a hand-driven XMPP stream."""
import base64
import json
import os
import socket
import stat
import subprocess
import tempfile
import time

from api import call, register
from conftest import binary
from xmpp import HEADER, RawStream


def raw_http(port: int, payload: bytes, timeout: float = 30) -> tuple[bytes, float]:
    """Sends `payload`, reads until the server closes; returns what came and how long it took."""
    started = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(payload)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            received += chunk
    return received, time.time() - started


def error_code(response: bytes) -> str | None:
    body = response.split(b"\r\n\r\n", 1)[-1]
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def test_a_trickled_request_head_gets_408_at_the_header_timeout(parley):
    server = parley("--header-timeout", "2")
    started = time.time()
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        received = b""
        # One header byte a second would have held the connection for good.
        for byte in b"X-Slow: " + b"a" * 30:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            sock.settimeout(1)
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
            except socket.timeout:
                pass
    elapsed = time.time() - started
    assert received.startswith(b"HTTP/1.1 408"), received
    assert error_code(received) == "request_timeout"
    assert 1.5 <= elapsed <= 8, elapsed


def test_a_body_slower_than_the_minimum_rate_gets_408(parley):
    server = parley("--header-timeout", "2", "--min-body-rate", "1000")
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(b"POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        received = b""
        started = time.time()
        while time.time() - started < 15:
            try:
                sock.sendall(b"x" * 10)
            except (BrokenPipeError, ConnectionResetError):
                break
            sock.settimeout(0.5)
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
            except socket.timeout:
                pass
    assert received.startswith(b"HTTP/1.1 408"), received
    # A body at a normal pace is unaffected.
    reply = call(server.url, "POST", "/v1/auth/register", {"username": "mei", "password": "password123"})
    assert reply.status == 201


def test_unsupported_upgrades_and_connect_get_clear_refusals(parley):
    server = parley()
    h2c, _ = raw_http(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                                   b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
    assert h2c.startswith(b"HTTP/1.1 501"), h2c
    assert error_code(h2c) == "unsupported_upgrade"
    connect, _ = raw_http(server.port, b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n")
    assert connect.startswith(b"HTTP/1.1 405") or connect.startswith(b"HTTP/1.1 421"), connect
    assert error_code(connect) in ("method_not_allowed", "misdirected_request")
    assert b"internal_error" not in h2c + connect


def test_a_rebound_host_name_is_refused_and_origins_compare_the_scheme(parley):
    server = parley()
    # DNS rebinding: another site's name pointed at this loopback server.
    evil, _ = raw_http(server.port, b"GET /v1/me HTTP/1.1\r\nHost: evil.example:%d\r\nConnection: close\r\n\r\n" % server.port)
    assert evil.startswith(b"HTTP/1.1 421"), evil
    assert error_code(evil) == "misdirected_request"
    good, _ = raw_http(server.port, b"GET /healthz HTTP/1.1\r\nHost: localhost:%d\r\nConnection: close\r\n\r\n" % server.port)
    assert good.startswith(b"HTTP/1.1 200")

    def upgrade(origin: str, host: str) -> bytes:
        response, _ = raw_http(server.port, (
            f"GET /v1/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode(),
            timeout=3)
        return response

    same = f"127.0.0.1:{server.port}"
    assert upgrade(f"http://{same}", same).startswith(b"HTTP/1.1 101")
    # The same host and port reached over another scheme is another origin.
    assert upgrade(f"https://{same}", same).startswith(b"HTTP/1.1 403")


def test_public_url_fixes_the_origin_and_the_host_names(parley):
    server = parley("--public-url", "https://chat.example.org", "--allowed-origins", "https://app.example.org")

    def upgrade(origin: str, host: str) -> bytes:
        response, _ = raw_http(server.port, (
            f"GET /v1/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode(),
            timeout=3)
        return response

    assert upgrade("https://chat.example.org", "chat.example.org").startswith(b"HTTP/1.1 101")
    assert upgrade("https://app.example.org", "chat.example.org").startswith(b"HTTP/1.1 101")
    assert upgrade("http://chat.example.org", "chat.example.org").startswith(b"HTTP/1.1 403")
    # An origin equal to the Host header no longer suffices.
    assert upgrade("https://other.example", "other.example").startswith(b"HTTP/1.1 421")
    other, _ = raw_http(server.port, b"GET /healthz HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n")
    assert other.startswith(b"HTTP/1.1 421")


def test_the_data_directory_and_its_files_are_private(parley):
    parent = tempfile.mkdtemp(prefix="parley-e2e-")
    data = os.path.join(parent, "data")
    log = open(os.path.join(parent, "server.log"), "w")
    # Started by hand: the fixture keeps its log inside the data directory, which must not
    # exist beforehand here.
    process = subprocess.Popen([binary("parley", "PARLEY_BIN"), "serve", "--port", "0", "--xmpp-port", "0", "--data", data,
                                "--password-cost", "minimum"], stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.time() + 20
        while not os.path.exists(os.path.join(data, "parley.sqlite-wal")) and time.time() < deadline:
            time.sleep(0.05)
        assert stat.S_IMODE(os.stat(data).st_mode) == 0o700
        for name in ("parley.sqlite", "parley.sqlite-wal", "server.secret"):
            path = os.path.join(data, name)
            assert os.path.exists(path), name
            assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, name
    finally:
        process.terminate()
        process.wait(timeout=15)
        log.close()
    # A directory someone made readable to all is used, with a warning.
    os.chmod(data, 0o755)
    again = parley(data_dir=data)
    assert any("other local users" in entry.get("msg", "") for entry in again.log_lines())


def scram_challenge(port: int, username: str, mechanism: str = "SCRAM-SHA-256") -> dict:
    stream = RawStream(port)
    try:
        stream.send(HEADER)
        stream.expect("</stream:features>")
        first = base64.b64encode(f"n,,n={username},r=fixednonce0123456789".encode()).decode()
        stream.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='{mechanism}'>{first}</auth>")
        challenge = stream.expect("<challenge[^>]*>([^<]+)</challenge>").group(1)
    finally:
        stream.close()
    fields = dict(part.split("=", 1) for part in base64.b64decode(challenge).decode().split(","))
    return {"salt": fields["s"], "iterations": fields["i"]}


def test_scram_does_not_tell_which_usernames_exist(parley):
    server = parley(xmpp=True)
    register(server, "mei")
    for mechanism in ("SCRAM-SHA-256", "SCRAM-SHA-1"):
        real = [scram_challenge(server.xmpp_port, "mei", mechanism) for _ in range(2)]
        ghost = [scram_challenge(server.xmpp_port, "nobody", mechanism) for _ in range(2)]
        # Before: an unknown name got a new random salt each time, a real one the same.
        assert real[0] == real[1]
        assert ghost[0] == ghost[1]
        assert ghost[0]["iterations"] == real[0]["iterations"]
        assert len(base64.b64decode(ghost[0]["salt"])) == len(base64.b64decode(real[0]["salt"]))
        assert scram_challenge(server.xmpp_port, "nobody2", mechanism)["salt"] != ghost[0]["salt"]
    # The same after a restart: the secret is kept in the data directory.
    before = scram_challenge(server.xmpp_port, "nobody")
    server.stop()
    again = parley(xmpp=True, data_dir=server.data_dir)
    assert scram_challenge(again.xmpp_port, "nobody") == before


def test_forwarded_addresses_count_only_from_trusted_proxies(parley):
    # One registration per address per hour: the limit shows whose address counted.
    server = parley("--registrations-per-address", "1", "--trusted-proxies", "127.0.0.1/32")
    first = call(server.url, "POST", "/v1/auth/register", {"username": "one", "password": "password123"},
                 headers={"X-Forwarded-For": "203.0.113.7"})
    second = call(server.url, "POST", "/v1/auth/register", {"username": "two", "password": "password123"},
                  headers={"X-Forwarded-For": "203.0.113.8"})
    assert first.status == 201 and second.status == 201, "two clients behind the proxy"
    third = call(server.url, "POST", "/v1/auth/register", {"username": "three", "password": "password123"},
                 headers={"Forwarded": 'for="203.0.113.7"'})
    assert third.status == 429 and third.error_code == "rate_limited"

    untrusted = parley("--registrations-per-address", "1")
    call(untrusted.url, "POST", "/v1/auth/register", {"username": "one", "password": "password123"},
         headers={"X-Forwarded-For": "203.0.113.7"})
    forged = call(untrusted.url, "POST", "/v1/auth/register", {"username": "two", "password": "password123"},
                  headers={"X-Forwarded-For": "203.0.113.9"})
    assert forged.status == 429, "a forged header from an untrusted peer changes nothing"


def test_json_bodies_must_say_so_so_cross_site_forms_cannot_post(parley):
    server = parley()
    body = json.dumps({"username": "mei", "password": "password123"}).encode()
    # What a cross-site HTML form can send without a preflight: text/plain and form data.
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": content_type} if content_type else {}
        reply = call(server.url, "POST", "/v1/auth/register", raw=body, headers=headers)
        assert reply.status == 415 and reply.error_code == "unsupported_media_type", (content_type, reply.body)
    reply = call(server.url, "POST", "/v1/auth/register", raw=body, headers={"Content-Type": "application/json; charset=utf-8"})
    assert reply.status == 201

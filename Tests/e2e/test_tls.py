"""TLS on every port, with certificates the tests make (`openssl req -x509`): HTTPS with curl,
WSS with Python's websockets, the web client in Chromium over HTTPS, XMPP with slixmpp over
direct TLS and STARTTLS, a plaintext request to the TLS port, and a certificate swapped by
SIGHUP while a WebSocket stays open."""
import asyncio
import json
import signal
import socket
import ssl
import subprocess
import time
import urllib.request

import pytest
import websockets

from client import Session
from conftest import binary, free_port
from web import DESKTOP, PHONE, WEB_ROOT, Browser
from xmpp import Bot, PASSWORD, run


def make_certificate(directory, name: str, common_name: str = "localhost") -> tuple[str, str]:
    """A self-signed certificate for localhost and 127.0.0.1 (its own CA) and its key."""
    cert, key = f"{directory}/{name}.pem", f"{directory}/{name}-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", f"/CN={common_name}", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    return cert, key


def trusting(cert: str) -> ssl.SSLContext:
    """Verifies the server's certificate and name against `cert` (the test's own CA)."""
    return ssl.create_default_context(cafile=cert)


def https(server, path: str, cert: str, method: str = "GET", body=None, token: str | None = None):
    """An HTTPS request that checks the certificate against `cert`; (status, headers, JSON)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"https://localhost:{server.port}{path}", data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=20, context=trusting(cert)) as response:
        return response.status, response.headers, json.loads(response.read() or b"null")


def register(server, cert: str, username: str) -> dict:
    status, _, session = https(server, "/v1/auth/register", cert, "POST", {"username": username, "password": PASSWORD})
    assert status == 201
    return session


async def open_session(server, cert: str, token: str) -> Session:
    ws = await websockets.connect(f"wss://localhost:{server.port}/v1/ws", ssl=trusting(cert), max_size=None)
    session = Session(ws)
    reply = await session.call("auth", {"token": token})
    assert reply["ok"], reply
    return session


def served_certificate(port: int, cert: str) -> bytes:
    """The certificate a new handshake on `port` gets (DER), verified against `cert`."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with trusting(cert).wrap_socket(raw, server_hostname="localhost") as tls:
            return tls.getpeercert(binary_form=True)


def der(cert: str) -> bytes:
    with open(cert) as file:
        return ssl.PEM_cert_to_DER_cert(file.read())


@pytest.fixture
def tls_server(parley, tmp_path):
    cert, key = make_certificate(tmp_path, "server")
    server = parley("--password-cost", "minimum", "--tls-cert", cert, "--tls-key", key, web_root=WEB_ROOT)
    return server, cert, key


def test_curl_over_https_and_a_plaintext_request_is_refused(tls_server):
    server, cert, _ = tls_server
    answer = subprocess.run(["curl", "-sS", "-i", "--cacert", cert, f"https://localhost:{server.port}/healthz"],
                            capture_output=True, text=True, timeout=30)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.startswith("HTTP/1.1 200")
    assert "strict-transport-security: max-age=31536000" in answer.stdout.lower()
    assert json.loads(answer.stdout.split("\n\n", 1)[1])["status"] == "ok"

    # Without the CA, curl refuses the certificate: nothing is silently accepted.
    untrusted = subprocess.run(["curl", "-sS", f"https://localhost:{server.port}/healthz"],
                               capture_output=True, text=True, timeout=30)
    assert untrusted.returncode != 0

    # Plaintext HTTP to the TLS port: a clean 400 that says to use https, then the close.
    plain = subprocess.run(["curl", "-sS", "-i", f"http://127.0.0.1:{server.port}/healthz"],
                           capture_output=True, text=True, timeout=30)
    assert plain.stdout.startswith("HTTP/1.1 400"), plain.stdout
    assert "https://" in plain.stdout
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
        received = b""
        while chunk := sock.recv(4096):
            received += chunk
    assert received.startswith(b"HTTP/1.1 400 Bad Request\r\n")


def test_a_bad_certificate_stops_the_server_with_a_clear_error(tmp_path):
    cert, key = make_certificate(tmp_path, "server")
    _, other_key = make_certificate(tmp_path, "other")
    for args in (["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", key],
                 ["--tls-cert", cert, "--tls-key", other_key],
                 ["--tls-cert", cert]):
        result = subprocess.run([binary("parley", "PARLEY_BIN"), "serve", "--port", "0", "--xmpp-port", "0",
                                 "--data", str(tmp_path / "data"), *args], capture_output=True, text=True, timeout=30)
        assert result.returncode != 0
        assert "tls-" in result.stderr, result.stderr


def test_websockets_over_wss_sign_in_and_exchange_a_message(tls_server):
    server, cert, _ = tls_server
    mei = register(server, cert, "mei")
    bob = register(server, cert, "bob")

    async def scenario():
        mei_session = await open_session(server, cert, mei["token"])
        bob_session = await open_session(server, cert, bob["token"])
        asked = await mei_session.call("friend.request", {"username": "bob"})
        accepted = await bob_session.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
        conversation = accepted["data"]["conversationId"]
        text = "over wss " + "é" * 3000
        sent = await mei_session.call("message.send", {"conversationId": conversation, "clientId": "c1",
                                                        "kind": "text", "text": text})
        assert sent["ok"], sent
        deadline = time.time() + 10
        while not any(e.get("event") == "message.new" and e["data"].get("text") == text for e in bob_session.events):
            assert time.time() < deadline, f"bob got no message: {[e.get('event') for e in bob_session.events]}"
            await asyncio.sleep(0.05)
        await mei_session.close()
        await bob_session.close()
    run(scenario(), timeout=60)


def test_the_web_client_over_https_signs_in_and_two_people_chat(tls_server):
    server, cert, _ = tls_server
    base = f"https://localhost:{server.port}"
    alice_session = register(server, cert, "alice")
    bob_session = register(server, cert, "bob")

    async def befriend():
        alice = await open_session(server, cert, alice_session["token"])
        bob = await open_session(server, cert, bob_session["token"])
        asked = await alice.call("friend.request", {"username": "bob"})
        accepted = await bob.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
        assert accepted["ok"], accepted
        await alice.close()
        await bob.close()
    run(befriend(), timeout=60)

    alice = Browser(base, size=DESKTOP, accept_insecure_certs=True)
    bob = Browser(base, size=PHONE, accept_insecure_certs=True)
    try:
        # Alice signs in through the page itself, over HTTPS.
        alice.open("#/login")
        alice.fill("Username", "alice")
        alice.fill("Password", PASSWORD)
        alice.click("form.auth-form button[type=submit]")
        alice.wait(".shell")
        assert alice.js("return location.protocol") == "https:"
        bob.sign_in_with_token(bob_session)

        alice.wait(".view--list:not([hidden]) a.row", text="bob")
        alice.open_chat_titled("bob")
        alice.send_message("Hello over TLS")
        alice.wait_bubble("Hello over TLS")
        bob.wait(".view--list:not([hidden]) a.row", text="alice")
        bob.open_chat_titled("alice")
        bob.wait_bubble("Hello over TLS")
        bob.send_message("Secure reply")
        alice.wait_bubble("Secure reply")
    finally:
        alice.quit()
        bob.quit()


def test_slixmpp_over_direct_tls_and_starttls(parley, tmp_path):
    cert, key = make_certificate(tmp_path, "server")
    tls_port = free_port()
    server = parley("--password-cost", "minimum", "--tls-cert", cert, "--tls-key", key,
                    "--xmpp-tls-port", str(tls_port), xmpp=True)
    register(server, cert, "mei")
    register(server, cert, "bob")

    async def scenario():
        # Mei: direct TLS (XEP-0368) on the TLS port; PLAIN is fine inside TLS.
        mei = Bot("mei@localhost", mechanism="PLAIN", trust=cert)
        mei.enable_starttls = False
        mei.enable_direct_tls = True
        # As XEP-0368 asks of a client; the server answers with the same protocol.
        mei.ssl_context.set_alpn_protocols(["xmpp-client"])
        assert await mei.sign_in(tls_port)
        # Bob: STARTTLS on the normal port, with the main --tls-cert.
        bob = Bot("bob@localhost", mechanism="SCRAM-SHA-256", trust=cert)
        assert await bob.sign_in(server.xmpp_port)
        for bot in (mei, bob):
            assert bot.transport.get_extra_info("ssl_object") is not None
        assert mei.transport.get_extra_info("ssl_object").selected_alpn_protocol() == "xmpp-client"
        mei.send_presence(pto="bob@localhost", ptype="subscribe")
        await bob.wait_presence(lambda p: p["type"] == "subscribe")
        bob.send_presence(pto="mei@localhost", ptype="subscribed")
        await mei.wait_presence(lambda p: p["type"] == "subscribed")
        mei.send_message(mto="bob@localhost", mbody="direct TLS " + "x" * 3_900, mtype="chat")
        got = await bob.next_message()
        assert got["body"] == "direct TLS " + "x" * 3_900
        bob.send_message(mto="mei@localhost", mbody="starttls back", mtype="chat")
        got = await mei.next_message()
        assert got["body"] == "starttls back"
        await mei.stop()
        await bob.stop()
    run(scenario())

    # Plaintext XMPP to the direct TLS port is not answered in the clear: just closed.
    with socket.create_connection(("127.0.0.1", tls_port), timeout=10) as sock:
        sock.sendall(b"<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' "
                     b"xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")
        assert sock.recv(4096) == b""


def test_sighup_swaps_the_certificate_while_a_websocket_stays_open(tls_server, tmp_path):
    server, cert, key = tls_server
    mei = register(server, cert, "mei")
    assert served_certificate(server.port, cert) == der(cert)
    new_cert, new_key = make_certificate(tmp_path, "renewed", common_name="renewed")

    async def scenario():
        session = await open_session(server, cert, mei["token"])
        before = await session.call("me.get")
        assert before["ok"], before

        # The files are replaced in place, as a renewal does, then SIGHUP.
        with open(new_cert) as source, open(cert, "w") as target:
            target.write(source.read())
        with open(new_key) as source, open(key, "w") as target:
            target.write(source.read())
        server.process.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while not any(line.get("msg") == "tls certificate reloaded" for line in server.log_lines()):
            assert time.time() < deadline, "no reload logged"
            await asyncio.sleep(0.05)

        # A new handshake sees the new certificate; the open WebSocket still works.
        assert served_certificate(server.port, new_cert) == der(new_cert)
        after = await session.call("me.get")
        assert after["ok"] and after["data"]["username"] == "mei", after

        # A bad pair at SIGHUP is logged and the one in use kept.
        with open(cert, "w") as target:
            target.write("not a certificate\n")
        server.process.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while not any(line.get("msg", "").startswith("tls certificate reload failed") for line in server.log_lines()):
            assert time.time() < deadline, "no failed reload logged"
            await asyncio.sleep(0.05)
        assert server.process.poll() is None
        assert served_certificate(server.port, new_cert) == der(new_cert)
        again = await session.call("me.get")
        assert again["ok"], again
        await session.close()
    run(scenario(), timeout=60)


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_parley_chat_over_wss_with_a_ca_file(tls_server, tmp_path):
    from client import wait_for_message
    from tmux import Tmux

    server, cert, _ = tls_server
    register(server, cert, "alice")
    bob = register(server, cert, "bob")
    env = {"LANG": "C.UTF-8", "TERM": "xterm-256color"}

    async def scenario():
        bob_session = await open_session(server, cert, bob["token"])
        # Without the CA the terminal client refuses the server's certificate, and says why.
        refused = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", f"wss://localhost:{server.port}",
                        "--data", str(tmp_path / "refused")], 200, 30, env)
        try:
            await refused.wait_for("Username", "Password")
            refused.text("alice")
            refused.keys("Tab")
            refused.text(PASSWORD)
            refused.keys("Enter")
            await refused.wait_for("certificate verification failed")
        finally:
            refused.close()

        tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", f"wss://localhost:{server.port}",
                     "--ca-file", cert, "--data", str(tmp_path / "trusted")], 100, 30, env)
        try:
            await tmux.sign_in("alice", PASSWORD)
            await tmux.wait_for("● online")
            alice = await open_session(server, cert, https(server, "/v1/auth/login", cert, "POST",
                                                           {"username": "alice", "password": PASSWORD})[2]["token"])
            asked = await alice.call("friend.request", {"username": "bob"})
            accepted = await bob_session.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
            assert accepted["ok"], accepted
            await alice.close()
            await tmux.wait_for("bob", "now friends")
            tmux.keys("Enter")
            await tmux.wait_for("Say something")
            tmux.text("hello over wss")
            tmux.keys("Enter")
            await wait_for_message(bob_session, "hello over wss")
            reply = await bob_session.call("message.send", {"conversationId": accepted["data"]["conversationId"],
                                                            "clientId": "r1", "kind": "text", "text": "reply over tls"})
            assert reply["ok"], reply
            await tmux.wait_for("reply over tls")
        finally:
            tmux.close()
        await bob_session.close()
    run(scenario(), timeout=120)

"""Suspension through the admin API ends every connection of the user at once, the native
WebSocket and the Jabber stream alike; while it holds, HTTP answers 403 `suspended` and
neither protocol signs the user in; lifting it lets them back."""
import asyncio
import subprocess
import time

from api import call
from client import Session
from conftest import binary
from xmpp import PASSWORD, Bot, RawStream, register, run, server  # noqa: F401  (the fixture)


def test_suspension_closes_the_websocket_and_the_jabber_stream_at_once(server):
    admin_token = register(server, "warden")
    bob_token = register(server, "bobsx")
    granted = subprocess.run([binary("parley", "PARLEY_BIN"), "admin", "--data", server.data_dir, "grant", "warden"],
                             capture_output=True, text=True, timeout=60)
    assert granted.returncode == 0, granted.stderr
    bob_id = call(server.url, "GET", "/v1/me", token=bob_token).json["id"]

    stream = RawStream(server.xmpp_port)
    stream.sign_in("bobsx")
    stream.expect("<presence")  # the stream is available

    async def scenario():
        session = await Session.open(server.port, bob_token)
        started = time.monotonic()
        reply = call(server.url, "POST", f"/v1/admin/users/{bob_id}/suspend", {"reason": "raiding"}, token=admin_token)
        assert reply.status == 200, reply.body
        await asyncio.wait_for(session.reader, 5)
        assert session.ws.close_code == 4001
        return time.monotonic() - started
    websocket_closed_after = asyncio.run(scenario())
    assert websocket_closed_after < 3

    # The Jabber stream ends with not-authorized, at once.
    stream.sock.settimeout(3)
    stream.expect("not-authorized")
    stream.expect("</stream:stream>")
    stream.close()

    refused = call(server.url, "GET", "/v1/me", token=bob_token)
    assert refused.status == 403 and refused.error_code == "suspended"
    assert refused.json["error"]["reason"] == "raiding" and "until" not in refused.json["error"]
    again = RawStream(server.xmpp_port)
    again.send("<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' "
               "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")
    again.expect("</stream:features>")
    import base64
    again.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>"
               + base64.b64encode(b"\0bobsx\0password123").decode() + "</auth>")
    again.expect("<failure")
    again.close()

    assert call(server.url, "POST", f"/v1/admin/users/{bob_id}/unsuspend", token=admin_token).status == 200
    back = RawStream(server.xmpp_port)
    back.sign_in("bobsx")
    back.close()
    assert call(server.url, "GET", "/v1/me", token=bob_token).status == 200


def test_scram_tells_of_a_suspension_only_after_the_password_is_proved(server):
    """A suspended account's SCRAM exchange looks like anyone's until the proof: a wrong
    password gets a plain not-authorized (nothing about the suspension), the right one the
    suspended refusal."""
    admin_token = register(server, "wardenb")
    register(server, "carlsx")
    granted = subprocess.run([binary("parley", "PARLEY_BIN"), "admin", "--data", server.data_dir, "grant", "wardenb"],
                             capture_output=True, text=True, timeout=60)
    assert granted.returncode == 0, granted.stderr
    carl_id = call(server.url, "GET", "/v1/users/by-name/carlsx", token=admin_token).json["id"]
    reply = call(server.url, "POST", f"/v1/admin/users/{carl_id}/suspend", {"reason": "raiding"}, token=admin_token)
    assert reply.status == 200, reply.body

    async def attempt(password: str):
        bot = Bot("carlsx@localhost", password=password)
        failures = []
        bot.add_event_handler("failed_auth", failures.append)
        try:
            signed_in = await bot.sign_in(server.xmpp_port)
        finally:
            await bot.stop()
        assert not signed_in
        assert failures, "no SASL failure came"
        return failures[0]["condition"], failures[0]["text"]

    condition, text = run(attempt("not the password"))
    assert condition == "not-authorized"
    assert "suspend" not in text.lower() and "raiding" not in text

    condition, text = run(attempt(PASSWORD))
    assert condition == "not-authorized"
    assert "suspended" in text

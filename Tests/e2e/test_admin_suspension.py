"""Suspension through the admin API ends every connection of the user at once, the native
WebSocket and the Jabber stream alike; while it holds, HTTP answers 403 `suspended` and
neither protocol signs the user in; lifting it lets them back."""
import asyncio
import subprocess
import time

from api import call
from client import Session
from conftest import binary
from xmpp import RawStream, register, server  # noqa: F401  (the fixture)


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

"""The account's life as a Jabber client sees it: a stream signed in with the password ends
when the password changes or the other devices are signed out (docs/protocol.md, "Account
security"), and the new password signs in again."""
import base64

from api import call
from xmpp import HEADER, PASSWORD, RawStream, register, server  # noqa: F401 (server is a fixture)


def test_a_password_change_ends_the_jabber_stream_and_the_new_password_works(server):
    token = register(server, "mei")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("mei")
    changed = call(server.url, "POST", "/v1/me/password", {"current": PASSWORD, "new": "a-new-password"}, token=token)
    assert changed.status == 200, changed.body
    stream.expect("<not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>")
    stream.expect("</stream:stream>")

    again = RawStream(server.xmpp_port)
    again.sign_in("mei", password="a-new-password")
    # Keeping the other sessions keeps the stream too.
    kept = call(server.url, "POST", "/v1/me/password",
                {"current": "a-new-password", "new": "third-password", "keepOtherSessions": True}, token=token)
    assert kept.json == {"revoked": 0}
    again.send("<iq type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>")
    again.expect("id='p1'")


def test_signing_out_the_other_devices_ends_the_jabber_stream(server):
    token = register(server, "bob")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("bob")
    signed_out = call(server.url, "DELETE", "/v1/auth/sessions", token=token)
    assert signed_out.status == 200 and signed_out.json == {"revoked": 0}
    stream.expect("<not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>")
    # The device that asked stays signed in.
    assert call(server.url, "GET", "/v1/me", token=token).status == 200


def test_deleting_the_account_over_http_ends_the_jabber_stream_and_its_sign_in(server):
    token = register(server, "cat")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("cat")
    assert call(server.url, "DELETE", "/v1/me", {"password": PASSWORD}, token=token).status == 204
    stream.expect("<not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>")
    # The account has no password any more: PLAIN fails.
    again = RawStream(server.xmpp_port)
    again.send(HEADER)
    again.expect("</stream:features>")
    plain = base64.b64encode(b"\0cat\0" + PASSWORD.encode()).decode()
    again.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{plain}</auth>")
    again.expect("<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>")


def test_xep_0077_changes_the_password_and_removes_the_account(server):
    token = register(server, "dan")
    stream = RawStream(server.xmpp_port)
    stream.sign_in("dan")
    stream.send("<iq type='get' id='r1'><query xmlns='jabber:iq:register'/></iq>")
    info = stream.expect(r"<iq[^>]*id='r1'[^>]*>.*?</iq>").group(0)
    assert "<registered/>" in info and "<username>dan</username>" in info
    stream.send("<iq type='set' id='r2'><query xmlns='jabber:iq:register'><username>dan</username>"
                "<password>a-new-password</password></query></iq>")
    stream.expect(r"<iq[^>]*type='result'[^>]*id='r2'|<iq[^>]*id='r2'[^>]*type='result'")
    # The web session was signed out; the new password signs in, the old one no longer.
    assert call(server.url, "GET", "/v1/me", token=token).error_code == "unauthorized"
    assert call(server.url, "POST", "/v1/auth/login", {"username": "dan", "password": PASSWORD}).error_code == "invalid_credentials"
    fresh = call(server.url, "POST", "/v1/auth/login", {"username": "dan", "password": "a-new-password"})
    assert fresh.status == 200
    # A weak password is refused with a stanza error.
    stream.send("<iq type='set' id='r3'><query xmlns='jabber:iq:register'><password>short</password></query></iq>")
    refused = stream.expect(r"<iq[^>]*id='r3'[^>]*>.*?</iq>").group(0)
    assert "type='error'" in refused

    stream.send("<iq type='set' id='r4'><query xmlns='jabber:iq:register'><remove/></query></iq>")
    stream.expect(r"id='r4'")
    stream.expect("<not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>")
    assert call(server.url, "GET", "/v1/me", token=fresh.json["token"]).error_code == "unauthorized"
    profile = call(server.url, "POST", "/v1/auth/login", {"username": "dan", "password": "a-new-password"})
    assert profile.error_code == "invalid_credentials"

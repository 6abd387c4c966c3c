"""The account's life as a Jabber client sees it: a stream signed in with the password ends
when the password changes or the other devices are signed out (docs/protocol.md, "Account
security"), and the new password signs in again."""
from api import call
from xmpp import PASSWORD, RawStream, register, server  # noqa: F401 (server is a fixture)


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

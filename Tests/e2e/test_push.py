"""Push notifications end to end: a push service and a push gateway implemented here on
loopback receive what `parley serve` sends to users who are away; Web Push messages are
decrypted with the subscription's private key (RFC 8291) and their VAPID tokens checked
(RFC 8292)."""
import asyncio
import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from api import call, register
from client import Session

# The push services of these tests are on loopback, which servers refuse unless told.
LOOPBACK = ("--push-allow-loopback", "yes")
FAST = ("--password-cost", "minimum", "--push-coalesce-ms", "300", *LOOPBACK)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A loopback HTTP server that records every POST and answers each path as told: a
    status, a JSON body, or no answer for `hang` seconds."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status: dict[str, int] = {}
        self.body: dict[str, bytes] = {}
        self.hang = 0.0
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with service.lock:
                    service.requests.append({"path": self.path, "headers": dict(self.headers), "body": body, "at": time.time()})
                if service.hang:
                    time.sleep(service.hang)
                answer = service.body.get(self.path, b"")
                try:
                    self.send_response(service.status.get(self.path, 201))
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server gave up waiting (the hanging test)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def received(self, path: str) -> list[dict]:
        with self.lock:
            return [request for request in self.requests if request["path"] == path]

    def wait_for(self, path: str, count: int = 1, timeout: float = 10) -> list[dict]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            got = self.received(path)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        return self.received(path)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """What a browser keeps for one push subscription: its P-256 key pair and auth secret."""

    def __init__(self, service: PushService, name: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.public = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)
        self.path = f"/push/{name}"
        self.endpoint = service.base + self.path

    def subscription(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)}}

    def decrypt(self, request: dict) -> dict:
        assert request["headers"]["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(request["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def check_vapid(request: dict, server, audience: str):
    """The VAPID token (RFC 8292): ES256-signed by the server's published key, for the push
    service's origin, expiring within a day."""
    scheme, _, rest = request["headers"]["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    published = call(server.url, "GET", "/v1/push/vapid-key").json["publicKey"]
    assert fields["k"] == published
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(published))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    body = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    assert body["sub"].startswith(("mailto:", "https:"))


async def friends(server, amy_token: str, ben_token: str):
    """Opens both users' WebSockets, makes them friends; returns the sessions and the 1:1 conversation."""
    amy, ben = await Session.open(server.port, amy_token), await Session.open(server.port, ben_token)
    asked = await amy.call("friend.request", {"username": "ben"})
    await ben.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
    conversation = (await amy.call("friend.list"))["data"]["friends"][0]["conversationId"]
    return amy, ben, conversation


async def send(session: Session, conversation: str, text: str) -> dict:
    reply = await session.call("message.send", {"conversationId": conversation, "clientId": os.urandom(6).hex(), "kind": "text", "text": text})
    assert reply["ok"], reply
    return reply["data"]


def subscribe(server, token: str, browser: Browser) -> str:
    reply = call(server.url, "POST", "/v1/push/subscriptions", browser.subscription(), token=token)
    assert reply.status == 201, reply.body
    return reply.json["id"]


def amy_and_subscribed_ben(server, service: PushService) -> tuple[str, str, "Browser"]:
    """Registers amy and ben, ben with a Web Push subscription; their tokens and ben's browser."""
    amy_token, ben_token = register(server, "amy"), register(server, "ben")
    browser = Browser(service, "ben")
    subscribe(server, ben_token, browser)
    return amy_token, ben_token, browser


def test_an_absent_user_gets_an_encrypted_push_with_a_valid_vapid_token(parley):
    service = PushService()
    server = parley(*FAST)
    try:
        amy_token, ben_token = register(server, "amy"), register(server, "ben")
        call(server.url, "PATCH", "/v1/me", {"nickname": "Amy 🌸"}, token=amy_token)
        browser = Browser(service, "ben")
        subscribe(server, ben_token, browser)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            sent = await send(amy, conversation, "hello ben, 你好")
            await amy.close()
            return conversation, sent

        conversation, sent = asyncio.run(scenario())
        [request] = service.wait_for(browser.path)
        payload = browser.decrypt(request)
        assert payload["conversationId"] == conversation
        assert payload["sender"] == "Amy 🌸"
        assert payload["preview"] == "hello ben, 你好"
        assert payload["seq"] == sent["seq"] and payload["count"] == 1
        assert payload["unread"] >= 1 and payload["totalUnread"] >= payload["unread"]
        assert int(request["headers"]["TTL"]) > 0
        check_vapid(request, server, service.base)
        metrics = call(server.url, "GET", "/metrics").body.decode()
        assert 'parley_push_total{outcome="sent"} 1' in metrics
        # The key is kept in the data directory, readable by the server's user only.
        assert os.stat(os.path.join(server.data_dir, "vapid.key")).st_mode & 0o777 == 0o600
    finally:
        service.close()


def test_no_push_while_a_connection_is_active_one_once_it_is_in_the_background(parley):
    service = PushService()
    server = parley(*FAST)
    try:
        amy_token, ben_token, browser = amy_and_subscribed_ben(server, service)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await send(amy, conversation, "you are here")
            await asyncio.sleep(1.0)
            before = len(service.received(browser.path))
            assert (await ben.call("client.state", {"state": "inactive"}))["ok"]
            await send(amy, conversation, "you are away")
            await asyncio.sleep(1.0)
            bad = await ben.call("client.state", {"state": "asleep"})
            await amy.close()
            await ben.close()
            return before, bad

        before, bad = asyncio.run(scenario())
        assert before == 0
        pushes = service.wait_for(browser.path)
        assert len(pushes) == 1 and browser.decrypt(pushes[0])["preview"] == "you are away"
        assert not bad["ok"]
    finally:
        service.close()


def test_a_jabber_stream_counts_as_away_once_its_client_says_it_is_inactive(parley):
    """XEP-0352 client state indication feeds the same rule as `client.state`."""
    from xmpp import RawStream
    service = PushService()
    server = parley(*FAST, xmpp=True)
    try:
        amy_token, ben_token, browser = amy_and_subscribed_ben(server, service)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            stream = RawStream(server.xmpp_port)
            stream.sign_in("ben", "password123")
            await asyncio.sleep(0.3)
            await send(amy, conversation, "you are on jabber")
            stream.expect("you are on jabber")
            await asyncio.sleep(1.0)
            before = len(service.received(browser.path))
            stream.send("<inactive xmlns='urn:xmpp:csi:0'/>")
            await asyncio.sleep(0.3)
            await send(amy, conversation, "your phone is in a pocket")
            stream.expect("your phone is in a pocket")
            pushes = service.wait_for(browser.path)
            stream.close()
            await amy.close()
            return before, pushes

        before, pushes = asyncio.run(scenario())
        assert before == 0
        assert len(pushes) == 1 and browser.decrypt(pushes[0])["preview"] == "your phone is in a pocket"
    finally:
        service.close()


def test_a_burst_is_one_coalesced_push(parley):
    service = PushService()
    server = parley("--password-cost", "minimum", "--push-coalesce-ms", "1500", *LOOPBACK)
    try:
        amy_token, ben_token, browser = amy_and_subscribed_ben(server, service)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            for i in range(6):
                await send(amy, conversation, f"burst {i}")
            await amy.close()

        asyncio.run(scenario())
        service.wait_for(browser.path)
        time.sleep(1.0)
        pushes = service.received(browser.path)
        assert len(pushes) == 1
        payload = browser.decrypt(pushes[0])
        assert payload["count"] == 6 and payload["preview"] == "burst 5"
    finally:
        service.close()


def test_muted_conversations_are_silent_and_the_preview_setting_is_kept(parley):
    service = PushService()
    server = parley(*FAST)
    try:
        amy_token, ben_token, browser = amy_and_subscribed_ben(server, service)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            muted = await ben.call("conversation.mute", {"conversationId": conversation})
            past = await ben.call("conversation.mute", {"conversationId": conversation, "until": 1})
            listed = (await ben.call("conversation.list"))["data"]["conversations"]
            await ben.close()
            await asyncio.sleep(0.2)
            await send(amy, conversation, "shh")
            await asyncio.sleep(1.2)
            silent = len(service.received(browser.path))
            # Unmuted, and with previews off: a push that says nothing of the message.
            ben = await Session.open(server.port, ben_token)
            unmuted = await ben.call("conversation.unmute", {"conversationId": conversation})
            after = (await ben.call("conversation.list"))["data"]["conversations"]
            await ben.close()
            await asyncio.sleep(0.2)
            await send(amy, conversation, "secret words")
            await amy.close()
            return conversation, muted, past, listed, silent, unmuted, after

        assert call(server.url, "PATCH", "/v1/me", {"notificationPreview": "nothing"}, token=ben_token).json["notificationPreview"] == "nothing"
        assert call(server.url, "PATCH", "/v1/me", {"notificationPreview": "loud"}, token=ben_token).error_code in ("invalid_field", "bad_request")
        assert call(server.url, "GET", "/v1/me", token=ben_token).json["notificationPreview"] == "nothing"
        conversation, muted, past, listed, silent, unmuted, after = asyncio.run(scenario())
        assert muted["ok"] and muted["data"] == {"mentionsOnly": False}
        assert past["error"]["code"] == "invalid_field" and past["error"]["field"] == "until"
        [row] = [c for c in listed if c["id"] == conversation]
        assert row["mute"] == {"mentionsOnly": False}
        assert silent == 0
        assert unmuted["ok"]
        [row] = [c for c in after if c["id"] == conversation]
        assert "mute" not in row
        [push] = service.wait_for(browser.path)
        payload = browser.decrypt(push)
        assert payload["conversationId"] == conversation
        assert "preview" not in payload and "sender" not in payload
        assert b"secret" not in push["body"]
    finally:
        service.close()


def test_a_gone_subscription_is_removed_and_so_is_one_signed_out(parley):
    service = PushService()
    server = parley(*FAST)
    try:
        amy_token, ben_token = register(server, "amy"), register(server, "ben")
        gone = Browser(service, "gone")
        service.status[gone.path] = 410
        subscribe(server, ben_token, gone)
        other = call(server.url, "POST", "/v1/auth/login", {"username": "ben", "password": "password123"}).json["token"]
        signed_out = Browser(service, "signed-out")
        subscribe(server, other, signed_out)
        assert call(server.url, "POST", "/v1/auth/logout", token=other).status == 204

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            await send(amy, conversation, "one")
            await asyncio.sleep(1.2)
            await send(amy, conversation, "two")
            await asyncio.sleep(1.2)
            await amy.close()

        asyncio.run(scenario())
        assert len(service.received(gone.path)) == 1
        assert service.received(signed_out.path) == []
        metrics = call(server.url, "GET", "/metrics").body.decode()
        assert 'parley_push_total{outcome="failed"} 1' in metrics
        # Bad registrations are refused with a reason.
        bad = call(server.url, "POST", "/v1/push/subscriptions",
                   {"endpoint": "http://push.example.net/x", "keys": {"p256dh": b64url(gone.public), "auth": b64url(gone.auth)}}, token=ben_token)
        assert bad.status == 400 and bad.error_code == "invalid_field" and bad.json["error"]["field"] == "endpoint"
        bad = call(server.url, "POST", "/v1/push/subscriptions",
                   {"endpoint": gone.endpoint, "keys": {"p256dh": b64url(bytes(65)), "auth": b64url(gone.auth)}}, token=ben_token)
        assert bad.status == 400 and bad.json["error"]["field"] == "keys.p256dh"
        assert call(server.url, "POST", "/v1/push/subscriptions", gone.subscription()).status == 401
    finally:
        service.close()


def test_a_hanging_push_service_does_not_delay_message_acks(parley):
    service = PushService()
    service.hang = 8
    server = parley("--password-cost", "minimum", "--push-coalesce-ms", "0", "--push-timeout", "5", "--push-retries", "0", *LOOPBACK)
    try:
        amy_token, ben_token = register(server, "amy"), register(server, "ben")
        browsers = []
        for i in range(5):
            browser = Browser(service, f"hang{i}")
            subscribe(server, ben_token, browser)
            browsers.append(browser)

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            times = []
            for i in range(30):
                started = time.monotonic()
                await send(amy, conversation, f"m{i}")
                times.append(time.monotonic() - started)
                await asyncio.sleep(0.02)
            await amy.close()
            return times

        times = asyncio.run(scenario())
        # Pushes are hanging meanwhile (each message opened one per browser).
        assert len(service.requests) >= 5
        times.sort()
        print(f"ack latency with a hanging push service: median {times[len(times) // 2] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        assert times[-1] < 0.5
        metrics = call(server.url, "GET", "/metrics").body.decode()
        assert "parley_push_queued" in metrics
    finally:
        service.hang = 0
        service.close()


def test_a_push_gateway_gets_the_notify_and_rejected_pushkeys_are_dropped(parley):
    gateway = PushService()
    path = "/_matrix/push/v1/notify"
    gateway.body[path] = json.dumps({"rejected": []}).encode()
    gateway.status[path] = 200
    server = parley(*FAST, "--push-gateway-url", gateway.base + path)
    try:
        amy_token, ben_token = register(server, "amy"), register(server, "ben")
        device = call(server.url, "POST", "/v1/push/devices", {"appId": "org.parley.ios", "pushkey": "apns-token-1"}, token=ben_token)
        assert device.status == 201, device.body
        assert call(server.url, "POST", "/v1/push/devices", {"appId": "", "pushkey": "x"}, token=ben_token).json["error"]["field"] == "appId"

        async def scenario():
            amy, ben, conversation = await friends(server, amy_token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            await send(amy, conversation, "to the phone")
            await asyncio.sleep(1.0)
            gateway.body[path] = json.dumps({"rejected": ["apns-token-1"]}).encode()
            await send(amy, conversation, "rejected")
            await asyncio.sleep(1.0)
            await send(amy, conversation, "never sent")
            await asyncio.sleep(1.0)
            await amy.close()
            return conversation

        conversation = asyncio.run(scenario())
        notifies = gateway.received(path)
        assert len(notifies) == 2
        first = json.loads(notifies[0]["body"])["notification"]
        assert first["room_id"] == conversation
        assert first["sender_display_name"] == "amy"
        assert first["content"]["body"] == "to the phone"
        assert first["counts"]["unread"] >= 1
        assert first["devices"] == [{"app_id": "org.parley.ios", "pushkey": "apns-token-1", "pushkey_ts": first["devices"][0]["pushkey_ts"]}]
    finally:
        gateway.close()


def test_a_friend_request_and_its_acceptance_notify_whoever_is_away(parley):
    service = PushService()
    server = parley(*FAST)
    try:
        amy_token, ben_token = register(server, "amy"), register(server, "ben")
        amys, bens = Browser(service, "amy"), Browser(service, "ben")
        subscribe(server, amy_token, amys)
        subscribe(server, ben_token, bens)

        async def scenario():
            amy = await Session.open(server.port, amy_token)
            asked = await amy.call("friend.request", {"username": "ben", "greeting": "hi, it's amy"})
            await amy.close()
            await asyncio.sleep(0.5)
            ben = await Session.open(server.port, ben_token)
            accepted = await ben.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
            await asyncio.sleep(1.0)
            await ben.close()
            return accepted["data"]["conversationId"]

        conversation = asyncio.run(scenario())
        [request] = service.wait_for(bens.path)
        payload = bens.decrypt(request)
        assert payload["type"] == "friend_request" and payload["sender"] == "amy" and payload["preview"] == "hi, it's amy"
        assert "conversationId" not in payload
        [accepted] = service.wait_for(amys.path)
        payload = amys.decrypt(accepted)
        assert payload["type"] == "friend_added" and payload["conversationId"] == conversation and payload["sender"] == "ben"
        # Ben accepted: his own act notifies nobody else of his.
        assert len(service.received(bens.path)) == 1
    finally:
        service.close()


def test_registrations_per_user_are_bounded_the_oldest_goes(parley):
    service = PushService()
    server = parley(*FAST, "--push-targets-per-user", "2", "--push-max-key-bytes", "16")
    try:
        token = register(server, "amy")
        ids = [subscribe(server, token, Browser(service, f"b{i}")) for i in range(3)]
        # The first went when the third came; the other two are still there.
        assert call(server.url, "DELETE", f"/v1/push/subscriptions/{ids[0]}", token=token).status == 404
        assert call(server.url, "DELETE", f"/v1/push/subscriptions/{ids[2]}", token=token).status == 204
        assert call(server.url, "DELETE", f"/v1/push/subscriptions/{ids[1]}", token=token).status == 204
        too_long = call(server.url, "POST", "/v1/push/devices",
                        {"gatewayUrl": service.base + "/notify", "appId": "a", "pushkey": "k" * 17}, token=token)
        assert too_long.status == 400 and too_long.json["error"]["field"] == "pushkey"
    finally:
        service.close()


def test_without_the_test_switch_nothing_on_this_machine_is_a_push_endpoint(parley):
    """Clients choose endpoint and gateway URLs: the server must not post to itself or its
    neighbours for them."""
    service = PushService()
    server = parley("--password-cost", "minimum")
    try:
        token = register(server, "amy")
        browser = Browser(service, "amy")
        refused = call(server.url, "POST", "/v1/push/subscriptions", browser.subscription(), token=token)
        assert refused.status == 400 and refused.json["error"]["field"] == "endpoint"
        gateway = call(server.url, "POST", "/v1/push/devices",
                       {"gatewayUrl": service.base + "/_matrix/push/v1/notify", "appId": "a", "pushkey": "k"}, token=token)
        assert gateway.status == 400 and gateway.json["error"]["field"] == "gatewayUrl"
        # https names are taken (push services are public), but nothing is sent to an address
        # off the public internet: that is checked when the name is resolved, at send time.
        ben_token = register(server, "ben")
        accepted = call(server.url, "POST", "/v1/push/subscriptions",
                        {"endpoint": "https://127.0.0.1:9/push", "keys": browser.subscription()["keys"]}, token=ben_token)
        assert accepted.status == 201

        async def scenario():
            amy, ben, conversation = await friends(server, token, ben_token)
            await ben.close()
            await asyncio.sleep(0.2)
            await send(amy, conversation, "to an address of our own")
            await asyncio.sleep(2.0)
            await amy.close()

        asyncio.run(scenario())
        refusals = [line for line in server.log_lines() if line.get("msg") == "push refused"]
        assert refusals and refusals[0]["reason"] == "a loopback address"
    finally:
        service.close()

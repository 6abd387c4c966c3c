"""Accounts end to end on a real `parley serve`: the phone flow through the SMS outbox, and
durability across `kill -9`."""
import json
import os
import pathlib
import signal

from api import call

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + \
    (16).to_bytes(4, "big") + (8).to_bytes(4, "big") + bytes([8, 6, 0, 0, 0]) + bytes(64)


def outbox(server) -> list[dict]:
    path = pathlib.Path(server.data_dir) / "sms-outbox.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_phone_login_with_code_from_outbox(parley):
    server = parley("--password-cost", "minimum")
    sent = call(server.url, "POST", "/v1/auth/sms/request", {"phone": "13800138000"})
    assert sent.status == 200 and sent.json["retryAfterSeconds"] == 60
    [message] = outbox(server)
    assert message["phone"] == "+8613800138000" and len(message["code"]) == 6
    verified = call(server.url, "POST", "/v1/auth/sms/verify", {"phone": "13800138000", "code": message["code"]})
    assert verified.status == 200 and verified.json["created"] is True
    token = verified.json["token"]
    assert call(server.url, "PATCH", "/v1/me", {"username": "phone_person"}, token=token).json["username"] == "phone_person"
    # The code never appears in the server's log.
    assert message["code"] not in server.log_path.read_text()
    # A second sign-in of the same number finds the same account.
    server.stop()
    server2 = parley("--password-cost", "minimum", data_dir=server.data_dir)
    # The resend interval survives the restart.
    early = call(server2.url, "POST", "/v1/auth/sms/request", {"phone": "13800138000"})
    assert early.status == 429 and early.headers["Retry-After"]


def test_kill_dash_nine_loses_nothing_acknowledged(parley):
    server = parley("--password-cost", "minimum")
    users = {}
    for i in range(20):
        reply = call(server.url, "POST", "/v1/auth/register", {"username": f"user{i}", "password": "password123"})
        assert reply.status == 201
        users[f"user{i}"] = reply.json["token"]
    token = users["user0"]
    assert call(server.url, "PATCH", "/v1/me", {"nickname": "Zero", "hobbies": ["a", "b"]}, token=token).status == 200
    upload = call(server.url, "POST", "/v1/media", token=token, raw=PNG)
    assert upload.status == 201
    media_url = upload.json["url"]

    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    server.log.close()

    restarted = parley("--password-cost", "minimum", data_dir=server.data_dir)
    for name, user_token in users.items():
        me = call(restarted.url, "GET", "/v1/me", token=user_token)
        assert me.status == 200, name
        assert me.json["username"] == name
        login = call(restarted.url, "POST", "/v1/auth/login", {"username": name, "password": "password123"})
        assert login.status == 200
    zero = call(restarted.url, "GET", "/v1/me", token=token).json
    assert zero["nickname"] == "Zero" and zero["hobbies"] == ["a", "b"]
    fetched = call(restarted.url, "GET", media_url, token=token)
    assert fetched.status == 200 and fetched.body == PNG

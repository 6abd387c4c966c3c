"""An account export (POST /v1/me/export, GET /v1/me/export) holds what the API shows the
user: the account, friends, groups, every message of their conversations, their own images."""
import asyncio
import io
import json
import time
import zipfile

from api import call
from client import Session

PASSWORD = "password123"
# The smallest valid PNG (1×1), for an upload the export must carry.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def register(server, name: str) -> tuple[str, str]:
    reply = call(server.url, "POST", "/v1/auth/register", {"username": name, "password": PASSWORD})
    assert reply.status == 201, reply.body
    return reply.json["token"], reply.json["user"]["id"]


def test_the_export_matches_what_the_api_returns(parley):
    server = parley("--password-cost", "minimum")
    mei, mei_id = register(server, "mei")
    bob, _ = register(server, "bob")
    uploaded = call(server.url, "POST", "/v1/media", raw=PNG, token=mei, headers={"Content-Type": "image/png"})
    assert uploaded.status == 201, uploaded.body
    media_id = uploaded.json["id"]
    assert call(server.url, "PATCH", "/v1/me", {"nickname": "Mei 🌸", "avatar": f"/v1/media/{media_id}"}, token=mei).status == 200

    async def scenario():
        a = await Session.open(server.port, mei)
        b = await Session.open(server.port, bob)
        asked = await a.call("friend.request", {"username": "bob"})
        accepted = await b.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
        direct = accepted["data"]["conversationId"]
        group = (await a.call("group.create", {"name": "Hikers"}))["data"]["id"]
        await b.call("group.join", {"name": "Hikers"})
        for index in range(30):
            await a.call("message.send", {"conversationId": direct, "clientId": f"d{index}", "kind": "text", "text": f"to bob {index}"})
        await b.call("message.send", {"conversationId": direct, "clientId": "b1", "kind": "text", "text": "from bob"})
        await a.call("message.send", {"conversationId": group, "clientId": "g1", "kind": "text", "text": "boots!"})
        friends = (await a.call("friend.list"))["data"]["friends"]
        conversations = (await a.call("conversation.list"))["data"]["conversations"]
        histories = {}
        for conversation in (direct, group):
            history = await a.call("message.history", {"conversationId": conversation, "limit": 100})
            histories[conversation] = history["data"]["messages"]
        groups = [await a.call("group.get", {"conversationId": group})]
        await a.close()
        await b.close()
        return friends, conversations, histories, groups

    friends, conversations, histories, groups = asyncio.run(scenario())

    assert call(server.url, "GET", "/v1/me/export", token=mei).error_code == "not_found"
    started = call(server.url, "POST", "/v1/me/export", token=mei)
    assert started.status == 202 and started.json["status"] == "building"
    deadline = time.time() + 30
    while True:
        reply = call(server.url, "GET", "/v1/me/export", token=mei)
        if reply.status == 200:
            break
        assert reply.status == 202 and 0 <= reply.json["progress"] <= 1, reply.body
        assert time.time() < deadline, "the export took too long"
        time.sleep(0.2)
    assert reply.headers["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(reply.body))
    assert archive.testzip() is None

    account = json.loads(archive.read("account.json"))
    assert account == call(server.url, "GET", "/v1/me", token=mei).json
    exported_friends = json.loads(archive.read("friends.json"))
    assert [f["user"]["id"] for f in exported_friends] == [f["user"]["id"] for f in friends]
    assert [f["conversationId"] for f in exported_friends] == [f["conversationId"] for f in friends]
    exported_groups = json.loads(archive.read("groups.json"))
    assert [(g["id"], g["name"], g["ownerId"]) for g in exported_groups] == [
        (g["data"]["id"], g["data"]["name"], g["data"]["ownerId"]) for g in groups]
    exported = {name for name in archive.namelist() if name.startswith("conversations/")}
    assert exported == {f"conversations/{c['id']}.json" for c in conversations}
    for conversation, messages in histories.items():
        history = json.loads(archive.read(f"conversations/{conversation}.json"))
        assert [(m["id"], m["seq"], m.get("text")) for m in history["messages"]] == [
            (m["id"], m["seq"], m.get("text")) for m in messages]
    assert archive.read(f"media/{media_id}.png") == PNG

    # Another person's export is theirs alone; a new export replaces the old one.
    assert call(server.url, "GET", "/v1/me/export", token=bob).error_code == "not_found"
    assert call(server.url, "POST", "/v1/me/export", token=mei).status == 202
    assert call(server.url, "GET", "/v1/me/export").error_code == "unauthorized"

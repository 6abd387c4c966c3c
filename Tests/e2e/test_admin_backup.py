"""`parley admin` on the server's machine: granting the admin role, and an online backup of
a live server under a bounded write load that restores into a server with the same data;
restore refuses a data directory that is not empty."""
import asyncio
import os
import sqlite3
import subprocess
import tempfile
import threading
import uuid

from api import call, register
from client import Session, befriend
from conftest import binary

SENDERS = 4
MESSAGES_PER_SENDER = 150


def admin(data_dir: str, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary("parley", "PARLEY_BIN"), "admin", "--data", data_dir, *words],
                          capture_output=True, text=True, timeout=60)


async def send_load(port: int, tokens: list[str], group: str, acked: list):
    """Each sender sends MESSAGES_PER_SENDER messages, one after another's ack: bounded."""
    async def sender(token):
        session = await Session.open(port, token)
        for _ in range(MESSAGES_PER_SENDER):
            client_id = uuid.uuid4().hex
            reply = await session.call("message.send", {"conversationId": group, "clientId": client_id,
                                                       "kind": "text", "text": client_id})
            assert reply["ok"], reply
            acked.append(reply["data"]["seq"])
        await session.close()
    await asyncio.gather(*(sender(token) for token in tokens))


async def history(port: int, token: str, group: str) -> list[dict]:
    session = await Session.open(port, token)
    messages: list[dict] = []
    before = None
    while True:
        data = {"conversationId": group, "limit": 100}
        if before is not None:
            data["before"] = before
        reply = await session.call("message.history", data)
        page = reply["data"]["messages"]
        if not page:
            break
        messages = page + messages
        before = page[0]["seq"]
        if before <= 1:
            break
    await session.close()
    return messages


def test_grant_and_online_backup_under_load_restores_the_same_data(parley):
    live = parley()
    tokens = [register(live, f"loader{i}") for i in range(SENDERS)]
    created = call(live.url, "POST", "/v1/auth/login", {"username": "loader0", "password": "password123"})
    assert created.status == 200

    # The admin role comes only from the machine; the network cannot grant it.
    assert call(live.url, "GET", "/v1/admin/me", token=tokens[0]).json["admin"] is False
    granted = admin(live.data_dir, "grant", "loader0")
    assert granted.returncode == 0, granted.stderr
    assert call(live.url, "GET", "/v1/admin/me", token=tokens[0]).json["admin"] is True
    assert call(live.url, "GET", "/v1/admin/stats", token=tokens[0]).status == 200
    assert call(live.url, "GET", "/v1/admin/stats", token=tokens[1]).error_code == "not_admin"
    unknown = admin(live.data_dir, "grant", "nobody-here")
    assert unknown.returncode != 0 and "no user named" in unknown.stderr

    async def make_group():
        sessions = [await Session.open(live.port, token) for token in tokens]
        group = (await sessions[0].call("group.create", {"name": "backed-up"}))["data"]["id"]
        for session in sessions[1:]:
            assert (await session.call("group.join", {"name": "backed-up"}))["ok"]
        for session in sessions:
            await session.close()
        return group
    group = asyncio.run(make_group())

    # Backups taken while the load runs.
    acked: list[int] = []
    during = tempfile.mkdtemp(prefix="parley-backups-")
    backups = []

    def take_backups():
        for index in range(3):
            destination = os.path.join(during, f"b{index}")
            result = admin(live.data_dir, "backup", destination)
            assert result.returncode == 0, result.stderr
            backups.append(destination)
    loader = threading.Thread(target=lambda: asyncio.run(send_load(live.port, tokens, group, acked)))
    loader.start()
    take_backups()
    loader.join(timeout=120)
    assert not loader.is_alive()
    assert len(acked) == SENDERS * MESSAGES_PER_SENDER
    final = os.path.join(during, "final")
    assert admin(live.data_dir, "backup", final).returncode == 0
    live_history = asyncio.run(history(live.port, tokens[0], group))
    live_by_seq = {message["seq"]: message for message in live_history}

    # Each backup restores into a server whose history is the live one's up to some point:
    # gapless, every message the same; the one taken after the load has all of it.
    for backup in backups + [final]:
        restored_dir = tempfile.mkdtemp(prefix="parley-restored-")
        restored = admin(restored_dir, "restore", backup)
        assert restored.returncode == 0, restored.stderr
        server = parley(data_dir=restored_dir)
        restored_history = asyncio.run(history(server.port, tokens[0], group))
        seqs = [message["seq"] for message in restored_history]
        assert seqs == list(range(1, len(seqs) + 1))
        for message in restored_history:
            assert message == live_by_seq[message["seq"]]
        if backup == final:
            assert len(restored_history) == len(live_history)
            assert restored_history[-5:] == live_history[-5:]
        # The admin role and the audit log came along.
        assert call(server.url, "GET", "/v1/admin/me", token=tokens[0]).json["admin"] is True
        audit = call(server.url, "GET", "/v1/admin/audit", token=tokens[0]).json["entries"]
        assert [entry["action"] for entry in audit] == ["admin.grant"]
        server.stop()


def test_restore_refuses_a_directory_that_is_not_empty(parley):
    live = parley()
    register(live, "keeper")
    backup = os.path.join(tempfile.mkdtemp(prefix="parley-backups-"), "b")
    assert admin(live.data_dir, "backup", backup).returncode == 0
    # Into the live server's own directory, and into any directory holding a file.
    refused = admin(live.data_dir, "restore", backup)
    assert refused.returncode != 0 and "not empty" in refused.stderr
    other = tempfile.mkdtemp(prefix="parley-restore-")
    with open(os.path.join(other, "notes.txt"), "w") as handle:
        handle.write("keep me")
    refused = admin(other, "restore", backup)
    assert refused.returncode != 0 and "not empty" in refused.stderr
    assert open(os.path.join(other, "notes.txt")).read() == "keep me"
    # A backup to a path that exists is refused too; a path that is no backup cannot restore.
    assert "exists" in admin(live.data_dir, "backup", backup).stderr
    empty = tempfile.mkdtemp(prefix="parley-restore-")
    assert "not a backup" in admin(empty, "restore", other).stderr


def test_a_backup_in_later_mode_holds_every_acknowledged_message(parley):
    """With `--message-log-apply later` acknowledged 1:1 messages may be only in the message
    log (here all of them: a huge apply batch and delay, and the sender's session stays open,
    since a sign-out's reads would apply them), which a backup does not copy: the server
    applies them before it copies the database."""
    live = parley("--message-log", "segment", "--message-log-apply", "later", "--message-log-apply-batch", "100000",
                  "--message-log-apply-delay-ms", "3600000")
    ann, bob = register(live, "ann"), register(live, "bob")
    backup = os.path.join(tempfile.mkdtemp(prefix="parley-backups-"), "b")

    async def chat_and_back_up() -> tuple[str, list[str]]:
        asker, target = await Session.open(live.port, ann), await Session.open(live.port, bob)
        conversation = await befriend(asker, target, "bob")
        await target.close()
        texts = []
        for index in range(30):
            text = f"kept {index} 留着"
            reply = await asker.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                     "kind": "text", "text": text})
            assert reply["ok"], reply
            texts.append(text)
        # The database file itself does not hold them yet (or this test would test nothing).
        database = sqlite3.connect(f"file:{os.path.join(live.data_dir, 'parley.sqlite')}?mode=ro", uri=True)
        try:
            in_file = database.execute("SELECT count(*) FROM messages WHERE conversation_id = ? AND kind = 'text'",
                                       (int(conversation),)).fetchone()[0]
        finally:
            database.close()
        assert in_file < len(texts), in_file
        result = admin(live.data_dir, "backup", backup)
        assert result.returncode == 0, result.stderr
        # More, then kill -9 with them only in the log: a backup of the stopped server (no
        # admin socket answers) replays the log into the database before it copies it.
        for index in range(30, 40):
            reply = await asker.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                     "kind": "text", "text": f"after {index}"})
            assert reply["ok"], reply
        live.process.kill()
        live.process.wait()
        await asker.close()
        return conversation, texts
    conversation, texts = asyncio.run(chat_and_back_up())
    stopped_backup = os.path.join(os.path.dirname(backup), "stopped")
    result = admin(live.data_dir, "backup", stopped_backup)
    assert result.returncode == 0, result.stderr

    restored_dir = tempfile.mkdtemp(prefix="parley-restored-")
    assert admin(restored_dir, "restore", backup).returncode == 0
    server = parley(data_dir=restored_dir)
    restored = asyncio.run(history(server.port, ann, conversation))
    assert [m.get("text") for m in restored if m["kind"] == "text"] == texts
    server.stop()

    restored_dir = tempfile.mkdtemp(prefix="parley-restored-")
    assert admin(restored_dir, "restore", stopped_backup).returncode == 0
    server = parley(data_dir=restored_dir)
    restored = asyncio.run(history(server.port, ann, conversation))
    assert [m.get("text") for m in restored if m["kind"] == "text"] == texts + [f"after {index}" for index in range(30, 40)]

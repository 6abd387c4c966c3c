"""`parley admin` against a running server goes through its local admin socket: `suspend`
closes the user's web/native WebSocket and their Jabber stream (slixmpp) within a second,
HTTP then answers 403 `suspended`, and the audit log names the local operator by uid. The
socket is owner-only, speaks one JSON object per line, and is gone after the server stops."""
import asyncio
import json
import os
import signal
import socket
import stat
import subprocess
import time

from api import call
from client import Session
from conftest import binary
from xmpp import Bot, register, run, server  # noqa: F401  (the fixture)


def admin(server, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary("parley", "PARLEY_BIN"), "admin", "--data", server.data_dir, *words],
                          capture_output=True, text=True, timeout=60)


def exchange(path: str, *lines: str) -> list[dict]:
    """Sends each line on one connection and returns the decoded answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(10)
        conn.connect(path)
        reader = conn.makefile("r", encoding="utf-8")
        answers = []
        for line in lines:
            conn.sendall(line.encode() + b"\n")
            answers.append(json.loads(reader.readline()))
        return answers


def test_suspend_through_the_socket_closes_websocket_and_jabber_within_a_second(server):
    path = os.path.join(server.data_dir, "admin.sock")
    mode = os.stat(path).st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600

    bob_token = register(server, "bobsock")
    bob_id = call(server.url, "GET", "/v1/me", token=bob_token).json["id"]

    async def scenario():
        session = await Session.open(server.port, bob_token)
        bot = Bot("bobsock@localhost")
        assert await bot.sign_in(server.xmpp_port)
        # The server counts the connection it holds: the socket asks the running server.
        stats = json.loads(admin(server, "stats").stdout)
        assert stats["users"] == 1 and stats["connections"] >= 1
        done = await asyncio.to_thread(admin, server, "suspend", bob_id, "--reason", "raiding")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["suspension"]["reason"] == "raiding"
        # Both are closed within a second of the command's answer (the server closes them
        # before it answers; the second is for the packets to arrive).
        started = time.monotonic()
        await asyncio.wait_for(asyncio.gather(session.reader, bot.ended.wait()), 1.0)
        assert session.ws.close_code == 4001
        assert time.monotonic() - started < 1.0
    run(scenario())

    refused = call(server.url, "GET", "/v1/me", token=bob_token)
    assert refused.status == 403 and refused.error_code == "suspended"

    # The audit log names the operator on this machine, by uid, never an account.
    audit = json.loads(admin(server, "audit").stdout)["entries"]
    suspension = next(entry for entry in audit if entry["action"] == "user.suspend")
    assert suspension["actor"] == f"local admin (uid {os.getuid()})" and "adminId" not in suspension
    assert suspension["reason"] == "raiding"

    # The protocol, spoken by hand: ids echoed, clear refusals, answers on one connection.
    answers = exchange(path, '{"id":"a","command":["revoke-sessions","%s"]}' % bob_id, "nonsense",
                       '{"id":"c","command":["no-such-command"]}')
    assert answers[0]["ok"] is True and answers[0]["id"] == "a" and json.loads(answers[0]["output"])["revoked"] == 1
    assert answers[1]["ok"] is False and answers[1]["error"]["code"] == "bad_request"
    assert answers[2]["ok"] is False and answers[2]["id"] == "c" and answers[2]["error"]["code"] == "bad_request"
    assert call(server.url, "GET", "/v1/me", token=bob_token).status == 401

    # The secret never reaches the log: the reason and arguments are not logged, the command is.
    log = server.log_path.read_text()
    assert "admin socket command" in log and "raiding" not in log

    server.stop()
    assert not os.path.exists(path)


def test_a_stale_socket_is_replaced_and_the_command_line_falls_back_to_the_data_directory(parley):
    first = parley("--password-cost", "minimum")
    register(first, "stale")
    path = os.path.join(first.data_dir, "admin.sock")
    first.stop(signal.SIGKILL)  # no clean shutdown: the socket file stays behind
    assert os.path.exists(path)
    # No server answers: the command runs on the data directory itself.
    granted = admin(first, "grant", "stale")
    assert granted.returncode == 0, granted.stderr
    # A new server replaces the stale socket and answers on it.
    second = parley("--password-cost", "minimum", data_dir=first.data_dir)
    assert exchange(path, '{"command":["users","search","stale"]}')[0]["ok"] is True
    second.stop()

"""`parley serve --store postgres://...`: the data lives in PostgreSQL, survives a restart
(even with a fresh data directory), and two servers can share one database."""
import asyncio
import os
import random
import signal

import pytest

from api import call
from client import Session
from postgres import PostgresServer, bin_directory
from test_durability import burst, group_history as full_history, set_up

pytestmark = pytest.mark.skipif(bin_directory() is None, reason="PostgreSQL binaries missing (make test-deps installs them)")

FAST = ("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000")


@pytest.fixture(scope="module")
def postgres():
    server = PostgresServer()
    yield server
    server.stop()


def register(url: str, name: str) -> dict:
    reply = call(url, "POST", "/v1/auth/register", {"username": name, "password": "password123"})
    assert reply.status == 201, reply.body
    return reply.json


async def befriend(port: int, asker: dict, answerer: dict) -> str:
    """Makes two users friends; returns their 1:1 conversation id."""
    a = await Session.open(port, asker["token"])
    b = await Session.open(port, answerer["token"])
    request = await a.call("friend.request", {"username": answerer["user"]["username"], "greeting": "hi"})
    assert request["ok"], request
    accepted = await b.call("friend.accept", {"requestId": request["data"]["request"]["id"]})
    assert accepted["ok"], accepted
    await a.close()
    await b.close()
    return accepted["data"]["conversationId"]


async def send(port: int, user: dict, conversation: str, texts: list[str]) -> list[int]:
    session = await Session.open(port, user["token"])
    seqs = []
    for text in texts:
        reply = await session.call("message.send", {"conversationId": conversation, "clientId": f"{text}-id",
                                                    "kind": "text", "text": text})
        assert reply["ok"], reply
        seqs.append(reply["data"]["seq"])
    await session.close()
    return seqs


async def history(port: int, token: str, conversation: str) -> list[dict]:
    session = await Session.open(port, token)
    page = await session.call("message.history", {"conversationId": conversation, "limit": 100})
    assert page["ok"], page
    await session.close()
    return page["data"]["messages"]


def test_a_chat_on_postgres_survives_a_restart_with_a_fresh_data_directory(parley, postgres):
    database = postgres.create_database("restart")
    server = parley("--store", database, *FAST)
    ann = register(server.url, "Ann")
    bob = register(server.url, "bob")
    conversation = asyncio.run(befriend(server.port, ann, bob))
    asyncio.run(send(server.port, ann, conversation, ["hello bob", "how are you? 🌸"]))
    asyncio.run(send(server.port, bob, conversation, ["fine, thanks"]))
    before = asyncio.run(history(server.port, ann["token"], conversation))
    assert [m.get("text") for m in before if m["kind"] == "text"] == ["hello bob", "how are you? 🌸", "fine, thanks"]
    assert server.stop() == 0

    # A new data directory: everything must come from PostgreSQL.
    restarted = parley("--store", database, *FAST)
    assert restarted.data_dir != server.data_dir
    login = call(restarted.url, "POST", "/v1/auth/login", {"username": "ANN", "password": "password123"})
    assert login.status == 200, login.body
    # The old token still works: sessions live in the database too.
    after = asyncio.run(history(restarted.port, bob["token"], conversation))
    assert after == before
    assert [m["seq"] for m in after] == list(range(1, len(after) + 1))
    taken = call(restarted.url, "POST", "/v1/auth/register", {"username": "ann", "password": "password123"})
    assert taken.status == 409 and taken.error_code == "username_taken", taken.body

    async def friends():
        session = await Session.open(restarted.port, login.json["token"])
        reply = await session.call("friend.list")
        await session.close()
        return reply["data"]["friends"]
    assert [f["user"]["username"] for f in asyncio.run(friends())] == ["bob"]
    # And the server logs which store it uses, never the connection string.
    listening = [line for line in restarted.log_lines() if line.get("msg") == "listening"][0]
    assert listening["store"] == "postgres"
    assert database not in restarted.log_path.read_text()


def test_two_servers_on_one_database_share_accounts_and_keep_sequences_gapless(parley, postgres):
    database = postgres.create_database("shared")
    first = parley("--store", database, *FAST)
    second = parley("--store", database, *FAST)
    ann = register(first.url, "ann")
    bob = register(second.url, "bob")
    conversation = asyncio.run(befriend(first.port, ann, bob))

    async def both():
        return await asyncio.gather(
            send(first.port, ann, conversation, [f"a{i}" for i in range(30)]),
            send(second.port, bob, conversation, [f"b{i}" for i in range(30)]))
    sent = asyncio.run(both())
    seqs = sorted(sent[0] + sent[1])
    assert len(set(seqs)) == 60
    stored = asyncio.run(history(second.port, ann["token"], conversation))
    assert [m["seq"] for m in stored] == list(range(1, len(stored) + 1))
    assert sorted(m["text"] for m in stored if m["kind"] == "text") == sorted([f"a{i}" for i in range(30)] + [f"b{i}" for i in range(30)])


def test_a_bad_store_uri_is_refused_without_echoing_it(parley):
    with pytest.raises(RuntimeError) as failure:
        parley("--store", "mysql://user:secret@localhost/db")
    assert "secret" not in str(failure.value)


def test_one_send_retried_through_two_servers_at_once_is_stored_once(parley, postgres):
    database = postgres.create_database("retries")
    servers = [parley("--store", database, *FAST), parley("--store", database, *FAST)]
    ann = register(servers[0].url, "ann")
    bob = register(servers[1].url, "bob")
    conversation = asyncio.run(befriend(servers[0].port, ann, bob))

    async def race():
        sessions = [await Session.open(server.port, ann["token"]) for server in servers]
        replies = []
        for round_number in range(20):
            data = {"conversationId": conversation, "clientId": f"retry-{round_number}", "kind": "text",
                    "text": f"once {round_number}"}
            replies.append(await asyncio.gather(*(session.call("message.send", data) for session in sessions)))
        for session in sessions:
            await session.close()
        return replies
    for pair in asyncio.run(race()):
        assert all(reply["ok"] for reply in pair), pair
        # Both servers answer with the one stored message.
        assert pair[0]["data"]["id"] == pair[1]["data"]["id"]
        assert pair[0]["data"]["seq"] == pair[1]["data"]["seq"]
    stored = asyncio.run(history(servers[1].port, bob["token"], conversation))
    texts = [m["text"] for m in stored if m["kind"] == "text"]
    assert texts == [f"once {i}" for i in range(20)]
    assert [m["seq"] for m in stored] == list(range(1, len(stored) + 1))


def test_kill_nine_mid_burst_on_postgres_loses_and_doubles_nothing(parley, postgres):
    """test_durability's check on PostgreSQL: a server killed mid-burst, restarted on the same
    database, has every acknowledged message exactly once, with gapless sequences."""
    database = postgres.create_database("durability")
    options = ("--store", database, *FAST)
    server = parley(*options)
    users = [register(server.url, f"writer{i}") for i in range(4)]
    group = asyncio.run(set_up(server.port, users))
    acked: set = set()
    rng = random.Random(11)
    for round_number in range(3):
        async def round_trip():
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(burst(server.port, users, group, acked, loop.time() + 10))
            await asyncio.sleep(rng.uniform(0.3, 1.0))
            os.kill(server.process.pid, signal.SIGKILL)
            await task
        asyncio.run(round_trip())
        server.process.wait()
        server.log.close()
        server = parley(*options)
        messages = asyncio.run(full_history(server.port, users[0]["token"], group))
        assert [m["seq"] for m in messages] == list(range(1, len(messages) + 1)), f"round {round_number}: gaps"
        texts = [m.get("text") for m in messages if m["kind"] == "text"]
        assert len(texts) == len(set(texts)), f"round {round_number}: a message was stored twice"
        stored = {(m["text"], m["seq"]) for m in messages if m["kind"] == "text"}
        assert not acked - stored, f"round {round_number}: acknowledged messages lost"
    assert len(acked) > 30, "the bursts sent too little to mean anything"

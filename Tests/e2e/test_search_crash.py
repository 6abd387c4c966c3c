"""kill -9 during a burst of sends and edits (SQLite): after each restart every acknowledged
message is found by `message.search` by its own words (an acknowledged edit by its new words,
no longer by the old), and the full-text index and the messages agree row for row: no index
entry without its message and no searchable message missing from the index. The index is
written by triggers in the same statement as the message, so a crash cannot part them."""
import asyncio
import os
import random
import signal
import sqlite3
import uuid

from api import call
from client import Session

CYCLES = 2
BURST_SECONDS = 8
# Edited and unedited messages (each) whose search is checked after each restart.
SAMPLE = 300


def token() -> str:
    return "tok" + uuid.uuid4().hex[:12]


async def burst(port: int, people: list[dict], group: str, sent: dict, edits: dict, deadline: float, seed: int):
    """Each person sends messages with a unique word (and some Chinese), and edits some of
    their own; an edit is recorded as attempted before it is sent, and marked acknowledged
    only after its answer came."""
    loop = asyncio.get_running_loop()

    async def person(index: int):
        rng = random.Random(seed * 10 + index)
        me = people[index]
        session = await Session.open(port, me["token"])
        own: list[str] = []
        while loop.time() < deadline:
            word = token()
            if own and rng.random() < 0.3:
                message_id = rng.choice(own)
                attempt = {"word": word, "acked": False}
                edits.setdefault(message_id, []).append(attempt)
                reply = await session.call("message.edit", {"conversationId": group, "messageId": message_id,
                                                            "clientId": uuid.uuid4().hex, "text": f"edited {word} 改过"}, timeout=5)
                if reply["ok"]:
                    attempt["acked"] = True
            else:
                reply = await session.call("message.send", {"conversationId": group, "clientId": uuid.uuid4().hex, "kind": "text",
                                                            "text": f"burst {word} 喝茶{index}"}, timeout=5)
                if reply["ok"]:
                    sent[reply["data"]["id"]] = word
                    own.append(reply["data"]["id"])

    async def guarded(index: int):
        try:
            await person(index)
        except Exception:
            pass  # killed under us: only acknowledged writes count

    await asyncio.gather(*(guarded(i) for i in range(len(people))))


def index_consistency(path: str) -> tuple[list[int], list[int]]:
    """(index entries without a searchable message or above the watermark, searchable
    messages at or below the watermark without an entry). Messages join the index after
    their send, in batches that move `search_index_watermark` in their own transaction
    (docs/architecture.md); search reads those above it directly."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        [(watermark,)] = db.execute("SELECT indexed_through FROM search_index_watermark").fetchall()
        orphans = [row[0] for row in db.execute(
            "SELECT id FROM messages_search_docsize WHERE id > ? OR id NOT IN "
            "(SELECT id FROM messages WHERE kind <> 'system' AND text IS NOT NULL)", (watermark,))]
        missing = [row[0] for row in db.execute(
            "SELECT id FROM messages WHERE kind <> 'system' AND text IS NOT NULL AND id <= ? "
            "AND id NOT IN (SELECT id FROM messages_search_docsize)", (watermark,))]
        return orphans, missing
    finally:
        db.close()


def test_search_index_consistent_after_kill_nine_during_writes(parley):
    args = ("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000")
    server = parley(*args)
    people = [call(server.url, "POST", "/v1/auth/register", {"username": f"writer{i}", "password": "password123"}).json
              for i in range(3)]

    async def setup():
        owner = await Session.open(server.port, people[0]["token"])
        group = (await owner.call("group.create", {"name": "search-crash"}))["data"]["id"]
        for person in people[1:]:
            session = await Session.open(server.port, person["token"])
            assert (await session.call("group.join", {"name": "search-crash"}))["ok"]
            await session.close()
        await owner.close()
        return group
    group = asyncio.run(setup())
    sent: dict = {}
    edits: dict = {}
    rng = random.Random(25)

    for cycle in range(CYCLES):
        async def cycle_run():
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(burst(server.port, people, group, sent, edits, loop.time() + BURST_SECONDS, cycle))
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            os.kill(server.process.pid, signal.SIGKILL)
            await asyncio.gather(task, return_exceptions=True)
        asyncio.run(cycle_run())
        server.process.wait()
        server.log.close()
        orphans, missing = index_consistency(os.path.join(server.data_dir, "parley.sqlite"))
        assert orphans == [] and missing == [], f"cycle {cycle}: index entries without messages {orphans[:5]}, unindexed {missing[:5]}"
        server = parley(*args, data_dir=server.data_dir)

        async def verify():
            session = await Session.open(server.port, people[1]["token"])
            async def finds(word: str) -> list[str]:
                found = await session.call("message.search", {"query": word, "conversationId": group})
                assert found["ok"], found
                return [hit["message"]["id"] for hit in found["data"]["hits"]]

            # A sample of the edited messages and of the rest (each search walks the chat: all of
            # a burst's thousands would take minutes and show nothing the sample does not).
            pick = random.Random(cycle)
            edited = sorted(set(edits) & set(sent))
            plain = sorted(set(sent) - set(edits))
            checked = pick.sample(edited, min(len(edited), SAMPLE)) + pick.sample(plain, min(len(plain), SAMPLE))
            for message_id in checked:
                word = sent[message_id]
                attempts = edits.get(message_id, [])
                acked = [i for i, attempt in enumerate(attempts) if attempt["acked"]]
                # The text is the last acknowledged one's, or one attempted after it (stored,
                # its answer lost with the connection); never an older one.
                last = acked[-1] if acked else -1
                candidates = ([attempts[last]["word"]] if acked else [word]) + [a["word"] for a in attempts[last + 1:]]
                hits = [await finds(candidate) for candidate in candidates]
                assert [message_id] in hits, f"cycle {cycle}: acknowledged {message_id} not found by any of {candidates}: {hits}"
                assert sum(ids == [message_id] for ids in hits) == 1, f"cycle {cycle}: {message_id} indexed under two texts"
                if acked:
                    # The words it had before the acknowledged edit find it no more.
                    for older in [word] + [a["word"] for a in attempts[:last]]:
                        assert message_id not in await finds(older), f"cycle {cycle}: stale index entry for {message_id}"
            # Chinese finds the burst too (a short word: the bounded scan).
            chinese = await session.call("message.search", {"query": "喝茶", "conversationId": group, "limit": 5})
            assert chinese["ok"] and chinese["data"]["hits"], chinese
            await session.close()
        asyncio.run(verify())
    assert len(sent) >= 20, f"only {len(sent)} messages were acknowledged"

"""kill -9 during a burst of edits and reactions: after each restart every acknowledged action
is stored exactly once (its client id on one event of the conversation's sequence), the
sequence has no gap, each message's state is what its stored events say in order, and a
retried action is answered from the store without a second event."""
import asyncio
import os
import random
import signal
import uuid

from api import call
from client import Session, history

CYCLES = 4
EMOJI = ["👍", "🎉", "😀", "❤️"]


async def all_events(session: Session, conversation: str) -> list[dict]:
    """The whole conversation, action events included, oldest first."""
    return await history(session, conversation, events=True)


async def burst(port: int, people: list[dict], group: str, targets: list[str], attempts: dict, acked: dict,
                deadline: float, seed: int):
    """Each person edits their own messages and reacts to everyone's until the deadline;
    every attempt is recorded before it is sent, every acknowledgement after."""
    loop = asyncio.get_running_loop()

    async def person(index: int):
        rng = random.Random(seed * 10 + index)
        me = people[index]
        session = await Session.open(port, me["token"])
        own = [t for t in targets if t.startswith(me["user"]["id"] + ":")]
        while loop.time() < deadline:
            client_id = uuid.uuid4().hex
            if own and rng.random() < 0.4:
                message_id = rng.choice(own).split(":")[1]
                text = "edit " + client_id
                attempts[client_id] = ("message_edited", message_id, text)
                reply = await session.call("message.edit", {"conversationId": group, "messageId": message_id,
                                                            "clientId": client_id, "text": text}, timeout=5)
            else:
                message_id = rng.choice(targets).split(":")[1]
                emoji = rng.choice(EMOJI)
                adding = rng.random() < 0.6
                op, kind = ("message.react", "reaction_added") if adding else ("message.unreact", "reaction_removed")
                attempts[client_id] = (kind, message_id, emoji)
                reply = await session.call(op, {"conversationId": group, "messageId": message_id, "clientId": client_id,
                                                "emoji": emoji}, timeout=5)
            if reply["ok"]:
                acked[client_id] = reply["data"]["event"]["seq"]

    async def guarded(index: int):
        try:
            await person(index)
        except Exception:
            pass  # the server was killed under us: only acknowledged actions count

    await asyncio.gather(*(guarded(i) for i in range(len(people))))


def replay(messages: list[dict], attempts: dict) -> dict:
    """Each message's state as its stored action events make it, in sequence order."""
    state: dict[str, dict] = {}
    for message in messages:
        if message["kind"] == "text" and "sender" in message and message.get("system") is None:
            state[message["id"]] = {"text": message["text"] if "editedAt" not in message else None, "reactions": []}
    for message in messages:
        system = message.get("system") or {}
        if system.get("type") not in ("message_edited", "reaction_added", "reaction_removed"):
            continue
        kind, message_id, value = attempts[message["clientId"]]
        assert (kind, message_id) == (system["type"], system["messageId"]), message
        target = state[message_id]
        if kind == "message_edited":
            target["text"] = value
        elif kind == "reaction_added":
            entry = next((r for r in target["reactions"] if r["emoji"] == value), None)
            if entry is None:
                target["reactions"].append({"emoji": value, "users": [message["sender"]]})
            else:
                entry["users"].append(message["sender"])
        else:
            entry = next(r for r in target["reactions"] if r["emoji"] == value)
            entry["users"].remove(message["sender"])
            if not entry["users"]:
                target["reactions"].remove(entry)
    return state


def test_kill_nine_during_edits_and_reactions(parley):
    args = ("--password-cost", "minimum", "--ws-rate", "100000", "--ws-burst", "100000")
    server = parley(*args)
    people = [call(server.url, "POST", "/v1/auth/register", {"username": f"actor{i}", "password": "password123"}).json
              for i in range(3)]

    async def setup():
        owner = await Session.open(server.port, people[0]["token"])
        group = (await owner.call("group.create", {"name": "actions"}))["data"]["id"]
        targets = []
        for person in people:
            session = await Session.open(server.port, person["token"])
            if person is not people[0]:
                assert (await session.call("group.join", {"name": "actions"}))["ok"]
            for n in range(3):
                sent = await session.call("message.send", {"conversationId": group, "clientId": uuid.uuid4().hex,
                                                           "kind": "text", "text": f"original {n}"})
                assert sent["ok"], sent
                targets.append(f'{person["user"]["id"]}:{sent["data"]["id"]}')
            await session.close()
        await owner.close()
        return group, targets
    group, targets = asyncio.run(setup())
    attempts: dict = {}
    acked: dict = {}
    rng = random.Random(20)

    for cycle in range(CYCLES):
        async def cycle_run():
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(burst(server.port, people, group, targets, attempts, acked, loop.time() + 10, cycle))
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            os.kill(server.process.pid, signal.SIGKILL)
            await asyncio.gather(task, return_exceptions=True)
        asyncio.run(cycle_run())
        server.process.wait()
        server.log.close()
        server = parley(*args, data_dir=server.data_dir)

        async def verify():
            session = await Session.open(server.port, people[0]["token"])
            messages = await all_events(session, group)
            seqs = [m["seq"] for m in messages]
            assert seqs == list(range(1, len(seqs) + 1)), f"cycle {cycle}: sequence has gaps"
            action_ids = [m["clientId"] for m in messages
                          if (m.get("system") or {}).get("type") in ("message_edited", "reaction_added", "reaction_removed")]
            assert len(action_ids) == len(set(action_ids)), f"cycle {cycle}: an action is stored twice"
            stored = {m["clientId"]: m["seq"] for m in messages if m.get("clientId") in attempts}
            for client_id, seq in acked.items():
                assert stored.get(client_id) == seq, f"cycle {cycle}: acknowledged action {client_id} lost or moved"
            # Every message's state is its events replayed in order.
            expected = replay(messages, attempts)
            current = (await session.call("message.history", {"conversationId": group, "limit": 100}))["data"]["messages"]
            for message in current:
                if message["id"] not in expected:
                    continue
                want = expected[message["id"]]
                if want["text"] is not None:
                    assert message["text"] == want["text"], f"cycle {cycle}: text of {message['id']}"
                assert message.get("reactions", []) == want["reactions"], f"cycle {cycle}: reactions of {message['id']}"
            # A retry of an acknowledged action is answered from the store, with no new event.
            edits = [c for c in acked if attempts[c][0] == "message_edited"]
            if edits:
                client_id = edits[0]
                _, message_id, value = attempts[client_id]
                owner = next(p for p in people if f'{p["user"]["id"]}:{message_id}' in targets)
                retry_session = await Session.open(server.port, owner["token"])
                reply = await retry_session.call("message.edit", {"conversationId": group, "messageId": message_id,
                                                                  "clientId": client_id, "text": value})
                await retry_session.close()
                assert reply["ok"] and reply["data"]["event"]["seq"] == acked[client_id], reply
                after = await all_events(session, group)
                assert len(after) == len(messages), f"cycle {cycle}: a retry stored something"
            await session.close()
        asyncio.run(verify())
    assert len(acked) >= 20, f"only {len(acked)} actions were acknowledged"

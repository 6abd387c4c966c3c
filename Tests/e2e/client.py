"""A small client of Parley's WebSocket protocol for the end-to-end tests."""
import asyncio
import itertools
import json

import websockets


class Session:
    """One signed-in WebSocket: requests with ids, responses matched to them, events kept."""

    def __init__(self, ws):
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        self.events: list[dict] = []
        self.token: str | None = None
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, token: str) -> "Session":
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/v1/ws", max_size=None)
        session = cls(ws)
        session.token = token
        reply = await session.call("auth", {"token": token})
        assert reply["ok"], reply
        return session

    async def _read(self):
        try:
            async for text in self.ws:
                frame = json.loads(text)
                if "event" in frame:
                    self.events.append(frame)
                elif frame.get("id") in self.waiting:
                    self.waiting.pop(frame["id"]).set_result(frame)
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))
            self.waiting.clear()

    async def call(self, op: str, data: dict | None = None, timeout: float = 20) -> dict:
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        await self.ws.send(json.dumps({"id": request_id, "op": op, "data": data or {}}))
        return await asyncio.wait_for(future, timeout)

    async def close(self):
        await self.ws.close()
        self.reader.cancel()


async def history(session: Session, conversation: str, events: bool = False) -> list[dict]:
    """A conversation's whole history, oldest first, read page by page (with `events`, the
    action events too); bounded, so a server that never ends its pages fails the test."""
    messages: list[dict] = []
    before = None
    for _ in range(10_000):
        data = {"conversationId": conversation, "limit": 100}
        if events:
            data["events"] = True
        if before is not None:
            data["before"] = before
        page = (await session.call("message.history", data))["data"]
        messages = page["messages"] + messages
        if not page["hasMore"] or not page["messages"]:
            return messages
        before = page["messages"][0]["seq"]
    raise AssertionError("history never ended")


async def wait_event(session: Session, predicate, timeout: float = 15) -> dict:
    """The first event a session received that satisfies `predicate`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        for event in session.events:
            if predicate(event):
                return event
        await asyncio.sleep(0.05)
    raise AssertionError(f"no such event; got {session.events}")


async def history_until(session: Session, conversation: str, done, timeout: float = 10) -> list[dict]:
    """The conversation's history once `done(messages)` holds (a client may show a send
    before the server has acknowledged it), or as it is after `timeout`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        messages = await history(session, conversation)
        if done(messages) or asyncio.get_running_loop().time() > deadline:
            return messages
        await asyncio.sleep(0.1)


async def wait_for_message(session: Session, text: str, timeout: float = 20) -> dict:
    """The `message.new` event of the message with `text`."""
    return await wait_event(session, lambda e: e["event"] == "message.new" and e["data"].get("text") == text, timeout)


async def befriend(asker: Session, target: Session, username: str) -> str:
    """Makes two sessions' users friends (`asker` asks for `username`, `target` accepts);
    returns their conversation's id."""
    asked = await asker.call("friend.request", {"username": username})
    assert asked["ok"], asked
    accepted = await target.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
    assert accepted["ok"], accepted
    return accepted["data"]["conversationId"]


async def befriend_as(port: int, token: str, target: Session, username: str) -> str:
    """`befriend`, with the asker (by `token`) signed in only for the request."""
    asker = await Session.open(port, token)
    try:
        return await befriend(asker, target, username)
    finally:
        await asker.close()

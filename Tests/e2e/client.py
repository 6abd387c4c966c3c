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

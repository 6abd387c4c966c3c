"""Python's `websockets` client (a peer Parley did not write) against ParleyNet's server."""
import asyncio

import pytest
import websockets
from websockets.exceptions import ConnectionClosed


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=30))


def test_echo_text_binary_and_unicode(echo_server):
    async def scenario():
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws") as ws:
            for message in ["hello", "你好，世界 🌏", "", "x" * 60_000]:  # under the 64 KiB frame limit
                await ws.send(message)
                assert await ws.recv() == message
            await ws.send(b"\x00\x01\xff")
            assert await ws.recv() == b"\x00\x01\xff"
    run(scenario())


def test_fragmented_message_is_reassembled(echo_server):
    async def scenario():
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws") as ws:
            await ws.send(["frag-", "ment", "ed ✓"])
            assert await ws.recv() == "frag-mented ✓"
    run(scenario())


def test_ping_is_answered(echo_server):
    async def scenario():
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws") as ws:
            pong = await ws.ping(b"are you there")
            latency = await pong
            assert latency >= 0
    run(scenario())


def test_close_handshake_echoes_code(echo_server):
    async def scenario():
        ws = await websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws")
        await ws.close(code=1000, reason="bye")
        assert ws.close_code == 1000
    run(scenario())


def test_oversized_message_closes_with_1009(echo_server):
    async def scenario():
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws", max_size=None) as ws:
            await ws.send("z" * (2 * 1024 * 1024))
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1009
    run(scenario())


def test_many_concurrent_clients(echo_server):
    async def one(i):
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws") as ws:
            await ws.send(f"client {i}")
            assert await ws.recv() == f"client {i}"

    async def scenario():
        await asyncio.gather(*(one(i) for i in range(200)))
    run(scenario())


def test_shutdown_closes_with_going_away(echo_server):
    async def scenario():
        async with websockets.connect(f"ws://127.0.0.1:{echo_server.port}/ws") as ws:
            await ws.send("still here")
            assert await ws.recv() == "still here"
            loop = asyncio.get_running_loop()
            code = await loop.run_in_executor(None, echo_server.stop)
            assert code == 0
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1001
    run(scenario())

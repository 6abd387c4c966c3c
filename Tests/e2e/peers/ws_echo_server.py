"""A WebSocket echo server from the `websockets` library: a peer Parley did not write.

Prints the port it listens on (one line), echoes every message, and exits after
--lifetime seconds so it can never outlive the test that started it."""
import argparse
import asyncio
import signal

import websockets


async def echo(connection):
    async for message in connection:
        await connection.send(message)


async def main(lifetime: float) -> None:
    async with websockets.serve(echo, "127.0.0.1", 0, max_size=4 * 1024 * 1024) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.sleep(lifetime)


if __name__ == "__main__":
    # A parent may have blocked SIGTERM in the thread that spawned us; we must still stop on it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60.0)
    asyncio.run(main(parser.parse_args().lifetime))

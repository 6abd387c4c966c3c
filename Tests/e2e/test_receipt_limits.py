"""The typing limits at their boundaries, with the flags an operator would use:
`--max-typing-per-minute` (exactly the limit is answered, one more is `rate_limited` with a
wait) and `--typing-timeout` (a typing notice without a repeat ends after it, not before)."""
import asyncio
import time

from api import register
from client import Session


def test_typing_notices_at_their_limit_and_the_timeout(parley):
    server = parley("--password-cost", "minimum", "--max-typing-per-minute", "4", "--typing-timeout", "1")
    ann, ben = register(server, "annie"), register(server, "benny")

    async def scenario():
        a = await Session.open(server.port, ann)
        b = await Session.open(server.port, ben)
        asked = await a.call("friend.request", {"username": "benny"})
        accepted = await b.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
        conversation = accepted["data"]["conversationId"]
        replies = []
        for op in ["typing.start", "typing.stop", "typing.start", "typing.stop", "typing.start"]:
            replies.append(await a.call(op, {"conversationId": conversation}))
        assert [r["ok"] for r in replies] == [True, True, True, True, False]
        assert replies[4]["error"]["code"] == "rate_limited" and replies[4]["error"]["retryAfterSeconds"] >= 1
        # Ben's own share is untouched; without a repeat his typing ends after ~1 s.
        started = time.monotonic()
        assert (await b.call("typing.start", {"conversationId": conversation}))["ok"]
        # Ann hears only Ben's typing: his start, then the server's end of it.
        while not any(e["event"] == "typing" and e["data"]["typing"] is False for e in a.events):
            assert time.monotonic() - started < 10, a.events
            await asyncio.sleep(0.05)
        assert [e["data"]["typing"] for e in a.events if e["event"] == "typing"] == [True, False]
        assert time.monotonic() - started >= 0.9
        await a.close()
        await b.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))

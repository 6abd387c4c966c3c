"""Push notifications in a cluster: the node that stores a message sends its pushes, so a
user away from every node gets each push exactly once whichever node the sender is on, and
a user connected to any node gets none."""
import asyncio
import os
import shutil
import tempfile
import time

from client import Session
from cluster import CLUSTER, NatsServer, nats, needs_cluster, online, postgres, wait_for  # noqa: F401 (fixtures)
from test_postgres_store import FAST, befriend, register
from test_push import Browser, PushService, send, subscribe

pytestmark = needs_cluster


def test_each_push_goes_out_once_from_the_node_that_stored_the_message(parley, postgres, nats):
    database = postgres.create_database("push")
    options = ("--store", database, "--nats", nats.url, *FAST, *CLUSTER, "--push-coalesce-ms", "200", "--push-allow-loopback", "yes")
    first = parley(*options, "--node-id", "n0")
    # Every node signs with the same VAPID key (docs/operations.md): copied before they start.
    others = []
    for i in (1, 2):
        directory = tempfile.mkdtemp(prefix="parley-e2e-")
        shutil.copy(os.path.join(first.data_dir, "vapid.key"), directory)
        others.append(parley(*options, "--node-id", f"n{i}", data_dir=directory))
    second, third = others
    service = PushService()
    try:
        ann, ben = register(first.url, "ann"), register(second.url, "ben")
        conversation = asyncio.run(befriend(first.port, ann, ben))
        browser = Browser(service, "ben")
        subscribe(second, ben["token"], browser)

        async def scenario():
            a = await Session.open(first.port, ann["token"])
            c = await Session.open(third.port, ann["token"])
            # Ben is connected (and active) on the second node: nobody pushes to him.
            b = await Session.open(second.port, ben["token"])
            await wait_for(lambda: online(a, ben) is True, what="ben online as seen from the first node")
            await send(a, conversation, "while ben is here")
            await send(c, conversation, "while ben is here, from the third node")
            await asyncio.sleep(1.0)
            present = len(service.received(browser.path))
            await b.close()
            await wait_for(lambda: online(a, ben) is False, what="ben offline as seen from the first node")
            for i in range(4):
                await send(a if i % 2 == 0 else c, conversation, f"away {i}")
                await asyncio.sleep(0.6)
            await a.close()
            await c.close()
            return present

        present = asyncio.run(scenario())
        assert present == 0
        pushes = service.wait_for(browser.path, 4)
        time.sleep(1.0)
        pushes = service.received(browser.path)
        previews = sorted(browser.decrypt(push)["preview"] for push in pushes)
        assert previews == [f"away {i}" for i in range(4)]
    finally:
        service.close()

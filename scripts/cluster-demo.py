"""`make cluster-demo`: a private PostgreSQL and nats-server and three `parley serve` nodes on
loopback, all on free ports, sharing one database and one NATS. Prints the nodes' URLs and
stops everything on Ctrl-C. Uses the end-to-end tests' helpers to start the pieces.

Arguments are passed to every node's `parley serve` (the cluster benchmarks of
docs/benchmarks.md raise limits this way); each node's process id is printed for them."""
import pathlib
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "e2e"))

from cluster import NatsServer  # noqa: E402
from conftest import ParleyProcess  # noqa: E402
from postgres import PostgresServer  # noqa: E402

NODES = 3


def stop_on_term(*_):
    raise KeyboardInterrupt


def main(extra: list[str]) -> int:
    # From the start: a SIGTERM while the pieces start must stop what has started, too.
    signal.signal(signal.SIGTERM, stop_on_term)
    # What to undo, in reverse order of starting; each helper stops its own process when it
    # fails to start, so only what started (and the nodes' data directories) is listed here.
    cleanups = []
    try:
        postgres = PostgresServer()
        cleanups.append(postgres.stop)
        database = postgres.create_database("parley")
        nats = NatsServer()
        cleanups.append(nats.close)
        started = []
        for index in range(NODES):
            data_dir = tempfile.mkdtemp(prefix=f"parley-demo-{index + 1}-")
            cleanups.append(lambda directory=data_dir: shutil.rmtree(directory, ignore_errors=True))
            node = ParleyProcess("--store", database, "--nats", nats.url, "--node-id", f"demo-{index + 1}",
                                 "--host", "127.0.0.1", *extra, data_dir=data_dir)
            cleanups.append(node.stop)
            started.append(node)
        print(f"PostgreSQL: {database}")
        print(f"NATS:       {nats.url}")
        for index, node in enumerate(started):
            print(f"node demo-{index + 1}: {node.url}/   pid {node.process.pid}   (log: {node.log_path})")
        print("Register on one node, sign in on another: it is one service. Ctrl-C stops everything.")
        sys.stdout.flush()
        while all(node.process.poll() is None for node in started):
            time.sleep(1)
        print("a node stopped on its own; stopping the rest", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nstopping")
        return 0
    except Exception as error:
        print(f"could not start the cluster: {error}", file=sys.stderr)
        return 1
    finally:
        # Every step runs even if one before it fails (a node that will not stop in time).
        for cleanup in reversed(cleanups):
            try:
                cleanup()
            except Exception as error:
                print(f"while stopping: {error!r}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

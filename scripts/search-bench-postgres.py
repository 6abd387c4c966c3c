#!/usr/bin/env python3
"""`parley-bench search-bench` against PostgreSQL: starts a server of its own on loopback the
way the e2e tests do (Tests/e2e/postgres.py: initdb in a temporary directory, trust
authentication, fsync off), makes three fresh databases (the searched one, and the two that
compare insert CPU with and without the index), runs the bench with the postmaster's pid so
that the server's CPU is counted, and stops the server.

    python3 scripts/search-bench-postgres.py [parley-bench search-bench options]

The databases use the `C.UTF-8` locale: under the server's `C` default, `pg_trgm` makes no
trigrams of Chinese or Japanese letters (docs/operations.md, "Search"), so such searches would read the
whole index. The searched store is filled with `--bulk` (COPY, then the index built with the
migration's own definition): through the store API PostgreSQL costs about 1 ms of CPU a
message, hours for a million. The insert-CPU comparison goes through the store API and so
defaults to `--compare 10000`. Options given here come after these and win.

PARLEY_BENCH names the parley-bench binary (default: .build/release/parley-bench).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

from postgres import PostgresServer  # noqa: E402

# The locale of the bench's databases (see above).
LOCALE = "C.UTF-8"
# Messages in each insert-CPU comparison store, appended one by one through the store API.
COMPARE_MESSAGES = 10_000


def main() -> int:
    bench = os.environ.get("PARLEY_BENCH", os.path.join(ROOT, ".build", "release", "parley-bench"))
    server = PostgresServer()
    try:
        searched, indexed, plain = (server.create_database(name, locale=LOCALE)
                                    for name in ("search_bench", "compare_indexed", "compare_plain"))
        command = [bench, "search-bench", "--postgres", searched, "--postgres-compare", f"{indexed},{plain}",
                   "--postgres-pid", str(server.process.pid), "--bulk", "--compare", str(COMPARE_MESSAGES), *sys.argv[1:]]
        return subprocess.run(command).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())

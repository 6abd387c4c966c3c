#!/usr/bin/env python3
"""`parley-bench search-bench` against PostgreSQL: starts a server of its own on loopback the
way the e2e tests do (Tests/e2e/postgres.py: initdb in a temporary directory, trust
authentication, fsync off), makes three fresh databases (the searched one, and the two that
compare insert CPU with and without the index), runs the bench with the postmaster's pid so
that the server's CPU is counted, and stops the server.

    .venv/bin/python scripts/search-bench-postgres.py [parley-bench search-bench options]

PARLEY_BENCH names the parley-bench binary (default: .build/release/parley-bench).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

from postgres import PostgresServer  # noqa: E402


def main() -> int:
    bench = os.environ.get("PARLEY_BENCH", os.path.join(ROOT, ".build", "release", "parley-bench"))
    server = PostgresServer()
    try:
        searched, indexed, plain = (server.create_database(name) for name in ("search_bench", "compare_indexed", "compare_plain"))
        command = [bench, "search-bench", "--postgres", searched, "--postgres-compare", f"{indexed},{plain}",
                   "--postgres-pid", str(server.process.pid), *sys.argv[1:]]
        return subprocess.run(command).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())

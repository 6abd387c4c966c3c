"""At its descriptor ceiling the server refuses new connections cleanly, counts them, keeps
serving the ones it holds, and does not spin (the classic accept-loop bug)."""
import os
import socket
import time

from api import call


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def metric(url: str, name: str) -> int:
    text = call(url, "GET", "/metrics").body.decode()
    return sum(int(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def test_refuses_at_the_ceiling_without_spinning(parley):
    # Let the server keep 40 connections; its soft limit is also lowered well below the usual.
    server = parley("--max-connections", "40", "--loops", "2")
    holders = []
    try:
        for _ in range(120):
            conn = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            holders.append(conn)
        time.sleep(0.5)
        refused_sockets = 0
        for conn in holders:
            conn.settimeout(0.05)
            try:
                if conn.recv(1) == b"":
                    refused_sockets += 1
            except (socket.timeout, ConnectionResetError):
                pass
        assert refused_sockets >= 70
        # Free a few so /metrics itself can get in, then check the counters and the CPU.
        for conn in holders[:5]:
            conn.close()
        time.sleep(0.3)
        assert metric(server.url, "parley_connections_refused_total") >= 70
        before = cpu_seconds(server.process.pid)
        time.sleep(2)
        assert cpu_seconds(server.process.pid) - before < 0.5, "the server burns CPU while full"
    finally:
        for conn in holders:
            conn.close()

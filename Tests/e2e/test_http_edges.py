"""HTTP edge cases against `parley serve`, driven by curl (a client Parley did not write)."""
import os
import socket
import subprocess
import tempfile
import time

import pytest


def curl(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run(["curl", "-sS", *args], capture_output=True, text=True, timeout=timeout)


def status_of(*args: str) -> str:
    return curl("-o", "/dev/null", "-w", "%{http_code}", *args).stdout


def test_healthz_and_metrics(parley):
    server = parley()
    health = curl(server.url + "/healthz")
    assert '"status":"ok"' in health.stdout
    metrics = curl(server.url + "/metrics").stdout
    assert "parley_connections_open" in metrics
    assert 'parley_http_responses_total{class="2xx"}' in metrics


def test_keep_alive_reuses_one_connection(parley):
    server = parley()
    result = curl("-v", server.url + "/healthz", server.url + "/healthz", server.url + "/")
    assert result.returncode == 0
    assert result.stderr.count("Re-using existing connection") >= 2 or result.stderr.count("Reusing existing connection") >= 2


def test_chunked_upload_is_read_whole(parley):
    server = parley()
    body = "x" * 100_000
    # POST to a GET-only route: the server must read the whole chunked body to answer 405
    # and keep the connection usable for the next request.
    result = curl("-v", "-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", body,
                  server.url + "/healthz", "--next", server.url + "/healthz")
    assert "HTTP/1.1 405" in result.stderr
    assert '"status":"ok"' in result.stdout
    assert "Re-using existing connection" in result.stderr or "Reusing existing connection" in result.stderr


def test_limits_answer_413_414_431(parley):
    server = parley("--max-body-bytes", "1024", "--max-uri-length", "512", "--max-header-bytes", "2048")
    with tempfile.NamedTemporaryFile() as big:
        big.write(b"y" * 5000)
        big.flush()
        assert status_of("-X", "POST", "--data-binary", "@" + big.name, server.url + "/healthz") == "413"
    assert status_of(server.url + "/" + "a" * 600) == "414"
    assert status_of("-H", "X-Filler: " + "z" * 3000, server.url + "/healthz") == "431"
    # Exactly at the URI limit is fine (a 404, not a 414).
    path = "/" + "b" * 511
    assert status_of(server.url + path) == "404"


def test_error_bodies_are_machine_readable(parley):
    server = parley()
    result = curl("-X", "DELETE", server.url + "/healthz", "-i")
    assert "405" in result.stdout.splitlines()[0]
    assert '"code":"method_not_allowed"' in result.stdout
    assert "Allow: GET" in result.stdout


@pytest.mark.parametrize("path", [
    "/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/..%2f..%2fetc%2fpasswd",
    "/.%2E/.%2E/etc/passwd",
    "/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
    "/index.html%00.png",
    "/outside/passwd",
])
def test_no_escape_from_the_web_root(parley, path):
    web = tempfile.mkdtemp(prefix="parley-web-")
    with open(os.path.join(web, "index.html"), "w") as f:
        f.write("<!doctype html><title>t</title>")
    os.symlink("/etc", os.path.join(web, "outside"))
    server = parley(web_root=web)
    result = curl("--path-as-is", "-i", server.url + path)
    first_line = result.stdout.splitlines()[0] if result.stdout else ""
    assert " 200 " not in first_line
    assert "root:" not in result.stdout


def test_static_files_have_etag_and_security_headers(parley):
    server = parley()
    head = curl("-I", server.url + "/").stdout
    assert "Content-Security-Policy:" in head
    assert "X-Content-Type-Options: nosniff" in head
    etag = next(line.split(":", 1)[1].strip() for line in head.splitlines() if line.lower().startswith("etag:"))
    assert status_of("-H", f"If-None-Match: {etag}", server.url + "/") == "304"


def test_the_web_clients_modules_are_asked_again_after_a_deploy(parley):
    # The modules import each other by unversioned names: one kept from the last version
    # beside one of the new (an hour's max-age) fails to load or misbehaves. Revalidated on
    # every load instead, which costs a 304 per file.
    server = parley()
    for path in ("/js/app.js", "/js/views/dialogue.js", "/css/chat.css"):
        head = curl("-I", server.url + path).stdout
        control = next(line.split(":", 1)[1].strip() for line in head.splitlines() if line.lower().startswith("cache-control:"))
        assert control == "no-cache", (path, control)
        etag = next(line.split(":", 1)[1].strip() for line in head.splitlines() if line.lower().startswith("etag:"))
        assert status_of("-H", f"If-None-Match: {etag}", server.url + path) == "304"


def test_sigterm_with_open_connections_exits_zero(parley):
    server = parley()
    # Clients holding keep-alive connections open while the server is asked to stop.
    holders = []
    for _ in range(5):
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in conn.recv(4096)
        holders.append(conn)
    started = time.time()
    assert server.stop(timeout=15) == 0
    assert time.time() - started < 10
    for conn in holders:
        assert conn.recv(4096) == b""  # the server closed it
        conn.close()
    messages = [line.get("msg") for line in server.log_lines()]
    assert "stopped" in messages

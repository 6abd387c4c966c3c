"""The nginx and Caddy configurations of docs/operations.md, taken from the page itself and
run on loopback in front of `parley serve`: HTTPS through the proxy, and a WebSocket signed
in through its upgrade at /v1/ws. Names, ports and certificate paths are the only things
changed; a config that stops working in the page fails here."""
import asyncio
import json
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request

import pytest
import websockets

from conftest import ROOT, free_port
from test_tls import make_certificate

DOC = (ROOT / "docs" / "operations.md").read_text()


def documented(language: str) -> str:
    match = re.search(rf"```{language}\n(.*?)```", DOC, re.S)
    assert match, f"no {language} block in docs/operations.md"
    return match.group(1)


def wait_for_port(port: int, process: subprocess.Popen, log) -> None:
    deadline = time.time() + 20
    while time.time() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the proxy exited: {log()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the proxy did not listen on {port}: {log()}")


def sign_in_through(port: int, cert: str, username: str) -> None:
    context = ssl.create_default_context(cafile=cert)
    request = urllib.request.Request(f"https://localhost:{port}/v1/auth/register", method="POST",
                                     data=json.dumps({"username": username, "password": "password123"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20, context=context) as response:
        assert response.status == 201
        token = json.loads(response.read())["token"]

    async def scenario():
        async with websockets.connect(f"wss://localhost:{port}/v1/ws", ssl=context,
                                      origin=f"https://localhost:{port}") as ws:
            await ws.send(json.dumps({"id": 1, "op": "auth", "data": {"token": token}}))
            assert json.loads(await ws.recv())["ok"]
            await ws.send(json.dumps({"id": 2, "op": "me.get", "data": {}}))
            answer = json.loads(await ws.recv())
            assert answer["ok"] and answer["data"]["username"] == username, answer
    asyncio.run(asyncio.wait_for(scenario(), 30))


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_the_documented_nginx_configuration(parley, tmp_path):
    server = parley("--password-cost", "minimum", "--trusted-proxies", "127.0.0.1")
    cert, key = make_certificate(tmp_path, "proxy")
    port, redirect_port = free_port(), free_port()
    site = documented("nginx")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{redirect_port};").replace("    listen [::]:80;\n", "")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;").replace("    listen [::]:443 ssl;\n", "")
    site = site.replace("/etc/letsencrypt/live/chat.example.org/fullchain.pem", cert)
    site = site.replace("/etc/letsencrypt/live/chat.example.org/privkey.pem", key)
    site = site.replace("127.0.0.1:8080", f"127.0.0.1:{server.port}")
    temp = "".join(f"{kind}_temp_path {tmp_path}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    config = tmp_path / "nginx.conf"
    config.write_text(f"daemon off;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
                      f"http {{\naccess_log off;\n{temp}{site}}}\n")
    process = subprocess.Popen(["nginx", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process, lambda: (tmp_path / "error.log").read_text())
        sign_in_through(port, cert, "through-nginx")
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_the_documented_caddy_configuration(parley, tmp_path):
    server = parley("--password-cost", "minimum", "--trusted-proxies", "127.0.0.1")
    cert, key = make_certificate(tmp_path, "proxy")
    port = free_port()
    site = documented("caddyfile")
    # The test's own certificate instead of one from a CA, and no admin endpoint or :80 redirect.
    site = site.replace("chat.example.org {", f"https://localhost:{port} {{\n    tls {cert} {key}")
    site = site.replace("127.0.0.1:8080", f"127.0.0.1:{server.port}")
    config = tmp_path / "Caddyfile"
    config.write_text("{\n    admin off\n    auto_https disable_redirects\n    storage file_system " f"{tmp_path}/caddy\n" "}\n" + site)
    log = tmp_path / "caddy.log"
    with open(log, "w") as output:
        process = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                                   stdout=output, stderr=output, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    try:
        wait_for_port(port, process, log.read_text)
        sign_in_through(port, cert, "through-caddy")
    finally:
        process.terminate()
        process.wait(timeout=10)

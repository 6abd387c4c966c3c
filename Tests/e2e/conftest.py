"""Shared fixtures: start Parley binaries on free loopback ports, stop them cleanly."""
import json
import os
import pathlib
import signal
import socket
import subprocess
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary(name: str, env_var: str) -> str:
    path = os.environ.get(env_var) or str(ROOT / ".build" / "debug" / name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} is not built; run `make test` (or swift build) first")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ParleyProcess:
    """`parley serve` on a free port (or the given one, e.g. to restart where a killed server
    listened) with its own data directory."""

    def __init__(self, *extra: str, data_dir: str | None = None, web_root: str | None = None, port: int = 0,
                 xmpp: bool = False):
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="parley-e2e-")
        # XMPP's default port is fixed (5222), so it is off unless the test asks for it, and
        # then on a free port with the domain `localhost`.
        self.xmpp_port = free_port() if xmpp else 0
        xmpp_args = ["--xmpp-port", str(self.xmpp_port)] + (["--xmpp-domain", "localhost"] if xmpp else [])
        args = [binary("parley", "PARLEY_BIN"), "serve", "--port", str(port), "--data", self.data_dir, *xmpp_args, *extra]
        if web_root:
            args += ["--web", web_root]
        self.log_path = pathlib.Path(self.data_dir) / "server.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        try:
            self.port = self._wait_for_port()
        except BaseException:
            # Nobody holds a server that never started: stop it here, or it outlives the caller.
            self.process.kill()
            self.process.wait()
            self.log.close()
            raise

    def _wait_for_port(self) -> int:
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"parley exited early:\n{self.log_path.read_text()}")
            for line in self.log_path.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("msg") == "listening":
                    return int(entry["port"])
            time.sleep(0.05)
        raise RuntimeError("parley did not start listening within 20 s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_lines(self) -> list[dict]:
        lines = []
        for line in self.log_path.read_text().splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
        return lines

    def stop(self, sig=signal.SIGTERM, timeout: float = 15) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise
        self.log.close()
        return self.process.returncode


@pytest.fixture
def parley():
    servers = []

    def start(*extra, **kwargs) -> ParleyProcess:
        server = ParleyProcess(*extra, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.process.poll() is None:
            server.stop()


class EchoServer:
    """`parley-bench echo-server`: ParleyNet's WebSocket server echoing at /ws."""

    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(
            [binary("parley-bench", "PARLEY_BENCH_BIN"), "echo-server", "--port", str(self.port), "--loops", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("echo server exited: " + self.process.stderr.read())
                time.sleep(0.05)
        raise RuntimeError("echo server did not start")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=15)


@pytest.fixture
def echo_server():
    server = EchoServer()
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def browsers(request):
    """Starts headless Chromium windows for the web client; on failure each one leaves a
    screenshot in Tests/e2e/output/ (failed-<test>-<n>.png)."""
    from web import Browser, PHONE

    opened = []

    def start(url: str, size=PHONE, language: str = "en-US", extra_arguments: tuple[str, ...] = ()):
        browser = Browser(url, size=size, language=language, extra_arguments=extra_arguments)
        opened.append(browser)
        return browser

    yield start
    failed = getattr(request.node, "report_call", None) is not None and request.node.report_call.failed
    for index, browser in enumerate(opened):
        if failed:
            try:
                browser.screenshot(f"failed-{request.node.name}-{index}")
            except Exception:
                pass
        browser.quit()

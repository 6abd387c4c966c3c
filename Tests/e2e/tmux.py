"""Helpers for the tests that drive a terminal program (`parley chat`, profanity) in tmux
against a live server: the tmux session, `parley chat` started on a data directory of its
own, and the run of a scenario that prints what the screen (and the client's log) showed
when it ends, passed or not."""
import asyncio
import os
import shutil
import subprocess
import tempfile
import uuid

import pytest

from conftest import binary

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

PASSWORD = "password123"


class Tmux:
    """One detached tmux session running a command, on a tmux server of its own (`-L`), so
    that nothing else using tmux on the machine can disturb it or be disturbed."""

    def __init__(self, command: list[str], width: int, height: int, env: dict[str, str], log: str | None = None):
        """`log`: a file the program writes that is worth printing when the test ends."""
        self.name = "parley-chat-" + uuid.uuid4().hex[:8]
        self.log = log
        exports = " ".join(f"{key}={value!r}" for key, value in env.items())
        line = " ".join(repr(part) for part in command)
        self.run("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), f"env {exports} {line}")
        self.socket = self.run("display-message", "-p", "#{socket_path}").stdout.strip()

    def run(self, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.name, *arguments], check=check, capture_output=True, text=True)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def text(self, *text: str) -> None:
        """Types text literally (no key names)."""
        self.run("send-keys", "-t", self.name, "-l", *text)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name, check=False).stdout

    def resize(self, width: int, height: int) -> None:
        self.run("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def close(self) -> None:
        self.run("kill-server", check=False)
        if self.socket and os.path.exists(self.socket):
            os.unlink(self.socket)

    def report(self) -> None:
        """Closes the session and prints the end of the program's log and its last screen."""
        screen = self.screen()
        self.close()
        if self.log and os.path.exists(self.log):
            print(open(self.log).read()[-4000:])
        print(screen)

    def quit_chat(self) -> None:
        """`parley chat`: back to the list, then quit."""
        self.keys("Escape")
        self.keys("q")

    async def sign_in(self, username: str, password: str = PASSWORD) -> None:
        """Fills the login form once it shows (in English or Chinese), and submits it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while not any(all(label in self.screen() for label in labels) for labels in (("Username", "Password"), ("用户名", "密码"))):
            assert loop.time() < deadline, f"no login form:\n{self.screen()}"
            await asyncio.sleep(0.1)
        self.text(username)
        self.keys("Tab")
        self.text(password)
        self.keys("Enter")

    async def wait_for(self, *needles: str, absent: tuple[str, ...] = (), timeout: float = 20) -> str:
        """The screen once it shows every one of `needles` and none of `absent`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        screen = ""
        while loop.time() < deadline:
            screen = self.screen()
            if all(needle in screen for needle in needles) and not any(gone in screen for gone in absent):
                return screen
            await asyncio.sleep(0.1)
        raise AssertionError(f"{needles} (without {absent}) not on screen after {timeout} s:\n{screen}")


def chat(server_url: str, *options: str, width: int = 100, height: int = 30, prefix: str = "parley-chat-e2e-") -> Tmux:
    """`parley chat --server server_url` (and `options`) in tmux, with a data directory and a
    log of its own (`tmux.home`), in UTF-8 on a 256-colour terminal."""
    home = tempfile.mkdtemp(prefix=prefix)
    log = os.path.join(home, "chat.log")
    env = {"PARLEY_CHAT_LOG": log, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server_url, "--data", home, *options],
                width, height, env, log=log)
    tmux.home = home
    return tmux


def play(tmux: Tmux, scenario, timeout: float = 120) -> None:
    """Runs the coroutine `scenario` within `timeout` seconds; whatever happens, the session
    is closed and its last screen and log printed (pytest shows them for a failed test)."""
    try:
        asyncio.run(asyncio.wait_for(scenario, timeout=timeout))
    finally:
        tmux.report()

"""`parley chat` driven in tmux against a live server: sign in, open a conversation, send a
message a second (WebSocket) client receives, see its reply, resize to one pane, lose the
server and see the status line and the automatic recovery."""
import asyncio
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import uuid

import pytest

from api import call
from client import Session
from conftest import binary

OUTPUT = pathlib.Path(__file__).resolve().parent / "output"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    """One detached tmux session running a command, on a tmux server of its own (`-L`), so
    that nothing else using tmux on the machine can disturb it or be disturbed."""

    def __init__(self, command: list[str], width: int, height: int, env: dict[str, str]):
        self.name = "parley-chat-" + uuid.uuid4().hex[:8]
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

    async def sign_in(self, username: str, password: str = "password123") -> None:
        """Fills the login form once it shows, and submits it."""
        await self.wait_for("Username", "Password")
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


def register(url: str, name: str) -> dict:
    reply = call(url, "POST", "/v1/auth/register", {"username": name, "password": "password123"})
    assert reply.status == 201, reply.body
    return reply.json


async def befriend(port: int, alice: dict, bob: Session) -> str:
    """Alice asks, Bob accepts; returns their conversation id."""
    session = await Session.open(port, alice["token"])
    asked = await session.call("friend.request", {"username": "bob"})
    assert asked["ok"], asked
    accepted = await bob.call("friend.accept", {"requestId": asked["data"]["request"]["id"]})
    assert accepted["ok"], accepted
    await session.close()
    return accepted["data"]["conversationId"]


async def wait_for_event(session: Session, text: str, timeout: float = 20) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for event in session.events:
            if event["event"] == "message.new" and event["data"].get("text") == text:
                return event
        await asyncio.sleep(0.05)
    raise AssertionError(f"bob never received {text!r}; events: {session.events}")


def test_chat_in_tmux(parley):
    server = parley()
    alice = register(server.url, "alice")
    register(server.url, "bob")
    bob_token = call(server.url, "POST", "/v1/auth/login", {"username": "bob", "password": "password123"}).json["token"]
    home = tempfile.mkdtemp(prefix="parley-chat-e2e-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        first = server
        bob = await Session.open(first.port, bob_token)
        conversation = await befriend(first.port, alice, bob)

        # Sign in: the password form comes first.
        await tmux.sign_in("alice")
        screen = await tmux.wait_for("● online", "bob", "now friends")
        assert "│" in screen, "two panes at 100 columns"

        # Open the conversation and send.
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        tmux.text("hello from the terminal :)")
        tmux.keys("Enter")
        event = await wait_for_event(bob, "hello from the terminal :)")
        assert event["data"]["conversationId"] == conversation
        await tmux.wait_for("hello from the terminal 🙂")

        # Bob answers; the answer appears live, with CJK text measured by display width.
        reply = await bob.call("message.send", {"conversationId": conversation, "clientId": uuid.uuid4().hex,
                                                "kind": "text", "text": "reply from bob 你好"})
        assert reply["ok"], reply
        await tmux.wait_for("reply from bob 你好")

        # Narrow window: one pane, the dialogue still readable.
        tmux.resize(60, 20)
        screen = await tmux.wait_for("reply from bob 你好", "● online", absent=("│",))
        assert len(screen.splitlines()) <= 20
        assert all(len(line) <= 60 for line in screen.splitlines())

        # The server goes away: the status line says so; it comes back: the client recovers
        # and a message written meanwhile goes out.
        await bob.close()
        port, data_dir = first.port, first.data_dir
        first.stop()
        await tmux.wait_for("No connection", timeout=20)
        tmux.text("written while offline")
        tmux.keys("Enter")
        await tmux.wait_for("sending")
        restarted = parley("--port", str(port), data_dir=data_dir)
        assert restarted.port == port
        await tmux.wait_for("● online", timeout=30)
        bob = await Session.open(restarted.port, bob_token)
        history = await bob.call("message.history", {"conversationId": conversation})
        texts = [message.get("text") for message in history["data"]["messages"]]
        for _ in range(100):
            if "written while offline" in texts:
                break
            await asyncio.sleep(0.1)
            history = await bob.call("message.history", {"conversationId": conversation})
            texts = [message.get("text") for message in history["data"]["messages"]]
        assert texts.count("written while offline") == 1, texts
        await bob.close()

        # Quit: the terminal is given back.
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    finally:
        screen = tmux.screen()
        tmux.close()
        log = os.path.join(home, "chat.log")
        if os.path.exists(log):
            print(open(log).read()[-4000:])
        print(screen)


def terminal_widths(samples: list[str]) -> dict[str, int]:
    """The columns tmux itself gives each sample (printed alone, then the cursor read)."""
    widths = {}
    folder = tempfile.mkdtemp(prefix="parley-widths-")
    for index, sample in enumerate(samples):
        # Through a file: the command line would not carry a joiner (U+200D) as itself.
        path = os.path.join(folder, f"{index}.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write(sample)
        probe = Tmux(["sh", "-c", f"cat {path}; sleep 30"], 40, 5, {"LANG": "C.UTF-8"})
        try:
            for _ in range(50):
                x = probe.run("display-message", "-p", "-t", probe.name, "#{cursor_x}").stdout.strip()
                if x not in ("", "0"):
                    break
                subprocess.run(["sleep", "0.1"])
            widths[sample] = int(x)
        finally:
            probe.close()
    return widths


def columns(line: str, widths: dict[str, int]) -> str:
    """`line` with each measured sample replaced by as many x as tmux gave it columns, so
    that str positions are screen columns (the rest of the screen is ASCII and box drawing)."""
    for sample, width in sorted(widths.items(), key=lambda item: -len(item[0])):
        line = line.replace(sample, "x" * width)
    return line


def test_emoji_keep_the_divider_in_line_and_own_lines_share_an_edge(parley):
    server = parley()
    emoji = ["👍🏽", "🇨🇳", "🏳️‍🌈", "🧑‍💻", "❤️", "☕"]
    widths = terminal_widths(emoji)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    carol = register(server.url, "carol")
    for session, nickname in ((bob, "Bob 👍🏽🇨🇳"), (carol, "Carol 🏳️‍🌈🧑‍💻")):
        assert call(server.url, "PATCH", "/v1/me", {"nickname": nickname}, token=session["token"]).status == 200
    home = tempfile.mkdtemp(prefix="parley-chat-e2e-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}

    async def prepare():
        bob_session = await Session.open(server.port, bob["token"])
        await befriend(server.port, alice, bob_session)
        await bob_session.close()
        carol_session = await Session.open(server.port, carol["token"])
        created = await carol_session.call("group.create", {"name": "Crew"})
        assert created["ok"], created
        alice_session = await Session.open(server.port, alice["token"])
        assert (await alice_session.call("group.join", {"name": "Crew"}))["ok"]
        await alice_session.close()
        sent = await carol_session.call("message.send", {"conversationId": created["data"]["id"], "clientId": uuid.uuid4().hex,
                                                         "kind": "text", "text": "hi crew ❤️☕"})
        assert sent["ok"], sent
        await carol_session.close()

    asyncio.run(asyncio.wait_for(prepare(), timeout=30))
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        await tmux.sign_in("alice")
        # The group's preview names its sender before the group is opened.
        screen = await tmux.wait_for("● online", "Bob 👍🏽🇨🇳", "Crew", "Carol 🏳️‍🌈🧑‍💻: hi crew")
        assert "ID: " not in screen, screen
        dividers = {columns(line, widths).index("│") for line in screen.splitlines() if "│" in line}
        assert len(dividers) == 1, (dividers, screen)

        # Open the newest (the group) and write a message long enough to wrap.
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
                "seventeen eighteen nineteen twenty twentyone twentytwo twentythree"
        tmux.text(words)
        tmux.keys("Enter")
        # The dialogue pane's lines of that message (the list's preview holds its start too);
        # the composer shows the words too until the message is sent, so wait for the pane.
        def own_lines(screen):
            panes = [columns(line, widths).split("│", 1)[1] for line in screen.splitlines() if "│" in line]
            return [pane for pane in panes if any(w in pane for w in ("one two", "seventeen", "twentythree"))]
        deadline = time.time() + 20
        screen = tmux.screen()
        while len(own_lines(screen)) < 3 or "sending" in screen:
            assert time.time() < deadline, screen
            await asyncio.sleep(0.2)
            screen = tmux.screen()
        own = own_lines(screen)
        starts = {len(pane) - len(pane.lstrip()) for pane in own}
        assert len(starts) == 1, (starts, screen)
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)


def test_profile_discover_and_an_image_from_the_terminal(parley):
    from web import png

    server = parley()
    alice = register(server.url, "alice")
    dora = register(server.url, "dora")
    assert call(server.url, "PATCH", "/v1/me", {"nickname": "Dora", "age": 29, "hobbies": ["kayaking"],
                                                "signature": "river days"}, token=dora["token"]).status == 200
    picture = os.path.join(tempfile.mkdtemp(prefix="parley-chat-image-"), "dunes.png")
    with open(picture, "wb") as file:
        file.write(png(64, 40))
    home = tempfile.mkdtemp(prefix="parley-chat-e2e-")
    env = {"PARLEY_CHAT_LOG": os.path.join(home, "chat.log"), "LANG": "C.UTF-8", "TERM": "xterm-256color"}

    async def like_alice():
        session = await Session.open(server.port, dora["token"])
        liked = await session.call("discover.like", {"userId": alice["user"]["id"]})
        assert liked["ok"], liked
        await session.close()

    asyncio.run(asyncio.wait_for(like_alice(), timeout=30))
    tmux = Tmux([binary("parley", "PARLEY_BIN"), "chat", "--server", server.url, "--data", home], 100, 30, env)

    async def scenario():
        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "d discover")

        # p: the nickname, then the signature, each asked with the current value.
        tmux.keys("p")
        await tmux.wait_for("Nickname:")
        tmux.text("Alice ☕")
        tmux.keys("Enter")
        await tmux.wait_for("Signature:")
        tmux.text("tea first")
        tmux.keys("Enter")
        await tmux.wait_for("Profile saved", "Parley · Alice ☕")
        me = call(server.url, "GET", "/v1/me", token=alice["token"]).json
        assert me["nickname"] == "Alice ☕" and me["signature"] == "tea first", me

        # d: Dora's card; → likes her back: a match, Enter says hi.
        tmux.keys("d")
        screen = await tmux.wait_for("Dora, 29", "river days", "[kayaking]", "← pass")
        assert "╭" in screen and "╰" in screen
        OUTPUT.mkdir(parents=True, exist_ok=True)
        (OUTPUT / "chat-discover.txt").write_text(screen)
        tmux.keys("Right")
        await tmux.wait_for("It's a match!")
        tmux.keys("Enter")
        await tmux.wait_for("Say something", "Dora")

        # /image PATH uploads the file and sends it as an image.
        tmux.text(f"/image {picture}")
        tmux.keys("Enter")
        await tmux.wait_for("Image sent", "[Image]")
        session = await Session.open(server.port, dora["token"])
        conversations = await session.call("conversation.list", {})
        [conversation] = [c for c in conversations["data"]["conversations"] if c["kind"] == "user"]
        history = await session.call("message.history", {"conversationId": conversation["id"]})
        images = [m for m in history["data"]["messages"] if m["kind"] == "image"]
        assert len(images) == 1 and images[0]["image"]["width"] == 64, history
        await session.close()

        # A file that is not a picture: the server's reason, no message.
        notes = os.path.join(os.path.dirname(picture), "notes.txt")
        with open(notes, "w") as file:
            file.write("just words")
        tmux.text(f"/file {notes}")
        tmux.keys("Enter")
        await tmux.wait_for("only PNG, JPEG, GIF and WebP")
        session = await Session.open(server.port, dora["token"])
        history = await session.call("message.history", {"conversationId": conversation["id"]})
        await session.close()
        assert [m["kind"] for m in history["data"]["messages"]].count("image") == 1
        tmux.keys("Escape")
        tmux.keys("q")

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    finally:
        screen = tmux.screen()
        tmux.close()
        print(screen)

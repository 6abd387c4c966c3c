"""`parley chat` driven in tmux against a live server: sign in, open a conversation, send a
message a second (WebSocket) client receives, see its reply, resize to one pane, lose the
server and see the status line and the automatic recovery."""
import asyncio
import os
import pathlib
import subprocess
import tempfile
import time
import uuid

from api import call, sign_up
from client import Session, befriend_as, history_until, wait_for_message
from tmux import Tmux, chat, needs_tmux, play

OUTPUT = pathlib.Path(__file__).resolve().parent / "output"

pytestmark = needs_tmux


def test_chat_in_tmux(parley):
    server = parley()
    alice = sign_up(server.url, "alice")
    bob_token = sign_up(server.url, "bob")["token"]
    tmux = chat(server.url)

    async def scenario():
        first = server
        bob = await Session.open(first.port, bob_token)
        conversation = await befriend_as(first.port, alice["token"], bob, "bob")

        # Sign in: the password form comes first.
        await tmux.sign_in("alice")
        screen = await tmux.wait_for("● online", "bob", "now friends")
        assert "│" in screen, "two panes at 100 columns"

        # Open the conversation and send.
        tmux.keys("Enter")
        await tmux.wait_for("Say something")
        tmux.text("hello from the terminal :)")
        tmux.keys("Enter")
        event = await wait_for_message(bob, "hello from the terminal :)")
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
        messages = await history_until(bob, conversation, lambda ms: any(m.get("text") == "written while offline" for m in ms))
        texts = [message.get("text") for message in messages]
        assert texts.count("written while offline") == 1, texts
        await bob.close()

        # Quit: the terminal is given back.
        tmux.quit_chat()

    play(tmux, scenario(), timeout=120)


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
    alice = sign_up(server.url, "alice")
    bob = sign_up(server.url, "bob")
    carol = sign_up(server.url, "carol")
    for session, nickname in ((bob, "Bob 👍🏽🇨🇳"), (carol, "Carol 🏳️‍🌈🧑‍💻")):
        assert call(server.url, "PATCH", "/v1/me", {"nickname": nickname}, token=session["token"]).status == 200

    async def prepare():
        bob_session = await Session.open(server.port, bob["token"])
        await befriend_as(server.port, alice["token"], bob_session, "bob")
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
    tmux = chat(server.url)

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
        tmux.quit_chat()

    play(tmux, scenario(), timeout=90)


def test_profile_discover_and_an_image_from_the_terminal(parley):
    from web import png

    server = parley()
    alice = sign_up(server.url, "alice")
    dora = sign_up(server.url, "dora")
    assert call(server.url, "PATCH", "/v1/me", {"nickname": "Dora", "age": 29, "hobbies": ["kayaking"],
                                                "signature": "river days"}, token=dora["token"]).status == 200
    picture = os.path.join(tempfile.mkdtemp(prefix="parley-chat-image-"), "dunes.png")
    with open(picture, "wb") as file:
        file.write(png(64, 40))

    async def like_alice():
        session = await Session.open(server.port, dora["token"])
        liked = await session.call("discover.like", {"userId": alice["user"]["id"]})
        assert liked["ok"], liked
        await session.close()

    asyncio.run(asyncio.wait_for(like_alice(), timeout=30))
    tmux = chat(server.url)

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

        # /image PATH uploads the file and sends it as an image: "Sending image…" while the
        # server has not answered, "Image sent" once it has stored it.
        session = await Session.open(server.port, dora["token"])
        conversations = await session.call("conversation.list", {})
        [conversation] = [c for c in conversations["data"]["conversations"] if c["kind"] == "user"]
        tmux.text(f"/image {picture}")
        tmux.keys("Enter")
        await tmux.wait_for("Image sent", "[Image]")
        # Asked once, right away: no waiting for a send that was only queued.
        history = await session.call("message.history", {"conversationId": conversation["id"]})
        images = [m for m in history["data"]["messages"] if m["kind"] == "image"]
        assert len(images) == 1 and images[0]["image"]["width"] == 64, history
        await session.close()
        flashes = [line.split("flash ", 1)[1] for line in open(os.path.join(tmux.home, "chat.log"), encoding="utf-8").read().splitlines() if "flash " in line]
        assert flashes[-3:] == ["Uploading…", "Sending image…", "Image sent"], flashes

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
        tmux.quit_chat()

    play(tmux, scenario(), timeout=90)

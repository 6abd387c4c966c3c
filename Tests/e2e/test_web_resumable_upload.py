"""A large file from the web client goes through a resumable upload (docs/protocol.md,
"Resumable uploads"): Alice sends 20 MiB, the server is killed (kill -9: every connection
cut) after the first piece and started again on the same data, and the upload goes on from
where the server stood; Bob downloads exactly the bytes Alice picked."""
import hashlib
import pathlib
import signal
import tempfile
import time

from api import call
from web import DESKTOP, WEB_ROOT, register, ws


def befriend(port: int, a: dict, b: dict) -> str:
    request = ws(port, a["token"], ("friend.request", {"userId": b["user"]["id"]}))[0]
    friend = ws(port, b["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]
    return friend["conversationId"]


def delivered(sender, server, bob: dict, chat: str) -> tuple[dict, dict]:
    """Waits for the sender's file message to be stored, lifts the throttle, and returns the
    receiver's history with the one file message in it."""
    sender.wait(".msg--self .file-tile .file-download", timeout=60)
    sender.wait_until(lambda: not sender.visible(".msg-pending"), 30, "the file message to be acknowledged")
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    history = ws(server.port, bob["token"], ("message.history", {"conversationId": chat}))[0]
    [message] = [m for m in history["messages"] if m["kind"] == "file"]
    return history, message


def test_a_large_upload_survives_a_server_restart(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    folder = pathlib.Path(tempfile.mkdtemp())
    big = folder / "dataset.bin"
    content = b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(20 * 1024 * 1024 // 32))
    big.write_bytes(content)

    sender = browsers(server.url, size=DESKTOP)
    sender.sign_in_with_token(alice)
    sender.open_chat_titled("bob")
    # Slow enough to stop the server part way.
    sender.driver.execute_cdp_cmd("Network.enable", {})
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 5, "downloadThroughput": 8 * 1024 * 1024, "uploadThroughput": 2 * 1024 * 1024})
    sender.driver.find_element("css selector", ".composer input[type=file]:not([accept])").send_keys(str(big))
    sender.wait(".msg--self .file-tile .file-progress")
    # Past the first 8 MiB piece (40 %): the server holds it on disk.
    sender.wait_until(lambda: sender.js("const p = document.querySelector('.msg--self .file-progress'); return p && p.value > 0.45"),
                      30, "the upload to pass its first piece")
    pieces = list((pathlib.Path(server.data_dir) / "resumable").glob("*.data"))
    assert len(pieces) == 1 and pieces[0].stat().st_size >= 8 * 1024 * 1024

    port, data_dir = server.port, server.data_dir
    server.stop(signal.SIGKILL)
    time.sleep(1)
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT, data_dir=data_dir, port=port)

    _, message = delivered(sender, server, bob, chat)
    assert message["file"]["name"] == "dataset.bin" and message["file"]["size"] == len(content)
    got = call(server.url, "GET", message["file"]["url"], token=bob["token"])
    assert got.status == 200 and hashlib.sha256(got.body).digest() == hashlib.sha256(content).digest()
    # The finished upload left nothing behind.
    assert not list((pathlib.Path(server.data_dir) / "resumable").glob("*"))


def test_a_reload_mid_upload_loses_no_file_and_goes_on_where_the_server_stood(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    big = pathlib.Path(tempfile.mkdtemp()) / "photos.tar"
    content = b"".join(hashlib.sha256(b"r" + i.to_bytes(4, "big")).digest() for i in range(20 * 1024 * 1024 // 32))
    big.write_bytes(content)

    sender = browsers(server.url, size=DESKTOP)
    sender.sign_in_with_token(alice)
    sender.open_chat_titled("bob")
    slow = {"offline": False, "latency": 5, "downloadThroughput": 8 * 1024 * 1024, "uploadThroughput": 2 * 1024 * 1024}
    sender.driver.execute_cdp_cmd("Network.enable", {})
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    sender.driver.find_element("css selector", ".composer input[type=file]:not([accept])").send_keys(str(big))
    sender.wait_until(lambda: sender.js("const p = document.querySelector('.msg--self .file-progress'); return p && p.value > 0.45"),
                      30, "the upload to pass its first piece")
    [piece] = list((pathlib.Path(server.data_dir) / "resumable").glob("*.data"))
    assert piece.stat().st_size >= 8 * 1024 * 1024

    # The page goes away mid-upload and comes back: the send is still there, with its file.
    sender.driver.refresh()
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    sender.wait(".shell")
    sender.route("#/chats")
    sender.open_chat_titled("bob")
    sender.wait(".msg--self .file-tile", timeout=20)
    # It goes on from the server's offset: the first progress shown is past the whole piece
    # the server held (started again, it would begin near 0).
    first = sender.wait_until(lambda: sender.js("const p = document.querySelector('.msg--self .file-progress'); return p && p.value > 0 ? p.value : null"),
                              30, "the upload to go on")
    assert first >= 8 * 1024 * 1024 / len(content) - 0.01, first
    history, message = delivered(sender, server, bob, chat)
    assert message["file"]["name"] == "photos.tar" and message["file"]["size"] == len(content)
    got = call(server.url, "GET", message["file"]["url"], token=bob["token"])
    assert got.status == 200 and hashlib.sha256(got.body).digest() == hashlib.sha256(content).digest()
    # Sent once; nothing left behind on the server or in the browser's storage.
    assert len([m for m in history["messages"] if m["kind"] == "file"]) == 1
    assert not list((pathlib.Path(server.data_dir) / "resumable").glob("*"))
    kept = sender.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/pendingfiles.js').then((files) => files.count()).then(done);""")
    assert kept == 0

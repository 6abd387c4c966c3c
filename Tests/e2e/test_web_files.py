"""Files in the web client: Alice attaches a 3 MiB PDF with the composer's file button, its
tile shows the upload's progress and then the name, size and a download link; Bob sees the
tile with the name and size, and its link downloads the same bytes under that name. A second
upload is cancelled from its tile and leaves no message. Screenshots at phone and desktop
size."""
import pathlib
import tempfile

from api import call
from web import DESKTOP, PHONE, WEB_ROOT, register, ws


def befriend(port: int, a: dict, b: dict) -> str:
    request = ws(port, a["token"], ("friend.request", {"userId": b["user"]["id"]}))[0]
    friend = ws(port, b["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]
    return friend["conversationId"]


def test_sending_a_file_with_progress_and_cancelling_another(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    chat = befriend(server.port, alice, bob)
    folder = pathlib.Path(tempfile.mkdtemp())
    report = folder / "Quarterly report 第三季度.pdf"
    content = b"%PDF-1.7\n" + bytes(range(256)) * (3 * 4096)
    report.write_bytes(content)

    sender = browsers(server.url, size=DESKTOP)
    sender.sign_in_with_token(alice)
    sender.open_chat_titled("bob")
    # Progress is seen: the upload is slowed by the browser's network throttling.
    sender.driver.execute_cdp_cmd("Network.enable", {})
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 5, "downloadThroughput": 4 * 1024 * 1024, "uploadThroughput": 1024 * 1024})
    sender.driver.find_element("css selector", ".composer input[type=file]:not([accept])").send_keys(str(report))
    sender.wait(".msg--self .file-tile .file-progress")
    sender.wait_until(lambda: sender.js("const p = document.querySelector('.msg--self .file-progress'); return p && p.value > 0 && p.value < 1"),
                      15, "the upload to be part way")
    sender.screenshot("file-upload-progress")
    sender.wait(".msg--self .file-tile .file-download", timeout=30)
    sender.wait_until(lambda: not sender.visible(".msg-pending"), 15, "the file message to be acknowledged")
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    tile = sender.wait(".msg--self .file-tile")
    assert "Quarterly report 第三季度.pdf" in tile.text and "3 MB" in tile.text

    receiver = browsers(server.url, size=PHONE)
    receiver.sign_in_with_token(bob)
    receiver.open_chat_titled("alice")
    link = receiver.wait(".msg--other .file-tile .file-download")
    assert "Quarterly report 第三季度.pdf" in receiver.wait(".msg--other .file-name").text
    assert receiver.wait(".msg--other .file-size").text == "3 MB"
    # The link is a signed one (media.url), which works without a token.
    receiver.wait_until(lambda: "sig=" in (link.get_attribute("href") or ""), message="a signed download link")
    href = link.get_attribute("href")
    got = call(server.url, "GET", href[len(server.url):])
    assert got.status == 200 and got.body == content
    assert got.headers["Content-Type"] == "application/pdf"
    assert "filename*=UTF-8''Quarterly%20report%20%E7%AC%AC%E4%B8%89%E5%AD%A3%E5%BA%A6.pdf" in got.headers["Content-Disposition"]
    receiver.shoot_both("file-message", check=lambda b, label: b.wait(".msg--other .file-tile"))

    # A second upload, cancelled from its tile while it is under way: no message comes of it.
    sender.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 5, "downloadThroughput": 4 * 1024 * 1024, "uploadThroughput": 256 * 1024})
    big = folder / "big.bin"
    big.write_bytes(bytes(8 * 1024 * 1024))
    sender.driver.find_element("css selector", ".composer input[type=file]:not([accept])").send_keys(str(big))
    sender.wait(".file-tile .file-cancel")
    sender.click(".file-tile .file-cancel")
    sender.wait_gone(".file-tile .file-cancel")
    history = ws(server.port, alice["token"], ("message.history", {"conversationId": chat}))[0]
    assert [m["kind"] for m in history["messages"] if m["kind"] == "file"] == ["file"]

"""Voice messages in the web client: ann records a note in Chromium with a fake microphone
(click to start, send to stop), the server stores Opus in WebM with the length and a
64-bar waveform; ben plays it (the unplayed dot goes, the speed switch turns) and ann sees
"Listened"; a cancelled recording sends nothing. Screenshots in Tests/e2e/output/."""
import json
import time
import urllib.request

from web import DESKTOP, PHONE, WEB_ROOT, register, ws

# For these tests only: a fake microphone (a beep) and no permission prompt, and playback
# without waiting for a user gesture (a WebDriver click may not count as one).
FAKE_MICROPHONE = ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                   "--autoplay-policy=no-user-gesture-required")


def befriend(server, a: dict, b: dict) -> str:
    [asked] = ws(server.port, a["token"], ("friend.request", {"username": b["user"]["username"]}))
    [friend] = ws(server.port, b["token"], ("friend.accept", {"requestId": asked["request"]["id"]}))
    return friend["conversationId"]


def voice_messages(server, session: dict, conversation: str) -> list[dict]:
    [page] = ws(server.port, session["token"], ("message.history", {"conversationId": conversation}))
    return [m for m in page["messages"] if m["kind"] == "voice"]


def test_record_play_and_listened_mark(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)

    recorder = browsers(server.url, size=DESKTOP, extra_arguments=FAKE_MICROPHONE)
    recorder.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    recorder.wait(".view--dialogue .dialogue-title", text="ben")
    recorder.click(".voice-mic")
    recorder.wait(".voice-rec:not([hidden]) .voice-rec-hint", text="Recording… send or cancel")
    time.sleep(2.6)
    assert recorder.wait(".voice-rec-time").text.startswith("0:0")
    recorder.screenshot("voice-recording-desktop")
    recorder.click(".voice-rec-send")
    recorder.wait_gone(".voice-rec:not([hidden])")

    # Stored: Opus in WebM sniffed from the bytes, the length the browser measured (and the
    # server checked against the container's), a waveform of 64 bars that is not silence.
    recorder.wait_until(lambda: voice_messages(server, ann, conversation), 20, "the voice message to be stored")
    [note] = voice_messages(server, ann, conversation)
    voice = note["voice"]
    assert voice["type"] == "audio/webm"
    assert 2000 <= voice["durationMs"] <= 6000, voice["durationMs"]
    assert len(voice["waveform"]) == 64 and all(0 <= v <= 31 for v in voice["waveform"])
    assert max(voice["waveform"]) > 0
    # A member fetches the recording with the session token (docs/protocol.md, "Media access").
    fetch = urllib.request.Request(server.url + voice["url"], headers={"Authorization": f"Bearer {ben['token']}"})
    with urllib.request.urlopen(fetch, timeout=10) as response:
        assert response.headers["Content-Type"] == "audio/webm"
        assert response.read(4) == b"\x1a\x45\xdf\xa3"
    recorder.wait(f".msg--self[data-seq='{note['seq']}'] .bubble--voice .voice-time")
    recorder.screenshot("voice-sent-desktop")

    # Ben plays it: the dot goes, the speed switch turns, the server marks it listened.
    player = browsers(server.url, size=PHONE)
    player.sign_in_with_token(ben, route=f"#/chats/c/{conversation}")
    bubble = f".msg--other[data-seq='{note['seq']}']"
    player.wait(f"{bubble} .voice-unplayed")
    length = player.wait(f"{bubble} .voice-time").text
    assert length == f"0:{round(voice['durationMs'] / 1000):02d}", length
    player.screenshot("voice-unplayed-phone")
    player.click(f"{bubble} .voice-play")
    player.wait_gone(f"{bubble} .voice-unplayed")
    player.click(f"{bubble} .voice-speed")
    assert player.wait(f"{bubble} .voice-speed").text == "1.5×"
    player.wait_until(lambda: voice_messages(server, ben, conversation)[0].get("listenedBy") == [ben["user"]["id"]], 10,
                      "ben's play to be stored")
    time.sleep(0.5)
    player.screenshot("voice-playing-phone")

    # Ann's bubble says so, live.
    recorder.wait(f".msg--self[data-seq='{note['seq']}'] .voice-listened", text="Listened")
    recorder.screenshot("voice-listened-desktop")
    assert player.console_errors() == []
    assert recorder.console_errors() == []


def test_cancelled_recording_sends_nothing_and_chinese_labels(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE, language="zh-CN", extra_arguments=FAKE_MICROPHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    assert browser.wait(".voice-mic").get_attribute("aria-label") == "录制语音消息"
    browser.click(".voice-mic")
    browser.wait(".voice-rec:not([hidden]) .voice-rec-hint", text="正在录音…发送或取消")
    time.sleep(1.2)
    browser.screenshot("voice-recording-zh-phone")
    browser.click(".voice-rec-cancel")
    browser.wait_gone(".voice-rec:not([hidden])")
    time.sleep(1.5)
    assert voice_messages(server, ann, conversation) == []
    assert browser.count(".bubble--voice") == 0
    assert browser.console_errors() == []


def touch(browser, kind: str, x: float, y: float):
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    browser.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_hold_to_record_on_touch_and_slide_away_to_cancel(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    browser = browsers(server.url, size=PHONE, extra_arguments=FAKE_MICROPHONE)
    browser.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    mic = browser.wait(".voice-mic")
    box = browser.js("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];", mic)
    x, y = box

    # Hold, the hint says how to cancel; lift: sent.
    touch(browser, "touchStart", x, y)
    browser.wait(".voice-rec:not([hidden]) .voice-rec-hint", text="Slide away to cancel")
    time.sleep(1.8)
    browser.screenshot("voice-hold-touch-phone")
    touch(browser, "touchEnd", x, y)
    browser.wait_gone(".voice-rec:not([hidden])")
    browser.wait_until(lambda: len(voice_messages(server, ann, conversation)) == 1, 20, "the held note to be stored")
    [note] = voice_messages(server, ann, conversation)
    assert 1000 <= note["voice"]["durationMs"] <= 5000

    # Hold, slide up and away: the hint turns to "release to cancel"; lift: nothing sent.
    touch(browser, "touchStart", x, y)
    browser.wait(".voice-rec:not([hidden]) .voice-rec-hint", text="Slide away to cancel")
    time.sleep(1.2)
    touch(browser, "touchMove", x, y - 60)
    touch(browser, "touchMove", x, y - 120)
    browser.wait(".voice-rec.is-cancelling .voice-rec-hint", text="Release to cancel")
    browser.screenshot("voice-slide-cancel-touch-phone")
    touch(browser, "touchEnd", x, y - 120)
    browser.wait_gone(".voice-rec:not([hidden])")
    time.sleep(1.5)
    assert len(voice_messages(server, ann, conversation)) == 1
    assert browser.console_errors() == []


def test_recording_stops_at_the_servers_own_longest_length(parley, browsers):
    """The longest recording is the server's (`GET /v1/limits`), not the default: with
    `--max-voice-seconds 3` a recording left running stops by itself just before 3 s and is
    sent, and the server takes it."""
    server = parley("--password-cost", "minimum", "--max-voice-seconds", "3", web_root=WEB_ROOT)
    with urllib.request.urlopen(server.url + "/v1/limits", timeout=10) as response:
        limits = json.loads(response.read())
    assert limits["maxVoiceSeconds"] == 3 and limits["maxFileBytes"] > 0 and limits["recallWindowSeconds"] == 120
    ann, ben = register(server.url, "ann"), register(server.url, "ben")
    conversation = befriend(server, ann, ben)
    browser = browsers(server.url, size=DESKTOP, extra_arguments=FAKE_MICROPHONE)
    browser.sign_in_with_token(ann, route=f"#/chats/c/{conversation}")
    browser.wait(".view--dialogue .dialogue-title", text="ben")
    browser.click(".voice-mic")
    browser.wait(".voice-rec:not([hidden]) .voice-rec-time", text="/ 0:03")
    # Nobody presses send: the recorder stops itself at the limit and sends.
    browser.wait_gone(".voice-rec:not([hidden])", timeout=8)
    browser.wait_until(lambda: voice_messages(server, ann, conversation), 20, "the stopped note to be stored")
    [note] = voice_messages(server, ann, conversation)
    assert 2000 <= note["voice"]["durationMs"] <= 3000, note["voice"]["durationMs"]
    assert browser.console_errors() == []

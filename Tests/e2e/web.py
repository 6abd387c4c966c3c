"""Helpers for driving Parley's web client in headless Chromium (selenium 4, Debian's
chromium and chromium-driver), plus fixtures-in-miniature: PNG pictures, users made through
the API, and a WebSocket session for the other side of a conversation."""
import asyncio
import json
import os
import pathlib
import struct
import time
import zlib

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from api import call, sign_up

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB_ROOT = str(ROOT / "Web")
OUTPUT = pathlib.Path(__file__).resolve().parent / "output"
PHONE = (390, 844)
DESKTOP = (1280, 800)
CHROMIUM = os.environ.get("PARLEY_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PARLEY_CHROMEDRIVER", "/usr/bin/chromedriver")


class Browser:
    """One headless Chromium with its own profile, at a fixed viewport size."""

    def __init__(self, base_url: str, size=PHONE, language: str = "en-US", accept_insecure_certs: bool = False,
                 extra_arguments: tuple[str, ...] = ()):
        """`accept_insecure_certs`: take a server certificate no CA vouches for (a test's own);
        `extra_arguments`: more Chromium switches for one test (a fake microphone, say)."""
        options = webdriver.ChromeOptions()
        options.accept_insecure_certs = accept_insecure_certs
        options.binary_location = CHROMIUM
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--lang={language}",
                         "--disable-gpu", "--hide-scrollbars", "--force-color-profile=srgb",
                         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                         "--disable-backgrounding-occluded-windows", *extra_arguments]:
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(20)
        self.base_url = base_url
        self.size = size
        self.resize(*size)

    # ---- Navigation and viewport ----

    def resize(self, width: int, height: int):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900})
        self.size = (width, height)

    def open(self, route: str = ""):
        self.driver.get(f"{self.base_url}/{route}")

    def route(self, hash_route: str):
        self.driver.execute_script("location.hash = arguments[0]", hash_route)

    def sign_in_with_token(self, session: dict, route: str = "#/chats"):
        """Skips the login page: stores the token the way the client does, then loads the app."""
        self.open()
        self.driver.execute_script(
            "localStorage.setItem('parley.token', arguments[0]);"
            "localStorage.setItem('parley.account', JSON.stringify(arguments[1]));",
            session["token"], session["user"])
        self.js("history.replaceState(null, '', arguments[0])", route)
        self.driver.refresh()
        self.wait(".shell")

    # ---- Finding and waiting ----

    def wait_until(self, condition, timeout: float = 10, message: str = "condition"):
        deadline = time.time() + timeout
        last_error = None
        while time.time() < deadline:
            try:
                value = condition()
                if value:
                    return value
            except StaleElementReferenceException as error:
                last_error = error
            time.sleep(0.05)
        raise TimeoutException(f"timed out after {timeout} s waiting for {message} ({last_error})")

    def visible(self, css: str):
        # A page that re-renders between finding the elements and asking each whether it is
        # shown leaves stale references: look again, a bounded number of times.
        for _ in range(20):
            try:
                return [e for e in self.driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
            except StaleElementReferenceException:
                time.sleep(0.05)
        return [e for e in self.driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]

    def wait(self, css: str, timeout: float = 10, text: str | None = None):
        """The first visible element matching css (and containing text, if given)."""
        def found():
            for element in self.visible(css):
                if text is None or text in element.text:
                    return element
            return None
        return self.wait_until(found, timeout, f"{css!r}" + (f" with {text!r}" if text else ""))

    def wait_gone(self, css: str, timeout: float = 10):
        self.wait_until(lambda: not self.visible(css), timeout, f"{css!r} to go away")

    def texts(self, css: str) -> list[str]:
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent !== null).map(e => e.textContent)", css)

    def count(self, css: str) -> int:
        return len(self.visible(css))

    def click(self, css: str, text: str | None = None, timeout: float = 10):
        # A page that re-renders (a profile arriving, say) may replace the element between
        # finding and clicking it: find it again, a bounded number of times.
        for attempt in range(3):
            element = self.wait(css, timeout, text)
            try:
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", element)
                element.click()
                return element
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
                time.sleep(0.1)

    def type(self, css: str, value: str, clear: bool = True):
        element = self.wait(css)
        if clear:
            element.send_keys(Keys.CONTROL, "a")
            element.send_keys(Keys.DELETE)
        element.send_keys(value)
        return element

    def field(self, label: str):
        """An input or textarea by its visible label text."""
        def find():
            for label_el in self.visible("label.field-label"):
                if label_el.text.split(" · ")[0].strip() == label:
                    target = label_el.get_attribute("for")
                    return self.driver.find_element(By.ID, target)
            return None
        return self.wait_until(find, 10, f"field {label!r}")

    def fill(self, label: str, value: str):
        element = self.field(label)
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.DELETE)
        element.send_keys(value)
        return element

    def press(self, *keys):
        webdriver.ActionChains(self.driver).send_keys(*keys).perform()

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def mutations(self, css: str, seconds: float = 2) -> int:
        """How many DOM changes happen under the element `css` in `seconds` of doing nothing:
        a page that renders itself again and again shows hundreds."""
        self.js("window.__parleyMutations = 0; new MutationObserver((records) => { window.__parleyMutations += records.length; })"
                ".observe(document.querySelector(arguments[0]), { childList: true, subtree: true, characterData: true });", css)
        time.sleep(seconds)
        return self.js("return window.__parleyMutations")

    # ---- The chat ----

    def send_message(self, text: str):
        box = self.wait("textarea.composer-input")
        box.send_keys(text)
        box.send_keys(Keys.ENTER)

    def bubble_texts(self) -> list[str]:
        return self.texts(".view--dialogue .msg .bubble-text")

    def system_texts(self) -> list[str]:
        return self.texts(".view--dialogue .msg-system-text")

    def wait_bubble(self, text: str, timeout: float = 10):
        return self.wait_until(lambda: text in self.bubble_texts(), timeout, f"a bubble {text!r}")

    def wait_system(self, fragment: str, timeout: float = 10):
        return self.wait_until(lambda: any(fragment in t for t in self.system_texts()), timeout, f"a notice with {fragment!r}")

    def menu_action(self, action: str):
        """Opens the "+" menu of the visible list and picks an action; returns its dialog."""
        self.click(".view--list:not([hidden]) .topbar-action")
        self.click(f".menu-item[data-action={action}]")
        return self.wait(f".modal[data-action={action}]")

    def submit_modal(self):
        self.click(".modal button[type=submit]")
        self.wait_gone(".modal-backdrop")

    def open_chat_titled(self, title: str):
        self.click(".view--list:not([hidden]) a.row", text=title)
        self.wait(".view--dialogue .dialogue-title", text=title)

    # ---- Screenshots ----

    def screenshot(self, name: str):
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def shoot_both(self, name: str, check=None, settle: float = 0.35):
        """Screenshots at phone size (390×844) and desktop size (1280×800); `check` runs at each."""
        original = self.size
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.resize(*size)
            time.sleep(settle)
            if check:
                check(self, label)
            self.screenshot(f"{name}-{label}")
        self.resize(*original)
        time.sleep(0.15)

    def console_errors(self) -> list[str]:
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"
                and "favicon" not in e["message"] and "net::ERR_CONNECTION_REFUSED" not in e["message"]
                and "WebSocket connection" not in e["message"] and "Failed to load resource" not in e["message"]]

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass


# ---- Pictures ----

def png(width: int, height: int, top=(90, 160, 240), bottom=(40, 70, 160)) -> bytes:
    """A vertical gradient PNG (RGB, 8 bits) made with the standard library."""
    rows = []
    for y in range(height):
        f = y / max(1, height - 1)
        colour = bytes(int(a + (b - a) * f) for a, b in zip(top, bottom))
        rows.append(b"\x00" + colour * width)
    raw = zlib.compress(b"".join(rows), 6)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


# ---- Accounts and the other side of a conversation ----

def register(url: str, username: str, password: str = "password123", **profile) -> dict:
    session = sign_up(url, username, password)
    if profile:
        changed = call(url, "PATCH", "/v1/me", profile, token=session["token"])
        assert changed.status == 200, changed.body
        session["user"] = changed.json
    return session


def upload(url: str, token: str, data: bytes) -> str:
    reply = call(url, "POST", "/v1/media", token=token, raw=data)
    assert reply.status == 201, reply.body
    return reply.json["url"]


def ws(port: int, token: str, *calls: tuple[str, dict]) -> list[dict]:
    """Opens a WebSocket session, makes the calls in order, returns their responses."""
    from client import Session

    async def run():
        session = await Session.open(port, token)
        try:
            replies = []
            for op, data in calls:
                reply = await session.call(op, data)
                assert reply["ok"], (op, reply)
                replies.append(reply["data"])
            return replies
        finally:
            await session.close()
    return asyncio.run(asyncio.wait_for(run(), 30))


def outbox_codes(data_dir: str) -> list[dict]:
    path = pathlib.Path(data_dir) / "sms-outbox.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

"""Helpers for the XMPP tests: slixmpp clients (a Jabber library Parley did not write) on a
`parley serve` with its XMPP listener, and raw sockets for hostile input."""
import asyncio
import re
import socket
import xml.etree.ElementTree as ET
from typing import NamedTuple

import pytest
import slixmpp
from slixmpp.exceptions import IqError
from slixmpp.xmlstream.handler import Callback
from slixmpp.xmlstream.matcher import MatchXPath

from api import call, sign_up
from client import Session, befriend, wait_event  # noqa: F401  (the XMPP tests take them from here)

PASSWORD = "password123"


def run(coroutine, timeout: float = 90):
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


@pytest.fixture
def server(parley):
    """A server with its XMPP listener (domain `localhost`) and the cheapest password hashing."""
    return parley("--password-cost", "minimum", xmpp=True)


def items(answer) -> list[tuple[str, str, str]]:
    """The (nick, affiliation, role) of each item of a muc#admin answer, sorted."""
    return sorted((item.get("nick"), item.get("affiliation"), item.get("role")) for item in answer.xml.iter(f"{{{ADMIN}}}item"))


def error_condition(stanza) -> str | None:
    """The defined condition of an error stanza (slixmpp's), e.g. `forbidden`; None if it is none."""
    error = stanza.xml.find("{jabber:client}error")
    if error is None:
        return None
    namespace = "{urn:ietf:params:xml:ns:xmpp-stanzas}"
    return next((child.tag[len(namespace):] for child in error if child.tag.startswith(namespace) and child.tag != namespace + "text"), None)


def register_account(server, username: str) -> dict:
    """Registers `username`; the answer: token and account."""
    return sign_up(server.url, username, PASSWORD)


def register(server, username: str) -> str:
    return register_account(server, username)["token"]


def native_resource(server, token: str) -> str:
    """The resource the native session of `token` appears as to Jabber clients: its device name
    as written (spaces and punctuation kept, control characters left out, any space a plain
    one, at most 40 characters), a dot, and the first six letters and digits of the session's
    id (docs/xmpp.md, "Addresses"). Enough of the rule for the plain names the tests use."""
    sessions = call(server.url, "GET", "/v1/auth/sessions", token=token).json["sessions"]
    current = next(session for session in sessions if session["current"])
    kept = "".join(" " if c.isspace() else c for c in current.get("deviceName") or "" if c.isspace() or c.isprintable())
    slug = kept.strip()[:40].strip() or "parley"
    tag = re.sub(r"[\W_]+", "", current["id"])[:6].lower()
    return f"{slug}.{tag}"


class Friends(NamedTuple):
    """Mei and Bob as most gateway tests start: friends, both signed in natively, Mei perhaps
    on a Jabber client as well."""
    mei_native: Session
    bob: Session
    conversation: str
    mei: "Bot | None"
    bob_token: str


async def mei_and_bob(server, jabber: bool = False) -> Friends:
    """Registers mei and bob, signs both in natively and makes them friends (mei asks); with
    `jabber`, signs mei in on a Jabber client (`Bot`) too."""
    mei_token = register(server, "mei")
    bob_token = register(server, "bob")
    mei_native = await Session.open(server.port, mei_token)
    bob = await Session.open(server.port, bob_token)
    conversation = await befriend(mei_native, bob, "bob")
    mei = None
    if jabber:
        mei = Bot("mei@localhost")
        assert await mei.sign_in(server.xmpp_port)
    return Friends(mei_native, bob, conversation, mei, bob_token)


class Bot(slixmpp.ClientXMPP):
    """A slixmpp client that records what it receives. The test server speaks plaintext on
    loopback, so TLS is off and SASL over it is allowed."""

    def __init__(self, jid: str, password: str = PASSWORD, mechanism: str = "SCRAM-SHA-256", trust: str | None = None):
        """`trust`: a CA file; given, the client insists on STARTTLS and checks the certificate."""
        super().__init__(jid, password, sasl_mech=mechanism,
                         plugin_config={"feature_mechanisms": {"unencrypted_plain": True, "unencrypted_scram": True}})
        self.enable_plaintext = trust is None
        self.enable_starttls = trust is not None
        self.enable_direct_tls = False
        if trust:
            self.ssl_context.load_verify_locations(cafile=trust)
        self.messages: asyncio.Queue = asyncio.Queue()
        self.presences: list = []
        self.presence_seen = asyncio.Event()
        self.started = asyncio.Event()
        self.auth_failed = asyncio.Event()
        self.ended = asyncio.Event()
        self.roster_items: dict = {}
        self.register_plugin("xep_0199")
        self.register_plugin("xep_0030")
        self.register_plugin("xep_0191")
        self.register_plugin("xep_0054")
        self.register_plugin("xep_0203")
        self.register_plugin("xep_0085")
        self.register_plugin("xep_0184")
        self.add_event_handler("session_start", self._start)
        self.add_event_handler("failed_all_auth", lambda _: self.auth_failed.set())
        # Every <message>, with a body or not (slixmpp's own "message" event needs a body).
        self.register_handler(Callback("every message", MatchXPath("{jabber:client}message"),
                                       lambda message: self.messages.put_nowait(message)))
        self.add_event_handler("presence", self._presence)
        self.add_event_handler("disconnected", lambda _: self.ended.set())

    def _presence(self, presence):
        self.presences.append(presence)
        self.presence_seen.set()

    async def _start(self, _):
        roster = await self.get_roster()
        self.roster_items = {str(item["jid"]): item for item in roster["roster"]}
        self.send_presence()
        self.started.set()

    async def sign_in(self, port: int, timeout: float = 20) -> bool:
        """Connects; true once the session started, false if authentication failed."""
        self.connect("127.0.0.1", port)
        started = asyncio.ensure_future(self.started.wait())
        failed = asyncio.ensure_future(self.auth_failed.wait())
        done, pending = await asyncio.wait([started, failed], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        assert done, "neither signed in nor refused in time"
        return started in done

    async def next_message(self, timeout: float = 15, predicate=lambda m: bool(m["body"])):
        """The next message received that satisfies `predicate` (by default: has a body)."""
        while True:
            message = await asyncio.wait_for(self.messages.get(), timeout)
            if predicate(message):
                return message

    async def wait_presence(self, predicate, timeout: float = 15):
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for presence in self.presences:
                if predicate(presence):
                    return presence
            remaining = deadline - asyncio.get_running_loop().time()
            assert remaining > 0, f"no such presence; got {[str(p) for p in self.presences]}"
            self.presence_seen.clear()
            try:
                await asyncio.wait_for(self.presence_seen.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def stop(self):
        self.disconnect()
        try:
            await asyncio.wait_for(self.ended.wait(), 10)
        except asyncio.TimeoutError:
            pass


HEADER = ("<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' "
          "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")


def raw_exchange(port: int, payload: bytes, read_timeout: float = 10) -> str:
    """Sends the header and `payload` on a raw socket; returns everything the server sent
    until it closed the connection (the test fails if it does not close in time)."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as sock:
        sock.sendall(HEADER.encode())
        try:
            sock.sendall(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
        return received.decode("utf-8", "replace")


def self_signed_certificate(directory: str) -> tuple[str, str]:
    """A certificate for `localhost` (and its key), made with the openssl command."""
    import subprocess
    cert, key = f"{directory}/cert.pem", f"{directory}/key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


def stream_error(text: str) -> str | None:
    match = re.search(r"<stream:error><([a-z-]+) xmlns='urn:ietf:params:xml:ns:xmpp-streams'", text)
    return match.group(1) if match else None


class RawStream:
    """A hand-driven client stream, for exact exchanges slixmpp would hide."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.received = ""

    def send(self, text: str):
        self.sock.sendall(text.encode())

    def expect(self, pattern: str) -> re.Match:
        """Reads until `pattern` (a regular expression) matches what came since the last match."""
        while True:
            match = re.search(pattern, self.received)
            if match:
                self.received = self.received[match.end():]
                return match
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise AssertionError(f"no {pattern!r} in time; got {self.received!r}") from None
            assert chunk, f"closed before {pattern!r}; got {self.received!r}"
            self.received += chunk.decode()

    def sign_in(self, username: str, password: str = PASSWORD, resource: str | None = "raw", available: bool = True):
        """SASL PLAIN, the restart, a resource bound (unless `resource` is None) and, if
        `available`, the initial presence (before it, a stream gets no 1:1 messages)."""
        import base64
        self.send(HEADER)
        self.expect("</stream:features>")
        token = base64.b64encode(f"\0{username}\0{password}".encode()).decode()
        self.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>")
        self.expect("<success")
        self.send(HEADER)
        self.expect("</stream:features>")
        if resource is None:
            return
        self.send(f"<iq type='set' id='b1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>{resource}</resource></bind></iq>")
        self.expect("<jid>[^<]+</jid>")
        if available:
            self.send("<presence/>")

    def close(self):
        self.sock.close()


# Multi-user chat (XEP-0045): namespaces, a group made natively, joining, an iq answered.
MUC_USER = "{http://jabber.org/protocol/muc#user}"
ADMIN = "http://jabber.org/protocol/muc#admin"
OWNER = "http://jabber.org/protocol/muc#owner"
DATA = "{jabber:x:data}"


async def make_group(owner: Session, name: str, *members: Session) -> int:
    created = await owner.call("group.create", {"name": name})
    assert created["ok"], created
    for member in members:
        joined = await member.call("group.join", {"name": name})
        assert joined["ok"], joined
    return created["data"]["id"]


async def join(bot: Bot, room: str, nick: str):
    """Joins and waits for the bot's own presence in the room (status 110)."""
    bot.send_presence(pto=f"{room}/{nick}")
    return await bot.wait_presence(lambda p: p["from"].bare == room and p["type"] != "error" and "110" in str(p))


async def iq(bot: Bot, kind: str, to: str, payload: str):
    """Sends an iq and returns the answer, result or error (slixmpp raises on errors; the
    error stanza is what the tests look at)."""
    stanza = bot.make_iq_set() if kind == "set" else bot.make_iq_get()
    stanza["to"] = to
    stanza.append(ET.fromstring(payload))
    try:
        return await stanza.send(timeout=10)
    except IqError as error:
        return error.iq



async def native_sessions(server, tokens: dict[str, str]) -> dict[str, Session]:
    """Each user of `tokens` (name → token) signed in natively, by name."""
    return {name: await Session.open(server.port, token) for name, token in tokens.items()}


async def jabber_clients(server, names) -> dict[str, "Bot"]:
    """`name@localhost` signed in on a Jabber client (`Bot`) for each of `names`, by name."""
    bots = {name: Bot(f"{name}@localhost") for name in names}
    for bot in bots.values():
        assert await bot.sign_in(server.xmpp_port)
    return bots


async def sign_out(*groups: dict) -> None:
    """Stops the Jabber clients and closes the native sessions of `groups` (as made above)."""
    for group in groups:
        for client in group.values():
            await (client.stop() if isinstance(client, Bot) else client.close())

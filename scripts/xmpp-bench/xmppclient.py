"""The tiny XMPP client of scripts/xmpp-bench/xmppbench.py: it signs in with SASL PLAIN over an
unencrypted loopback stream, binds a resource and then reads raw text, looking for the few
things it waits for. It is a measuring tool, not a general client."""
import asyncio
import base64
import re
import time

STREAM_HEADER = ("<?xml version='1.0'?><stream:stream to='{domain}' xmlns='jabber:client' "
                 "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")


class XMPPError(Exception):
    pass


class Client:
    """One XMPP connection: `buffer` accumulates everything read; `wait_for` scans it."""

    def __init__(self, host, port, domain):
        self.host, self.port, self.domain = host, port, domain
        self.buffer = ""
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        await self.restart()

    async def restart(self):
        self.buffer = ""
        self.send(STREAM_HEADER.format(domain=self.domain))
        await self.wait_for("</stream:features>")

    def send(self, text):
        self.writer.write(text.encode())

    async def read_some(self, timeout):
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        if not data:
            raise XMPPError("stream closed by the server: " + self.buffer[-300:])
        self.buffer += data.decode(errors="replace")

    async def wait_for(self, marker, timeout=60.0):
        """Waits until `marker` (a string or compiled regex) is in the buffer; returns the
        buffer up to and including it and keeps the rest."""
        deadline = time.monotonic() + timeout
        while True:
            if isinstance(marker, str):
                at = self.buffer.find(marker)
                end = at + len(marker) if at >= 0 else -1
            else:
                match = marker.search(self.buffer)
                end = match.end() if match else -1
            if end >= 0:
                head, self.buffer = self.buffer[:end], self.buffer[end:]
                return head
            if "<stream:error" in self.buffer or "</stream:stream>" in self.buffer:
                raise XMPPError("stream error: " + self.buffer[-300:])
            left = deadline - time.monotonic()
            if left <= 0:
                raise XMPPError(f"timed out waiting for {marker!r}: {self.buffer[-300:]}")
            await self.read_some(left)

    async def sign_in(self, user, password, resource):
        token = base64.b64encode(f"\0{user}\0{password}".encode()).decode()
        self.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>")
        head = await self.wait_for(re.compile(r"<success[^>]*/>|</success>|</failure>"))
        if "failure" in head[-10:]:
            raise XMPPError(f"sign-in of {user} failed: {head[-200:]}")
        await self.restart()
        self.send(f"<iq type='set' id='bind1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
                  f"<resource>{resource}</resource></bind></iq>")
        await self.wait_for("</iq>")
        self.send("<iq type='set' id='sess1'><session xmlns='urn:ietf:params:xml:ns:xmpp-session'/></iq>")
        await self.wait_for(re.compile(r"id=.sess1.[^>]*(/>|>.*?</iq>)", re.S))

    async def register(self, user, password):
        """In-band registration (XEP-0077) before signing in."""
        self.send(f"<iq type='set' id='reg1'><query xmlns='jabber:iq:register'><username>{user}</username>"
                  f"<password>{password}</password></query></iq>")
        head = await self.wait_for(re.compile(r"id=.reg1.[^>]*(/>|>.*?</iq>)", re.S))
        reply = head[head.rfind("<iq"):]
        if "type='result'" not in reply and 'type="result"' not in reply and "conflict" not in reply:
            raise XMPPError(f"registration of {user} failed: {reply[:300]}")

    async def ping(self, ident):
        """A round trip: the server handles one connection's stanzas in order, so the answer
        means everything sent before it was handled."""
        self.send(f"<iq type='get' id='{ident}' to='{self.domain}'><ping xmlns='urn:xmpp:ping'/></iq>")
        await self.wait_for(f"{ident}", timeout=300)
        await self.wait_for(re.compile(r"/>|</iq>"), timeout=300)

    def close(self):
        if self.writer:
            try:
                self.writer.write(b"</stream:stream>")
                self.writer.close()
            except Exception:
                pass

"""A WebSocket client on a plain socket, for tests that need control over framing: several
frames in one write, frames of an exact size, or a peer that never reads."""
import base64
import json
import os
import socket
import struct


def frame(payload: bytes, opcode: int = 0x1, fin: bool = True) -> bytes:
    """One client frame (masked, as RFC 6455 requires of clients)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", length)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def request(op: str, request_id, data: dict | None = None) -> bytes:
    return json.dumps({"id": request_id, "op": op, "data": data or {}}).encode()


class RawWebSocket:
    """Opens `/v1/ws` (optionally with an `Origin`) and reads server frames one by one."""

    def __init__(self, port: int, origin: str | None = None, source: str = "127.0.0.1", timeout: float = 20):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET /v1/ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin:
            lines.append(f"Origin: {origin}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        self.response_head = head.decode("latin-1")
        self.response_body = self.buffer if self.status != 101 else b""

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _read_exactly(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def send(self, op: str, request_id, data: dict | None = None):
        self.sock.sendall(frame(request(op, request_id, data)))

    def receive(self) -> tuple[int, bytes]:
        """The next whole frame from the server: (opcode, payload). Servers do not mask."""
        first, second = self._read_exactly(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read_exactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read_exactly(8))[0]
        return first & 0x0F, self._read_exactly(length)

    def next_json(self) -> dict:
        """The next text frame as JSON; raises `Closed` with the code on a close frame."""
        while True:
            opcode, payload = self.receive()
            if opcode == 0x1:
                return json.loads(payload)
            if opcode == 0x8:
                raise Closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005)

    def close_code(self) -> int:
        """Reads until the server's close frame and returns its code."""
        try:
            while True:
                self.next_json()
        except Closed as closed:
            return closed.code

    def auth(self, token: str):
        self.send("auth", "auth", {"token": token})
        reply = self.next_json()
        assert reply.get("ok"), reply

    def close(self):
        self.sock.close()


class Closed(Exception):
    def __init__(self, code: int):
        super().__init__(f"closed with {code}")
        self.code = code

"""HTTP on a plain socket, for tests that send exactly the bytes they mean (heads of an exact
size, malformed requests) and read the answer as sent."""
import socket
import struct
import zlib


def raw_http(port: int, data: bytes, source: str = "127.0.0.1") -> bytes:
    """Sends `data` on a new connection and returns everything until the server closes or
    has answered one request."""
    with socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0)) as sock:
        sock.sendall(data)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
            head, _, body = received.partition(b"\r\n\r\n")
            if b"\r\n\r\n" in received and b"content-length:" in head.lower():
                length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length:")))
                if len(body) >= length:
                    break
        return received


def status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1]) if response else 0


def png_of_size(size: int) -> bytes:
    """A 1×1 PNG padded with trailing bytes to exactly `size` bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data))
    image = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack("!IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
             + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) + chunk(b"IEND", b""))
    return image + b"\x00" * (size - len(image))

"""A tiny client of Parley's HTTP API for the end-to-end tests (standard library only)."""
import json
import urllib.error
import urllib.request


class Reply:
    def __init__(self, status: int, headers, body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def json(self):
        return json.loads(self.body) if self.body else None

    @property
    def error_code(self):
        data = self.json or {}
        return (data.get("error") or {}).get("code")


def call(base: str, method: str, path: str, body=None, token: str | None = None, raw: bytes | None = None,
         headers: dict | None = None) -> Reply:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return Reply(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, error.headers, error.read())


def sign_up(url: str, username: str, password: str = "password123") -> dict:
    """Registers `username` on the server at `url`; the answer: `token` and `user`."""
    reply = call(url, "POST", "/v1/auth/register", {"username": username, "password": password})
    assert reply.status == 201, reply.body
    return reply.json


def register(server, name: str) -> str:
    """Registers `name` (password `password123`) on a running server; returns its token."""
    return sign_up(server.url, name)["token"]

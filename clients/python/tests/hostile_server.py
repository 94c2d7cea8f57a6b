"""A loopback HTTP server that answers the way a hostile agent-chat server would, for the client's bounds.

Each request is answered on its own connection (HTTP/1.0: a body ends when the connection
closes) by the route for its path, a function of an :class:`Exchange` that writes what it likes.
:meth:`result` gives what a route returned (None is not kept), waiting for it to be done.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Mapping

#: What a route may write at most: a guard, far past every bound the client keeps.
GUARD_BYTES = 64 * 1024 * 1024
#: How long a route waits for the client to leave before giving up on it, in seconds.
GUARD_SECONDS = 10.0

BOOTSTRAP_PATH = "/api/agent/v1/bootstrap"


def bootstrap_body(stream: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The least bootstrap the client accepts, with ``stream`` as its stream settings."""
    return {
        "protocol": {"supported": ["1"]},
        "identity": {"identityId": "idn_hostile"},
        "agent": {"versionId": "agv_hostile"},
        "stream": dict(stream or {}),
    }


class Exchange:
    """One request being answered: write a head, then bytes, until the client goes away."""

    def __init__(self, handler: BaseHTTPRequestHandler) -> None:
        self._handler = handler
        self.target = handler.path

    def head(self, status: int, content_type: str, headers: Mapping[str, str] | None = None) -> None:
        self._handler.send_response(status)
        self._handler.send_header("content-type", content_type)
        for name, value in (headers or {}).items():
            self._handler.send_header(name, value)
        self._handler.end_headers()
        self._handler.wfile.flush()

    def json(self, status: int, body: Any, content_type: str = "application/json") -> None:
        data = json.dumps(body).encode()
        self.head(status, content_type, {"content-length": str(len(data))})
        self.write(data)

    def write(self, data: bytes) -> bool:
        """Sends ``data``; False once the client has closed the connection."""
        try:
            self._handler.wfile.write(data)
            self._handler.wfile.flush()
            return True
        except OSError:
            return False

    def endless(self, start: bytes, piece: bytes) -> int:
        """Sends ``start``, then ``piece`` over and over until the client leaves (or the guard); the bytes sent."""
        sent = 0
        data = start
        while sent < GUARD_BYTES and self.write(data):
            sent += len(data)
            data = piece
        return sent

    def client_leaves(self) -> bool:
        """Waits for the client to close the connection: True when it did, False after ``GUARD_SECONDS``."""
        connection: socket.socket = self._handler.connection
        connection.settimeout(GUARD_SECONDS)
        try:
            while True:
                if connection.recv(65536) == b"":
                    return True
        except socket.timeout:
            return False
        except OSError:
            return True


Route = Callable[[Exchange], Any]


class HostileServer:
    def __init__(self, routes: Mapping[str, Route]) -> None:
        self.results: queue.Queue[Any] = queue.Queue()
        self.targets: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer()

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self._answer()

            def _answer(self) -> None:
                server.targets.append(self.path)
                route = routes.get(self.path.split("?", 1)[0])
                if route is None:
                    Exchange(self).json(404, {"code": "NOT_FOUND"}, "application/problem+json")
                    return
                result = route(Exchange(self))
                if result is not None:
                    server.results.put(result)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self.endpoint = f"http://127.0.0.1:{self._http.server_address[1]}/api/agent"
        threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True).start()

    def result(self) -> Any:
        """The next value a route returned, waiting for its route to be done."""
        return self.results.get(timeout=GUARD_SECONDS * 2)

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()

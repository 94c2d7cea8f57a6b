"""A loopback TCP proxy in front of the server that the tests use to break connections on purpose.

``cut()`` closes every open connection (an event stream dies mid-body); ``drop_next_response()``
makes the next answer the server sends vanish with its connection (the request landed, its answer
never arrives). It also logs the head of every request it forwards.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field


@dataclass(frozen=True)
class LoggedRequest:
    """A request head the proxy forwarded; ``answered`` is set once the server's first answer bytes for it came back."""

    method: str
    target: str
    headers: dict[str, str]
    answered: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)


class FaultProxy:
    def __init__(self, upstream_port: int) -> None:
        self._upstream_port = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: list[tuple[socket.socket, socket.socket]] = []
        self._drop_next_response = False
        self.requests: list[LoggedRequest] = []
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def cut(self) -> int:
        """Closes every open connection at once; returns how many it closed."""
        with self._lock:
            pairs, self._open = self._open, []
        for pair in pairs:
            _close(*pair)
        return len(pairs)

    def drop_next_response(self) -> None:
        """The next bytes the server answers with are thrown away and their connection closed."""
        with self._lock:
            self._drop_next_response = True

    def requests_to(self, method: str, path: str) -> list[LoggedRequest]:
        """The logged requests of ``method`` to exactly ``path`` (whatever their query string)."""
        with self._lock:
            return [r for r in self.requests if r.method == method and r.target.split("?", 1)[0] == path]

    def close(self) -> None:
        self._listener.close()
        self.cut()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self._upstream_port))
            with self._lock:
                self._open.append((client, upstream))
                self.connections += 1
            unanswered: list[LoggedRequest] = []
            threading.Thread(target=self._pump_requests, args=(client, upstream, unanswered), daemon=True).start()
            threading.Thread(target=self._pump_answers, args=(upstream, client, unanswered), daemon=True).start()

    def _pump_requests(self, client: socket.socket, upstream: socket.socket, unanswered: list[LoggedRequest]) -> None:
        pending = b""
        body_left = 0
        while True:
            try:
                data = client.recv(65536)
            except OSError:
                data = b""
            if not data:
                _close(client, upstream)
                return
            pending += data
            # Log each request head (bodies are skipped by their Content-Length).
            while True:
                if body_left:
                    taken = min(body_left, len(pending))
                    pending, body_left = pending[taken:], body_left - taken
                    if body_left:
                        break
                head, separator, rest = pending.partition(b"\r\n\r\n")
                if not separator:
                    break
                request = _parse_head(head.decode("latin-1"))
                with self._lock:
                    self.requests.append(request)
                    unanswered.append(request)
                pending = rest
                body_left = int(request.headers.get("content-length", "0"))
            try:
                upstream.sendall(data)
            except OSError:
                _close(client, upstream)
                return

    def _pump_answers(self, upstream: socket.socket, client: socket.socket, unanswered: list[LoggedRequest]) -> None:
        while True:
            try:
                data = upstream.recv(65536)
            except OSError:
                data = b""
            with self._lock:
                is_dropped = bool(data) and self._drop_next_response
                if is_dropped:
                    self._drop_next_response = False
                # HTTP/1.1 without pipelining: answer bytes belong to the oldest request not yet answered.
                if data and unanswered:
                    unanswered.pop(0).answered.set()
            if not data or is_dropped:
                _close(client, upstream)
                return
            try:
                client.sendall(data)
            except OSError:
                _close(client, upstream)
                return


def _parse_head(head: str) -> LoggedRequest:
    request_line, *header_lines = head.split("\r\n")
    method, target, _ = request_line.split(" ", 2)
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return LoggedRequest(method, target, headers)


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

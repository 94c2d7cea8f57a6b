"""A body the server refuses before its end still gets its answer to httpx (issue 52).

httpx sends the whole body before it reads the answer. When the server answers ``413`` after
256 KiB of a 6 MiB body and closes at once, the close resets the connection while httpx is still
writing, and httpx raises ``WriteError`` instead of returning the problem. The server closes
lingering (it reads what is still sent, up to 8 MiB and 2 s) so httpx reads its ``413``. Each
shape runs 20 times: a reset that wins once fails the test.
"""

from __future__ import annotations

import secrets
from typing import Iterator

import httpx
import pytest

from reference_server import ReferenceServer

BODY = b'{"padding":"' + b"x" * (6 * 1024 * 1024) + b'"}'
PIECE_BYTES = 65536
TIMES = 20


def pieces() -> Iterator[bytes]:
    """``BODY`` as an iterator, which httpx sends chunked (no ``Content-Length``)."""
    for start in range(0, len(BODY), PIECE_BYTES):
        yield BODY[start : start + PIECE_BYTES]


@pytest.mark.parametrize("shape", ["content-length", "chunked"])
def test_httpx_reads_its_413_for_a_body_past_the_limit(server: ReferenceServer, cookie: str, shape: str) -> None:
    with httpx.Client(base_url=f"{server.endpoint}/v1", headers={"Cookie": cookie}, timeout=30) as http:
        identity = http.get("/bootstrap").json()["identity"]["identityId"]
        seen = []
        for _ in range(TIMES):
            response = http.post(
                "/runs",
                content=BODY if shape == "content-length" else pieces(),
                headers={
                    "Content-Type": "application/json",
                    "X-Agent-Identity": identity,
                    "Idempotency-Key": f"refused-{secrets.token_hex(12)}",
                },
            )
            seen.append((response.status_code, response.json().get("code")))
    assert seen == [(413, "PAYLOAD_TOO_LARGE")] * TIMES

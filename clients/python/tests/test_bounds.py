"""A hostile server cannot make the client read without end or wait forever (issue 49).

Error bodies are read to ``max_error_body_bytes``, successful ones to ``max_body_bytes``, event
stream lines and events to ``max_stream_line_bytes``, and bootstrap's ``clientIdleTimeoutSec`` is
kept within ``[1, max_idle_timeout]`` seconds; a stream of heartbeats without events ends after
``stall_timeout``. Each case runs against :class:`HostileServer`, with the sync
and with the async client.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any, Callable, Iterator

import pytest

from agent_chat_client import AgentChatClient, AgentChatError, AsyncAgentChatClient, Event, Session
from agent_chat_client._protocol import ClientConfig, stream_idle_timeout
from hostile_server import BOOTSTRAP_PATH, GUARD_BYTES, GUARD_SECONDS, Exchange, HostileServer, bootstrap_body
from test_stream_reader import frame

SESSION_PATH = "/api/agent/v1/sessions/ses_1"
EVENTS_PATH = "/api/agent/v1/runs/run_1/events"
#: What the client may have taken in before it stops: its bound plus the loopback socket buffers.
READ_AT_MOST = 16 * 1024 * 1024
PIECE = b"x" * 65536


def bootstrap(stream: dict[str, Any] | None = None) -> Callable[[Exchange], None]:
    return lambda exchange: exchange.json(200, bootstrap_body(stream))


def endless_problem(exchange: Exchange) -> int:
    exchange.head(422, "application/problem+json")
    return exchange.endless(b'{"code":"VALIDATION_FAILED","detail":"', PIECE)


def endless_session(exchange: Exchange) -> int:
    exchange.head(200, "application/json")
    return exchange.endless(b'{"sessionId":"ses_1","title":"', PIECE)


def endless_event_line(exchange: Exchange) -> int:
    exchange.head(200, "text/event-stream")
    return exchange.endless(b": open\n\n" + frame(1) + b"data: ", PIECE)


def silent_stream(exchange: Exchange) -> bool:
    """A stream that opens and never sends another byte; True when the client closed it (not the guard)."""
    exchange.head(200, "text/event-stream")
    exchange.write(b": open\n\n")
    return exchange.client_leaves()


def paced(exchange: Exchange, pieces: list[bytes], every: float = 0.02) -> bool:
    """Opens a stream and sends ``pieces`` one every ``every`` seconds, then heartbeats until the client
    leaves (or the guard); True when the client closed it."""
    exchange.head(200, "text/event-stream")
    until = time.monotonic() + GUARD_SECONDS
    for piece in pieces:
        if not exchange.write(piece):
            return True
        time.sleep(every)
    while time.monotonic() < until:
        if not exchange.write(b": hb\n\n"):
            return True
        time.sleep(every)
    return False


def not_found(exchange: Exchange) -> None:
    exchange.json(404, {"code": "NOT_FOUND"}, "application/problem+json")


@pytest.fixture
def hostile() -> Iterator[Callable[..., HostileServer]]:
    made: list[HostileServer] = []

    def start(routes: dict[str, Callable[[Exchange], Any]]) -> HostileServer:
        made.append(HostileServer({BOOTSTRAP_PATH: bootstrap(), **routes}))
        return made[-1]

    yield start
    for server in made:
        server.close()


def read_session(endpoint: str, is_async: bool, **options: Any) -> Session:
    """What ``get_session("ses_1")`` returns (or raises), with the sync or the async client."""

    async def read_async() -> Session:
        async with AsyncAgentChatClient(endpoint, **options) as client:
            return await client.get_session("ses_1")

    if is_async:
        return asyncio.run(read_async())
    with AgentChatClient(endpoint, **options) as client:
        return client.get_session("ses_1")


def get_session(endpoint: str, is_async: bool, **options: Any) -> AgentChatError:
    """The error ``get_session("ses_1")`` raises, with the sync or the async client."""
    with pytest.raises(AgentChatError) as caught:
        read_session(endpoint, is_async, **options)
    return caught.value


def follow(endpoint: str, is_async: bool, **options: Any) -> tuple[list[Event], AgentChatError]:
    """The events ``events("run_1")`` hands out before it raises, and the error, with the sync or the async client."""
    events: list[Event] = []

    async def read_async() -> None:
        async with AsyncAgentChatClient(endpoint, **options) as client:
            async for event in client.events("run_1"):
                events.append(event)

    with pytest.raises(AgentChatError) as caught:
        if is_async:
            asyncio.run(read_async())
        else:
            with AgentChatClient(endpoint, **options) as client:
                events.extend(client.events("run_1"))
    return events, caught.value


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_an_endless_error_body_is_read_to_the_cap_and_still_raised(hostile, is_async: bool) -> None:
    server = hostile({SESSION_PATH: endless_problem})

    error = get_session(server.endpoint, is_async)

    assert server.result() < READ_AT_MOST, "the client stopped reading"
    assert (error.status, error.code, error.retryable) == (422, "HTTP_ERROR", False)
    assert error.message == "HTTP 422, its error body cut at 65536 bytes."


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_problem_as_long_as_the_cap_is_read_whole_and_a_byte_longer_one_is_cut(hostile, is_async: bool) -> None:
    body = {"code": "VALIDATION_FAILED", "detail": "Too long a title."}
    problem = json.dumps(body).encode()
    server = hostile({SESSION_PATH: lambda exchange: exchange.json(422, body, "application/problem+json")})

    whole = get_session(server.endpoint, is_async, max_error_body_bytes=len(problem))
    cut = get_session(server.endpoint, is_async, max_error_body_bytes=len(problem) - 1)

    assert (whole.code, whole.message) == ("VALIDATION_FAILED", "Too long a title.")
    assert (cut.code, cut.message) == ("HTTP_ERROR", f"HTTP 422, its error body cut at {len(problem) - 1} bytes.")


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_an_endless_successful_body_is_read_to_max_body_bytes_and_raised_not_retried(hostile, is_async: bool) -> None:
    server = hostile({SESSION_PATH: endless_session})

    error = get_session(server.endpoint, is_async, max_body_bytes=1024 * 1024)

    assert server.result() < READ_AT_MOST, "the client stopped reading"
    assert (error.status, error.code, error.retryable) == (200, "INVALID_RESPONSE", False)
    assert "longer than max_body_bytes (1048576 bytes)" in error.message
    assert server.targets == [BOOTSTRAP_PATH, SESSION_PATH], "it was not asked again"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_successful_body_is_bounded_at_16_mib_by_default(hostile, is_async: bool) -> None:
    server = hostile({SESSION_PATH: endless_session})

    error = get_session(server.endpoint, is_async)

    assert server.result() < GUARD_BYTES, "the client stopped reading before the server's guard"
    assert "longer than max_body_bytes (16777216 bytes)" in error.message


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_body_as_long_as_max_body_bytes_is_read_and_a_byte_longer_one_is_refused(hostile, is_async: bool) -> None:
    body = {"sessionId": "ses_1", "title": "Q" * 1000}  # longer than bootstrap's, which the bound holds too
    length = len(json.dumps(body).encode())
    server = hostile({SESSION_PATH: lambda exchange: exchange.json(200, body)})

    session = read_session(server.endpoint, is_async, max_body_bytes=length)
    refused = get_session(server.endpoint, is_async, max_body_bytes=length - 1)

    assert (session.session_id, session.title) == ("ses_1", "Q" * 1000)
    assert (refused.status, refused.code) == (200, "INVALID_RESPONSE")


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_an_endless_error_body_of_an_event_stream_is_read_to_the_cap(hostile, is_async: bool) -> None:
    server = hostile({EVENTS_PATH: endless_problem})

    events, error = follow(server.endpoint, is_async)

    assert server.result() < READ_AT_MOST, "the client stopped reading"
    assert events == [] and (error.status, error.code) == (422, "HTTP_ERROR")


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_an_endless_event_stream_line_is_a_protocol_error_after_the_events_before_it(hostile, is_async: bool) -> None:
    answers = iter([endless_event_line, not_found])  # a client that read to the guard would reconnect: 404
    server = hostile({EVENTS_PATH: lambda exchange: next(answers)(exchange)})

    events, error = follow(server.endpoint, is_async)

    assert server.result() < READ_AT_MOST, "the client stopped reading"
    assert [event.seq for event in events] == [1]
    assert (error.code, error.run_id, error.retryable) == ("INVALID_RESPONSE", "run_1", False)
    assert "passed 1048576 bytes" in error.message
    assert server.targets == [BOOTSTRAP_PATH, EVENTS_PATH + "?after=0"], "it did not reconnect to read it again"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("idle", [0, -1, None, 1e9, math.inf, "never"])
def test_the_server_cannot_switch_off_the_stream_watchdog(hostile, is_async: bool, idle: Any) -> None:
    answers = iter([silent_stream, not_found])
    stream = {"clientIdleTimeoutSec": idle}
    server = hostile({BOOTSTRAP_PATH: bootstrap(stream), EVENTS_PATH: lambda exchange: next(answers)(exchange)})

    events, error = follow(server.endpoint, is_async, max_idle_timeout=0.2)

    assert server.result() is True, "the client closed the silent stream itself"
    assert events == [] and error.code == "NOT_FOUND", "then reconnected, and the second answer ended it"


def test_the_watchdog_is_bootstraps_value_kept_within_one_second_and_max_idle_timeout() -> None:
    config = ClientConfig("http://x", max_idle_timeout=120.0)

    def watchdog(value: Any) -> float:
        return stream_idle_timeout(config, {"clientIdleTimeoutSec": value})

    assert watchdog(30) == 30.0 and watchdog(2.5) == 2.5
    assert watchdog(0.01) == 1.0
    assert watchdog(1e9) == watchdog(math.inf) == 120.0
    for unusable in (0, -5, None, math.nan, "60", True, [45]):
        assert watchdog(unusable) == 45.0, unusable
    assert stream_idle_timeout(config, {}) == 45.0
    assert stream_idle_timeout(ClientConfig("http://x", max_idle_timeout=10.0), {}) == 10.0


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_stream_of_heartbeats_without_events_ends_stalled_after_stall_timeout(hostile, is_async: bool) -> None:
    answers = iter([lambda exchange: paced(exchange, [frame(1)]), not_found])  # a reconnect would get 404
    server = hostile({EVENTS_PATH: lambda exchange: next(answers)(exchange)})

    events, error = follow(server.endpoint, is_async, stall_timeout=0.3)

    assert server.result() is True, "the client closed the heartbeating stream itself"
    assert [event.seq for event in events] == [1]
    assert (error.code, error.run_id, error.retryable) == ("STREAM_STALLED", "run_1", True)
    assert server.targets == [BOOTSTRAP_PATH, EVENTS_PATH + "?after=0"], "it raised instead of reconnecting"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_events_keep_a_stream_going_past_stall_timeout_while_they_come_sooner(hostile, is_async: bool) -> None:
    heartbeat = b": hb\n\n"
    pieces = [piece for seq in range(1, 13) for piece in (frame(seq), heartbeat, heartbeat)]
    pieces.append(frame(13, "RUN_FINISHED"))
    server = hostile({EVENTS_PATH: lambda exchange: paced(exchange, pieces, every=0.03)})
    events: list[Event] = []

    async def read_async() -> None:
        async with AsyncAgentChatClient(server.endpoint, stall_timeout=0.5) as client:
            events.extend([event async for event in client.events("run_1")])

    started = time.monotonic()
    if is_async:
        asyncio.run(read_async())
    else:
        with AgentChatClient(server.endpoint, stall_timeout=0.5) as client:
            events.extend(client.events("run_1"))

    assert [event.seq for event in events] == list(range(1, 14))
    assert time.monotonic() - started > 0.5, "the stream outlasted stall_timeout"

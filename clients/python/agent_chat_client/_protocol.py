"""The client's sans-I/O core, shared by the sync and the async client: requests, answers, retries, resume.

Nothing here does I/O: the clients send the :class:`Call` s built here with httpx, hand the answers
back as :class:`HttpAnswer` s, and sleep the delays decided here.
"""

from __future__ import annotations

import enum
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union, cast
from urllib.parse import quote, urlencode

from ._contract import (
    APPROVAL_DECISION_VALUES,
    ApprovalDecision,
    CancelRunRequest,
    CancelRunResponse,
    ContextRef,
    CreateRunRequest,
    CreateRunRequestInput,
    CreateRunRequestOptions,
    DecideInterruptRequest,
    FocusContext,
    ReasoningEffort,
    RenameSessionRequest,
    ShowBranchRequest,
)
from .errors import (
    INVALID_RESPONSE,
    STREAM_STALLED,
    AgentChatError,
    error_from_response,
    invalid_response,
)
from .sse import DEFAULT_MAX_LINE_BYTES, SseLimitError, SseParser
from .models import (
    Bootstrap,
    CancelResult,
    Event,
    InterruptAnswer,
    Message,
    MessagePage,
    Run,
    RunSnapshot,
    Session,
    SessionPage,
)

PROTOCOL_MAJOR = "1"

#: The most of an error answer's body read (a problem is a few hundred bytes); the rest is never read.
DEFAULT_MAX_ERROR_BODY_BYTES = 64 * 1024
#: The longest successful JSON answer read (the largest, a page of messages, is well under a MiB).
DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
#: The stream watchdog when bootstrap names no usable ``stream.clientIdleTimeoutSec`` (docs/protocol.md §15).
DEFAULT_IDLE_TIMEOUT = 45.0
#: The shortest watchdog a server can ask for, in seconds (shorter would only make the client reconnect in a loop).
MIN_IDLE_TIMEOUT = 1.0


class Unset(enum.Enum):
    """The type of :data:`UNSET`, the default of a keyword whose None means something (it sends JSON null)."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


#: A keyword not given: ``send(parent_message_id=UNSET)`` continues the branch, None starts over.
UNSET = Unset.UNSET

#: The product's own headers: a mapping, or a function called before every attempt (a refreshed token).
HeadersSource = Union[Mapping[str, str], Callable[[], Mapping[str, str]], None]


@dataclass(frozen=True)
class ClientConfig:
    """What both clients are configured with (see :class:`agent_chat_client.AgentChatClient`)."""

    endpoint: str
    cookie: str | None = None
    bearer_token: str | None = None
    headers: HeadersSource = None
    locale: str | None = None
    max_attempts: int = 4
    backoff_base: float = 0.5
    backoff_cap: float = 30.0
    max_retry_after: float = 60.0
    stall_timeout: float = 600.0
    max_error_body_bytes: int = DEFAULT_MAX_ERROR_BODY_BYTES
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_stream_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_idle_timeout: float = 120.0
    random: Callable[[], float] = field(default=random.random, repr=False)

    @property
    def base_url(self) -> str:
        return f"{self.endpoint.rstrip('/')}/v{PROTOCOL_MAJOR}"


@dataclass(frozen=True)
class Call:
    """One protocol request: its body is serialized once, so every attempt sends the same bytes under the same key."""

    method: str
    path: str
    body: bytes | None = None
    idempotency_key: str | None = None
    #: False only for bootstrap, which is what gives the identity.
    needs_identity: bool = True
    #: A DELETE whose retry answers 404: the first attempt landed (docs/protocol.md §5.7), so it is done.
    is_done_on_retry_404: bool = False


@dataclass(frozen=True)
class HttpAnswer:
    """An HTTP answer as the core reads it: status, lowercase header names, the body.

    ``truncated`` says the body was longer than what was read of it (an error body past
    ``max_error_body_bytes``, a successful one past ``max_body_bytes``).
    """

    status: int
    headers: Mapping[str, str]
    body: bytes
    truncated: bool = False

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            raise invalid_response(self.status, self.headers.get("x-request-id")) from None

    def json_object(self) -> dict[str, Any]:
        body = self.json()
        if not isinstance(body, dict):
            raise invalid_response(self.status, self.headers.get("x-request-id"))
        return body

    @property
    def is_replayed(self) -> bool:
        return self.headers.get("idempotent-replayed", "").lower() == "true"


class CappedBody:
    """Collects a body's chunks up to ``limit`` bytes; :meth:`feed` says when to stop reading."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._chunks: list[bytes] = []
        self._size = 0
        self.truncated = False

    def feed(self, chunk: bytes) -> bool:
        """Keeps what fits of ``chunk``; True once the body is known to be longer than the limit (stop reading)."""
        room = self._limit - self._size
        if len(chunk) > room:
            self._chunks.append(chunk[:room])
            self._size = self._limit
            self.truncated = True
            return True
        self._chunks.append(chunk)
        self._size += len(chunk)
        return False

    @property
    def body(self) -> bytes:
        return b"".join(self._chunks)


def settle_answer(call: Call, attempt: int, answer: HttpAnswer, limit: int) -> HttpAnswer | AgentChatError:
    """What an attempt's answer (its body read within ``limit``) comes to: the answer, or its error."""
    is_success = 200 <= answer.status < 300
    if is_success and not answer.truncated:
        return answer
    if is_success:
        return body_too_large(answer, limit)
    if call.is_done_on_retry_404 and attempt > 1 and answer.status == 404:
        return answer
    return error_from_response(answer.status, answer.headers, answer.body, truncated=answer.truncated)


def body_too_large(answer: HttpAnswer, limit: int) -> AgentChatError:
    """The error of a successful answer whose body passed ``max_body_bytes`` (the rest of it was never read)."""
    message = (
        f"HTTP {answer.status}, its body longer than max_body_bytes ({limit} bytes); the rest was not read. "
        "Raise max_body_bytes if the server is trusted to send that much."
    )
    request_id = answer.headers.get("x-request-id")
    return AgentChatError(INVALID_RESPONSE, message, status=answer.status, request_id=request_id)


def stream_idle_timeout(config: ClientConfig, stream: Mapping[str, Any]) -> float:
    """The stream watchdog in seconds: bootstrap's ``clientIdleTimeoutSec`` within ``[1, max_idle_timeout]``.

    A server cannot switch the watchdog off: a value that is not a positive number (absent, 0,
    negative, NaN, text) is taken as the default 45 s, and a larger one (infinity too) as
    ``max_idle_timeout``.
    """
    value = stream.get("clientIdleTimeoutSec")
    is_usable = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0  # NaN > 0 is False
    seconds = max(MIN_IDLE_TIMEOUT, float(value)) if is_usable else DEFAULT_IDLE_TIMEOUT
    return min(seconds, config.max_idle_timeout)


def request_headers(config: ClientConfig, identity: str | None, call: Call | None, *, accept: str) -> dict[str, str]:
    """The headers of one attempt: the product's first (cookie, bearer, its own), then the protocol's, which win."""
    headers: dict[str, str] = {}
    if config.cookie:
        headers["cookie"] = config.cookie
    if config.bearer_token:
        headers["authorization"] = f"Bearer {config.bearer_token}"
    extra = config.headers() if callable(config.headers) else config.headers
    headers.update({name.lower(): value for name, value in (extra or {}).items()})
    if config.locale:
        headers["accept-language"] = config.locale
    headers["accept"] = accept
    headers["agent-protocol"] = PROTOCOL_MAJOR
    if identity is not None:
        headers["x-agent-identity"] = identity
    if call is not None and call.body is not None:
        headers["content-type"] = "application/json"
    if call is not None and call.idempotency_key is not None:
        headers["idempotency-key"] = f'"{call.idempotency_key}"'
    return headers


def retry_delay(config: ClientConfig, attempt: int, error: AgentChatError) -> float | None:
    """Seconds to wait before attempt ``attempt + 1``, or None when ``error`` ends the call.

    Only retryable errors are retried (network errors, timeouts, 5xx, ``409 IDEMPOTENCY_KEY_IN_USE``,
    a 429 the server marked retryable), at most ``max_attempts`` in all, waiting the full-jitter
    backoff and at least ``Retry-After``; a ``Retry-After`` past ``max_retry_after`` ends it.
    """
    if not error.retryable or attempt >= config.max_attempts:
        return None
    wait = error.retry_after or 0.0
    if wait > config.max_retry_after:
        return None
    return max(backoff(config, attempt - 1), wait)


def backoff(config: ClientConfig, attempt: int) -> float:
    """Full jitter: uniform in ``[0, min(cap, base * 2**attempt))``."""
    return config.random() * min(config.backoff_cap, config.backoff_base * 2 ** max(0, attempt))


def new_idempotency_key() -> str:
    """A fresh key (a UUIDv4: 36 characters of ``[0-9a-f-]``, a valid ``Idempotency-Key``)."""
    return str(uuid.uuid4())


def _json_body(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _segment(value: str) -> str:
    return quote(value, safe="")


def _query(**params: Any) -> str:
    present = {name: value for name, value in params.items() if value is not None}
    return f"?{urlencode(present)}" if present else ""


# --- Requests and how their answers read -------------------------------------------------------


def bootstrap_call() -> Call:
    return Call("GET", "/bootstrap", needs_identity=False)


def read_bootstrap(answer: HttpAnswer) -> Bootstrap:
    body = answer.json_object()
    supported = (body.get("protocol") or {}).get("supported") or []
    if PROTOCOL_MAJOR not in supported:
        raise AgentChatError(
            "PROTOCOL_VERSION_UNSUPPORTED",
            f"The server speaks protocol versions {supported}, not {PROTOCOL_MAJOR}.",
            status=answer.status,
        )
    return _read(answer, Bootstrap.from_json, body)


def send_call(
    text: str,
    *,
    agent_version_id: str,
    session_id: str | None,
    idempotency_key: str,
    parent_message_id: str | None | Unset = UNSET,
    client_message_id: str | None = None,
    context_refs: list[ContextRef] | None = None,
    instruction: str | None = None,
    focus: FocusContext | None = None,
    model_id: str | None = None,
    reasoning_effort: str | None = None,
    max_cost_usd: str | None = None,
) -> Call:
    # The body's shape is the contract's (``_contract.CreateRunRequest``, generated from its schema).
    message: CreateRunRequestInput = {"content": [{"type": "text", "text": text}]}
    if client_message_id is not None:
        message["clientMessageId"] = client_message_id
    if context_refs is not None:
        message["contextRefs"] = context_refs
    if instruction is not None:
        message["instruction"] = instruction
    if focus is not None:
        message["focus"] = focus
    options: CreateRunRequestOptions = {}
    if model_id is not None:
        options["modelId"] = model_id
    if reasoning_effort is not None:
        options["reasoningEffort"] = cast(ReasoningEffort, reasoning_effort)  # the server says which it takes
    if max_cost_usd is not None:
        options["limits"] = {"maxCostUsd": max_cost_usd}
    request: CreateRunRequest = {"agentVersionId": agent_version_id, "input": message}
    if session_id is not None:
        request["sessionId"] = session_id
    if parent_message_id is not UNSET:
        request["parentMessageId"] = parent_message_id  # None: JSON null, the conversation's start
    if options:
        request["options"] = options
    return Call("POST", "/runs", _json_body(request), idempotency_key=idempotency_key)


def read_run(answer: HttpAnswer, call: Call) -> Run:
    body = answer.json_object()
    return _read(
        answer,
        lambda b: Run.from_json(b, idempotency_key=call.idempotency_key or "", replayed=answer.is_replayed),
        body,
    )


def snapshot_call(run_id: str) -> Call:
    return Call("GET", f"/runs/{_segment(run_id)}")


def read_snapshot(answer: HttpAnswer) -> RunSnapshot:
    return _read(answer, RunSnapshot.from_json, answer.json_object())


def cancel_call(run_id: str, reason: str | None) -> Call:
    body: CancelRunRequest = {} if reason is None else {"reason": reason}
    return Call("POST", f"/runs/{_segment(run_id)}/cancel", _json_body(body))


def read_cancel(answer: HttpAnswer) -> CancelResult:
    body = answer.json_object()
    return _read(answer, lambda b: CancelResult(cast(CancelRunResponse, b)["status"], b.get("eventSeq"), b), body)


def answer_interrupt_call(
    run_id: str, interrupt_id: str, decision: str, args_digest: str, reason: str | None
) -> Call:
    if decision not in APPROVAL_DECISION_VALUES:
        raise ValueError(f'decision must be "allow" or "deny", not {decision!r}')
    body: DecideInterruptRequest = {"decision": cast(ApprovalDecision, decision), "argsDigest": args_digest}
    if reason is not None:
        body["reason"] = reason
    return Call("POST", f"/runs/{_segment(run_id)}/interrupts/{_segment(interrupt_id)}", _json_body(body))


def read_interrupt_answer(answer: HttpAnswer) -> InterruptAnswer:
    body = answer.json_object()
    return _read(answer, lambda b: InterruptAnswer(b["interrupt"], b["eventSeq"], answer.is_replayed, b), body)


def list_sessions_call(limit: int | None, after: str | None) -> Call:
    return Call("GET", f"/sessions{_query(limit=limit, after=after)}")


def read_session_page(answer: HttpAnswer) -> SessionPage:
    body = answer.json_object()
    return _read(answer, lambda b: SessionPage([Session.from_json(i) for i in b["items"]], b.get("nextAfter")), body)


def get_session_call(session_id: str) -> Call:
    return Call("GET", f"/sessions/{_segment(session_id)}")


def read_session(answer: HttpAnswer) -> Session:
    return _read(answer, Session.from_json, answer.json_object())


def session_messages_call(session_id: str, before: str | None, limit: int | None) -> Call:
    return Call("GET", f"/sessions/{_segment(session_id)}/messages{_query(before=before, limit=limit)}")


def read_message_page(answer: HttpAnswer) -> MessagePage:
    body = answer.json_object()
    return _read(
        answer,
        lambda b: MessagePage(
            list(b["items"]),
            b.get("nextBefore"),
            b.get("activeRun"),
            list(b.get("toolCalls", [])),
            [Message.from_json(m) for m in b["items"]],
            list(b.get("interrupts", [])),
        ),
        body,
    )


def rename_session_call(session_id: str, title: str) -> Call:
    body: RenameSessionRequest = {"title": title}
    return Call("PATCH", f"/sessions/{_segment(session_id)}", _json_body(body))


def show_branch_call(session_id: str, message_id: str) -> Call:
    body: ShowBranchRequest = {"messageId": message_id}
    return Call("POST", f"/sessions/{_segment(session_id)}/branch", _json_body(body))


def delete_session_call(session_id: str) -> Call:
    return Call("DELETE", f"/sessions/{_segment(session_id)}", is_done_on_retry_404=True)


def events_path(run_id: str, cursor: str) -> str:
    return f"/runs/{_segment(run_id)}/events{_query(after=cursor)}"


def _read(answer: HttpAnswer, make: Callable[[dict[str, Any]], Any], body: dict[str, Any]) -> Any:
    """``make(body)``, or ``INVALID_RESPONSE`` when the body lacks a member the protocol promises."""
    try:
        return make(body)
    except (KeyError, TypeError, AttributeError):
        raise invalid_response(answer.status, answer.headers.get("x-request-id")) from None


# --- Following a run's log (docs/protocol.md §9.2) -----------------------------------------------


class StreamPosition:
    """Where a run's log has been read to: the cursor to reconnect from and the last seq handed out.

    ``last_seq`` is None when reading starts at a cursor given by the caller (cursors are opaque:
    the first event read after it sets it).
    """

    def __init__(self, after: str | None) -> None:
        self.cursor = "0" if after is None else after
        self.last_seq: int | None = 0 if after is None else None

    def classify(self, event: Event | None, run_id: str) -> str:
        """``"apply"`` the next event, ``"drop"`` one handed out already (or another run's), ``"gap"`` for a missing
        or unreadable one."""
        if event is None:
            return "gap"
        if event.run_id != run_id:
            return "drop"
        if self.last_seq is None:
            return "apply"
        if event.seq <= self.last_seq:
            return "drop"
        return "gap" if event.seq > self.last_seq + 1 else "apply"

    def advance(self, event: Event) -> None:
        self.last_seq = event.seq
        self.cursor = event.cursor


class StreamReader:
    """Turns one connection's body into the events to hand out, advancing ``position`` past each.

    It stops (``is_over``) at the terminal event (``is_terminal``) or at a gap or an unreadable
    frame; the caller then stops reading this connection and, unless terminal, reconnects from
    ``position.cursor``. A line or an event longer than ``max_line_bytes`` also stops it, with
    ``failure`` set (``INVALID_RESPONSE``, to raise once the events before it are handed out).
    """

    def __init__(self, run_id: str, position: StreamPosition, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._run_id = run_id
        self._position = position
        self._parser = SseParser(max_line_bytes)
        self.is_over = False
        self.is_terminal = False
        self.failure: AgentChatError | None = None

    def feed(self, chunk: bytes) -> list[Event]:
        if self.is_over:
            return []
        try:
            frames = self._parser.feed(chunk)
        except SseLimitError as error:
            frames = error.frames
            message = f"{error} The server sent more than the protocol allows; the stream was closed."
            self.failure = AgentChatError(INVALID_RESPONSE, message, status=200, run_id=self._run_id)
        events: list[Event] = []
        for frame in frames:
            if self.is_over:
                break
            event = _parse_frame_data(frame.data)
            verdict = self._position.classify(event, self._run_id)
            if verdict == "drop":
                continue
            if verdict == "gap" or event is None:
                self.is_over = True
                break
            self._position.advance(event)
            events.append(event)
            if event.is_terminal:
                self.is_over = self.is_terminal = True
        if self.failure is not None and not self.is_terminal:
            self.is_over = True
        return events


def _parse_frame_data(data: str) -> Event | None:
    try:
        return Event.from_json(json.loads(data))
    except ValueError:
        return None


class ReconnectPolicy:
    """Decides what follows one stream attempt: raise, or reconnect after how long.

    A clean close (a drain, the server's stream duration, the idle watchdog, a gap) reconnects at
    once the first time, then with backoff while nothing new arrives; network errors, 5xx and a
    retryable 429 back off (full jitter, at least ``Retry-After``). ``410 CURSOR_EXPIRED`` and
    ``400 CURSOR_INVALID`` are raised (the log before the cursor is gone: read ``snapshot()`` and
    follow from its ``resume_cursor``), as are 401, 403, 404, ``409 IDENTITY_CHANGED`` and every
    other definitive answer. Past ``stall_timeout`` without a new event it raises ``STREAM_STALLED``:
    heartbeats and comments are no event, so the clients also end a connection that sends only
    those once :meth:`is_stalled`, and this raises.
    """

    def __init__(self, config: ClientConfig, run_id: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._config = config
        self._run_id = run_id
        self._clock = clock
        self._failures = 0
        self._last_progress = clock()

    def progressed(self) -> None:
        self._failures = 0
        self._last_progress = self._clock()

    def is_stalled(self) -> bool:
        """Whether ``stall_timeout`` seconds passed since the last new event (or the start)."""
        return self._clock() - self._last_progress > self._config.stall_timeout

    def delay_after(self, outcome: AgentChatError | None) -> float:
        """Seconds to wait before reconnecting after ``outcome`` (None: the body ended cleanly); raises when it ends
        the stream instead."""
        if outcome is not None and _is_fatal_stream_error(outcome):
            raise outcome
        if self.is_stalled():
            message = "The event stream made no progress; reconnect later."
            raise AgentChatError(STREAM_STALLED, message, retryable=True, run_id=self._run_id)
        attempt = self._failures - 1 if outcome is None else self._failures
        self._failures += 1
        if attempt < 0:
            return 0.0
        wait = 0.0 if outcome is None else (outcome.retry_after or 0.0)
        return max(backoff(self._config, attempt), wait)


def _is_fatal_stream_error(error: AgentChatError) -> bool:
    return not error.retryable or error.status in (400, 401, 403, 404, 410) or error.code == INVALID_RESPONSE


def stream_error(answer: HttpAnswer) -> AgentChatError:
    """The error of an events request answered with neither 200 nor 204."""
    if 200 <= answer.status < 300:
        return invalid_response(answer.status, answer.headers.get("x-request-id"))
    return error_from_response(answer.status, answer.headers, answer.body, truncated=answer.truncated)


def is_event_stream(headers: Mapping[str, str]) -> bool:
    return headers.get("content-type", "").lower().startswith("text/event-stream")

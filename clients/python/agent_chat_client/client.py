"""The synchronous client: :class:`AgentChatClient`."""

from __future__ import annotations

import time
from typing import Any, Iterator

import httpx

from . import _protocol as p
from ._contract import ContextRef, FocusContext
from .errors import AgentChatError, transport_failure
from .models import Bootstrap, CancelResult, Event, InterruptAnswer, MessagePage, Run, RunSnapshot, Session, SessionPage

#: Connect, write and pool timeouts of every request, and the read timeout of JSON requests, in seconds.
DEFAULT_TIMEOUT = 30.0


class AgentChatClient:
    """A client of one agent-chat server for one user, over httpx (docs/protocol.md).

    ``endpoint`` is the base the protocol lives under (the reference server's is
    ``https://host/api/agent``). Authentication is the product's: pass the user's ``cookie`` (the
    ``Cookie`` header value as the product's backend has it), a ``bearer_token``, or ``headers``
    (a mapping, or a function called before every attempt, e.g. for a refreshed token). The
    ``X-Agent-Identity`` binding is handled here: the first call bootstraps, every later one sends
    it, and a ``409 IDENTITY_CHANGED`` (raised) makes the next call bootstrap again.

    Every request is safe to repeat (a natural key, or the ``Idempotency-Key`` of ``send``), so
    retryable failures are retried up to ``max_attempts`` in all with full-jitter backoff and at
    least ``Retry-After`` (one longer than ``max_retry_after`` seconds is raised instead). Every
    failure is an :class:`~agent_chat_client.AgentChatError`. Pass ``http_client`` to bring your
    own ``httpx.Client`` (proxies, TLS, transports); it is then yours to close.

    What a server sends is read within bounds: at most ``max_error_body_bytes`` of an error body
    (a longer one is raised cut), at most ``max_body_bytes`` (16 MiB) of a successful one (a
    longer one is ``INVALID_RESPONSE``, not retried), event stream lines and events up to
    ``max_stream_line_bytes`` (past it ``INVALID_RESPONSE``), and bootstrap's
    ``stream.clientIdleTimeoutSec`` is kept within 1 s and ``max_idle_timeout``, so a server cannot
    switch the stream watchdog off.
    """

    def __init__(
        self,
        endpoint: str,
        *,
        cookie: str | None = None,
        bearer_token: str | None = None,
        headers: p.HeadersSource = None,
        locale: str | None = None,
        max_attempts: int = 4,
        max_retry_after: float = 60.0,
        stall_timeout: float = 600.0,
        timeout: float = DEFAULT_TIMEOUT,
        max_error_body_bytes: int = p.DEFAULT_MAX_ERROR_BODY_BYTES,
        max_body_bytes: int = p.DEFAULT_MAX_BODY_BYTES,
        max_stream_line_bytes: int = p.DEFAULT_MAX_LINE_BYTES,
        max_idle_timeout: float = 120.0,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._config = p.ClientConfig(
            endpoint=endpoint,
            cookie=cookie,
            bearer_token=bearer_token,
            headers=headers,
            locale=locale,
            max_attempts=max_attempts,
            max_retry_after=max_retry_after,
            stall_timeout=stall_timeout,
            max_error_body_bytes=max_error_body_bytes,
            max_body_bytes=max_body_bytes,
            max_stream_line_bytes=max_stream_line_bytes,
            max_idle_timeout=max_idle_timeout,
        )
        self._timeout = timeout
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)
        self._boot: Bootstrap | None = None

    def __enter__(self) -> AgentChatClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connections (unless the httpx client was passed in)."""
        if self._owns_http:
            self._http.close()

    @property
    def identity_id(self) -> str | None:
        """The ``idn_…`` binding sent as ``X-Agent-Identity``; None before bootstrap or after ``IDENTITY_CHANGED``."""
        return None if self._boot is None else self._boot.identity_id

    def bootstrap(self) -> Bootstrap:
        """Reads ``GET /bootstrap`` and binds the client to the identity it names (called for you on first use)."""
        self._boot = p.read_bootstrap(self._execute(p.bootstrap_call()))
        return self._boot

    def send(
        self,
        text: str,
        *,
        session_id: str | None = None,
        parent_message_id: str | None | p.Unset = p.UNSET,
        idempotency_key: str | None = None,
        agent_version_id: str | None = None,
        client_message_id: str | None = None,
        context_refs: list[ContextRef] | None = None,
        instruction: str | None = None,
        focus: FocusContext | None = None,
        model_id: str | None = None,
        reasoning_effort: str | None = None,
        max_cost_usd: str | None = None,
    ) -> Run:
        """Starts a run with ``text`` (in ``session_id``, or a new session) and returns it at once (see :meth:`events`).

        The body is serialized once and every retry sends it byte-identical under one
        ``Idempotency-Key`` (``idempotency_key``, else a fresh UUID), so a create whose answer was
        lost is answered from the server's record (``Run.replayed``) and never makes a second run.
        When it still fails, the error carries the key (``error.idempotency_key``): send again with
        it to keep that guarantee. ``agent_version_id`` defaults to bootstrap's.

        ``parent_message_id`` places the turn in the session's tree (docs/protocol.md §5.2, §5.7).
        Not given, the turn continues the branch the session shows. A message id, which must be the
        last message of a turn on the branch shown (else ``422 VALIDATION_FAILED`` with
        ``details["reason"] == "not_a_turn_end"``), makes a new version of the turn that follows
        it: the same text regenerates that turn, other text edits it. None (sent as JSON null)
        starts the conversation over: a new version of the first turn. A turn's
        ``Message.parent_message_id`` is the one to pass back, except on a turn made before the
        server had branches (None there too), whose parent is the message before it. The turns
        after the parent leave the branch shown but stay (:meth:`show_branch` shows them again).
        A message id needs ``session_id``.
        """
        boot = self._ensure_bootstrap()
        call = p.send_call(
            text,
            agent_version_id=agent_version_id or boot.agent_version_id,
            session_id=session_id,
            parent_message_id=parent_message_id,
            idempotency_key=idempotency_key or p.new_idempotency_key(),
            client_message_id=client_message_id,
            context_refs=context_refs,
            instruction=instruction,
            focus=focus,
            model_id=model_id,
            reasoning_effort=reasoning_effort,
            max_cost_usd=max_cost_usd,
        )
        return p.read_run(self._execute(call), call)

    def snapshot(self, run_id: str) -> RunSnapshot:
        """``GET /runs/{id}``: the run's state up to ``last_seq``; then ``events(run_id, after=resume_cursor)``."""
        return p.read_snapshot(self._execute(p.snapshot_call(run_id)))

    def events(self, run_id: str, *, after: str | None = None) -> Iterator[Event]:
        """Yields the run's events after the cursor ``after`` (default: from its first) until its terminal event.

        A dropped or closed connection is resumed from the cursor of the last event yielded, so
        every event comes exactly once and in ``seq`` order: an overlap is dropped, a gap is read
        again from the cursor. Raises :class:`AgentChatError` for a definitive answer:
        ``CURSOR_EXPIRED``/``CURSOR_INVALID`` (read :meth:`snapshot` and follow from its
        ``resume_cursor``), 401, 403, 404, ``IDENTITY_CHANGED``, or ``STREAM_STALLED`` (retryable)
        after ``stall_timeout`` seconds without a new event: heartbeats and comments do not count,
        within one connection or across reconnects (``math.inf`` waits for ever). Leaving the loop
        closes the connection; the run goes on on the server (only :meth:`cancel` stops it).
        """
        boot = self._ensure_bootstrap()
        timeout = httpx.Timeout(self._timeout, read=p.stream_idle_timeout(self._config, boot.stream))
        position = p.StreamPosition(after)
        policy = p.ReconnectPolicy(self._config, run_id)
        while True:
            failure: AgentChatError | None = None
            headers = p.request_headers(self._config, self.identity_id, None, accept="text/event-stream")
            headers["last-event-id"] = position.cursor
            url = self._config.base_url + p.events_path(run_id, position.cursor)
            try:
                with self._http.stream("GET", url, headers=headers, timeout=timeout) as response:
                    if response.status_code == 204:
                        return
                    if response.status_code != 200 or not p.is_event_stream(response.headers):
                        failure = self._noted(p.stream_error(self._read_error_body(response)))
                    else:
                        reader = p.StreamReader(run_id, position, self._config.max_stream_line_bytes)
                        for chunk in response.iter_bytes():
                            for event in reader.feed(chunk):
                                policy.progressed()
                                yield event
                                policy.progressed()  # the caller's own time with the event is no silence
                            # Heartbeats keep the connection open but are no progress: stop at stall_timeout.
                            if reader.is_over or policy.is_stalled():
                                break
                        if reader.is_terminal:
                            return
                        failure = reader.failure
            except httpx.ReadTimeout:
                failure = None  # The idle watchdog: reconnect from the cursor like after a clean close.
            except httpx.TimeoutException as error:
                failure = transport_failure(error, is_timeout=True)
            except httpx.TransportError as error:
                failure = transport_failure(error, is_timeout=False)
            time.sleep(policy.delay_after(failure))

    def cancel(self, run_id: str, *, reason: str | None = None) -> CancelResult:
        """Asks the run to stop (``cancelling``); answers the terminal status when it had already ended."""
        return p.read_cancel(self._execute(p.cancel_call(run_id, reason)))

    def answer_interrupt(
        self, run_id: str, interrupt_id: str, decision: str, args_digest: str, *, reason: str | None = None
    ) -> InterruptAnswer:
        """Answers an approval (or a proposal) ``"allow"`` or ``"deny"`` for the arguments digested as ``args_digest``.

        A digest that is not the interrupt's is ``412 ARGS_DIGEST_MISMATCH`` and the interrupt stays
        open; the same answer again is ``replayed``; the other answer after one was given is ``409
        INTERRUPT_ALREADY_RESOLVED``; past its expiry ``410 INTERRUPT_EXPIRED``.
        """
        return p.read_interrupt_answer(
            self._execute(p.answer_interrupt_call(run_id, interrupt_id, decision, args_digest, reason))
        )

    def list_sessions(self, *, limit: int | None = None, after: str | None = None) -> SessionPage:
        """One page of the user's sessions, latest activity first; ``after=page.next_after`` gives the next."""
        return p.read_session_page(self._execute(p.list_sessions_call(limit, after)))

    def get_session(self, session_id: str) -> Session:
        return p.read_session(self._execute(p.get_session_call(session_id)))

    def session_messages(self, session_id: str, *, before: str | None = None, limit: int | None = None) -> MessagePage:
        """One page of the session's settled messages, newest first; ``before=page.next_before`` gives older ones."""
        return p.read_message_page(self._execute(p.session_messages_call(session_id, before, limit)))

    def rename_session(self, session_id: str, title: str) -> Session:
        return p.read_session(self._execute(p.rename_session_call(session_id, title)))

    def show_branch(self, session_id: str, message_id: str) -> Session:
        """Shows the branch through the turn the user message ``message_id`` starts (one of a message's
        ``branch_message_ids``), down to the turn made last below it; the session as it is then.

        History pages, ``message_count`` and later sends follow the branch shown. Showing the branch
        shown changes nothing. A message that starts no turn of the session is ``422
        VALIDATION_FAILED`` (``details["reason"] == "not_a_turn"``); while a run has not ended,
        ``409 RUN_ALREADY_ACTIVE``.
        """
        return p.read_session(self._execute(p.show_branch_call(session_id, message_id)))

    def delete_session(self, session_id: str) -> None:
        """Deletes the session with its runs and history (``409 RUN_ALREADY_ACTIVE`` while a run has not ended)."""
        self._execute(p.delete_session_call(session_id))

    def _ensure_bootstrap(self) -> Bootstrap:
        return self._boot if self._boot is not None else self.bootstrap()

    def _execute(self, call: p.Call) -> p.HttpAnswer:
        if call.needs_identity:
            self._ensure_bootstrap()
        attempt = 0
        while True:
            attempt += 1
            headers = p.request_headers(self._config, self.identity_id, call, accept="application/json")
            try:
                url = self._config.base_url + call.path
                with self._http.stream(call.method, url, content=call.body, headers=headers) as response:
                    is_success = 200 <= response.status_code < 300
                    limit = self._config.max_body_bytes if is_success else self._config.max_error_body_bytes
                    answer = self._read_capped(response, limit)
                settled = p.settle_answer(call, attempt, answer, limit)
                if isinstance(settled, p.HttpAnswer):
                    return settled
                error = self._noted(settled)
            except httpx.TimeoutException as cause:
                error = transport_failure(cause, is_timeout=True)
            except httpx.TransportError as cause:
                error = transport_failure(cause, is_timeout=False)
            delay = p.retry_delay(self._config, attempt, error)
            if delay is None:
                error.idempotency_key = call.idempotency_key
                raise error
            time.sleep(delay)

    def _read_error_body(self, response: httpx.Response) -> p.HttpAnswer:
        """Reads at most ``max_error_body_bytes`` of an error answer's body; the rest is never read."""
        return self._read_capped(response, self._config.max_error_body_bytes)

    def _read_capped(self, response: httpx.Response, limit: int) -> p.HttpAnswer:
        """Reads at most ``limit`` bytes of the body (``truncated`` when there was more); the rest is never read."""
        body = p.CappedBody(limit)
        for chunk in response.iter_bytes():
            if body.feed(chunk):
                break
        return _answer(response, body.body, body.truncated)

    def _noted(self, error: AgentChatError) -> AgentChatError:
        """Forgets the identity binding on ``IDENTITY_CHANGED``, so the next call bootstraps again."""
        if error.code == "IDENTITY_CHANGED":
            self._boot = None
        return error


def _answer(response: httpx.Response, body: bytes, truncated: bool = False) -> p.HttpAnswer:
    return p.HttpAnswer(response.status_code, {k.lower(): v for k, v in response.headers.items()}, body, truncated)

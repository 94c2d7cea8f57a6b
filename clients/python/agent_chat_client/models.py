"""What the client returns: the protocol's bodies (docs/protocol.md §5–§7) as small frozen dataclasses.

Each keeps the whole JSON body in ``raw`` (tolerant reader: fields a newer server adds are there)
and names the fields a backend acts on. JSON names are camelCase on the wire, snake_case here; the
wire shapes they read are the contract's (``_contract.py``, generated from its schema).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from ._contract import CreateRunResponse, SessionResource

#: Statuses a run never leaves (docs/protocol.md §8).
TERMINAL_RUN_STATUSES = frozenset({"completed", "failed", "cancelled", "expired"})
#: Event types that end a run's log; exactly one is its last event.
TERMINAL_EVENT_TYPES = frozenset({"RUN_FINISHED", "RUN_ERROR"})


@dataclass(frozen=True)
class Bootstrap:
    """``GET /bootstrap``: who the server takes the caller for, the agent version to send to, limits, capabilities."""

    identity_id: str
    agent_version_id: str
    limits: dict[str, Any]
    capabilities: dict[str, Any]
    stream: dict[str, Any]
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Bootstrap:
        return cls(
            identity_id=body["identity"]["identityId"],
            agent_version_id=body["agent"]["versionId"],
            limits=dict(body.get("limits") or {}),
            capabilities=dict(body.get("capabilities") or {}),
            stream=dict(body.get("stream") or {}),
            raw=body,
        )


@dataclass(frozen=True)
class Run:
    """``POST /runs``'s answer: the run, its session, and where its log starts (``resume_cursor``).

    ``user_message_id`` is the message the run answers (the id :meth:`AgentChatClient.show_branch`
    takes to show its turn again); ``idempotency_key`` is the key it was created under;
    ``replayed`` is true when the server answered from that key's record (a retry of a create that
    had already landed: no second run).
    """

    run_id: str
    session_id: str
    status: str
    last_seq: int
    resume_cursor: str
    user_message_id: str | None
    idempotency_key: str
    replayed: bool
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any], *, idempotency_key: str, replayed: bool) -> Run:
        wire = cast(CreateRunResponse, body)
        return cls(
            run_id=wire["runId"],
            session_id=wire["sessionId"],
            status=wire["status"],
            last_seq=wire["lastSeq"],
            resume_cursor=wire["resumeCursor"],
            user_message_id=wire.get("userMessageId"),
            idempotency_key=idempotency_key,
            replayed=replayed,
            raw=body,
        )


@dataclass(frozen=True)
class Event:
    """One event of a run's log (the envelope of docs/protocol.md §6.1): ``type`` names it, ``data`` is its payload.

    ``seq`` is gapless per run from 1 and the only ordering authority; ``cursor`` is the opaque
    token to resume after this event (pass it as ``events(run_id, after=cursor)``).
    """

    run_id: str
    session_id: str
    seq: int
    cursor: str
    type: str
    timestamp: int
    event_id: str
    data: dict[str, Any]

    @property
    def is_terminal(self) -> bool:
        """True for ``RUN_FINISHED`` and ``RUN_ERROR``: nothing follows it."""
        return self.type in TERMINAL_EVENT_TYPES

    @classmethod
    def from_json(cls, body: Any) -> Event | None:
        """The event of one SSE ``data`` payload, or None when it is not an envelope."""
        if not isinstance(body, dict):
            return None
        seq, cursor, type_, run_id, data = (body.get(k) for k in ("seq", "cursor", "type", "runId", "data"))
        if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1):
            return None
        if not all(isinstance(value, str) for value in (cursor, type_, run_id)) or not isinstance(data, dict):
            return None
        return cls(
            run_id=run_id,
            session_id=str(body.get("sessionId", "")),
            seq=seq,
            cursor=cursor,
            type=type_,
            timestamp=int(body.get("timestamp") or 0),
            event_id=str(body.get("eventId", "")),
            data=data,
        )


@dataclass(frozen=True)
class RunSnapshot:
    """``GET /runs/{id}``: the fold of the log up to ``last_seq``; then ``events(run_id, after=resume_cursor)``."""

    run_id: str
    session_id: str
    status: str
    last_seq: int
    resume_cursor: str
    messages: list[dict[str, Any]]
    tool_calls: list[dict[str, Any]]
    interrupts: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    error: dict[str, Any] | None
    raw: dict[str, Any] = field(repr=False)

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_RUN_STATUSES

    @property
    def open_interrupts(self) -> list[dict[str, Any]]:
        """The interrupts waiting for an answer (``answer_interrupt`` takes their ``id`` and ``argsDigest``)."""
        return [interrupt for interrupt in self.interrupts if interrupt.get("state") == "open"]

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> RunSnapshot:
        return cls(
            run_id=body["runId"],
            session_id=body["sessionId"],
            status=body["status"],
            last_seq=body["lastSeq"],
            resume_cursor=body["resumeCursor"],
            messages=list(body.get("messages") or []),
            tool_calls=list(body.get("toolCalls") or []),
            interrupts=list(body.get("interrupts") or []),
            outcome=body.get("outcome"),
            error=body.get("error"),
            raw=body,
        )


@dataclass(frozen=True)
class InterruptAnswer:
    """An interrupt answer's result: the interrupt as resolved and the seq of its ``INTERRUPT_RESOLVED``."""

    interrupt: dict[str, Any]
    event_seq: int
    replayed: bool
    raw: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class CancelResult:
    """A cancel's answer: ``cancelling`` with the seq of that event, or the terminal status (no seq)."""

    status: str
    event_seq: int | None
    raw: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Session:
    """One conversation (``SessionResource``): title, the run not yet ended (``active_run``), settled message count."""

    session_id: str
    agent_version_id: str
    title: str | None
    active_run: dict[str, Any] | None
    last_run_id: str | None
    message_count: int
    created_at: str
    updated_at: str
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Session:
        wire = cast(SessionResource, body)
        return cls(
            session_id=wire["sessionId"],
            agent_version_id=wire.get("agentVersionId", ""),
            title=wire.get("title"),
            active_run=body.get("activeRun"),
            last_run_id=wire.get("lastRunId"),
            message_count=int(wire.get("messageCount") or 0),
            created_at=wire.get("createdAt", ""),
            updated_at=wire.get("updatedAt", ""),
            raw=body,
        )


@dataclass(frozen=True)
class SessionPage:
    """One page of ``GET /sessions``, latest activity first; ``next_after`` (or None) asks for the next."""

    items: list[Session]
    next_after: str | None


@dataclass(frozen=True)
class Message:
    """One message of a session's history (``SnapshotMessage``): who said what, in which run and turn.

    A turn's user message names the message it follows in ``parent_message_id`` (None on the
    conversation's first turn, and on turns made before the server had branches). When the turn
    has other versions (regenerated or edited: the same parent), ``branch_message_ids`` lists the
    user messages of all of them, oldest first, this one included, so its position there is the
    version shown; otherwise it is None. Both are None on assistant messages.
    """

    message_id: str
    role: str
    content: str
    status: str
    run_id: str | None
    parent_message_id: str | None
    branch_message_ids: list[str] | None
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Message:
        versions = body.get("branchMessageIds")
        return cls(
            message_id=body["messageId"],
            role=body["role"],
            content=body.get("content", ""),
            status=body.get("status", ""),
            run_id=body.get("runId"),
            parent_message_id=body.get("parentMessageId"),
            branch_message_ids=None if versions is None else list(versions),
            raw=body,
        )


@dataclass(frozen=True)
class MessagePage:
    """One page of a session's settled messages of the branch shown, newest first; ``next_before`` (or None) asks
    for older ones.

    ``items`` are the messages as the server sent them (dicts, camelCase), ``messages`` the same
    ones read as :class:`Message` s. ``tool_calls`` and ``interrupts`` are every tool call and
    interrupt of the page's runs (results, widgets and decisions as last shown), oldest run first,
    each with its ``runId`` and ``seq``: within a run, ``seq`` orders them among the messages
    (docs/protocol.md §7.4).
    """

    items: list[dict[str, Any]]
    next_before: str | None
    active_run: dict[str, Any] | None
    tool_calls: list[dict[str, Any]]
    messages: list[Message]
    interrupts: list[dict[str, Any]] = field(default_factory=list)

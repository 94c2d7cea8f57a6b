"""The one exception type of the client: a problem (docs/protocol.md §14) or a failure without one."""

from __future__ import annotations

import email.utils
import json
import time
from typing import Any, Mapping

#: Codes the client names itself when no problem body named one (they never appear on the wire).
NETWORK_ERROR = "NETWORK_ERROR"
TIMEOUT = "TIMEOUT"
HTTP_ERROR = "HTTP_ERROR"
INVALID_RESPONSE = "INVALID_RESPONSE"
STREAM_STALLED = "STREAM_STALLED"

#: Codes for the statuses a caller acts on without a body (sign-in, access, slow down).
_STATUS_CODES = {401: "UNAUTHENTICATED", 403: "FORBIDDEN", 429: "RATE_LIMITED"}


class AgentChatError(Exception):
    """Every failure of the client, with a stable ``code``.

    ``status`` is the HTTP status (None when no response arrived); ``retryable`` says whether the
    same request may be sent again (same key, same body); ``retry_after`` is the least wait in
    seconds the server asked for (``Retry-After`` or the problem's ``retryAfterMs``), or None;
    ``request_id`` is the server's correlation id; ``run_id`` names the run the error is about;
    ``details`` holds every member of the problem body with its own ``details`` spread over them
    (so ``details["activeRunId"]`` is found either way); ``idempotency_key`` is the key of the
    ``send`` that failed, to send again with once the caller decides to.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        request_id: str | None = None,
        run_id: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}" if status is None else f"{status} {code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.request_id = request_id
        self.run_id = run_id
        self.details: dict[str, Any] = dict(details or {})
        self.idempotency_key: str | None = None


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Reads ``Retry-After`` (delta-seconds or an HTTP-date) as seconds from ``now``; None when absent or malformed."""
    text = (value or "").strip()
    if text == "":
        return None
    if text.isdigit():
        return float(int(text))
    try:
        date = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if date is None or date.tzinfo is None:
        return None
    return max(0.0, date.timestamp() - (time.time() if now is None else now))


def error_from_response(
    status: int, headers: Mapping[str, str], body: bytes, *, truncated: bool = False
) -> AgentChatError:
    """Builds the error of a non-2xx answer from its problem body (any JSON object), or from the status alone.

    ``truncated`` says ``body`` is only the start of a longer body (the client reads at most
    ``max_error_body_bytes``): it is not parsed, and the message says so.

    A 429 is retryable only when the body says ``retryable: true`` or it carries ``Retry-After``
    (so ``429 INPUT_LIMIT`` is definitive); other statuses follow the body's ``retryable``, else
    5xx and ``409 IDEMPOTENCY_KEY_IN_USE`` are retryable.
    """
    header_wait = parse_retry_after(headers.get("retry-after"))
    is_json = "json" in headers.get("content-type", "").lower()
    problem = (_parse_json_object(body) if is_json and not truncated else None) or {}
    code = _string(problem.get("code")) or _STATUS_CODES.get(status) or HTTP_ERROR
    body_wait = problem.get("retryAfterMs")
    waits = [w for w in (header_wait, body_wait / 1000 if _is_number(body_wait) else None) if w is not None]
    if status == 429:
        retryable = problem.get("retryable") is True or header_wait is not None
    elif isinstance(problem.get("retryable"), bool):
        retryable = problem["retryable"]
    else:
        retryable = is_retryable_status(status, code)
    inner = problem.get("details")
    return AgentChatError(
        code,
        _string(problem.get("detail"))
        or _string(problem.get("message"))
        or _string(problem.get("title"))
        or (f"HTTP {status}, its error body cut at {len(body)} bytes." if truncated else f"HTTP {status}"),
        status=status,
        retryable=retryable,
        retry_after=max(waits) if waits else None,
        request_id=headers.get("x-request-id") or _string(problem.get("requestId")),
        run_id=_string(problem.get("runId")),
        details={**problem, **inner} if isinstance(inner, dict) else problem,
    )


def is_retryable_status(status: int, code: str) -> bool:
    """5xx and ``409 IDEMPOTENCY_KEY_IN_USE`` may be retried with the same key and body (docs/protocol.md §10.2)."""
    return status >= 500 or (status == 409 and code == "IDEMPOTENCY_KEY_IN_USE")


def transport_failure(cause: BaseException, *, is_timeout: bool) -> AgentChatError:
    """The error of a request that got no answer (or none in time): retryable."""
    code, message = (TIMEOUT, "The server did not answer in time.") if is_timeout else (
        NETWORK_ERROR,
        "The server could not be reached.",
    )
    error = AgentChatError(code, message, retryable=True)
    error.__cause__ = cause
    return error


def invalid_response(status: int, request_id: str | None) -> AgentChatError:
    """The error of a 2xx answer whose body is not what the protocol promises."""
    message = "The server sent an unreadable answer."
    return AgentChatError(INVALID_RESPONSE, message, status=status, request_id=request_id)


def _parse_json_object(body: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)

"""Problems become AgentChatError: code, status, retryable and retry_after read from the body and the headers."""

from __future__ import annotations

import json

from agent_chat_client.errors import error_from_response, parse_retry_after

PROBLEM = {"content-type": "application/problem+json"}


def problem(status: int, body: dict) -> bytes:
    return json.dumps({"status": status, **body}).encode()


def test_a_429_is_retryable_only_when_the_server_says_so() -> None:
    limited_body = problem(429, {"code": "RATE_LIMITED", "retryAfterMs": 1500})
    limited = error_from_response(429, {**PROBLEM, "retry-after": "2"}, limited_body)
    quota = error_from_response(429, PROBLEM, problem(429, {"code": "INPUT_LIMIT", "retryable": False}))

    assert (limited.code, limited.retryable, limited.retry_after) == ("RATE_LIMITED", True, 2.0)
    assert (quota.code, quota.retryable, quota.retry_after) == ("INPUT_LIMIT", False, None)


def test_5xx_and_a_key_in_use_are_retryable_a_validation_failure_is_not() -> None:
    assert error_from_response(502, {"content-type": "text/html"}, b"<h1>Bad gateway</h1>").retryable
    assert error_from_response(409, PROBLEM, problem(409, {"code": "IDEMPOTENCY_KEY_IN_USE"})).retryable
    body = problem(422, {"code": "VALIDATION_FAILED", "details": {"field": "title"}})
    refused = error_from_response(422, PROBLEM, body)
    assert not refused.retryable
    assert (refused.details["field"], refused.details["code"]) == ("title", "VALIDATION_FAILED")


def test_a_status_without_a_problem_body_gets_its_code() -> None:
    assert error_from_response(401, {}, b"").code == "UNAUTHENTICATED"
    assert error_from_response(418, {}, b"").code == "HTTP_ERROR"


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("Sun, 29 Nov 2026 13:40:05 GMT", now=1795959600.0) == 5.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None

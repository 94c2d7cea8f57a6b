"""Approvals: answered with the digest of the arguments shown, refused (412) with another."""

from __future__ import annotations

from typing import Iterator

import pytest

from agent_chat_client import AgentChatClient, AgentChatError, Event
from streams import assert_whole_log


def until_interrupt(events: Iterator[Event], seen: list[Event]) -> dict:
    """Reads events into ``seen`` until an approval is requested; returns its interrupt."""
    for event in events:
        seen.append(event)
        if event.type == "INTERRUPT_REQUESTED":
            return event.data["interrupt"]
    raise AssertionError("the run ended without asking for an approval")


def tool_result(events: list[Event], tool_call_id: str) -> dict:
    [result] = [e.data for e in events if e.type == "TOOL_CALL_RESULT" and e.data["toolCallId"] == tool_call_id]
    return result


def test_an_approval_with_a_wrong_digest_is_refused_and_with_the_right_one_runs_the_tool(
    client: AgentChatClient,
) -> None:
    run = client.send("/approval")
    events = client.events(run.run_id)
    seen: list[Event] = []
    interrupt = until_interrupt(events, seen)
    assert interrupt["reason"] == "tool_call" and interrupt["argsDigest"].startswith("sha256:")

    with pytest.raises(AgentChatError) as caught:
        client.answer_interrupt(run.run_id, interrupt["id"], "allow", "sha256:" + "A" * 43)
    assert (caught.value.status, caught.value.code, caught.value.retryable) == (412, "ARGS_DIGEST_MISMATCH", False)
    assert [i["id"] for i in client.snapshot(run.run_id).open_interrupts] == [interrupt["id"]]

    answer = client.answer_interrupt(run.run_id, interrupt["id"], "allow", interrupt["argsDigest"])
    seen.extend(events)

    assert answer.interrupt["state"] == "resolved" and answer.interrupt["decision"] == "allow"
    assert_whole_log(seen)
    assert any(e.type == "INTERRUPT_RESOLVED" and e.seq == answer.event_seq for e in seen)
    assert tool_result(seen, interrupt["toolCallId"])["status"] == "completed"
    assert seen[-1].type == "RUN_FINISHED"
    again = client.answer_interrupt(run.run_id, interrupt["id"], "allow", interrupt["argsDigest"])
    assert again.replayed and again.interrupt["decision"] == "allow"


def test_a_denied_approval_blocks_the_tool_and_the_other_answer_is_then_refused(client: AgentChatClient) -> None:
    run = client.send("/approval")
    events = client.events(run.run_id)
    seen: list[Event] = []
    interrupt = until_interrupt(events, seen)

    client.answer_interrupt(run.run_id, interrupt["id"], "deny", interrupt["argsDigest"], reason="not this one")
    seen.extend(events)

    assert tool_result(seen, interrupt["toolCallId"])["status"] == "denied"
    with pytest.raises(AgentChatError) as caught:
        client.answer_interrupt(run.run_id, interrupt["id"], "allow", interrupt["argsDigest"])
    assert (caught.value.status, caught.value.code) == (409, "INTERRUPT_ALREADY_RESOLVED")

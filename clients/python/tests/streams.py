"""Helpers that read what tests assert on out of a run's events and snapshot."""

from __future__ import annotations

from typing import Iterable

from agent_chat_client import Event, RunSnapshot


def assistant_text(events: Iterable[Event]) -> str:
    """The assistant's streamed text: every ``TEXT_MESSAGE_CONTENT`` delta of assistant messages, in order."""
    events = list(events)
    starts = [e.data for e in events if e.type == "TEXT_MESSAGE_START"]
    assistant = {start["messageId"] for start in starts if start["role"] == "assistant"}
    deltas = [e.data["delta"] for e in events if e.type == "TEXT_MESSAGE_CONTENT" and e.data["messageId"] in assistant]
    return "".join(deltas)


def snapshot_assistant_text(snapshot: RunSnapshot) -> str:
    return "".join(m["content"] for m in snapshot.messages if m["role"] == "assistant")


def assert_whole_log(events: list[Event]) -> None:
    """Every seq from 1 to the terminal event's exactly once, in order (no duplicate, no gap)."""
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[-1].is_terminal

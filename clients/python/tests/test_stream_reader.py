"""The resume rules on crafted streams (the real server never sends an overlap or a gap on purpose)."""

from __future__ import annotations

import json

import pytest

from agent_chat_client import AgentChatError
from agent_chat_client._protocol import ClientConfig, ReconnectPolicy, StreamPosition, StreamReader


def frame(seq: int, type_: str = "TEXT_MESSAGE_CONTENT", run_id: str = "run_1") -> bytes:
    envelope = {"v": 1, "runId": run_id, "sessionId": "ses_1", "seq": seq, "cursor": str(seq), "type": type_}
    envelope["data"] = {}
    return f"id: {seq}\ndata: {json.dumps(envelope)}\n\n".encode()


def test_an_overlap_after_a_reconnect_is_dropped() -> None:
    position = StreamPosition(None)
    StreamReader("run_1", position).feed(frame(1) + frame(2) + frame(3))

    again = StreamReader("run_1", position).feed(frame(2) + frame(3) + frame(4))

    assert [e.seq for e in again] == [4] and position.cursor == "4"


def test_a_gap_stops_the_connection_at_the_last_event_before_it() -> None:
    position = StreamPosition(None)
    reader = StreamReader("run_1", position)

    events = reader.feed(frame(1) + frame(2) + frame(4) + frame(5))

    assert [e.seq for e in events] == [1, 2]
    assert reader.is_over and not reader.is_terminal and position.cursor == "2"


def test_reading_stops_at_the_terminal_event_and_skips_another_runs_events() -> None:
    reader = StreamReader("run_1", StreamPosition(None))

    events = reader.feed(frame(1) + frame(1, run_id="run_2") + frame(2, "RUN_FINISHED") + frame(3))

    assert [(e.seq, e.run_id) for e in events] == [(1, "run_1"), (2, "run_1")]
    assert reader.is_terminal


def test_a_caller_cursor_takes_the_first_event_after_it_whatever_its_seq() -> None:
    position = StreamPosition("41")

    assert [e.seq for e in StreamReader("run_1", position).feed(frame(42) + frame(43))] == [42, 43]


def test_a_stream_without_progress_past_the_stall_timeout_gives_up() -> None:
    now = [0.0]
    policy = ReconnectPolicy(ClientConfig("http://x", stall_timeout=60.0, random=lambda: 0.5), "run_1", lambda: now[0])

    assert policy.delay_after(None) == 0.0, "a first clean close reconnects at once"
    assert policy.delay_after(None) == 0.25, "a second one backs off"
    now[0] = 60.0
    assert not policy.is_stalled()
    now[0] = 61.0
    assert policy.is_stalled(), "what ends a connection that sends only heartbeats"
    with pytest.raises(AgentChatError) as caught:
        policy.delay_after(None)
    assert (caught.value.code, caught.value.run_id) == ("STREAM_STALLED", "run_1")


def test_a_line_past_the_bound_hands_out_the_events_before_it_then_fails_the_stream() -> None:
    position = StreamPosition(None)
    reader = StreamReader("run_1", position, max_line_bytes=len(frame(1)))

    events = reader.feed(frame(1) + b"data: " + b"x" * len(frame(1)))

    assert [e.seq for e in events] == [1] and position.cursor == "1"
    assert reader.is_over and not reader.is_terminal
    assert reader.failure is not None and (reader.failure.code, reader.failure.run_id) == ("INVALID_RESPONSE", "run_1")
    assert reader.feed(frame(2)) == [], "nothing is read past it"


def test_a_new_event_restarts_the_stall_timeout() -> None:
    now = [0.0]
    policy = ReconnectPolicy(ClientConfig("http://x", stall_timeout=60.0), "run_1", lambda: now[0])

    now[0] = 59.0
    policy.progressed()
    now[0] = 118.0

    assert not policy.is_stalled() and policy.delay_after(None) == 0.0

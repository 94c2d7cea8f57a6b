"""Resume: a stream cut mid-body goes on from its cursor with no duplicate and no gap; cursors given by the caller."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from agent_chat_client import AgentChatClient, AgentChatError, Event
from conftest import new_user_cookie
from fault_proxy import FaultProxy
from reference_server import ReferenceServer
from streams import assert_whole_log, assistant_text, snapshot_assistant_text

#: About 1,500 deltas of 4 characters at 1 ms each: the run is still streaming when the test cuts it.
LONG_TEXT = " ".join(f"word{n:04d}" for n in range(600))
#: The stream is cut as soon as this many events have been handed out.
CUT_AT = 3


def test_a_stream_cut_mid_body_resumes_from_its_cursor_without_duplicate_or_gap(
    server: ReferenceServer, proxy: FaultProxy
) -> None:
    with AgentChatClient(proxy.url("/api/agent"), cookie=new_user_cookie()) as client:
        run = client.send(f"/echo {LONG_TEXT}")
        events: list[Event] = []
        for event in client.events(run.run_id):
            events.append(event)
            if len(events) == CUT_AT:
                assert proxy.cut() >= 1, "the event stream's connection was open"

        streams = proxy.requests_to("GET", f"/api/agent/v1/runs/{run.run_id}/events")
        snapshot = client.snapshot(run.run_id)

    assert_whole_log(events)
    assert assistant_text(events) == LONG_TEXT == snapshot_assistant_text(snapshot)
    assert len(streams) == 2, "the cut made the client reconnect, once"
    first, resumed = (parse_qs(urlsplit(s.target).query)["after"][0] for s in streams)
    assert first == "0"
    # It resumed after the last event it had handed out (those the cut connection still delivered
    # included), and the rest of the run came over the new connection.
    assert CUT_AT <= int(resumed) < events[-1].seq
    assert streams[1].headers["last-event-id"] == resumed


def test_events_after_a_cursor_start_at_the_next_event(client: AgentChatClient) -> None:
    run = client.send("/echo resume me from the middle")
    whole = list(client.events(run.run_id))
    middle = whole[len(whole) // 2]

    rest = list(client.events(run.run_id, after=middle.cursor))

    assert [e.seq for e in rest] == [e.seq for e in whole if e.seq > middle.seq]
    assert [e.event_id for e in rest] == [e.event_id for e in whole[middle.seq :]]


def test_events_after_the_terminal_cursor_end_at_once(client: AgentChatClient) -> None:
    run = client.send("/echo done")
    whole = list(client.events(run.run_id))

    assert list(client.events(run.run_id, after=whole[-1].cursor)) == []


def test_a_cursor_past_the_log_is_refused_not_skipped(client: AgentChatClient) -> None:
    run = client.send("/echo short")
    list(client.events(run.run_id))

    with pytest.raises(AgentChatError) as caught:
        list(client.events(run.run_id, after="9999"))

    assert (caught.value.status, caught.value.code) == (410, "CURSOR_EXPIRED")


def test_another_users_run_is_not_found(server: ReferenceServer, client: AgentChatClient) -> None:
    run = client.send("/echo mine")
    with AgentChatClient(server.endpoint, cookie=new_user_cookie()) as stranger:
        with pytest.raises(AgentChatError) as caught:
            list(stranger.events(run.run_id))

    assert (caught.value.status, caught.value.code, caught.value.retryable) == (404, "NOT_FOUND", False)

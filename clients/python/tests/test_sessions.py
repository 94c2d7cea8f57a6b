"""Sessions: listed latest first and paged, renamed, deleted; a session with a running run is kept."""

from __future__ import annotations

import pytest

from agent_chat_client import AgentChatClient, AgentChatError


def test_sessions_are_listed_latest_first_renamed_and_deleted(client: AgentChatClient) -> None:
    older = client.send("/echo first conversation")
    list(client.events(older.run_id))
    newer = client.send("/echo second conversation")
    list(client.events(newer.run_id))

    listed = client.list_sessions()
    assert [s.session_id for s in listed.items] == [newer.session_id, older.session_id]
    assert listed.next_after is None
    assert listed.items[1].title == "/echo first conversation" and listed.items[1].message_count == 2

    first_page = client.list_sessions(limit=1)
    second_page = client.list_sessions(limit=1, after=first_page.next_after)
    assert [s.session_id for s in first_page.items + second_page.items] == [newer.session_id, older.session_id]
    assert second_page.next_after is None

    renamed = client.rename_session(older.session_id, "  Refund for order A-1001 ")
    assert renamed.title == "Refund for order A-1001"
    assert client.get_session(older.session_id).title == "Refund for order A-1001"

    client.delete_session(older.session_id)
    assert [s.session_id for s in client.list_sessions().items] == [newer.session_id]
    with pytest.raises(AgentChatError) as caught:
        client.get_session(older.session_id)
    assert (caught.value.status, caught.value.code) == (404, "NOT_FOUND")


def test_a_follow_up_goes_into_the_same_session_and_its_history(client: AgentChatClient) -> None:
    first = client.send("/echo one")
    list(client.events(first.run_id))
    second = client.send("/echo two", session_id=first.session_id)
    list(client.events(second.run_id))

    history = client.session_messages(first.session_id)
    assert second.session_id == first.session_id
    assert [m["content"] for m in history.items] == ["two", "/echo two", "one", "/echo one"]


def test_a_session_with_a_running_run_is_not_deleted(client: AgentChatClient) -> None:
    run = client.send("/approval")  # active until its approval is answered
    try:
        with pytest.raises(AgentChatError) as caught:
            client.delete_session(run.session_id)
        assert (caught.value.status, caught.value.code) == (409, "RUN_ALREADY_ACTIVE")
        assert caught.value.details["activeRunId"] == run.run_id
        assert client.get_session(run.session_id).active_run["runId"] == run.run_id
    finally:
        client.cancel(run.run_id)


def test_a_title_that_is_only_spaces_is_refused_with_its_field(client: AgentChatClient) -> None:
    run = client.send("/echo x")
    with pytest.raises(AgentChatError) as caught:
        client.rename_session(run.session_id, "   ")

    refused = caught.value
    assert (refused.status, refused.code, refused.details["field"]) == (422, "VALIDATION_FAILED", "title")


def test_a_history_page_carries_the_tool_calls_its_messages_made(client: AgentChatClient) -> None:
    run = client.send("/tool")
    list(client.events(run.run_id))

    history = client.session_messages(run.session_id)
    message_ids = {m["messageId"] for m in history.items}
    assert [(c["name"], c["status"], c["runId"]) for c in history.tool_calls] == [
        ("orders.lookup", "completed", run.run_id)
    ]
    assert history.tool_calls[0]["parentMessageId"] in message_ids

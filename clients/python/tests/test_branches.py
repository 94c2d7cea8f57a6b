"""Branches (docs/protocol.md §5.2, §5.7): regenerate after a chosen message, start over, show another version."""

from __future__ import annotations

import pytest

from agent_chat_client import AgentChatClient, AgentChatError, Message, MessagePage, Run


def finished(client: AgentChatClient, run: Run) -> Run:
    """The run, once its events have been read to its end (its messages are then settled history)."""
    list(client.events(run.run_id))
    return run


def contents(page: MessagePage) -> list[str]:
    """The page's texts, oldest first (a page is newest first)."""
    return [m.content for m in reversed(page.messages)]


def message(page: MessagePage, content: str) -> Message:
    return next(m for m in page.messages if m.content == content)


def test_a_turn_regenerated_twice_has_three_versions_and_version_one_keeps_its_later_turn(
    client: AgentChatClient,
) -> None:
    first = finished(client, client.send("/echo one"))
    session_id = first.session_id
    second = finished(client, client.send("/echo two", session_id=session_id))
    third = finished(client, client.send("/echo three", session_id=session_id))
    answer_one = message(client.session_messages(session_id), "one")

    # Regenerate the second turn twice: the same text after the first answer.
    again = finished(client, client.send("/echo two", session_id=session_id, parent_message_id=answer_one.message_id))
    twice = finished(client, client.send("/echo two", session_id=session_id, parent_message_id=answer_one.message_id))

    shown = client.session_messages(session_id)
    assert contents(shown) == ["/echo one", "one", "/echo two", "two"]
    regenerated = message(shown, "/echo two")
    assert (regenerated.message_id, regenerated.run_id) == (twice.user_message_id, twice.run_id)
    assert regenerated.parent_message_id == answer_one.message_id
    assert regenerated.branch_message_ids == [second.user_message_id, again.user_message_id, twice.user_message_id]
    assert shown.items[1]["branchMessageIds"] == regenerated.branch_message_ids  # the raw item, newest first
    first_question = message(shown, "/echo one")
    assert (first_question.parent_message_id, first_question.branch_message_ids) == (None, None)
    assert message(shown, "two").branch_message_ids is None

    # Back to version 1: its branch comes down to the turn made last below it.
    session = client.show_branch(session_id, second.user_message_id)
    assert (session.session_id, session.message_count) == (session_id, 6)
    back = client.session_messages(session_id)
    assert contents(back) == ["/echo one", "one", "/echo two", "two", "/echo three", "three"]
    assert message(back, "/echo two").message_id == second.user_message_id
    assert message(back, "/echo three").message_id == third.user_message_id
    assert message(back, "/echo two").branch_message_ids == regenerated.branch_message_ids

    # A send without parent_message_id continues the branch shown.
    finished(client, client.send("/echo four", session_id=session_id))
    assert contents(client.session_messages(session_id))[-4:] == ["/echo three", "three", "/echo four", "four"]


def test_none_starts_the_conversation_over_as_a_new_version_of_the_first_turn(client: AgentChatClient) -> None:
    first = finished(client, client.send("/echo one"))
    session_id = first.session_id
    finished(client, client.send("/echo two", session_id=session_id))

    fresh = finished(client, client.send("/echo uno", session_id=session_id, parent_message_id=None))

    shown = client.session_messages(session_id)
    assert contents(shown) == ["/echo uno", "uno"]
    start = message(shown, "/echo uno")
    assert start.parent_message_id is None
    assert start.branch_message_ids == [first.user_message_id, fresh.user_message_id]
    assert client.get_session(session_id).message_count == 2
    assert client.show_branch(session_id, first.user_message_id).message_count == 4


def test_a_parent_that_ends_no_turn_is_refused_with_its_field_and_reason(client: AgentChatClient) -> None:
    first = finished(client, client.send("/echo one"))

    with pytest.raises(AgentChatError) as caught:
        client.send("/echo x", session_id=first.session_id, parent_message_id=first.user_message_id)

    refused = caught.value
    assert (refused.status, refused.code, refused.retryable) == (422, "VALIDATION_FAILED", False)
    assert (refused.details["field"], refused.details["reason"]) == ("parentMessageId", "not_a_turn_end")
    assert contents(client.session_messages(first.session_id)) == ["/echo one", "one"]


def test_show_branch_refuses_a_message_that_starts_no_turn_and_a_move_during_a_run(client: AgentChatClient) -> None:
    first = finished(client, client.send("/echo one"))
    session_id = first.session_id
    answer = message(client.session_messages(session_id), "one")

    with pytest.raises(AgentChatError) as caught:
        client.show_branch(session_id, answer.message_id)
    refused = caught.value
    assert (refused.status, refused.code) == (422, "VALIDATION_FAILED")
    assert (refused.details["field"], refused.details["reason"]) == ("messageId", "not_a_turn")

    run = client.send("/approval", session_id=session_id)  # active until its approval is answered
    try:
        with pytest.raises(AgentChatError) as caught:
            client.show_branch(session_id, first.user_message_id)
        assert (caught.value.status, caught.value.code) == (409, "RUN_ALREADY_ACTIVE")
        assert caught.value.details["activeRunId"] == run.run_id
    finally:
        client.cancel(run.run_id)

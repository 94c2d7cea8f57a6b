"""Runs: a run followed to its end, a create whose answer is lost and retried, a cancel."""

from __future__ import annotations

from agent_chat_client import AgentChatClient, AgentChatError
from conftest import new_user_cookie
from fault_proxy import FaultProxy
from reference_server import ReferenceServer
from streams import assert_whole_log, assistant_text, snapshot_assistant_text


def test_a_run_streams_to_its_end_and_matches_its_snapshot(client: AgentChatClient) -> None:
    run = client.send("/echo Hello from a Python backend, streamed in small deltas.")

    events = list(client.events(run.run_id))

    assert_whole_log(events)
    assert events[0].type == "RUN_STARTED"
    assert events[-1].type == "RUN_FINISHED" and events[-1].data["outcome"]["type"] == "success"
    assert assistant_text(events) == "Hello from a Python backend, streamed in small deltas."
    snapshot = client.snapshot(run.run_id)
    assert snapshot.status == "completed" and snapshot.is_terminal
    assert snapshot.last_seq == events[-1].seq and snapshot.resume_cursor == events[-1].cursor
    assert snapshot_assistant_text(snapshot) == assistant_text(events)


def test_the_client_bootstraps_and_sends_the_identity_on_every_later_request(
    server: ReferenceServer, proxy: FaultProxy
) -> None:
    with AgentChatClient(proxy.url("/api/agent"), cookie=new_user_cookie()) as client:
        run = client.send("/echo hi")
        list(client.events(run.run_id))
        identity = client.identity_id

    assert identity is not None and identity.startswith("idn_")
    first, *later = proxy.requests
    assert (first.method, first.target) == ("GET", "/api/agent/v1/bootstrap")
    assert [r.headers.get("x-agent-identity") for r in later] == [identity] * len(later)
    assert all(r.headers["agent-protocol"] == "1" for r in proxy.requests)


def test_a_send_whose_answer_was_lost_is_retried_under_its_key_and_makes_one_run(
    server: ReferenceServer, proxy: FaultProxy
) -> None:
    with AgentChatClient(proxy.url("/api/agent"), cookie=new_user_cookie()) as client:
        client.bootstrap()
        proxy.drop_next_response()

        run = client.send("/echo once")

        creates = proxy.requests_to("POST", "/api/agent/v1/runs")
        assert len(creates) == 2, "the first create's answer was dropped, so the client sent it again"
        keys = [create.headers["idempotency-key"] for create in creates]
        assert keys == [f'"{run.idempotency_key}"'] * 2
        assert run.replayed, "the server answered the retry from the first attempt's record"
        sessions = client.list_sessions().items
        assert [s.session_id for s in sessions] == [run.session_id]
        assert sessions[0].last_run_id == run.run_id


def test_the_same_idempotency_key_again_gets_the_same_run(client: AgentChatClient) -> None:
    first = client.send("/echo same", idempotency_key="py-test-key-0123456789")
    again = client.send("/echo same", idempotency_key="py-test-key-0123456789")

    assert (again.run_id, again.replayed, first.replayed) == (first.run_id, True, False)


def test_the_same_key_with_another_text_is_refused_and_not_retried(client: AgentChatClient) -> None:
    client.send("/echo one", idempotency_key="py-test-key-reused-000001")
    try:
        client.send("/echo two", idempotency_key="py-test-key-reused-000001")
    except AgentChatError as error:
        assert (error.status, error.code, error.retryable) == (422, "IDEMPOTENCY_KEY_REUSED", False)
        assert error.idempotency_key == "py-test-key-reused-000001"
    else:
        raise AssertionError("a reused key with another body must be refused")


def test_cancel_ends_a_run_that_waits_for_an_approval(client: AgentChatClient) -> None:
    run = client.send("/approval")  # active, deterministically, until its approval is answered
    events = client.events(run.run_id)
    for event in events:
        if event.type == "INTERRUPT_REQUESTED":
            break

    cancelling = client.cancel(run.run_id, reason="the ticket was closed")
    rest = list(events)

    assert cancelling.status == "cancelling" and cancelling.event_seq is not None
    assert any(e.type == "INTERRUPT_RESOLVED" and e.data["status"] == "cancelled" for e in rest)
    assert rest[-1].type == "RUN_FINISHED" and rest[-1].data["outcome"]["type"] == "cancelled"
    assert client.cancel(run.run_id).status == "cancelled", "a cancel of an ended run answers its status"

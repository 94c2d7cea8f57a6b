"""429 with Retry-After: a flood of sends meets the run rate; a send past the active-run cap waits it out, one key."""

from __future__ import annotations

import threading
import time

from agent_chat_client import AgentChatClient, AgentChatError
from conftest import new_user_cookie
from fault_proxy import FaultProxy
from reference_server import ReferenceServer

#: More sends than the tight server's burst of 60 runs (its refill of one a second lets a few more through).
FLOOD = 200
CREATES = "/api/agent/v1/runs"


def test_a_flood_of_sends_gets_429_with_retry_after(tight_server: ReferenceServer) -> None:
    with AgentChatClient(tight_server.endpoint, cookie=new_user_cookie(), max_attempts=1) as client:
        refused = None
        for _ in range(FLOOD):
            try:
                run = client.send("/echo flood")
            except AgentChatError as error:
                refused = error
                break
            list(client.events(run.run_id))  # ended, so only the rate counts, not the active-run cap

    assert refused is not None, f"{FLOOD} sends in a row were all accepted"
    assert (refused.status, refused.code, refused.retryable) == (429, "RATE_LIMITED", True)
    assert refused.details["limit"] == "runsPerMinute"
    assert refused.retry_after is not None and 0 < refused.retry_after <= 60
    assert refused.idempotency_key is not None, "the caller may send again under the same key"


def test_a_send_past_the_active_run_cap_waits_out_retry_after_and_makes_one_run(
    tight_server: ReferenceServer,
) -> None:
    proxy = FaultProxy(tight_server.port)
    endpoint = proxy.url("/api/agent")
    cookie = new_user_cookie()
    try:
        with AgentChatClient(endpoint, cookie=cookie) as client:
            waiting = client.send("/approval")  # the user's one active run until its approval is answered
            interrupt = first_interrupt(client, waiting.run_id)

            with AgentChatClient(endpoint, cookie=cookie, max_attempts=1) as hasty:
                try:
                    hasty.send("/echo too soon")
                except AgentChatError as error:
                    refused = error
                else:
                    raise AssertionError("a second active run must be refused")
            assert (refused.status, refused.code, refused.retryable) == (429, "RATE_LIMITED", True)
            assert refused.details["limit"] == "maxActiveRuns" and refused.retry_after == 5

            # The waiting run ends once the server has answered the patient send below a first time.
            def end_the_waiting_run_after_one_more_create() -> None:
                while len(proxy.requests_to("POST", CREATES)) < 3:
                    time.sleep(0.01)
                proxy.requests_to("POST", CREATES)[2].answered.wait(30)
                client.answer_interrupt(waiting.run_id, interrupt["id"], "deny", interrupt["argsDigest"])

            helper = threading.Thread(target=end_the_waiting_run_after_one_more_create)
            helper.start()
            try:
                with AgentChatClient(endpoint, cookie=cookie, max_attempts=3) as patient:
                    run = patient.send("/echo after the wait")
            finally:
                helper.join()
        attempts = proxy.requests_to("POST", CREATES)[2:]
    finally:
        proxy.close()

    assert len(attempts) == 2, "refused once, then accepted after Retry-After"
    assert {a.headers["idempotency-key"] for a in attempts} == {f'"{run.idempotency_key}"'}
    assert not run.replayed, "a refused attempt stores nothing under its key: the second one made the run"


def first_interrupt(client: AgentChatClient, run_id: str) -> dict:
    events = client.events(run_id)
    try:
        for event in events:
            if event.type == "INTERRUPT_REQUESTED":
                return event.data["interrupt"]
    finally:
        events.close()
    raise AssertionError("the run ended without asking for an approval")

"""Authentication as a backend has it: the user's cookie or its own headers passed in; the identity binding handled."""

from __future__ import annotations

import pytest

from agent_chat_client import AgentChatClient, AgentChatError
from conftest import new_user_cookie
from fault_proxy import FaultProxy
from reference_server import ReferenceServer


def test_without_the_products_cookie_the_server_answers_401(server: ReferenceServer) -> None:
    with AgentChatClient(server.endpoint) as client:
        with pytest.raises(AgentChatError) as caught:
            client.send("/echo hi")

    assert (caught.value.status, caught.value.code, caught.value.retryable) == (401, "UNAUTHENTICATED", False)


def test_the_products_own_headers_go_with_every_request(server: ReferenceServer, proxy: FaultProxy) -> None:
    cookie = new_user_cookie()
    with AgentChatClient(
        proxy.url("/api/agent"), bearer_token="tok_123", headers=lambda: {"Cookie": cookie, "X-Request-Id": "req_py1"}
    ) as client:
        run = client.send("/echo hi")
        list(client.events(run.run_id))

    assert len(proxy.requests) >= 3
    for request in proxy.requests:
        assert (request.headers["cookie"], request.headers["authorization"]) == (cookie, "Bearer tok_123")
        assert request.headers["x-request-id"] == "req_py1"


def test_another_user_behind_the_same_client_gets_identity_changed_then_a_fresh_binding(
    server: ReferenceServer,
) -> None:
    signed_in = {"cookie": new_user_cookie()}
    with AgentChatClient(server.endpoint, headers=lambda: {"cookie": signed_in["cookie"]}) as client:
        first = client.send("/echo as the first user")
        first_identity = client.identity_id
        signed_in["cookie"] = new_user_cookie()  # the product session now names someone else

        with pytest.raises(AgentChatError) as caught:
            client.snapshot(first.run_id)
        assert (caught.value.status, caught.value.code) == (409, "IDENTITY_CHANGED")
        assert client.identity_id is None

        second = client.send("/echo as the second user")
        assert client.identity_id not in (None, first_identity)
        assert [s.session_id for s in client.list_sessions().items] == [second.session_id]

"""Fixtures: the real reference server (one with roomy limits, one with a tight run rate), fresh users, clients."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.dont_write_bytecode = True

from agent_chat_client import AgentChatClient  # noqa: E402

from fault_proxy import FaultProxy  # noqa: E402
from reference_server import ReferenceServer, start_reference_server  # noqa: E402

#: Room for every test's runs and reads (the shipped 30 runs a minute would throttle the suite).
ROOMY_LIMITS = {"runsPerMinute": 1000, "maxActiveRuns": 20, "readsPerMinute": 10000}
#: 60 runs a minute (a flood meets 429 after a burst of 60) and one active run at a time.
TIGHT_LIMITS = {"runsPerMinute": 60, "maxActiveRuns": 1, "readsPerMinute": 10000}


@pytest.fixture(scope="session")
def server() -> Iterator[ReferenceServer]:
    started = start_reference_server(ROOMY_LIMITS)
    yield started
    started.stop()


@pytest.fixture(scope="session")
def tight_server() -> Iterator[ReferenceServer]:
    started = start_reference_server(TIGHT_LIMITS)
    yield started
    started.stop()


def new_user_cookie() -> str:
    """The demo login cookie of a user nobody else has (the demo server takes any ``demo_…`` name as a user)."""
    return f"agent_chat_demo=demo_{secrets.token_urlsafe(12)}"


@pytest.fixture
def cookie() -> str:
    return new_user_cookie()


@pytest.fixture
def client(server: ReferenceServer, cookie: str) -> Iterator[AgentChatClient]:
    with AgentChatClient(server.endpoint, cookie=cookie) as made:
        yield made


@pytest.fixture
def proxy(server: ReferenceServer) -> Iterator[FaultProxy]:
    made = FaultProxy(server.port)
    yield made
    made.close()

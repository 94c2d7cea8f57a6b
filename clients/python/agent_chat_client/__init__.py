"""A Python client of the agent-chat protocol (docs/protocol.md): runs, their events, approvals, sessions.

``AgentChatClient`` is synchronous, ``AsyncAgentChatClient`` the same for asyncio; both raise
``AgentChatError`` for every failure. httpx is the only dependency.
"""

from ._contract import ContextRef, FocusContext
from .async_client import AsyncAgentChatClient
from .client import AgentChatClient
from .errors import AgentChatError
from .models import (
    Bootstrap,
    CancelResult,
    Event,
    InterruptAnswer,
    Message,
    MessagePage,
    Run,
    RunSnapshot,
    Session,
    SessionPage,
)

__version__ = "0.1.0"
"""The client's version; pyproject.toml names the same one."""

__all__ = [
    "AgentChatClient",
    "AgentChatError",
    "AsyncAgentChatClient",
    "Bootstrap",
    "CancelResult",
    "ContextRef",
    "Event",
    "FocusContext",
    "InterruptAnswer",
    "Message",
    "MessagePage",
    "Run",
    "RunSnapshot",
    "Session",
    "SessionPage",
]

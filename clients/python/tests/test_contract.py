"""The models read the wire shapes the contract promises (``_contract.py``, generated from its schema)."""

from __future__ import annotations

from typing import Any

from agent_chat_client import _contract
from agent_chat_client.models import Run, Session


def minimal_body(shape: Any) -> dict[str, Any]:
    """A body with exactly the members ``shape`` requires, each a placeholder value."""
    return {key: 0 if key in ("lastSeq", "messageCount") else f"<{key}>" for key in shape.__required_keys__}


def test_models_need_no_member_the_contract_leaves_optional() -> None:
    run = Run.from_json(minimal_body(_contract.CreateRunResponse), idempotency_key="k", replayed=False)
    assert (run.run_id, run.session_id, run.resume_cursor) == ("<runId>", "<sessionId>", "<resumeCursor>")
    session = Session.from_json(minimal_body(_contract.SessionResource))
    assert (session.session_id, session.agent_version_id) == ("<sessionId>", "<agentVersionId>")


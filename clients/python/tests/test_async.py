"""The async client: the same runs, resume and approvals over httpx.AsyncClient (driven by asyncio.run)."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from urllib.parse import parse_qs, urlsplit

import pytest

from agent_chat_client import AgentChatError, AsyncAgentChatClient, Event, Run
from conftest import new_user_cookie
from fault_proxy import FaultProxy
from reference_server import ReferenceServer
from streams import assert_whole_log, assistant_text, snapshot_assistant_text
from test_resume import CUT_AT, LONG_TEXT


def test_an_async_run_streams_to_its_end(server: ReferenceServer) -> None:
    async def scenario() -> tuple[list[Event], str]:
        async with AsyncAgentChatClient(server.endpoint, cookie=new_user_cookie()) as client:
            run = await client.send("/echo Hello from asyncio.")
            events = [event async for event in client.events(run.run_id)]
            snapshot = await client.snapshot(run.run_id)
            return events, snapshot_assistant_text(snapshot)

    events, snapshot_text = asyncio.run(scenario())

    assert_whole_log(events)
    assert assistant_text(events) == "Hello from asyncio." == snapshot_text


def test_an_async_stream_cut_mid_body_resumes_without_duplicate_or_gap(
    server: ReferenceServer, proxy: FaultProxy
) -> None:
    async def scenario() -> tuple[list[Event], str]:
        async with AsyncAgentChatClient(proxy.url("/api/agent"), cookie=new_user_cookie()) as client:
            run = await client.send(f"/echo {LONG_TEXT}")
            events: list[Event] = []
            async for event in client.events(run.run_id):
                events.append(event)
                if len(events) == CUT_AT:
                    assert proxy.cut() >= 1
            return events, run.run_id

    events, run_id = asyncio.run(scenario())

    assert_whole_log(events)
    assert assistant_text(events) == LONG_TEXT
    streams = proxy.requests_to("GET", f"/api/agent/v1/runs/{run_id}/events")
    assert len(streams) == 2
    assert CUT_AT <= int(parse_qs(urlsplit(streams[1].target).query)["after"][0]) < events[-1].seq


def test_an_async_approval_is_refused_with_a_wrong_digest_and_runs_with_the_right_one(
    server: ReferenceServer,
) -> None:
    async def scenario() -> tuple[AgentChatError, list[Event]]:
        async with AsyncAgentChatClient(server.endpoint, cookie=new_user_cookie()) as client:
            run = await client.send("/approval")
            seen: list[Event] = []
            async with aclosing(client.events(run.run_id)) as events:
                async for event in events:
                    seen.append(event)
                    if event.type != "INTERRUPT_REQUESTED":
                        continue
                    interrupt = event.data["interrupt"]
                    with pytest.raises(AgentChatError) as caught:
                        await client.answer_interrupt(run.run_id, interrupt["id"], "allow", "sha256:wrong")
                    await client.answer_interrupt(run.run_id, interrupt["id"], "allow", interrupt["argsDigest"])
            return caught.value, seen

    refused, seen = asyncio.run(scenario())

    assert (refused.status, refused.code) == (412, "ARGS_DIGEST_MISMATCH")
    assert_whole_log(seen)
    results = [e.data["status"] for e in seen if e.type == "TOOL_CALL_RESULT"]
    assert results == ["completed", "completed"]
    assert seen[-1].type == "RUN_FINISHED"


def test_async_sessions_are_listed_renamed_and_deleted(server: ReferenceServer) -> None:
    async def scenario() -> tuple[str | None, list[str]]:
        async with AsyncAgentChatClient(server.endpoint, cookie=new_user_cookie()) as client:
            run = await client.send("/echo async session")
            async for _ in client.events(run.run_id):
                pass
            renamed = await client.rename_session(run.session_id, "Renamed from asyncio")
            await client.delete_session(run.session_id)
            return renamed.title, [s.session_id for s in (await client.list_sessions()).items]

    title, left = asyncio.run(scenario())

    assert (title, left) == ("Renamed from asyncio", [])



def test_async_start_over_regenerate_and_show_branch(server: ReferenceServer) -> None:
    async def finished(client: AsyncAgentChatClient, run: Run) -> Run:
        async for _ in client.events(run.run_id):
            pass
        return run

    async def scenario() -> None:
        async with AsyncAgentChatClient(server.endpoint, cookie=new_user_cookie()) as client:
            first = await finished(client, await client.send("/echo one"))
            session_id = first.session_id
            answer = (await client.session_messages(session_id)).messages[0]
            fresh = await finished(
                client, await client.send("/echo uno", session_id=session_id, parent_message_id=None)
            )
            start = (await client.session_messages(session_id)).messages[-1]
            assert (start.content, start.parent_message_id) == ("/echo uno", None)
            assert start.branch_message_ids == [first.user_message_id, fresh.user_message_id]

            shown = await client.show_branch(session_id, first.user_message_id)
            assert shown.message_count == 2
            await finished(
                client, await client.send("/echo two", session_id=session_id, parent_message_id=answer.message_id)
            )
            page = await client.session_messages(session_id)
            assert [m.content for m in page.messages] == ["two", "/echo two", "one", "/echo one"]
            assert page.messages[1].parent_message_id == answer.message_id

    asyncio.run(scenario())

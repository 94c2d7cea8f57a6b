"""The SSE parser on the recorded protocol stream the TypeScript parser is tested with, cut every way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_chat_client.sse import SseFrame, SseLimitError, SseParser

FIXTURES = Path(__file__).resolve().parents[3] / "src" / "core" / "sse" / "fixtures"


def parse(chunks: list[bytes]) -> list[SseFrame]:
    parser = SseParser()
    return [frame for chunk in chunks for frame in parser.feed(chunk)]


def test_the_recorded_run_parses_the_same_whole_byte_by_byte_and_in_odd_chunks() -> None:
    body = (FIXTURES / "protocol-run.sse").read_bytes()
    whole = parse([body])

    assert [frame.id for frame in whole] == ["1", "2", "3", "4", "5"]
    assert json.loads(whole[2].data)["data"]["delta"] == "Grüße — 中文 🚀"
    assert parse([body[i : i + 1] for i in range(len(body))]) == whole
    for size in (2, 3, 7, 64):
        assert parse([body[i : i + size] for i in range(0, len(body), size)]) == whole


def test_line_ends_of_every_kind_and_a_cr_lf_split_across_chunks() -> None:
    assert parse([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]) == [SseFrame("message", "a\nb")]
    assert parse([b"id: 7\rdata: x\r\r"]) == [SseFrame("message", "x", "7")]


def test_comments_and_blocks_without_data_dispatch_nothing() -> None:
    assert parse([b"retry: 3000\n: open\n\n: hb 1\n\nid: 3\n\n"]) == []


def test_a_block_cut_before_its_blank_line_is_never_dispatched() -> None:
    assert parse([b'id: 1\ndata: {"seq":1}\n\nid: 2\ndata: {"seq":2}\n']) == [SseFrame("message", '{"seq":1}', "1")]


def test_a_line_longer_than_the_bound_raises_whole_or_fed_byte_by_byte() -> None:
    line = b"data: " + b"x" * 10
    assert parse_bounded([line + b"\n\n"], 16) == [SseFrame("message", "x" * 10)], "16 bytes: at the bound"
    for chunks in ([line + b"x\n\n"], [bytes([b]) for b in line + b"x"]):
        with pytest.raises(SseLimitError, match="line passed 16 bytes"):
            parse_bounded(chunks, 16)


def test_the_bound_counts_utf8_bytes_and_keeps_the_frames_before_the_long_line() -> None:
    parser = SseParser(max_line_bytes=16)
    assert parser.feed("data: üüüüü\n\n".encode()) == [SseFrame("message", "üüüüü")], "11 characters, 16 bytes"
    with pytest.raises(SseLimitError) as caught:
        parser.feed("data: a\n\ndata: üüüüüx\n".encode())  # 12 characters, 17 bytes
    assert caught.value.frames == [SseFrame("message", "a")]


def test_an_event_of_many_short_data_lines_is_bounded_too() -> None:
    assert parse_bounded([b"data: aaaa\n" * 3 + b"\n"], 14) == [SseFrame("message", "aaaa\naaaa\naaaa")]
    with pytest.raises(SseLimitError, match="data passed 14 bytes"):
        parse_bounded([b"data: aaaa\n" * 3 + b"data:\n"], 14)


def parse_bounded(chunks: list[bytes], max_line_bytes: int) -> list[SseFrame]:
    parser = SseParser(max_line_bytes)
    return [frame for chunk in chunks for frame in parser.feed(chunk)]

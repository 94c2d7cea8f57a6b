"""Server-Sent Events parsing as the WHATWG "event stream interpretation" describes it, incrementally.

Bytes in, frames out: chunk boundaries never change the result. At the end of a stream simply stop
feeding: an unterminated line and an undispatched block are never dispatched (a cut connection
never yields half an event).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass


@dataclass(frozen=True)
class SseFrame:
    """One dispatched block: ``event`` (``"message"`` when none), its ``data`` lines joined with ``\\n``, its ``id``."""

    event: str
    data: str
    id: str | None = None


class SseParser:
    """Feed it bytes with :meth:`feed`; it returns the frames each chunk completed, in order.

    Line ends are LF, CRLF or CR (a CR ending one chunk and an LF starting the next are one line
    end); a leading U+FEFF is stripped once; invalid UTF-8 becomes U+FFFD; comments (``:`` first)
    and unknown fields are skipped; an ``id`` containing NUL is ignored; one space after the colon
    is removed; a blank line dispatches the block unless it had no ``data`` field.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._is_at_start = True
        self._is_after_cr = False
        self._data: list[str] | None = None
        self._event = ""
        self._id: str | None = None
        self._frames: list[SseFrame] = []

    def feed(self, chunk: bytes) -> list[SseFrame]:
        """Parses one chunk of the body; returns the frames it completed."""
        self._feed_text(self._decoder.decode(chunk))
        frames, self._frames = self._frames, []
        return frames

    def _feed_text(self, text: str) -> None:
        if text == "":
            return
        if self._is_at_start:
            self._is_at_start = False
            if text[0] == "\ufeff":
                text = text[1:]
        if self._is_after_cr and text.startswith("\n"):
            text = text[1:]
        self._is_after_cr = False
        combined = self._buffer + text
        line_start = 0
        index = len(self._buffer)
        while index < len(combined):
            char = combined[index]
            if char in "\r\n":
                self._process_line(combined[line_start:index])
                if char == "\r":
                    if index + 1 == len(combined):
                        self._is_after_cr = True
                    elif combined[index + 1] == "\n":
                        index += 1
                line_start = index + 1
            index += 1
        self._buffer = combined[line_start:]

    def _process_line(self, line: str) -> None:
        if line == "":
            self._dispatch()
            return
        if line.startswith(":"):
            return
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            if self._data is None:
                self._data = []
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._id = value

    def _dispatch(self) -> None:
        if self._data is not None:
            self._frames.append(SseFrame(self._event or "message", "\n".join(self._data), self._id))
        self._data = None
        self._event = ""
        self._id = None

"""Server-Sent Events parsing as the WHATWG "event stream interpretation" describes it, incrementally.

Bytes in, frames out: chunk boundaries never change the result. At the end of a stream simply stop
feeding: an unterminated line and an undispatched block are never dispatched (a cut connection
never yields half an event). A line, or a block's data, longer than the parser's bound raises
:class:`SseLimitError` instead of growing without end.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

#: The longest line, and the longest data of one block, in UTF-8 bytes (16 times the 64 KiB of JSON a
#: protocol event is allowed, docs/protocol.md §16).
DEFAULT_MAX_LINE_BYTES = 1024 * 1024


@dataclass(frozen=True)
class SseFrame:
    """One dispatched block: ``event`` (``"message"`` when none), its ``data`` lines joined with ``\\n``, its ``id``."""

    event: str
    data: str
    id: str | None = None


class SseLimitError(ValueError):
    """A line or a block's data passed the parser's bound; ``frames`` are those completed before it, in order.

    The parser is unusable afterwards (the rest of the stream cannot be read in step).
    """

    def __init__(self, message: str, frames: list[SseFrame]) -> None:
        super().__init__(message)
        self.frames = frames


class SseParser:
    """Feed it bytes with :meth:`feed`; it returns the frames each chunk completed, in order.

    Line ends are LF, CRLF or CR (a CR ending one chunk and an LF starting the next are one line
    end); a leading U+FEFF is stripped once; invalid UTF-8 becomes U+FFFD; comments (``:`` first)
    and unknown fields are skipped; an ``id`` containing NUL is ignored; one space after the colon
    is removed; a blank line dispatches the block unless it had no ``data`` field. A line (comments
    included), or the data of one block, longer than ``max_line_bytes`` UTF-8 bytes raises
    :class:`SseLimitError`: no more than about that much of a line is ever held.
    """

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._max_bytes = max_line_bytes
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._is_at_start = True
        self._is_after_cr = False
        self._data: list[str] | None = None
        self._data_bytes = 0
        self._event = ""
        self._id: str | None = None
        self._frames: list[SseFrame] = []

    def feed(self, chunk: bytes) -> list[SseFrame]:
        """Parses one chunk of the body; returns the frames it completed (raises :class:`SseLimitError`)."""
        try:
            self._feed_text(self._decoder.decode(chunk))
        except SseLimitError as error:
            error.frames, self._frames = self._frames, []
            raise
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
        self._check(self._buffer, "line")

    def _check(self, text: str, what: str) -> None:
        """Raises when ``text`` passes the bound in UTF-8 (at most 4 bytes a character: short text passes fast)."""
        if len(text) * 4 > self._max_bytes and _utf8_length(text) > self._max_bytes:
            raise SseLimitError(f"An event stream {what} passed {self._max_bytes} bytes.", [])

    def _process_line(self, line: str) -> None:
        self._check(line, "line")
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
            else:
                self._data_bytes += 1  # the \n joining it to the line before
            self._data_bytes += _utf8_length(value)
            if self._data_bytes > self._max_bytes:
                raise SseLimitError(f"An event's data passed {self._max_bytes} bytes.", [])
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._id = value

    def _dispatch(self) -> None:
        if self._data is not None:
            self._frames.append(SseFrame(self._event or "message", "\n".join(self._data), self._id))
        self._data = None
        self._data_bytes = 0
        self._event = ""
        self._id = None


def _utf8_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))

"""One line saying what a command waits for: redrawn in place on a terminal, written once elsewhere."""

from __future__ import annotations

import sys
from typing import TextIO


class WaitLine:
    """What a command waits for, on stderr (stdout stays for its results). On a terminal the line is
    redrawn in place and wiped by :meth:`clear` before the next result; piped, each wait is one line."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self.shown = False

    def say(self, text: str) -> None:
        if self.live:
            self.stream.write(f"\r\x1b[K{text}")
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()
        self.shown = self.live

    def clear(self) -> None:
        """Wipe a live line (a piped line stays: it was a line of its own)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

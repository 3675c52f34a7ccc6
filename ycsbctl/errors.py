"""The one exception type for errors a user can cause and fix, and exceptions as one line."""

from __future__ import annotations

import re

# What client libraries append to their messages for their own developers, dropped from ours: pymongo
# ends a server-selection error with its settings and its whole topology (a dump of every server).
_LIBRARY_TAILS = re.compile(r" \(configured timeouts: [^)]*\)|, Topology Description: .*$")


class UserError(Exception):
    """Bad input or environment: the CLI prints it on one line, ``message: fix``.

    ``message`` says what is wrong, ``fix`` what to do about it (empty when the message says it
    already); callers that keep them apart (a skipped target's reason and fix) read the fields.
    ``exit_code`` is 2 for bad input (usage, workload, properties) and may be set to 1 for
    environment faults found at run time (unreachable target, missing binary).
    """

    def __init__(self, message: str, exit_code: int = 2, *, fix: str = "") -> None:
        super().__init__(f"{message}: {fix}" if fix else message)
        self.message = message
        self.fix = fix
        self.exit_code = exit_code


def _words(text: str) -> str:
    return _LIBRARY_TAILS.sub("", text)


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message, or its type's name when the message is empty."""
    return _words((str(exc).splitlines() or [type(exc).__name__])[0])


def short_error(exc: BaseException) -> str:
    """``Type: first line`` of an exception (at most 200 characters of it), for one-line messages.
    A Docker error gives the daemon's own words (its ``explanation``)."""
    text = str(getattr(exc, "explanation", None) or exc).strip().splitlines()
    return f"{type(exc).__name__}: {_words(text[0])[:200]}" if text else type(exc).__name__

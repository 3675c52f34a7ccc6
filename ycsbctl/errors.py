"""The one exception type for errors a user can cause and fix."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or environment: the message says what to fix; the CLI prints it on one line.

    ``exit_code`` is 2 for bad input (usage, workload, properties) and may be set to 1 for
    environment faults found at run time (unreachable target, missing binary).
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code

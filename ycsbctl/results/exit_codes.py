"""What ``ycsbctl run``, ``load`` and ``rerun`` exit with: the one table a script reads, beside the folder status it
matches (complete: 0 or 3; partial: 1; interrupted: 130). The rule that picks one is
:attr:`ycsbctl.experiment.outcome.Outcome.exit_code`; the manual's "Exit codes" section says the same."""

from __future__ import annotations

EXIT_OK = 0  # every point ok
EXIT_FAILED = 1  # a point failed, a target was skipped or the run stopped early
EXIT_BAD_INPUT = 2  # bad input (ycsbctl.errors.UserError's default)
EXIT_DEGRADED = 3  # every point measured, some degraded
EXIT_INTERRUPTED = 130  # Ctrl-C or SIGTERM

EXIT_CODES = {
    EXIT_OK: "every point ok",
    EXIT_DEGRADED: "every point measured, some degraded: the numbers are there; read each degraded point's why "
                   "(the verdicts took it into account)",
    EXIT_FAILED: "a point failed, a target was skipped or the run stopped early (the finished points are kept); or "
                 "every point was measured but report.html could not be drawn (the folder is complete: `ycsbctl "
                 "report DIR` draws it)",
    EXIT_BAD_INPUT: "bad input: one line says what to change",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C, SIGTERM): the finished points are kept",
}


def exit_codes_epilog() -> str:
    """The exit codes, one paragraph each, for a command's ``--help`` epilog (the help's layout keeps paragraphs)."""
    return "Exit codes:\n\n" + "\n\n".join(f"{code}: {words}" for code, words in EXIT_CODES.items())

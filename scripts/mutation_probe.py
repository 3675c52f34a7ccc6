"""A pytest plug-in for ``scripts/mutation.py``'s first run of a module's tests: which test runs which
line of the mutated modules (coverage.py, one dynamic context per test id), and each test's outcome
and duration. Loaded with ``-p mutation_probe`` (``scripts/`` on ``PYTHONPATH``); writes the coverage
data to ``$MUTATION_COVERAGE`` (when set: without it, only the outcomes) and ``{nodeid: {"s": seconds, "failed":
bool}}`` to ``$MUTATION_OUTCOMES``.

Lines run at import (module constants, ``def`` lines) have the empty context; lines run only in another
process (a spawned engine worker) are not seen at all: the caller runs every test for those. Lines run while
a test's fixtures were set up have the context ``<test id>|setup``: a module-scoped fixture (one CLI run the
file's tests each read a figure of) is made in its first test's set-up only.
"""

from __future__ import annotations

import json
import os

import coverage
import pytest

_cov: coverage.Coverage | None = None
SETUP = "|setup"  # the context of a test's fixtures' set-up (scripts/mutation.py widens it to the test's file)
_outcomes: dict[str, dict[str, object]] = {}


def pytest_configure(config: pytest.Config) -> None:
    global _cov
    if "MUTATION_COVERAGE" not in os.environ:  # outcomes only (mutation_sample.py's runs)
        return
    _cov = coverage.Coverage(data_file=os.environ["MUTATION_COVERAGE"],
                             include=os.environ["MUTATION_INCLUDE"].split(","),
                             config_file=False)
    _cov.start()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if _cov is not None:  # its fixtures: a module- or session-scoped one is made here once for many tests
        _cov.switch_context(item.nodeid + SETUP)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    if _cov is not None:
        _cov.switch_context(item.nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    seen = _outcomes.setdefault(report.nodeid, {"s": 0.0, "failed": False})
    seen["s"] = float(seen["s"]) + report.duration  # type: ignore[arg-type]
    seen["failed"] = bool(seen["failed"]) or report.failed


def pytest_unconfigure(config: pytest.Config) -> None:
    if _cov is not None:
        _cov.stop()
        _cov.save()
    with open(os.environ["MUTATION_OUTCOMES"], "w", encoding="utf-8") as f:
        json.dump(_outcomes, f)

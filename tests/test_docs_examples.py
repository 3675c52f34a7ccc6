"""Every shell block of the manual that needs only what ``make test`` installs runs here, at small scale, and its
page's word on what it prints or writes is checked (:mod:`tests.fixtures.doc_examples`: the blocks by their text,
how each is scaled — :data:`~tests.fixtures.doc_examples.RUN_SMALL` appended to each ``run`` — and its check).

Cost: the blocks run once for the module (:func:`ran`), two at a time, each command a fork of an interpreter that
imported the CLI once (:mod:`tests.fixtures.cli_forks`); the blocks of one group run one after another in one
folder. Each test then reads its block's outcome. ``redis://127.0.0.1:6379`` in a block is the module's own
redis-server (:data:`~tests.fixtures.doc_examples.LOCAL_REDIS`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fixtures.cli import ROOT
from tests.fixtures.cli import env as cli_env
from tests.fixtures.cli_forks import Ended, Forks, cli_forks
from tests.fixtures.doc_examples import EXAMPLES, Example, Ran, argv_of, commands, exits_allowed
from tests.fixtures.servers import Server

# what a sweep imports past the CLI (~1 s a command), imported once by each forking interpreter
PRELOAD = ("ycsbctl.cli.experiment", "ycsbctl.experiment.run", "ycsbctl.report.summary_table", "pandas",
           "pyarrow.parquet")
TIMEOUT_S = 240  # one command at most (the slowest here take seconds; a hung one fails its block, not the session)


def _groups() -> list[list[str]]:
    """The blocks' texts in groups run one after another (a block with no group is a group of its own), the groups
    with the most commands first (the two workers then end about together)."""
    by: dict[str, list[str]] = {}
    for text, example in EXAMPLES.items():
        by.setdefault(example.group or text, []).append(text)
    return sorted(by.values(), key=lambda g: -sum(len(commands(t)) for t in g))


def _run(forks: Forks, argv: list[str], cwd: Path, environ: dict[str, str]) -> Ended:
    try:
        return forks.run(argv, cwd, environ, timeout_s=TIMEOUT_S)
    except TimeoutError as exc:  # killed: its block fails, the others still run
        return Ended(-9, "", str(exc))


def _run_group(i: int, texts: list[str], forks: Forks, base: Path, redis: Server) -> dict[str, Ran]:
    folder = base / f"group{i}"
    (folder / "work").mkdir(parents=True)
    os.symlink(ROOT / "workloads", folder / "work" / "workloads")  # a block's -P workloads/… as in a checkout
    environ = cli_env(YCSBCTL_STATE_DIR=str(folder / "state"), YCSBCTL_CLAIM_DIR=str(folder / "claims"))
    done: dict[str, Ran] = {}
    try:
        for text in texts:
            ended: dict[str, Ended] = {}
            for line in commands(text):
                argv = argv_of(line, EXAMPLES[text], redis.port)
                if argv is not None:
                    ended[line] = _run(forks, argv, folder / "work", environ)
            done[text] = Ran(ended, folder / "work")
    finally:  # a server a block started with `up` (and any a failed run left): its state folder's, and only those
        _run(forks, ["down", "--all"], folder / "work", environ)
    return done


@pytest.fixture(scope="module")
def ran(module_redis: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Ran]]:
    """Every block of :data:`EXAMPLES` as it ran, by its text."""
    base = tmp_path_factory.mktemp("docs-examples")
    with cli_forks(2, PRELOAD) as forks, ThreadPoolExecutor(2) as pool:
        parts = list(pool.map(lambda ig: _run_group(ig[0], ig[1], forks, base, module_redis), enumerate(_groups())))
    yield {text: r for part in parts for text, r in part.items()}


def _id(text: str) -> str:
    return commands(text)[0].split("#")[0].strip().replace("ycsbctl ", "")[:60]


@pytest.mark.parametrize("text", list(EXAMPLES), ids=[_id(t) for t in EXAMPLES])
def test_the_block_runs_as_its_page_shows_it(text: str, ran: dict[str, Ran]):
    example: Example = EXAMPLES[text]
    outcome = ran[text]
    for line, ended in outcome.ended.items():
        said = f"{line}\nexit {ended.returncode}\n{ended.stdout[-2000:]}\n{ended.stderr[-3000:]}"
        assert ended.returncode in exits_allowed(line), said
    example.check(outcome)

"""Every shell block of the manual that needs only what ``make test`` installs runs here, at small scale, and its
page's word on what it prints or writes is checked (:mod:`tests.fixtures.doc_examples`: the blocks by their text,
how each is scaled — :data:`~tests.fixtures.doc_examples.RUN_SMALL` appended to each ``run`` — and its check).

Cost: the blocks run once for the module (:func:`ran`), two at a time (one on each of :data:`LANES` lanes), each
command a fork of an interpreter that imported the CLI once (:mod:`tests.fixtures.cli_forks`); the blocks of one
group run one after another in one folder. Each test then reads its block's outcome. ``redis://127.0.0.1:6379`` in a
block is the module's own redis-server (:data:`~tests.fixtures.doc_examples.LOCAL_REDIS`), and the catalogue names of
:data:`SHARED` are the session's servers of those kinds, given as their URLs (:mod:`tests.fixtures.doc_servers`):
the Elasticsearch node puts this module in that node's xdist group (:mod:`tests.fixtures.parallel`)."""

from __future__ import annotations

import json
import os
import queue
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fixtures.cli import ROOT
from tests.fixtures.cli import env as cli_env
from tests.fixtures.cli_forks import Ended, Forks, cli_forks
from tests.fixtures.doc_examples import EXAMPLES, Example, Ran, argv_of, commands, exits_allowed, shared_named
from tests.fixtures.doc_servers import SharedServers
from tests.fixtures.servers import Server

# what a sweep imports past the CLI, imported once by each forking interpreter rather than by every command: the
# experiment's modules, pandas and pyarrow (~1 s a command), and what py-spy showed a forked `run` still importing
# itself — scipy.stats for its verdicts (~1.5 s), the Docker SDK (the backend's choice), the engine's runner and the
# clients of Redis, PostgreSQL and MariaDB (~0.2–0.5 s each)
PRELOAD = ("ycsbctl.cli.experiment", "ycsbctl.experiment.run", "ycsbctl.report.summary_table", "pandas",
           "pyarrow.parquet", "scipy.stats", "ycsbctl.provision.docker", "ycsbctl.engine.runner", "redis", "asyncpg",
           "pymysql")
TIMEOUT_S = 240  # one command at most (the slowest here take seconds; a hung one fails its block, not the session)
LANES = 2  # blocks run at once
# the session fixtures whose servers a block's catalogue name of that kind stands for (tests/fixtures/doc_servers.py)
SHARED = ("postgresql", "mariadb", "elasticsearch")


def _groups() -> list[list[str]]:
    """The blocks' texts in groups run one after another (a block with no group is a group of its own), the groups
    with the most commands first (the two lanes then end about together)."""
    by: dict[str, list[str]] = {}
    for text, example in EXAMPLES.items():
        by.setdefault(example.group or text, []).append(text)
    return sorted(by.values(), key=lambda g: -sum(len(commands(t)) for t in g))


def _run(forks: Forks, argv: list[str], cwd: Path, environ: dict[str, str]) -> Ended:
    try:
        return forks.run(argv, cwd, environ, timeout_s=TIMEOUT_S)
    except TimeoutError as exc:  # killed: its block fails, the others still run
        return Ended(-9, "", str(exc))


def _run_group(i: int, texts: list[str], forks: Forks, base: Path, redis: Server,
               shared: dict[str, str]) -> dict[str, Ran]:
    """The blocks ``texts`` one after another in their group's folder, ``shared`` the URLs the shared names stand
    for on this lane; a block naming a shared server this session has not is left for its test to skip."""
    folder = base / f"group{i}"
    (folder / "work").mkdir(parents=True)
    os.symlink(ROOT / "workloads", folder / "work" / "workloads")  # a block's -P workloads/… as in a checkout
    environ = cli_env(YCSBCTL_STATE_DIR=str(folder / "state"), YCSBCTL_CLAIM_DIR=str(folder / "claims"))
    done: dict[str, Ran] = {}
    try:
        for text in texts:
            ended: dict[str, Ended] = {}
            argvs: dict[str, list[str]] = {}
            if all(n in shared for n in shared_named(text, SHARED)):
                for line in commands(text):
                    argv = argv_of(line, EXAMPLES[text], redis.port, shared)
                    if argv is not None:
                        argvs[line] = argv
                        ended[line] = _run(forks, argv, folder / "work", environ)
            done[text] = Ran(ended, folder / "work", argvs)
    finally:  # a server a block started with `up` (or a failed run left) is in its state folder's record: only those
        if _recorded(folder / "state"):
            _run(forks, ["down", "--all"], folder / "work", environ)
    return done


def _recorded(state: Path) -> list[object]:
    """The servers a state folder records as up (``servers.json``: :mod:`ycsbctl.provision.state`)."""
    path = state / "servers.json"
    return json.loads(path.read_text())["servers"] if path.exists() else []


def _lane(lane: int, todo: queue.SimpleQueue[tuple[int, list[str]]], forks: Forks, base: Path, redis: Server,
          shared: SharedServers) -> dict[str, Ran]:
    """Groups taken from ``todo`` until none is left, run on ``lane`` (its databases on the shared servers)."""
    done: dict[str, Ran] = {}
    while True:
        try:
            i, texts = todo.get_nowait()
        except queue.Empty:
            return done
        done |= _run_group(i, texts, forks, base, redis, shared.urls(lane))


@pytest.fixture(scope="module")
def shared(request: pytest.FixtureRequest) -> Iterator[SharedServers]:
    """The session's server of each of :data:`SHARED` that a block names, with a database of each lane's own on the
    SQL ones; a server the session cannot have (its package not installed) is kept as the reason its blocks skip."""
    wanted = {n for text in EXAMPLES for n in shared_named(text, SHARED)}
    endpoints, missing = {}, {}
    for name in (n for n in SHARED if n in wanted):
        try:
            endpoints[name] = request.getfixturevalue(name)
        except pytest.skip.Exception as exc:
            missing[name] = str(exc)
    servers = SharedServers(endpoints, missing, LANES).open()
    try:
        yield servers
    finally:
        servers.close()


@pytest.fixture(scope="module")
def ran(module_redis: Server, shared: SharedServers, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Every block of :data:`EXAMPLES` as it ran, by its text."""
    base = tmp_path_factory.mktemp("docs-examples")
    todo: queue.SimpleQueue[tuple[int, list[str]]] = queue.SimpleQueue()
    for group in enumerate(_groups()):
        todo.put(group)
    with cli_forks(LANES, PRELOAD) as forks, ThreadPoolExecutor(LANES) as pool:
        parts = list(pool.map(lambda lane: _lane(lane, todo, forks, base, module_redis, shared), range(LANES)))
    return {text: r for part in parts for text, r in part.items()}


def _id(text: str) -> str:
    """The block's first command, its middle left out when long (two blocks may begin alike)."""
    first = commands(text)[0].split("#")[0].strip().replace("ycsbctl ", "")
    return first if len(first) <= 60 else f"{first[:40]}...{first[-17:]}"


@pytest.mark.parametrize("text", list(EXAMPLES), ids=[_id(t) for t in EXAMPLES])
def test_the_block_runs_as_its_page_shows_it(text: str, ran: dict[str, Ran], shared: SharedServers):
    example: Example = EXAMPLES[text]
    outcome = ran[text]
    missing = [shared.missing[n] for n in shared_named(text, SHARED) if n in shared.missing]
    if missing:
        pytest.skip("; ".join(missing))
    for line, ended in outcome.ended.items():
        said = f"{line}\nexit {ended.returncode}\n{ended.stdout[-2000:]}\n{ended.stderr[-3000:]}"
        assert ended.returncode in exits_allowed(line), said
    example.check(outcome)

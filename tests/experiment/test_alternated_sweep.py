"""End to end on real Redis servers: ``--order alternate`` (the default with more than one target) measures each
cell's targets in one engine session, one record per target sharing a session id, and no operation is credited to
the wrong target — each target's reads equal its own server's ``INFO commandstats`` count of HGETALL (the Redis
binding's read of every field).

Two redis-server processes the test starts, ``a`` and ``held`` — the second in a cgroup with a CPU quota of 0.1
core (the kernel enforces it), so that its share of the session's operations is far below ``a``'s at any speed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import redis

from tests.fixtures.cgroups import cpu_quota
from tests.fixtures.cli import YCSBCTL
from tests.fixtures.servers import start_redis
from ycsbctl.experiment.targets import target_label

ROUNDS = 2
SEED = 5


def _reads(url: str) -> int:
    """The server's own count of HGETALL calls (the Redis binding's read with readallfields=true)."""
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))
    finally:
        client.close()


@pytest.fixture(scope="module")
def experiment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    tmp = tmp_path_factory.mktemp("alternated")
    servers = [start_redis(tmp / name) for name in ("a", "held")]
    try:
        with cpu_quota(0.1, period_us=10_000) as group:
            group.add(servers[1].proc.pid)
            out = tmp / "exp"
            proc = subprocess.run(
                [YCSBCTL, "run", "workload-c", *(a for s in servers for a in ("--target", s.url)), "--load",
                 "--threads", "4", "--repeat", str(ROUNDS), "--duration", "1", "--slice", "0.1", "--records", "300",
                 "--seed", str(SEED), "--no-telemetry", "--allow-concurrent", "--quiet", "--out", str(out)],
                capture_output=True, text=True, timeout=600, cwd=tmp)
            assert proc.returncode == 0, proc.stderr[-3000:]
            return out, {target_label(s.url): _reads(s.url) for s in servers}
    finally:
        for s in servers:
            s.stop()


def test_each_cell_s_targets_share_one_session_per_round(experiment: tuple[Path, dict[str, int]]) -> None:
    folder, _ = experiment
    plan = json.loads((folder / "manifest.json").read_text())["plan"]
    assert plan["run_order"] == "alternate" and plan["slice_s"] == 0.1
    runs = pd.read_parquet(folder / "runs.parquet")
    run = runs[runs["phase"] == "run"]
    assert len(run) == 2 * ROUNDS and set(run["status"]) == {"ok"}
    for _, rnd in run.groupby("repetition"):
        assert rnd["session"].nunique() == 1 and rnd["session"].notna().all()  # both targets, one session
        first = int(rnd["order_index"].min())
        assert sorted(rnd["order_index"]) == [first, first + 1]
    assert run["session"].nunique() == ROUNDS


def test_no_operation_is_credited_to_the_wrong_target(experiment: tuple[Path, dict[str, int]]) -> None:
    """Each server's HGETALL calls equal the operations its records counted (workload-c only reads): the run has
    no warm-up here (--duration without --warmup), and the load and the dataset checks read no hash."""
    folder, reads = experiment
    runs = pd.read_parquet(folder / "runs.parquet")
    run = runs[runs["phase"] == "run"]
    for target, calls in reads.items():
        mine = run[run["target"] == target]
        assert int(mine["operations"].sum()) == calls, (target, mine["operations"].tolist(), calls)


def test_the_held_server_is_the_slower_side_of_every_session(experiment: tuple[Path, dict[str, int]]) -> None:
    """Its quota takes the server's CPU, the resource a Redis point spends: fewer operations per second of its
    own slices than the free server in the same session, whatever the host's speed."""
    folder, _ = experiment
    runs = pd.read_parquet(folder / "runs.parquet")
    run = runs[runs["phase"] == "run"].pivot(index="session", columns="target", values="throughput_ops")
    a, h = (target_label(t) for t in json.loads((folder / "manifest.json").read_text())["plan"]["targets"])
    assert (run[h] < run[a]).all(), run.to_string()

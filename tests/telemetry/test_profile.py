"""``--cpu-profile``'s recorder on a real point: the server's stacks from perf, the client's from py-spy,
folded and drawn by inferno, the top frames a table; and a missing perf costs one line, not the point."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.servers import start_redis
from ycsbctl.engine.runner import PhaseRunner
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.telemetry import profiler
from ycsbctl.telemetry.profiler import fold_counts, profiling
from ycsbctl.workload.properties import load_properties

ROOT = Path(__file__).resolve().parents[2]
PROPS = {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": "300", "operationcount": "0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    s = start_redis(tmp_path_factory.mktemp("profile"))
    PhaseRunner(PhaseSpec("load", s.url, PROPS, threads=4)).run()
    yield s
    s.stop()


def _profiled(server, folder: Path):
    runner = PhaseRunner(PhaseSpec("run", server.url, PROPS, threads=8, duration_s=1.5, processes=1))
    with profiling(folder, [server.proc.pid], runner.pids) as held:
        result = runner.run()
    return result, held.value


def test_a_profiled_point_has_both_sides_stacks_folded_drawn_and_ranked(server, tmp_path):
    result, p = _profiled(server, tmp_path / "p")
    assert result.operations > 0 and p.notes == [], p.notes
    server_stacks = fold_counts((tmp_path / "p" / "server.folded").read_text())
    client_stacks = fold_counts((tmp_path / "p" / "client.folded").read_text())
    assert server_stacks and client_stacks
    assert all(s.startswith("redis-server") for s in server_stacks)  # perf saw the server's threads only
    assert any("ycsbctl" in s for s in client_stacks)  # py-spy saw the engine's own Python
    for side in ("server", "client"):
        svg = (tmp_path / "p" / f"{side}.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    top = pd.read_csv(tmp_path / "p" / "top_frames.csv")
    assert set(top["side"]) == {"server", "client"}
    assert ((top["self_share"] <= top["total_share"]) & (top["total_share"] <= 1)).all()
    assert p.server_kernel_share is not None and 0 < p.server_kernel_share < 1


def test_without_perf_the_server_side_is_one_line_and_nothing_else(server, tmp_path, monkeypatch):
    real = profiler.tool
    monkeypatch.setattr(profiler, "tool", lambda name: None if name == "perf" else real(name))
    p = profiler.Profiler(tmp_path / "p", [server.proc.pid], None)
    p.start()
    got = p.stop()
    assert got.notes == ["server stacks: perf is not installed (apt-get install linux-perf)"]
    assert got.files == [] and not (tmp_path / "p" / "server.folded").exists()

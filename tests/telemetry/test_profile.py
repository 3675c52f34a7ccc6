"""``--cpu-profile``'s recorder on a real point: the server's stacks from perf, the client's from py-spy,
folded and drawn by inferno, the top frames a table; and a missing perf costs one line, not the point. Without
a point: folded stacks' self shares, and what a perf or py-spy that recorded nothing says."""

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


def test_a_frames_self_share_is_its_leaf_samples_to_four_digits_and_parts_are_summed_per_stack():
    from ycsbctl.telemetry.profiler import fold_counts, top_frames

    # two workers' parts: "x;a" 2 + 4 samples, "a;b" 3; a is a leaf (6) and b's caller: 9 samples in all
    counts = fold_counts("\n".join(["x;a 2\na;b 3", "x;a 4\n"]))
    assert counts == {"x;a": 6, "a;b": 3}
    rows = {r["frame"]: r for r in top_frames(counts, "client")}
    assert (rows["a"]["samples"], rows["a"]["self_share"], rows["a"]["total_share"]) == (6, 0.6667, 1.0)
    assert (rows["b"]["samples"], rows["b"]["self_share"], rows["x"]["self_share"]) == (3, 0.3333, 0.0)
    # a caller only: no samples of its own, in a third of the stacks (to four digits)
    assert (rows["x"]["samples"], rows["x"]["total_share"], rows["b"]["total_share"]) == (0, 0.6667, 0.3333)
    assert list(rows) == ["a", "b", "x"]


def test_a_client_spy_that_recorded_nothing_says_py_spys_error_line_and_a_flame_graph_that_failed_is_not_kept(tmp_path):
    import subprocess
    import sys

    import pytest

    from ycsbctl.telemetry import profiler

    spy, flame = profiler.tool("py-spy"), profiler.tool("inferno-flamegraph")
    if spy is None or flame is None:
        pytest.skip("needs py-spy and inferno-flamegraph")
    p = profiler.Profiler(tmp_path, [], lambda: [])
    # py-spy attached to a process that is gone writes its error, its causes and (RUST_BACKTRACE) a backtrace
    p._spies.append(subprocess.Popen([spy, "record", "--pid", "999999999", "--output",
                                      str(tmp_path / "client-1.folded")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={"RUST_BACKTRACE": "1"}))
    p._spies[0].wait(timeout=30)
    p._fold_client()
    assert p.profile.notes == ["client stacks: py-spy recorded nothing (Error: Failed to get process executable name. "
                               "Check that the process is running.)"], p.profile.notes
    # a spy whose words hold no "Error" line: its last line is said
    quiet = profiler.Profiler(tmp_path / "q", [], lambda: [])
    quiet._spies.append(subprocess.Popen([sys.executable, "-c", "import sys; sys.stderr.write('first\\nlast\\n')"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    quiet._spies[0].wait(timeout=30)
    quiet.folder.mkdir()
    quiet._fold_client()
    assert quiet.profile.notes == ["client stacks: py-spy recorded nothing (last)"], quiet.profile.notes
    assert (quiet.profile.server_samples, quiet.profile.client_samples) == (0, 0)  # nothing recorded: no samples
    # inferno given no stack it can read exits 1 with an SVG that says so on its output: a failure, no picture kept
    (tmp_path / "client.folded").write_text("not a stack\n")
    p._draw("client", "t")
    assert p.profile.files == [] and not (tmp_path / "client.svg").exists()
    assert p.profile.notes[-1].startswith("client flame graph: inferno-flamegraph failed ("), p.profile.notes


def test_a_perf_that_recorded_nothing_or_an_empty_file_says_perfs_last_words(tmp_path):
    import subprocess
    import sys

    from ycsbctl.telemetry import profiler

    def folded(data: bytes | None) -> list[str]:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        p = profiler.Profiler(folder, [], lambda: [])
        p._perf = subprocess.Popen([sys.executable, "-c", "import sys; sys.stderr.write('x\\nperf: not permitted\\n')"],
                                   stderr=subprocess.PIPE)
        p._perf.wait(timeout=30)
        if data is not None:
            (folder / "server.perf.data").write_bytes(data)
        p._fold_server()
        return p.profile.notes

    said = ["server stacks: perf recorded nothing (perf: not permitted; perf_event_paranoid, a container's seccomp "
            "or a missing CAP_PERFMON can forbid it)"]
    assert folded(None) == folded(b"") == said

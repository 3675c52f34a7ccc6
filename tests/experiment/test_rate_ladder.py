"""Rate ladders and the SLO search from the real CLI against a real redis-server (and a ladder on
mongo-wire): counts against Redis's own INFO commandstats, verdicts against the stored HDR histograms
read with the ``hdrh`` library, the search's rates replayed from the manifest alone."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import redis
from hdrh.histogram import HdrHistogram

from tests.fixtures.cli import ycsbctl
from tests.fixtures.pacing import duration_floor, holdable_rate, unpaced_ops
from tests.fixtures.servers import start_mongo_wire
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.rate_search import RateSearch
from ycsbctl.results.slo import MIN_ACHIEVED, Trial, parse_slo
from ycsbctl.workload.properties import load_properties

# speed per test: the ladders and the search measure rates here; the malformed specs assert no rate, time or CPU
# figure and run in the shared phase
pytestmark = [pytest.mark.report]

# a ladder's point (s): its rate is held to 5 % or what its own largest delay explains (tests/fixtures/pacing.py) at any
# length, the floor computed for this length
POINT_S = 1


def _props(**extra: object) -> dict[str, str]:
    return {**load_properties("workload-b"), **{k: str(v) for k, v in extra.items()}}


def _largest_delay_s(ops: pd.DataFrame, run_id: str) -> float:
    """A point's largest intended latency (s), from its rows of ops.parquet."""
    mine = ops[(ops["run_id"] == run_id) & ops["op"].str.startswith("Intended-")]
    assert len(mine), run_id
    return float(mine["max_us"].max()) / 1e6


def _spec(url: str, threads: int) -> PhaseSpec:
    """One second of workload-b on the loaded records, as a ladder's point runs it (unpaced)."""
    return PhaseSpec("run", url, _props(recordcount=2000 if url.startswith("redis") else 1000), threads=threads,
                     duration_s=1)


@pytest.fixture(scope="module")
def server(module_redis, tmp_path_factory: pytest.TempPathFactory):
    """The module's redis-server, loaded with workload-b's 2,000 records once."""
    s = module_redis
    url = f"redis://127.0.0.1:{s.port}"
    out = ycsbctl("load", "workload-b", "--target", url, "-p", "recordcount=2000", "--threads", "4", "--no-telemetry",
                  cwd=tmp_path_factory.mktemp("rate-ladder-load"))
    assert out.returncode == 0, out.stderr
    return s, url


def updates(rds: redis.Redis) -> int:
    """HMSETs (YCSB UPDATEs) the server ran since its statistics were reset (its own count; reads are
    not counted: the dataset check before each point reads records too)."""
    return int(rds.info("commandstats").get("cmdstat_hmset", {}).get("calls", 0))


@pytest.mark.speed
def test_a_rate_ladder_is_a_sweep_axis_with_its_rows_and_resume(server, tmp_path: Path):
    s, url = server
    rds = redis.Redis(port=s.port)
    # 200 and 400 ops/s, or a quarter and half of what one thread does unpaced here if that is lower
    low = int(holdable_rate(200, unpaced_ops(_spec(url, threads=1)), fraction=0.25))
    rds.config_resetstat()
    out = tmp_path / "ladder"
    r = ycsbctl("run", "workload-b", "--target", url, "--no-load", "--records", "2000", "--threads", "1,2",
                "--target-rate", f"{low}..{2 * low}/{low}", "--duration", str(POINT_S), "--warmup", "0",
                "--no-telemetry", "--out", str(out), cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    runs = pd.read_parquet(out / "runs.parquet").set_index("run_id")
    label = runs["target"].iloc[0]
    want = {f"{label}.workloadb.run.t{t}.rate{q}.r1": (t, q) for t in (1, 2) for q in (low, 2 * low)}
    assert set(runs.index) == set(want)  # points = threads × rates
    ops = pd.read_parquet(out / "ops.parquet")
    for run_id, (threads, rate) in want.items():
        row = runs.loc[run_id]
        assert (row["threads"], row["target_rate"], row["status"]) == (threads, rate, "ok")
        # within 5 % of the target, or what the point's own largest delay explains (tests/fixtures/pacing.py)
        floor = duration_floor(rate, threads, POINT_S, _largest_delay_s(ops, run_id))
        assert floor <= row["throughput_ops"] <= 1.05 * rate, (run_id, row["throughput_ops"], floor)
    # every UPDATE the runs counted is an HMSET the server ran
    counted = int(ops.loc[ops["op"] == "UPDATE", "operations"].sum())
    assert counted > 0 and updates(rds) == counted
    assert "offered ops/s" in r.stderr and f"{2 * low:,}" in r.stderr
    assert (out / "plots" / "workloadb.rates.png").exists()
    html = (out / "report.html").read_text()
    assert "latency vs achieved throughput" in html and "offered ops/s" in html
    # a finished ladder resumed runs nothing more
    again = ycsbctl("run", "--resume", str(out), "--target", url, cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stderr
    assert updates(rds) == counted
    rds.close()


@pytest.mark.speed
def test_the_slo_search_is_reproducible_from_its_manifest_and_judged_on_the_stored_histograms(server, tmp_path):
    s, url = server
    out = tmp_path / "slo"
    slo_text = "READ:p99<5s"  # generous: on this shared 2-core host the search ends on saturation, not latency
    r = ycsbctl("run", "workload-b", "--target", url, "--no-load", "--records", "2000", "--threads", "2",
                "--slo", slo_text, "--slo-points", "5", "--duration", "1", "--warmup", "0", "--no-telemetry",
                "--out", str(out), cwd=tmp_path, timeout=400)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["plan"]["slo"] == slo_text and manifest["plan"]["slo_points"] == 5
    (search,) = manifest["slo_searches"]
    assert search["finished"] and search["unpaced_ops"] > 0 and 1 <= len(search["tried"]) <= 4
    runs = pd.read_parquet(out / "runs.parquet").set_index("run_id")
    slo = parse_slo(slo_text)
    # the rates follow from the recorded verdicts alone
    replay = RateSearch(points=4, ceiling=search["unpaced_ops"], factor=search["parameters"]["factor"],
                        tolerance=search["parameters"]["tolerance"])
    for t in search["tried"]:
        assert replay.next_rate() == t["rate"]
        replay.record(Trial(**t))
    assert replay.next_rate() is None and replay.found == search["found_rate"]
    # each verdict, recomputed from the run's stored Intended-READ histogram and achieved rate
    for t in search["tried"]:
        row = runs.loc[t["run_id"]]
        assert row["target_rate"] == t["rate"]
        doc = json.loads((out / "runs" / f"{t['run_id']}.json").read_text())
        hist = HdrHistogram.decode((out / "histograms" / doc["histograms"]["Intended-READ"]).read_text())
        p99 = hist.get_value_at_percentile(99.0)
        assert t["latency"] == "intended" and abs(p99 - t["latency_us"]) <= 0.01 * p99 + 1
        passed = row["status"] == "ok" and row["throughput_ops"] >= MIN_ACHIEVED * t["rate"] and p99 <= slo.limit_us
        assert t["passed"] == passed, t
    assert search["found_rate"] is not None  # half the unpaced maximum is always sustainable
    assert f"{search['found_rate']:,.0f} ops/s" in r.stderr and "SLO search" in (out / "report.html").read_text()


@pytest.mark.speed
def test_a_rate_ladder_on_mongo_wire(tmp_path: Path):
    s = start_mongo_wire(tmp_path / "mw")
    try:
        url = f"mongodb://127.0.0.1:{s.port}/ycsb"
        # 150 and 300 ops/s, or a quarter and half of what FerretDB serves the same point unpaced here if
        # that is lower (the ladder's own --load empties the collection and loads it again)
        assert run_phase(PhaseSpec("load", url, _props(recordcount=1000), threads=2)).status == "ok"
        low = int(holdable_rate(150, unpaced_ops(_spec(url, threads=2)), fraction=0.25))
        out = tmp_path / "mongo"
        # no report: only the data is read
        r = ycsbctl("run", "workload-b", "--target", url, "--load", "--records", "1000", "--threads", "2",
                    "--target-rate", f"{low},{2 * low}", "--duration", str(POINT_S), "--warmup", "0",
                    "--no-telemetry", "--no-report", "--out", str(out), cwd=tmp_path, timeout=300)
        assert r.returncode == 0, r.stderr
        runs = pd.read_parquet(out / "runs.parquet")
        paced = runs[runs["phase"] == "run"].sort_values("target_rate")
        assert list(paced["target_rate"]) == [low, 2 * low] and set(paced["status"]) == {"ok"}
        ops = pd.read_parquet(out / "ops.parquet")
        for row in paced.itertuples():
            floor = duration_floor(row.target_rate, 2, POINT_S, _largest_delay_s(ops, row.run_id))
            assert floor <= row.throughput_ops <= 1.05 * row.target_rate, (row.run_id, row.throughput_ops, floor)
    finally:
        s.stop()


@pytest.mark.parametrize("args,fix", [
    (["--target-rate", "10k..5k"], "10k..80k/10k"),
    (["--target-rate", "fast"], "10k..80k/10k"),
    (["--slo", "p99<1"], "[OPERATION:]pNN<LIMIT"),
    (["--slo", "p99<1ms", "--target-rate", "5k"], "drop --target-rate"),
    (["--slo-start", "5k"], "needs --slo"),
    (["--slo", "p99<1ms", "--slo-start", "1k,2k"], "one rate"),
])
def test_malformed_rate_and_slo_specs_are_one_line_before_anything_starts(args, fix, tmp_path):
    r = ycsbctl("run", "workload-b", "--target", "redis://127.0.0.1:1", "--threads", "1", *args, cwd=tmp_path)
    assert r.returncode == 2 and fix in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not any(tmp_path.iterdir())

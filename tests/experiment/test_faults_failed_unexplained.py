"""A failed point is never explained as a measured one: a point that failed on its error rate (Redis at
``maxmemory``, every write refused) gets no label of what limited its rate and no "why" line, on the console, in its run
JSON and in the report's tables, as a point cut short gets none (:func:`ycsbctl.results.model.cut_short`). Was: ``failed
— 50% of operations failed …`` followed by ``why: …`` explaining its throughput."""

from __future__ import annotations

import json

import redis

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, loads_and_reports, victim  # noqa: F401 - victim: a fixture
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.explain import with_why
from ycsbctl.experiment.judge import judge
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.properties import load_properties


def test_a_point_failed_on_its_error_rate_has_no_label_and_no_why_line(victim, tmp_path):  # noqa: F811
    props = {**load_properties("workload-a"), "recordcount": "300"}
    assert run_phase(PhaseSpec("load", victim.url, props, threads=2, processes=1)).ops["INSERT"].returns == {"OK": 300}
    with redis.Redis.from_url(victim.url) as r:
        r.config_set("maxmemory", str(r.info("memory")["used_memory"] // 2))  # every write: OOM
    out = tmp_path / "oom"
    done = ycsbctl("run", "workload-a", "--target", victim.url, "--records", "300", "--threads", "2", "--duration", "1",
                   "--warmup", "0", "--allow-concurrent", "--out", str(out), cwd=tmp_path, timeout=180)
    clean(done.stdout + done.stderr)
    assert done.returncode == 1, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    (at,) = [i for i, x in enumerate(lines) if "→" in x]
    assert "failed — " in lines[at] and "% of operations failed (ERROR/TIMEOUT), above --max-error-rate" in lines[at]
    assert not any(x.strip().startswith("why:") for x in lines[at:]), done.stderr[-3000:]
    (doc,) = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    assert doc["status"] == "failed" and doc["bottleneck"] is None, doc.get("bottleneck")
    exp = loads_and_reports(out, tmp_path)
    row = exp.runs.iloc[0]
    assert row["status"] == "failed" and row["errors"] > 0  # the server's own refusals, counted
    assert not isinstance(row.get("bottleneck"), str) and not isinstance(row.get("why"), str), row.to_dict()


def test_every_failed_verdict_drops_the_bottleneck_it_was_given():
    """Whatever failed the point, a measured label and its evidence given to the judge are not kept (no why line is
    made from them); a fault label (stall) stays, without a why."""
    from tests.fixtures.phase_results import result

    errors = result([500, 500], returns={"OK": 500, "ERROR": 500}, errors=["OOM command not allowed"])
    nothing = PhaseResult("run", 4, 0.0, 0)
    given = {"label": "server-cpu", "text": "the server's core was busy", "evidence": {}}
    for r in (errors, nothing, None):
        v = judge(r, max_error_rate=0.01, bottleneck=dict(given), error=None if r is not None else "did not connect")
        assert v.status == "failed" and v.bottleneck is None, (r, v)
        assert with_why(v.bottleneck, "redis", 4, r) is None
    assert judge(errors, max_error_rate=0.6, bottleneck=dict(given)).bottleneck == given  # not failed: kept
    # a fault label is what happened, not what limited a measured rate: kept (its reason says it too), never a why
    stalled = {"label": "stall", "text": "stall: no reply for 3.0 s", "why": "the server's core was busy"}
    v = judge(errors, max_error_rate=0.01, bottleneck=stalled)
    assert v.status == "failed" and v.bottleneck == {"label": "stall", "text": "stall: no reply for 3.0 s"}


def test_the_reports_point_takes_no_label_or_why_from_a_failed_repetition():
    """A folder of an older version may hold a failed repetition's label and why: the point's row (the report's
    tables and why findings) takes them from the repetitions that did not fail; a failed point keeps a fault
    label (stall) and no why."""
    import pandas as pd

    from ycsbctl.results.frames import points

    rows = [("ok", "latency", "measured why"), ("failed", "server-cpu", "why of a failed point"),
            ("failed", "server-cpu", "why of a failed point"), ("failed", "stall", "why of a stalled point")]
    runs = pd.DataFrame([{"target": "redis", "threads": t, "status": st, "throughput_ops": 1000.0, "all_p99_us": 100.0,
                          "bottleneck": label, "bottleneck_text": label, "why": why, "error": None, "client_cpu_s": 1.0,
                          "runtime_ms": 1000.0}
                         for t, (st, label, why) in zip((8, 8, 8, 16), rows)])
    runs = runs.assign(workload="workloadb", phase="run", server="Redis 7", run_id=[f"r{i}" for i in range(len(runs))])
    p = points(runs).set_index("threads")
    assert (p.loc[8, "bottleneck"], p.loc[8, "why"]) == ("latency", "measured why")  # was server-cpu, 2 of 3
    assert (p.loc[16, "bottleneck"], p.loc[16, "bottleneck_text"], p.loc[16, "why"]) == ("stall", "stall", None)

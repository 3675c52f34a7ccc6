"""Both per-operation paths, end to end: the compiled one (the default after set-up) and the
pure-Python one (forced with ``YCSBCTL_PURE_PYTHON=1``, or used when the compiled core cannot be
imported, with one warning line). Truths: Redis's own command counters, the seed's operation
stream (the two paths make the same operations, so they count the same READs and UPDATEs), and the
server's answers (NOT_FOUND for missing records, its error text for a wrong-type key)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.pacing import count_floor, holdable_rate, largest_delay_s
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.native import FORCE_PURE_ENV, core
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth
ROOT = Path(__file__).resolve().parents[2]
PATHS = ["compiled", "pure"]


def _props(workload: str, **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update({k: str(v) for k, v in overrides.items()})
    return props


def _doctor_env(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """``env`` for a ``ycsbctl doctor`` read only for its per-operation path line: no Docker to wait for, and
    the Elasticsearch launcher out of its sight (PATH without /usr/local/bin, an empty data home for the bin
    folder a non-root set-up puts it in), whose ``--version`` is a JVM start: ~2.8 s of each doctor's ~3.2 s."""
    path = os.pathsep.join(d for d in env.get("PATH", os.defpath).split(os.pathsep) if d != "/usr/local/bin")
    (tmp_path / "no-data-home").mkdir(exist_ok=True)
    return env | {"DOCKER_HOST": "unix:///nonexistent.sock", "PATH": path,
                  "XDG_DATA_HOME": str(tmp_path / "no-data-home")}


def _run(monkeypatch: pytest.MonkeyPatch, path: str, spec: PhaseSpec) -> PhaseResult:
    """``spec`` run with the worker processes (spawned: they read the switch at import) on ``path``."""
    if path == "pure":
        monkeypatch.setenv(FORCE_PURE_ENV, "1")
    else:
        assert core is not None, "the compiled core (ycsbctl._native) is not built: run scripts/setup.sh"
        monkeypatch.delenv(FORCE_PURE_ENV, raising=False)
    return run_phase(spec)


def _returns(r: PhaseResult, op: str) -> dict[str, int]:
    return dict(r.ops[op].returns) if op in r.ops else {}


def test_basic_runs_the_same_operations_of_a_seed_on_both_paths(monkeypatch):
    spec = PhaseSpec("run", "basic://", _props("workload-a", recordcount=1000, operationcount=20_000), threads=4,
                     processes=2, seed=11)
    compiled, pure = (_run(monkeypatch, p, spec) for p in PATHS)
    for r in (compiled, pure):
        assert r.status == "ok" and r.operations == 20_000
    assert _returns(compiled,
                    "READ") == _returns(pure, "READ") and _returns(compiled, "UPDATE") == _returns(pure, "UPDATE")
    assert 9000 < compiled.ops["READ"].operations < 11_000  # workload A: half reads


@pytest.mark.parametrize("path", PATHS)
def test_redis_counts_agree_with_the_servers_commandstats_on_each_path(redis_server, rds, monkeypatch, path):
    load = _run(monkeypatch, path, PhaseSpec("load", redis_server.url, _props("workload-a", recordcount=400), threads=4,
                                             processes=2))
    assert load.status == "ok" and rds.dbsize() == 401
    rds.config_resetstat()
    r = _run(monkeypatch, path, PhaseSpec("run", redis_server.url, _props("workload-a", recordcount=400,
                                                                          operationcount=6000),
                                          threads=40, processes=2, seed=5))
    assert r.status == "ok", r.errors
    calls = {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in rds.info("commandstats").items()}
    assert r.ops["READ"].operations == calls["hgetall"] and r.ops["UPDATE"].operations == calls["hmset"]
    assert r.operations == 6000 == calls["hgetall"] + calls["hmset"]
    assert _returns(r, "READ") == {"OK": calls["hgetall"]}


@pytest.mark.parametrize("path", PATHS)
def test_missing_records_are_not_found_and_error_replies_fail_with_the_servers_text(
    redis_server, rds, monkeypatch, path
):
    # Keys user0..user1 (ordered): user0 holds a string (HGETALL fails with WRONGTYPE), user1 nothing.
    rds.set("user0", "not a hash")
    rds.config_resetstat()
    props = _props("workload-c", recordcount=2, operationcount=400, insertorder="ordered",
                   requestdistribution="uniform")
    r = _run(monkeypatch, path, PhaseSpec("run", redis_server.url, props, threads=2, processes=1, seed=3))
    returns = _returns(r, "READ")
    calls = rds.info("commandstats")["cmdstat_hgetall"]
    assert sum(returns.values()) == 400 == calls["calls"]
    assert returns["ERROR"] == calls["failed_calls"] > 100 and returns["NOT_FOUND"] > 100
    assert any("WRONGTYPE" in e for e in r.errors), r.errors


def test_a_missing_compiled_core_runs_the_pure_path_with_one_warning_line(tmp_path):
    """The import of ``ycsbctl._native`` made to fail in every process (a ``sitecustomize`` on the
    path, as a machine without a C compiler would have no module): the run works, says so once."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NoCore:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'ycsbctl._native':\n"
        "            raise ImportError('simulated: no compiled core')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _NoCore())\n")
    env = {k: v for k, v in os.environ.items() if k != FORCE_PURE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(hook), str(ROOT)])
    run = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "4", "-p", "recordcount=100",
                  "-p", "operationcount=3000", "--no-telemetry", "--allow-concurrent", cwd=tmp_path, environ=env)
    assert run.returncode == 0, run.stderr
    assert "[OVERALL], RunTime(ms)" in run.stdout and "[READ], Operations" in run.stdout
    warnings = [ln for ln in run.stderr.splitlines() if "pure-Python per-operation path" in ln]
    assert len(warnings) == 1 and "simulated: no compiled core" in warnings[0], run.stderr
    doctor = ycsbctl("doctor", cwd=tmp_path, environ=_doctor_env(env, tmp_path))
    assert "per-operation path: pure-Python (the compiled core cannot be imported" in doctor.stdout
    assert "reinstall with gcc" in doctor.stdout


def test_forcing_the_pure_path_says_so_in_doctor_and_warns_nowhere(tmp_path):
    env = {**os.environ, FORCE_PURE_ENV: "1", "PYTHONPATH": str(ROOT)}
    run = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "2", "-p", "recordcount=100",
                  "-p", "operationcount=500", "--no-telemetry", "--allow-concurrent", cwd=tmp_path, environ=env)
    assert run.returncode == 0, run.stderr
    assert "pure-Python" not in run.stderr
    doctor = ycsbctl("doctor", cwd=tmp_path, environ=_doctor_env(env, tmp_path))
    assert f"per-operation path: pure-Python ({FORCE_PURE_ENV}=1)" in doctor.stdout
    env.pop(FORCE_PURE_ENV)
    assert "per-operation path: compiled" in ycsbctl("doctor", cwd=tmp_path, environ=_doctor_env(env, tmp_path)).stdout


@pytest.mark.speed
@pytest.mark.parametrize("path", PATHS)
def test_a_paced_basic_run_holds_its_rate_on_each_path(monkeypatch, path):
    """basic://'s chain waits for each due time through the thread's pacer (its Python loop on both
    paths: the compiled one runs unpaced chains only): the rate is held, never exceeded."""
    spec = PhaseSpec("run", "basic://", _props("workload-a", recordcount=1000, operationcount=3000), threads=4,
                     processes=1, measurement="both")
    rate = holdable_rate(3000.0, _run(monkeypatch, path, spec).throughput_ops)
    r = _run(monkeypatch, path, replace(spec, target_rate=rate))
    assert r.status == "ok" and r.operations == 3000
    assert count_floor(rate, 4, 3000, largest_delay_s(r)) <= r.throughput_ops <= rate * 1.02
    assert r.schedule_lag is not None and r.schedule_lag.operations == 3000

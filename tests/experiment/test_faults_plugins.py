"""The fault suite's plug-in cases (``-p workload=package.module:Class``) against a real redis-module_redis:
a plug-in whose constructor raises, whose executor raises mid-run, or returns no status.

docs/studies/structure.md ("Plug-in workloads and the structure study"): one line naming the plug-in, exit 2 before
anything starts for a bad class; a point whose plug-in broke mid-run is failed in one line naming the plug-in and the
call.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, no_workers_left
from tests.fixtures.servers import Server

pytestmark = pytest.mark.fault

FAULTY = "workload=tests.workload.faulty_plugin:Faulty"


def point(module_redis: Server, mode: str, tmp: Path) -> subprocess.CompletedProcess:
    """One point of the plug-in in ``mode``: a second is enough, it breaks at its 100th operation."""
    return ycsbctl("run", "workloadc", "--target", module_redis.url, "--threads", "2", "--duration", "1", "--warmup",
                   "0",
                   "--no-telemetry", "--allow-concurrent", "-p", "recordcount=0", "-p", FAULTY, "-p",
                   f"faulty.mode={mode}", "--out", str(tmp / mode), cwd=tmp)


def test_a_plugin_that_works_measures_its_operation(module_redis, tmp_path):
    r = point(module_redis, "ok", tmp_path)
    clean(r.stdout + r.stderr)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "[PING], Operations" in r.stdout


@pytest.mark.parametrize(("mode", "said"), [("constructor", "Faulty.from_properties raised RuntimeError"),
                                            ("executor",
                                             "the workload Faulty: its executor('redis') raised TypeError")])
def test_a_plugin_whose_constructor_or_executor_factory_raises_is_one_line_and_exit_2(module_redis, tmp_path, mode,
                                                                                       said):
    r = point(module_redis, mode, tmp_path)
    clean(r.stdout + r.stderr)
    assert r.returncode == 2, r.stderr[-2000:]
    (line,) = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert line.startswith("error: ") and said in line, line
    assert not (tmp_path / mode).exists()  # before anything starts


@pytest.mark.parametrize(("mode", "said"), [("raise",
                                             "the workload plug-in Faulty: its executor PING call raised KeyError"),
                                            ("status",
                                             "the workload plug-in Faulty: its executor PING call returned 7, no "
                                             "status"),
                                            ("shape",
                                             "the workload plug-in Faulty: its executor PING call raised TypeError"),
                                            ("source", "the workload plug-in's Faulty.source (faulty_plugin.py:"),
                                            ("prepare", "the workload plug-in Faulty: its prepare() returned 42, a "
                                                        "int; it must return None (ready) or a str")])
def test_a_plugin_that_breaks_mid_run_fails_the_point_in_one_line(module_redis, tmp_path, mode, said):
    r = point(module_redis, mode, tmp_path)
    clean(r.stdout + r.stderr)
    assert r.returncode == 1, r.stderr[-2000:]
    line = [x for x in r.stderr.splitlines() if "→" in x][-1]
    assert "failed" in line and said in line, r.stderr[-2000:]
    assert r.stderr.count("the workload plug-in") == 1, r.stderr[-2000:]
    no_workers_left()


def test_a_plugin_whose_op_codes_or_batches_name_no_operation_of_its_own_is_one_line(module_redis):
    """op_codes('x') crashed every worker with a traceback (Recorder's slot arithmetic), and a batch of op code 5 was
    blamed on the executor ('its executor op 5 call raised TypeError …') (fault43f): the first is refused when the
    workload is built (exit 2, before anything starts), the second fails the point naming the source."""
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.errors import UserError
    from ycsbctl.workload.plugin import load_workload
    from ycsbctl.workload.properties import Properties

    props = {"workload": FAULTY.partition("=")[2], "recordcount": "0", "operationcount": "0"}
    with pytest.raises(UserError) as named:  # its letters were measured as operations, "[P], Operations" (fault43g)
        load_workload(Properties({**props, "workload": "tests.workload.faulty_plugin:StrNames"}))
    assert named.value.exit_code == 2 and str(named.value) == (
        "workload='tests.workload.faulty_plugin:StrNames': StrNames.operation_names is 'PING': give its operations' "
        'names, each once, as a tuple of strings (e.g. ("PING",))')
    with pytest.raises(UserError) as told:
        load_workload(Properties({**props, "faulty.mode": "opcodes"}))
    assert told.value.exit_code == 2 and "Faulty.op_codes('load') gave 1, which is no code of its operations (0 PING)" \
        in str(told.value), str(told.value)
    r = run_phase(PhaseSpec("run", module_redis.url, {**props, "faulty.mode": "badcode"}, threads=1, processes=1,
                            duration_s=1.0))
    assert r.status == "failed" and r.errors[0] == (
        "the workload plug-in Faulty: its source gave op code 5, none of its op_codes('run'): [0]"), r.errors
    no_workers_left()


def test_a_plugin_operation_that_never_returns_fails_the_point_at_the_deadline_and_timeout(module_redis):
    """An executor awaiting something with no timeout of its own held the point, and the run, until killed (a 2 s
    point still running after 60 s; fault43g): the clients still running --timeout after the deadline are stopped and
    the point fails naming the plug-in (without that, this test hangs to pytest's timeout: the hang is an hour)."""
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec

    props = {"workload": FAULTY.partition("=")[2], "recordcount": "0", "operationcount": "0", "faulty.mode": "hang"}
    r = run_phase(PhaseSpec("run", module_redis.url, props, threads=2, processes=1, duration_s=0.5, timeout_s=0.3))
    assert r.status == "failed" and r.errors == [
        "the workload plug-in Faulty: an operation of its executor had not returned 0.3 s (--timeout) after the "
        "point's end; its clients were stopped"], r.errors
    no_workers_left()

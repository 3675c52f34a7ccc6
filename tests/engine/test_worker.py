"""The worker's pieces (engine/worker.py) without running a point: where a plug-in's error is placed, and
what the load ceiling leaves pacing of a turn."""

from __future__ import annotations


def test_a_plug_ins_error_is_placed_in_its_own_innermost_frame_not_pythons_nor_a_librarys(tmp_path):
    """A plug-in file (outside ycsbctl, Python and site-packages) whose method calls json (Python's) and
    pandas (an installed library), each raising inside: the frame named is the plug-in's own line."""
    import importlib.util

    from ycsbctl.engine.worker_process import _outside_ycsbctl

    (tmp_path / "my_plugin.py").write_text(
        "import json\nimport pandas as pd\n\n\nclass Shop:\n    def order(self):\n        return json.loads('{')\n\n"
        "    def price(self):\n        return pd.Timestamp('not a date')\n")
    spec = importlib.util.spec_from_file_location("my_plugin", tmp_path / "my_plugin.py")
    assert spec is not None and spec.loader is not None
    plugin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plugin)
    for method, line in (("order", 7), ("price", 10)):
        try:
            getattr(plugin.Shop(), method)()
        except ValueError as exc:
            assert _outside_ycsbctl(exc) == f"Shop.{method} (my_plugin.py:{line})"
        else:
            raise AssertionError(f"{method} raised nothing")


def test_pacing_may_turn_the_loop_for_what_the_load_ceiling_leaves_at_most_its_budget():
    from ycsbctl.engine.timerfd import Alarm
    from ycsbctl.engine.worker import TURN_LOAD_CEILING, turn_budget

    assert (Alarm.TURN_BUDGET, TURN_LOAD_CEILING) == (0.5, 0.9)
    assert turn_budget(0.1) == 0.5 and turn_budget(0.4) == 0.5  # at most the budget
    assert abs(turn_budget(0.6) - 0.3) < 1e-12 and abs(turn_budget(0.75) - 0.15) < 1e-12  # what the ceiling leaves
    assert turn_budget(0.9) == 0.0 and turn_budget(1.4) == 0.0  # none at or past the ceiling


def test_a_failed_load_insert_is_tried_again_up_to_the_retry_limit_and_failing_every_time_stops_the_load():
    """``core_workload_insertion_retry_limit=2`` (0 s apart): an insert that fails is tried again, as YCSB's
    CoreWorkload does. One that succeeds at its second try is an OK insert and the load goes on to its quota;
    one that fails at its first try and both retries stops this client's load, with its error kept."""
    import asyncio
    from types import SimpleNamespace

    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.engine.worker import LOAD_STOPPED, Worker, WorkerPlan
    from ycsbctl.stores.basic.binding import BasicBinding
    from ycsbctl.stores.binding import Status
    from ycsbctl.workload.core import INSERT
    from ycsbctl.workload.properties import load_properties

    class Refusing(BasicBinding):
        def __init__(self, refusals: int) -> None:
            self.refusals, self.calls = refusals, 0

        async def insert(self, table, key, values) -> Status:
            self.calls += 1
            if self.calls <= self.refusals:
                self.last_error = "insert refused"
                return Status.ERROR
            return Status.OK

    props = dict(load_properties("workload-a"))
    props.update(recordcount="3", core_workload_insertion_retry_limit="2", core_workload_insertion_retry_interval="0")
    spec = PhaseSpec("load", "basic://", props, threads=1)
    stopped = LOAD_STOPPED.format("insert refused")
    for refusals, calls, ended, errors in ((1, 4, [], []), (5, 3, [stopped], ["insert refused"])):
        worker = Worker(WorkerPlan(spec, 0, 1, [3], (0, 3), 0), None, SimpleNamespace(value=0), None)
        worker.refill()
        binding = Refusing(refusals)
        asyncio.run(worker.client(binding, 3, None, 2**63 - 1))
        assert (binding.calls, worker.ended, worker.errors) == (calls, ended, errors)
        ok, error = (sum(worker.rec.slots[INSERT * 5 + st]) for st in (Status.OK, Status.ERROR))
        assert (ok, error) == ((3, 0) if not ended else (0, 1))


def test_a_bindings_own_counters_are_summed_from_zero_sqlites_busy_handler_never_called_with_one_client(tmp_path):
    """SQLite calls its busy handler only when another connection holds a lock: one client loading a file alone
    waits on no lock, so every counter the binding keeps (summed by the worker into ``binding_counts``) is 0."""
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.workload.properties import load_properties

    props = {k: str(v) for k, v in load_properties("workload-a").items()} | {"recordcount": "50"}
    r = run_phase(PhaseSpec("load", f"sqlite://{tmp_path / 'one.db'}", props, threads=1, processes=1))
    assert sum(r.ops["INSERT"].returns.values()) == 50
    assert r.binding_counts == {"sqlite_busy_calls": 0, "sqlite_busy_ms": 0, "sqlite_busy_long": 0}


def test_a_workers_last_report_names_its_second_and_tenth_as_whole_numbers_as_every_tick_does():
    """A paced run of 1.2 s on the null store (basic://), shipped once a second and then every 100 ms: the
    worker's last report (the interval it ended in, sent after its ticker's) counts whole seconds, as the
    ticker's do, so the per-second series' ``second`` stays int64 (series.parquet) and the 100 ms series'
    intervals are whole indices (second × 10 + tenth)."""
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.workload.properties import load_properties

    props = {k: str(v) for k, v in load_properties("workload-a").items()} | {"recordcount": "100"}
    for interval_ms in (1000, 100):
        r = run_phase(PhaseSpec("run", "basic://", props, threads=1, processes=1, duration_s=1.2, target_rate=200,
                                series_interval_ms=interval_ms, seed=1))
        seconds = r.series["second"]
        assert seconds.dtype == "int64", interval_ms
        if interval_ms == 100:
            assert r.fine is not None
            intervals = list(r.fine.operations)
            assert intervals and all(type(k) is int for k in intervals), intervals

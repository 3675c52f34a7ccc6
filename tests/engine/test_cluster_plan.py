"""How a phase is split over client hosts (ycsbctl/engine/shards.py), checked against YCSB's own
rules written out here: ``Client`` gives thread ``i`` of ``T`` ``opcount // T`` operations plus one
when ``i < opcount % T``, and a client instance given ``insertstart``/``insertcount`` loads exactly
that key range — so shards must tile the load range and the operation count, thread by thread."""

from __future__ import annotations

import pytest

from ycsbctl.engine.shard_plan import plan_shards
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.workload.properties import load_properties


def _props(workload: str, **kw: object) -> dict[str, str]:
    p = {k: str(v) for k, v in load_properties(workload).items()}
    p.update({k: str(v) for k, v in kw.items()})
    return p


def _ycsb_thread_ops(total: int, threads: int) -> list[int]:
    return [total // threads + (1 if i < total % threads else 0) for i in range(threads)]


@pytest.mark.parametrize(("threads", "shards"), [(4, 2), (7, 3), (5, 2), (2, 3)])
def test_load_ranges_tile_the_keyspace_as_ycsb_client_instances_would(threads: int, shards: int) -> None:
    spec = PhaseSpec("load", "basic://", _props("workload-b", recordcount=1003), threads=threads, seed=7)
    plans = plan_shards(spec, shards)
    assert len(plans) == min(threads, shards)
    per_thread = _ycsb_thread_ops(1003, threads)
    start, t = 0, 0
    for p in plans:
        n = p.spec.threads
        assert int(p.spec.properties["insertstart"]) == start
        assert int(p.spec.properties["insertcount"]) == sum(per_thread[t : t + n])
        assert p.spec.properties["recordcount"] == "1003"  # reads still see the whole key space
        start += int(p.spec.properties["insertcount"])
        t += n
    assert start == 1003 and t == threads
    assert len({p.spec.seed for p in plans}) == len(plans)  # each shard draws its own stream


def test_run_quotas_and_target_rate_add_up_to_the_plan() -> None:
    spec = PhaseSpec("run", "basic://", _props("workload-b", recordcount=100, operationcount=10_001), threads=6,
                     target_rate=3000.0)
    plans = plan_shards(spec, 4)
    assert [p.spec.threads for p in plans] == [2, 2, 1, 1]
    per_thread = _ycsb_thread_ops(10_001, 6)
    assert [int(p.spec.properties["operationcount"]) for p in plans] == [
        sum(per_thread[0:2]), sum(per_thread[2:4]), per_thread[4], per_thread[5]]
    assert sum(p.spec.target_rate or 0 for p in plans) == pytest.approx(3000.0)


def test_a_run_phase_that_inserts_stays_on_one_shard() -> None:
    spec = PhaseSpec("run", "basic://", _props("workload-d", recordcount=100, operationcount=1000), threads=4)
    with pytest.raises(UserError, match="one insert counter"):
        plan_shards(spec, 2)
    (only,) = plan_shards(spec, 1)
    assert only.spec.threads == 4


def test_the_cluster_runs_ycsbctls_engine_not_the_java_one() -> None:
    from ycsbctl.experiment.plan import Plan

    with pytest.raises(UserError, match="drop --engine ycsb"):
        Plan(workloads=["workload-b"], targets=["basic://"], cluster="tcp://127.0.0.1:8786", engine="ycsb")

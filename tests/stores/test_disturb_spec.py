"""``--disturb ACTION:TYPE:SIZE@AT[/EVERY]``: what it parses into, when it runs, and the one-line
refusals (exit 2) of what cannot run, before anything starts — in the plan and per target protocol."""

from __future__ import annotations

import pytest

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.stores.disturb import parse_disturb


def test_the_reference_spec_is_a_delete_of_a_two_million_member_set_at_five_seconds():
    s = parse_disturb("del:set:2M@5s", 20)
    assert (s.action, s.kind, s.size, s.at_s, s.every_s) == ("del", "set", 2_000_000, 5.0, None)
    assert s.times_s(20) == [5.0]
    assert s.removes_key


def test_a_repeated_read_runs_every_second_up_to_the_end_of_the_window():
    s = parse_disturb("hgetall:hash:200k@5s/1s", 10)
    assert (s.size, s.every_s) == (200_000, 1.0)
    assert s.times_s(10) == [5.0, 6.0, 7.0, 8.0, 9.0]  # 10 s is the window's end: not run there
    assert parse_disturb("lrem:list:1.5k@500ms/250ms").times_s(1.2) == [0.5, 0.75, 1.0]


def test_a_size_is_accepted_from_one_member_to_the_most_and_refused_one_past_either_end():
    assert [parse_disturb(f"del:set:{n}@5s", 10).size for n in ("1", "100M")] == [1, 100_000_000]
    for n, says in (("0", "size 0"), ("100000001", "size 100,000,001")):
        with pytest.raises(UserError, match=f"{says}: use a count of members from 1 to 100,000,000"):
            parse_disturb(f"del:set:{n}@5s", 10)


@pytest.mark.parametrize(("text", "says"), [
    ("drop:set:1M@5s", "unknown action 'drop'"),
    ("del:tree:1M@5s", "unknown type 'tree'"),
    ("del:set:0@5s", "size 0"),
    ("del:set:lots@5s", "size 'lots'"),
    ("lrem:hash:1k@5s", "lrem does not apply to a hash: it applies to a list"),
    ("hgetall:set:1k@5s", "hgetall does not apply to a set"),
    ("del:set:1k@12s", "beyond the point's 10 s measured window"),
    ("del:set:1k@10s", "beyond the point's 10 s measured window"),
    ("unlink:set:1k@1s/2s", "runs once per point"),
    ("hgetall:hash:1k@1s/10ms", "at least 100ms"),
    ("del set 1M at 5s", "use ACTION:TYPE:SIZE@AT"),
])
def test_a_spec_that_cannot_run_is_one_line_with_exit_2(text, says):
    with pytest.raises(UserError) as exc:
        parse_disturb(text, 10)
    assert says in str(exc.value)
    assert "\n" not in str(exc.value) and exc.value.exit_code == 2
    assert text in str(exc.value)  # names the spec the user wrote


def test_the_plan_refuses_what_its_points_cannot_carry():
    with pytest.raises(UserError, match="beyond the point's 5 s"):
        Plan(workloads=["workload-b"], targets=["redis"], duration_s=5, disturb=["del:set:1M@6s"])
    with pytest.raises(UserError, match="drop --engine ycsb"):
        Plan(workloads=["workload-b"], targets=["redis"], duration_s=5, engine="ycsb", disturb=["del:set:1M@1s"])
    with pytest.raises(UserError, match="give --duration S"):
        Plan(workloads=["workload-b"], targets=["redis"], operations=1000, disturb=["del:set:1M@1s"])
    assert Plan(workloads=["workload-b"], targets=["redis"], duration_s=5, disturb=["del:set:1M@1s"]).disturb


def test_each_target_says_what_it_sends_and_an_action_without_analogue_is_refused():
    plan = Plan(workloads=["workload-b"], targets=["redis", "redis-lazyfree", "mongodb://127.0.0.1:9/ycsb"],
                duration_s=5, disturb=["del:set:1M@1s", "lrem:list:1k@2s"],
                server_settings={"redis-lazyfree": {"lazyfree-lazy-user-del": "yes"}})
    lines = resolve_study(plan).disturbances
    assert "redis: del:set:1M@1s → DEL KEY" in lines
    assert any(line.startswith("redis-lazyfree: del:set:1M@1s → DEL") for line in lines)
    assert "mongodb://127.0.0.1:9/ycsb: del:set:1M@1s → drop of a collection of 1,000,000 documents" in lines
    assert any("$pull" in line for line in lines if line.startswith("mongodb"))
    for action in ("unlink", "expire"):
        bad = Plan(workloads=["workload-b"], targets=["ferretdb"], duration_s=5, disturb=[f"{action}:set:1k@1s"])
        with pytest.raises(UserError, match=f"no analogue of {action}.*target ferretdb"):
            resolve_study(bad)
    huge = Plan(workloads=["workload-b"], targets=["ferretdb"], duration_s=5, disturb=["lrem:list:2M@1s"])
    with pytest.raises(UserError, match="at most 1,000,000 members"):
        resolve_study(huge)

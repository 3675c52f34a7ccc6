"""Between two folders: the note for a folder whose cells have too few rounds to be compared, and the caveat that
says how far the yardstick's own spread widened a cell's interval (or that it was too short to know)."""

from __future__ import annotations

import math

import pandas as pd

from tests.fixtures.experiments import in_memory_experiment as exp
from ycsbctl.report.folder_differences import differences
from ycsbctl.results.folder_verdicts import FEW_ROUNDS, few_rounds, folder_verdicts


def runs(rounds: dict[tuple[str, int], list[float]]) -> pd.DataFrame:
    """A sweep's run-phase rows: (target, threads) -> each round's throughput (ops/s); p99 = 1e6 / throughput µs."""
    rows = [{"workload": "workloadb", "target": t, "threads": n, "target_rate": math.nan, "phase": "run",
             "status": "ok", "repetition": r, "throughput_ops": v, "all_p99_us": 1e6 / v}
            for (t, n), vs in rounds.items() for r, v in enumerate(vs, 1)]
    return pd.DataFrame(rows)


def test_the_fewest_rounds_of_any_cell_is_named_with_its_plural_and_enough_rounds_say_nothing():
    assert FEW_ROUNDS == 3
    mixed = runs({("a", 8): [1.0] * 5, ("a", 16): [1.0], ("b", 8): [1.0] * 2})
    note = few_rounds(mixed, "after")
    assert note is not None and note.startswith("after has 1 round in some cells"), note  # the fewest, not the most
    two = few_rounds(runs({("a", 8): [1.0, 1.0], ("a", 16): [1.0] * 4}), "after")
    assert two is not None and two.startswith("after has 2 rounds in some cells"), two
    assert "--repeat 5" in two
    assert few_rounds(runs({("a", 8): [1.0] * FEW_ROUNDS, ("b", 8): [1.0] * 9}), "after") is None
    assert few_rounds(pd.DataFrame(), "after") is None  # no compared cell: nothing to say
    # why a folder has one round is said only for --repeat auto's rounds (a --repeat 1 folder ran one as asked)
    assert "--repeat auto run stops" not in (few_rounds(mixed, "after") or "")
    assert "(a --repeat auto run stops once its own cells are decided): " in (few_rounds(mixed, "after", True) or "")


def test_a_yardstick_without_a_spread_is_said_to_be_taken_as_exact_and_one_with_it_widens_the_interval():
    base = runs({("a", 8): [1000.0, 1010.0, 990.0]})
    other = runs({("a", 8): [2000.0, 2020.0, 1980.0]})  # the host twice as fast: the yardstick divides it out

    def caveat(host_se: float) -> str:
        t = folder_verdicts(base, other, None, "after", host_factor=2.0, host_se=host_se, host_df=4.0)
        return str(t.loc[t["metric"] == "throughput", "caveat"].iloc[0])

    assert "too few readings to know its spread: taken as exact" in caveat(0.0)  # a spread of 0 is not a known one
    assert "too few readings" in caveat(math.nan)
    widened = caveat(0.05)
    assert f"±{100 * math.expm1(0.05):.1f} % from its readings' spread" in widened and "too few" not in widened


def test_the_scale_as_it_ran_is_compared_where_the_plan_left_it_to_the_profile():
    """A default run leaves ``records`` empty in its plan and keeps the profile's value as ``record_count``: the
    difference is the resolved scale's."""
    a = exp({"plan": {"records": None, "record_count": 10_000}})
    b = exp({"plan": {"records": None, "record_count": 20_000}})
    assert differences(a, b) == ["plan.records: 10000 vs 20000"]


def test_a_version_only_one_folder_records_is_a_difference():
    assert differences(exp({"versions": {"redis": "7.2.4"}}),
                       exp({"versions": {}})) == ["versions.redis: 7.2.4 vs None"]
    assert differences(exp({"versions": {}}),
                       exp({"versions": {"ycsbctl": "0.1.0"}})) == ["versions.ycsbctl: None vs 0.1.0"]
    assert differences(exp({"versions": {"redis": "7.2.4"}}), exp({"versions": {"redis": "7.2.4"}})) == []


def test_one_round_a_side_gets_the_between_run_bound_around_its_ratio_and_no_round_gets_nothing():
    from ycsbctl.results import stats
    from ycsbctl.results.folder_verdicts import ONE_ROUND, _one_round

    nan = math.nan
    one = _one_round(stats.Comparison(1.2, nan, nan, nan, "welch", 1, nan, nan), 0.05)
    assert (one.low, one.high, one.test) == (1.2 / 1.05, 1.2 * 1.05, ONE_ROUND)
    assert math.isclose(one.detectable, 1.05 ** 2 - 1)
    for n in (0, 2):  # no round a side (no ratio to bound), or rounds whose test gave no interval: left as they are
        c = stats.Comparison(1.2, nan, nan, nan, "welch", n, nan, nan)
        assert _one_round(c, 0.05) is c

"""Stalls (telemetry/stall.py): a silence of a paced point that is one, and one that began in the warm-up."""

from __future__ import annotations


def test_a_stall_that_began_more_than_a_rounding_before_the_window_is_said_to_be_in_the_warm_up():
    from ycsbctl.telemetry.stall import Stall

    # 0.0503 s before the window reads 0.1 s before it; 0.05 s before (to float noise) rounds to its start
    assert Stall(4.0, 0.2, warmup_s=0.2503).began() == \
        "0.1 s before the measured window (in the warm-up; 3.9 s of it inside)"
    assert Stall(4.0, 0.2, warmup_s=0.25).began() == "0.0 s into the measured window"


def test_a_stall_that_began_in_the_warm_up_says_how_much_of_it_was_inside_the_window():
    from ycsbctl.telemetry.stall import Stall

    # from 4 s before the window: 6 s long, 2 s of it inside; 2 s long, none inside (never a negative part)
    assert Stall(6.0, 1.0,
                 warmup_s=5.0).began() == "4.0 s before the measured window (in the warm-up; 2.0 s of it inside)"
    assert Stall(2.0, 1.0,
                 warmup_s=5.0).began() == "4.0 s before the measured window (in the warm-up; 0.0 s of it inside)"
    # within 0.05 s of the window's start is its start (a tenth of a second is the figure's precision)
    assert Stall(3.0, 0.0, warmup_s=0.05).began() == "0.0 s into the measured window"
    assert Stall(3.0, 0.0, warmup_s=0.0503).began().startswith("0.1 s before the measured window")
    assert Stall(3.0, 7.0, warmup_s=2.0).text() == "no reply for 3.0 s, from 5.0 s into the measured window"


def test_a_paced_points_silence_is_a_stall_when_half_its_heard_seconds_but_one_were_busy():
    import math

    import pandas as pd

    from ycsbctl.telemetry.stall import find_stall

    def series(ops: list[int], timeouts: list[float] | None) -> pd.DataFrame:
        cols = {"second": range(len(ops)), "op": "OVERALL", "operations": ops, "max_us": 1_000.0, "warmup": False}
        return pd.DataFrame({**cols, **({"timeouts": timeouts} if timeouts is not None else {})})

    # heard in 5 seconds, 2 of them busy (5 operations or more): 2 x 2 >= 5 - 1, so the 3 silent seconds are a stall
    # (the one reply of second 6 ends it)
    ops = [500, 500, 3, 0, 0, 0, 1, 3]
    for timeouts in (None, [math.nan] * 8, [0.0] * 8):  # no timeouts column, or none known: none
        stall = find_stall(series(ops, timeouts), paced=True)
        assert stall is not None and (stall.seconds, stall.from_s) == (3.0, 3.0), (timeouts, stall)
    # a silence no longer than 1.5 x the median latency is the operations' own length: 3 s with a median of 2 s
    assert find_stall(series(ops, None), paced=True, typical_s=2.0) is None
    assert find_stall(series(ops, None), paced=True, typical_s=1.99) is not None
    # one quiet second more (heard in 6): too few busy ones for a paced point's silence to prove anything
    assert find_stall(series([500, 500, 3, 3, 0, 0, 0, 3, 3], None), paced=True) is None

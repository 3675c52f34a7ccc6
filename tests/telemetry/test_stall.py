"""Stalls (telemetry/stall.py): a silence of a paced point that is one, and one that began in the warm-up."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.telemetry.stall import straggler_stall


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


def _own_slices(rows: list[tuple[float, int, float]]) -> pd.DataFrame:
    """An alternated target's own slices from (t_end_s, operations, switch_s) rows."""
    return pd.DataFrame([{"t_end_s": e, "operations": n, "switch_s": sw, "warmup": False} for e, n, sw in rows])


def test_a_freeze_whose_replies_land_where_it_began_is_read_from_the_operation_that_waited():
    """A Redis frozen 1.7 s inside an alternated session (a test run with a core busy, 30 Nov): its two clients' last
    operations, of the slice ending at 1.2 s, ran 1.688 s past it, and its four slices after that, up to 2.8 s,
    measured nothing. Its per-second series had no empty second (the replies it gave on waking count in second 1,
    where they started; second 2 got 856 in its last slice): the stall is that wait, from the slice's end."""
    nan = float("nan")
    own = _own_slices([(0.4, 2420, 0.0002), (0.6, 3626, 0.0007), (1.2, 2, 1.688), (1.4, 0, nan), (2.0, 0, nan),
                       (2.2, 0, nan), (2.8, 0, nan), (3.0, 856, 0.0002), (3.6, 1221, 0.0002)])
    stall = straggler_stall(own, warmup_s=0.5)
    assert (stall.seconds, stall.from_s, stall.window_s) == (1.7, 1.2, pytest.approx(0.7))
    # the server answered another client meanwhile (a slice inside the wait measured operations): a slow operation
    answered = own.copy()
    answered.loc[4, "operations"] = 17
    assert straggler_stall(answered) is None
    # a store whose operations take seconds (median 2 s): 1.688 s past a slice's end is its own length
    assert straggler_stall(own, typical_s=2.0) is None
    # under a second past the end, or in the warm-up: none
    assert straggler_stall(_own_slices([(1.2, 2, 0.9), (1.4, 0, nan)])) is None
    warm = own.assign(warmup=own["t_end_s"] <= 1.2)
    assert straggler_stall(warm) is None

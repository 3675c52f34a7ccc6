"""A target's CPU-quota throttling over a point (:func:`ycsbctl.telemetry.frame_figures.throttled_over`): the share
of the quota's periods held back, from the first source that reports periods, against the same sums by hand."""

from __future__ import annotations

import pandas as pd

from ycsbctl.telemetry.frame_figures import throttled_over


def _rows(source: str, periods: list[int], throttled: list[int], seconds: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"source": source, "quota_periods": periods, "throttled_periods": throttled,
                         "throttled_s": seconds})


def test_the_share_throttled_is_the_held_periods_over_all_periods_of_the_first_source_with_periods():
    frame = pd.concat([_rows("container", [100, 300], [10, 50], [0.25, 0.5]),
                       _rows("server-process", [1000], [1000], [9.0])], ignore_index=True)
    share, seconds = throttled_over(frame, ("container", "server-process"))
    assert share == 100.0 * (10 + 50) / (100 + 300) and seconds == 0.25 + 0.5


def test_a_quota_that_counted_no_period_held_back_nothing():
    """A group whose quota ran no full period while sampled (periods all 0): 0 % held, not a division by zero."""
    share, seconds = throttled_over(_rows("container", [0, 0], [0, 0], [0.0, 0.0]), ("container",))
    assert (share, seconds) == (0.0, 0.0)


def test_no_quota_is_no_figure():
    frame = pd.DataFrame({"source": ["server-process"], "cpu_pct": [50.0]})
    assert throttled_over(frame, ("container",)) == (None, None)

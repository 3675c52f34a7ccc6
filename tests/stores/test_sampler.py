"""The store sampler's loop (stores/sampler.py): its interval grid when samples are slow, what counts as a
number of a sampler, and the reason it stopped."""

from __future__ import annotations

import time


def test_a_sampler_keeps_its_interval_grid_when_each_sample_takes_half_an_interval():
    # a sample of ~50 ms every 100 ms: rows one interval apart on average (or back to back when a sample outlasts
    # it), not an interval plus a sample (a schedule restarted from each sample's end drifts by its duration).
    # Judged against the samples' own measured durations, whatever this machine's speed.
    from ycsbctl.stores.sampler import Sampler

    took: list[float] = []

    class Slow(Sampler):
        source = "slow"

        def prime(self) -> None:
            pass

        def sample(self) -> dict:
            t = time.monotonic()
            time.sleep(0.05)
            took.append(time.monotonic() - t)
            return {}

    interval = 0.1  # the sampler's own period (s): a sample that takes half of it must not stretch the grid
    s = Slow(interval)
    s.start()
    time.sleep(0.75)
    frame = s.stop()
    t = list(frame["t_mono"])[:-1]  # without a tail row stop() may add
    spacing, sample = (t[-1] - t[0]) / (len(t) - 1), sum(took) / len(took)
    assert len(t) >= 3 and spacing < max(interval, sample) + sample / 2, (t, took)


def test_a_server_s_flag_is_no_number_of_a_sampler() -> None:
    """``num`` reads what servers report: a JSON true/false (MongoDB's serverStatus, Elasticsearch's stats) is a
    flag, not 1 or 0 of a figure; numbers and numeric strings (a "12.5%" of some servers) are read as numbers."""
    from ycsbctl.stores.sampler import num

    assert [num(v) for v in (True, False, None, "n/a", "")] == [None] * 5
    assert [num(v) for v in (3, 2.5, "12.5%", "7", 0)] == [3, 2.5, 12.5, 7.0, 0]


def test_a_samplers_stop_reason_is_the_errors_first_line_cut_at_200_characters():
    from ycsbctl.stores.sampler import stopped_because

    long_line = "".join(chr(ord("a") + i % 26) for i in range(300))  # no two neighbours alike: where it is cut shows
    assert stopped_because(OSError(f"{long_line}\nsecond line")) == long_line[:200]
    assert len(stopped_because(OSError(long_line))) == 200 and stopped_because(OSError("short\nmore")) == "short"


def test_the_samplers_rows_are_one_frame_in_time_order_with_every_column_the_concat_of_their_frames_has():
    """frame_of: the rows of every sampler in one frame sorted by t_mono (rows of one time in the samplers'
    order), its columns those pandas' concat of the samplers' own frames has, in that order, and the same values;
    samplers with no rows give the base columns only."""
    import math

    import pandas as pd

    from ycsbctl.stores.sampler import BASE_COLUMNS, Sampler, frame_of

    class Given(Sampler):
        def __init__(self, source: str, rows: list[dict]) -> None:
            super().__init__(1.0)
            self.source = source
            self.rows = [{"t_mono": t, "t_wall": 1e9 + t, "source": source, **values} for t, values in rows]

        def sample(self) -> dict:
            return {}

    given = [Given("server", [(2.0, {"cpu_pct": 50.0}), (1.0, {"cpu_pct": 40.0})]),
             Given("idle", []),
             Given("db", [(1.0, {"ops_per_s": 900.0, "replicas": None}), (3.0, {"ops_per_s": 800.0, "replicas": 1})])]
    frame = frame_of(given)
    assert list(frame["t_mono"]) == [1.0, 1.0, 2.0, 3.0] and list(frame["source"]) == ["server", "db", "server", "db"]
    concat = pd.concat([pd.DataFrame(g.rows) for g in given if g.rows], ignore_index=True)
    concat = concat.sort_values("t_mono", kind="stable", ignore_index=True)
    assert list(frame.columns) == list(concat.columns) == [*BASE_COLUMNS, "cpu_pct", "ops_per_s", "replicas"]
    for column in frame.columns:
        for mine, theirs in zip(frame[column], concat[column]):
            assert mine == theirs or (pd.isna(mine) and pd.isna(theirs)), (column, mine, theirs)
    assert frame.loc[0, "cpu_pct"] == 40.0 and math.isnan(frame.loc[1, "cpu_pct"]) and frame.loc[3, "replicas"] == 1
    assert list(frame_of([Given("idle", [])]).columns) == list(BASE_COLUMNS) and not len(frame_of([]))

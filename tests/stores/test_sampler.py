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

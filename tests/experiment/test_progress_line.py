"""The plain console's lines while a point runs: a second without a reply is said at once, but the workers' last
report, after the point's window, is no silence (a 2 s point printed '3 s  0 ops/s  no reply' at its end)."""

from __future__ import annotations

import math

import pytest

from ycsbctl.engine.spec import Tick
from ycsbctl.experiment.progress import SAY_WAIT_S, PointLength, Progress


def _ticks(length_s: float, per_second: list[float]) -> list[Tick]:
    """A point of ``length_s`` seconds whose workers reported ``per_second`` operations each second (NaN p99 where
    none ended), the last entry being what ended after the window's last whole second."""
    done, out = 0, []
    for second, ops in enumerate(per_second):
        done += int(ops)
        out.append(Tick(second, done, ops, 900.0 if ops else math.nan, 0))
    return out


def _plain_lines(capsys: pytest.CaptureFixture[str], length_s: float, per_second: list[float]) -> list[str]:
    p = Progress(1)
    p.start_point("redis workloadb 8 threads", PointLength(seconds=length_s))
    capsys.readouterr()
    for t in _ticks(length_s, per_second):
        p.tick(t)
    return [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def test_the_report_after_a_points_window_is_not_said_as_a_second_without_reply(capsys):
    assert _plain_lines(capsys, 2.0, [5000, 5000, 0]) == []


def test_a_second_without_reply_inside_the_window_is_said_at_once(capsys):
    lines = _plain_lines(capsys, 5.0, [5000, 0, 4000, 4000, 4000, 0])
    assert len(lines) == 1 and "2 s  0 ops/s  no reply" in lines[0], lines


def test_a_point_with_a_fraction_of_a_second_keeps_its_last_partial_second_as_a_second(capsys):
    """2.5 s: the third second holds the window's last half second; only a fourth report is after the window."""
    lines = _plain_lines(capsys, 2.5, [5000, 5000, 0, 0])
    assert len(lines) == 1 and "3 s  0 ops/s  no reply" in lines[0], lines


def test_a_start_over_2_s_says_once_what_it_waits_for_never_a_second_without_reply(capsys):
    """Before a point's first second the engine says what the start waits for (its processes, their clients):
    plain mode says it once it has taken SAY_WAIT_S, and never as '0 ops/s  no reply'."""
    p = Progress(1)
    p.start_point("redis workloadb 8 threads", PointLength(seconds=2.0))
    capsys.readouterr()
    waits = [Tick.waiting(f"its 2 engine processes connect 8 clients ({k} of 2 ready)") for k in (0, 1)]
    p.tick(waits[0])
    assert capsys.readouterr().err == ""  # a start under SAY_WAIT_S says nothing more than the point's line
    p.t_point -= SAY_WAIT_S  # the point began SAY_WAIT_S ago
    for t in waits:
        p.tick(t)
    assert capsys.readouterr().err.splitlines() == [
        "[1/1] redis workloadb 8 threads  starting: its 2 engine processes connect 8 clients (0 of 2 ready)…"]
    for t in _ticks(2.0, [5000, 5000, 0]):  # then its seconds, as any point's: none without a reply
        p.tick(t)
    assert capsys.readouterr().err == ""


def test_a_ctrl_c_while_a_line_is_written_comes_after_it_and_later_lines_still_show(capsys, monkeypatch):
    """SIGINT delivered inside rich's Console.__enter__, just after it counted its buffer open: the line is written
    whole, the KeyboardInterrupt comes after it, and the next line (the sweep's "interrupted: …") shows. Without the
    wait the buffer stayed counted open and every later line of the console was kept in it, unwritten."""
    import signal

    from rich.console import Console

    p = Progress(5)
    real = Console._enter_buffer
    calls = {"n": 0}

    def enter_then_sigint(console: Console) -> None:
        real(console)
        calls["n"] += 1
        if calls["n"] == 1:
            signal.raise_signal(signal.SIGINT)  # Python's handler raises KeyboardInterrupt here, in __enter__

    monkeypatch.setattr(Console, "_enter_buffer", enter_then_sigint)
    with pytest.raises(KeyboardInterrupt):
        p.note("[2/5] basic workloadb 2 threads")
    p.note("interrupted: no server of ours was running (the targets are URLs); keeping the finished points")
    assert capsys.readouterr().err.splitlines() == [
        "[2/5] basic workloadb 2 threads",
        "interrupted: no server of ours was running (the targets are URLs); keeping the finished points"]

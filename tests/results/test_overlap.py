"""Overlapping disturbances (results/overlap.py) on hand-built 100 ms series: which events form one window,
who is charged its cost (the server's evidence, or jointly), counted once; and the reference rate of a later
event without the seconds an earlier one affected."""

from __future__ import annotations

import math

import pytest

from tests.fixtures.fine_series import fine_series as _series
from ycsbctl.results.disturbance import effect, reference_rate
from ycsbctl.results.overlap import Happening, blamed, charge

pytestmark = pytest.mark.truth


def test_an_event_whose_window_meets_the_next_ones_is_charged_with_it_once_by_the_servers_evidence():
    ops = [1000] * 40
    ops[25], ops[26] = 0, 0  # a stall at 2.5 s, after a harmless event at 2.0 s and the next one at 2.45 s
    f = _series(ops)
    assert effect(f, 2.0, 2.01).stall_s == pytest.approx(0.2)  # alone, it would take the stall for its own
    harmless, culprit = Happening("a", 2.0, 2.01, 0.0001), Happening("b", 2.45, 2.7, 0.2)
    a, b = charge(f, [harmless, culprit])
    assert a.overlaps == ("b",) and b.overlaps == ("a",) and a.charged_to == b.charged_to == "b"
    assert b.effect.stall_s == pytest.approx(0.2) and a.effect.stall_s == 0 == a.effect.ops_lost
    # the loss is the union window's, counted once: intervals 20..26 at 1,000 each, 5 of them done
    assert a.effect.ops_lost + b.effect.ops_lost == b.effect.ops_lost == pytest.approx(10_000 * 0.7 - 5_000)
    # no evidence tells them apart: charged jointly, on the first one's row
    a, b = charge(f, [Happening("a", 2.0, 2.01), Happening("b", 2.45, 2.7)])
    assert a.charged_to == b.charged_to == "a+b" and a.joint and b.joint
    assert a.effect.stall_s == pytest.approx(0.2) and b.effect.stall_s == 0 == b.effect.ops_lost
    # evidence within twice of each other does not blame either
    assert blamed([Happening("a", 0, 0, 0.15), Happening("b", 0, 0, 0.2)]) is None
    assert blamed([Happening("a", 0, 0, 0.1), Happening("b", 0, 0, 0.2)]).label == "b"


def test_events_whose_windows_do_not_meet_are_each_charged_alone_and_a_stall_is_not_the_next_ones_reference():
    ops = [1000] * 60
    ops[20], ops[21] = 0, 0  # event a's stall at 2.0 s; event b at 3.5 s, harmless
    f = _series(ops)
    a, b = charge(f, [Happening("a", 2.0, 2.2), Happening("b", 3.5, 3.51)])
    assert (a.overlaps, b.overlaps, a.charged_to, b.charged_to) == ((), (), "a", "b")
    assert a.effect.stall_s == pytest.approx(0.2) and b.effect.stall_s == 0
    # the whole seconds before 3.5 s are 1 and 2, and second 2 held a's stall (8,000 ops): b's reference is
    # second 1 alone, not their median (9,000 ops/s)
    assert reference_rate(f, 3.5) == 9_000 and b.effect.pre_ops_per_s == reference_rate(f, 3.5, skip={20}) == 10_000
    # every second of the 3 s before it affected: the nearest unaffected one before them (second 0); none at all
    # unaffected: the seconds as they are; intervals when no whole second is there
    g = _series([700] * 10 + ops[10:])
    assert reference_rate(g, 3.5) == 9_000 and reference_rate(g, 3.5, skip={10, 20}) == 7_000
    assert reference_rate(g, 3.5, skip=set(range(30))) == 9_000
    short = _series([1000, 200, 200, 1000, 600])
    assert reference_rate(short, 0.5) == 6_000 and reference_rate(short, 0.5, skip={1, 2}) == 10_000


def test_events_at_the_same_time_share_one_window_and_one_reference():
    ops = [1000] * 40
    ops[24], ops[25] = 0, 0
    f = _series(ops)
    a, b = charge(f, [Happening("a", 2.0, 2.01, 0.2), Happening("b", 2.0, 2.01, 0.01)])
    assert a.effect.stall_s == pytest.approx(0.2) and a.effect.during_s == b.effect.during_s == pytest.approx(0.6)
    assert a.effect.pre_ops_per_s == b.effect.pre_ops_per_s == 10_000


def test_a_group_is_every_event_whose_window_meets_it_measured_from_its_first_start():
    ops = [1000] * 60
    for k in range(20, 26):
        ops[k] = 0  # a 0.6 s stall from 2.0 s
    f = _series(ops)
    # three events in it; the one the evidence blames starts first, the others within its stall
    lead, b, c = Happening("lead", 2.0, 2.59, 0.6), Happening("b", 2.3, 2.31, 0.01), Happening("c", 2.5, 2.51)
    charged = charge(f, [c, lead, b])  # in any order: charged as given
    assert [x.charged_to for x in charged] == ["lead"] * 3 and not any(x.joint for x in charged)
    assert sorted(charged[1].overlaps) == ["b", "c"] and sorted(charged[0].overlaps) == ["b", "lead"]
    # every member's window is the group's (from 2.0 s), the cost only on the one blamed
    assert [x.effect.during_s for x in charged] == pytest.approx([0.6] * 3)
    assert charged[1].effect.ops_lost == pytest.approx(6_000) and charged[1].effect.stall_s == pytest.approx(0.6)
    for uncharged in (charged[0], charged[2]):
        e = uncharged.effect
        assert (e.stall_s, e.stall_est_s, e.slow_s, e.ops_lost, e.stall_start_s) == (0, 0, 0, 0, None)
    # an event that begins where a window ends does not meet it
    alone = charge(f, [lead, Happening("next", 2.6, 2.61)])
    assert [x.overlaps for x in alone] == [(), ()] and alone[1].effect.ops_lost == 0
    # an event with no evidence does not count as the longest: one with any stands out against it
    assert blamed([Happening("a", 0, 0, None), Happening("b", 0, 0, 0.4)]).label == "b"
    assert blamed([Happening("a", 0, 0, math.nan), Happening("b", 0, 0, 0.4)]).label == "b"


def test_a_later_events_reference_leaves_out_every_second_an_earlier_group_touched():
    # a group from 1.9 s (second 1) to 2.2 s (second 2), an event at 3.5 s: seconds 1 and 2 are left out, the
    # nearest unaffected one (second 0, 7,000 ops/s) is its reference
    ops = [700] * 10 + [1000] * 50
    ops[20], ops[21] = 0, 0
    f = _series(ops)
    *_, later = charge(f, [Happening("a", 1.9, 1.91), Happening("b", 2.05, 2.2), Happening("later", 3.5, 3.51)])
    assert later.overlaps == () and later.effect.pre_ops_per_s == 7_000


def test_a_group_reaches_as_far_as_any_members_own_window():
    # the first event stalls intervals 19-21 and the series is back from 22; the second, inside that window, left work
    # the store said it finished at 2.95 s (a key freed in the background): its window, and so the group's, goes on
    # to the end of interval 29, though the series looks back sooner
    ops = [1000] * 19 + [0] * 3 + [1000] * 20
    f = _series(ops)
    assert effect(f, 1.95, 2.1).affected_end_s == pytest.approx(2.2)
    assert effect(f, 2.05, 2.1, busy_until_s=2.95).affected_end_s == pytest.approx(3.0)
    a, b = charge(f, [Happening("a", 1.95, 2.1, 0.1), Happening("b", 2.05, 2.1, busy_until_s=2.95)])
    assert a.overlaps == ("b",) and a.effect.affected_end_s == b.effect.affected_end_s == pytest.approx(3.0)
    assert a.effect.ops_lost == pytest.approx(3 * 1000)  # the area over the window: only the stall is short


def test_with_no_whole_second_before_it_a_later_events_reference_leaves_out_the_intervals_an_earlier_one_affected():
    # a stall at 0.3 s (0.3 / 0.1 is 2.9999999999999996 in floats: interval 3), an event at 0.8 s: its reference is
    # the median of intervals 0-2 and 5-7 (2,000 and 10,000 ops/s: 6,000), the stalled 3 and 4 left out
    f = _series([200, 200, 200, 0, 0, 1000, 1000, 1000, 1000, 1000])
    first, later = charge(f, [Happening("stall", 0.3, 0.31), Happening("later", 0.8, 0.81)])
    assert first.effect.stall_s == pytest.approx(0.2) and later.overlaps == ()
    assert later.effect.pre_ops_per_s == 6_000

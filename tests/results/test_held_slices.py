"""Which slices of an alternated session another target's late operations took whole (ycsbctl.results.held_slices),
on the slices of a real session and on cases built by hand."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.results.held_slices import HeldSlice, held_in, held_note, held_seconds, held_slices

NAN = math.nan


def _frames(rows: list[tuple[int, str, int, float]], slice_s: float = 0.2) -> dict[str, pd.DataFrame]:
    """Each target's slices from (slice, target, operations, switch_s) rows, at ``slice_s`` a slice."""
    table = pd.DataFrame([{"slice": k, "target": t, "t_start_s": round(k * slice_s, 6),
                           "t_end_s": round((k + 1) * slice_s, 6), "operations": n, "switch_s": sw}
                          for k, t, n, sw in rows])
    return {t: f.drop(columns="target") for t, f in table.groupby("target")}


def test_a_ci_runs_three_docker_stores_one_hiccup_holds_the_next_target_only():
    """Slices 54–66 of a CI run of memcached, postgresql and mariadb alternated at 0.2 s (30 Nov): memcached's
    slice 58 measured 34 operations, its last one ending 0.425 s past the slice; postgresql's slice 59 ended before
    any client was free, and memcached's own slice 60 too. Only postgresql's is held (memcached's is its own wait);
    mariadb's slice 57, slow (126 operations) but not empty, is none."""
    frames = _frames([(54, "postgresql", 723, 0.006), (55, "memcached", 1032, 0.0015), (56, "mariadb", 428, 0.0023),
                      (57, "mariadb", 126, 0.141), (58, "memcached", 34, 0.425), (59, "postgresql", 0, NAN),
                      (60, "memcached", 0, NAN), (61, "mariadb", 309, 0.026), (62, "postgresql", 411, 0.0019),
                      (63, "postgresql", 441, 0.0023), (64, "mariadb", 219, 0.0022), (65, "memcached", 508, 0.0002),
                      (66, "mariadb", 666, 0.0022)])
    held = held_slices(frames)
    assert held == {"postgresql": [HeldSlice(59, 11.8, 12.0, "memcached")]}
    assert held_seconds(frames["postgresql"], held["postgresql"]) == {11}  # its only slice starting in second 11
    assert held_seconds(frames["memcached"], []) == set()


def test_a_slice_is_held_only_until_the_holders_last_operation_ends():
    """A's operation runs 0.5 s past its slice (0.0–0.2 s): B's slices 1 (ends 0.4) and 2 (ends 0.6) are held,
    B's slice 4 (0.8–1.0 s, after it ended) served nothing with no one to wait on — its own silence — and A's
    own empty slice 3 is A's wait. A's operation of slice 6 ends 0.1 s into B's slice 7, which began with every
    client away: held too (what was left of it measured nothing); A's of slice 8 ends as B's slice 9 begins, which
    is then B's own."""
    frames = _frames([(0, "A", 10, 0.5), (1, "B", 0, NAN), (2, "B", 0, NAN), (3, "A", 0, NAN), (4, "B", 0, NAN),
                      (5, "A", 12, 0.001), (6, "A", 5, 0.1), (7, "B", 0, NAN), (8, "A", 5, 0.0), (9, "B", 0, NAN)])
    held = held_slices(frames)
    assert held == {"B": [HeldSlice(1, 0.2, 0.4, "A"), HeldSlice(2, 0.4, 0.6, "A"), HeldSlice(7, 1.4, 1.6, "A")]}


def test_the_latest_ending_operation_holds_whatever_slice_it_came_from():
    """A's operation of slice 0 ends at 0.9 s, B's of slice 1 at 0.5 s: C's slice 3 (ends 0.8) waits on A, though
    B's slice came later."""
    frames = _frames([(0, "A", 3, 0.7), (1, "B", 3, 0.1), (2, "B", 0, NAN), (3, "C", 0, NAN), (4, "C", 7, 0.001)])
    assert held_slices(frames) == {"B": [HeldSlice(2, 0.4, 0.6, "A")], "C": [HeldSlice(3, 0.6, 0.8, "A")]}


def test_a_second_is_left_out_only_when_each_of_its_slices_was_held():
    """Slices of 0.25 s: B's slices 1 and 2 start in second 0, slice 5 in second 1; with 1 and 2 held, second 0 is
    none of B's evidence, and with only 1 held it still is (slice 2 measured there)."""
    own = pd.DataFrame({"slice": [1, 2, 5], "t_start_s": [0.25, 0.5, 1.25]})
    both = [HeldSlice(1, 0.25, 0.5, "A"), HeldSlice(2, 0.5, 0.75, "A")]
    assert held_seconds(own, both) == {0}
    assert held_seconds(own, both[:1]) == set()
    assert held_seconds(None, both) == set()


def test_the_note_counts_the_held_slices_their_time_and_names_each_holder_once():
    held = [HeldSlice(3, 0.6, 0.8, "a"), HeldSlice(5, 1.0, 1.2, "b"), HeldSlice(7, 1.4, 1.6, "a")]
    assert held_note(held, 20) == ("3 of its 20 slices (0.6 s) served nothing: every client was still waiting on "
                                   "a, b's late operations (not its own stall; left out of its rate and its slice "
                                   "pairs)")
    assert held_note([], 20) is None


def test_a_targets_held_slices_are_read_back_from_its_own_flags_and_holders():
    """What the engine wrote (``held``, ``held_by``) read back as the slices it flagged, in order, with their edges
    and holders; a table of an older folder, without the columns, has none."""
    own = pd.DataFrame({"slice": [1, 3, 5, 7], "t_start_s": [0.2, 0.6, 1.0, 1.4], "t_end_s": [0.4, 0.8, 1.2, 1.6],
                        "held": [False, True, False, True], "held_by": [None, "a", None, "c"]})
    assert held_in(own) == [HeldSlice(3, 0.6, 0.8, "a"), HeldSlice(7, 1.4, 1.6, "c")]
    assert held_in(own.drop(columns=["held_by"])) == held_in(None) == held_in(own.iloc[0:0]) == []

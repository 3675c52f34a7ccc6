"""Verdicts of cells measured in alternated sessions, end to end: a result folder of synthetic alternated points
(tests/fixtures/alternated.py) keeps their slices (slices.parquet), and its verdicts compare them slice pair by
slice pair, so one round decides; a folder without slices (an older one, or points measured apart) is judged by
the rounds' test exactly as before."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.fixtures.alternated import Noise, record, session_slices
from tests.fixtures.experiments import build_runs
from ycsbctl.report.verdict_table import decision_text, order_text
from ycsbctl.results import load, stats
from ycsbctl.results import slice_pairs as sp
from ycsbctl.results import slice_table as st
from ycsbctl.results import verdicts as vd
from ycsbctl.results.folder import ResultFolder, RunRecord
from ycsbctl.results.schema import Manifest

PLAN = {"targets": ["a", "b"], "workloads": ["w"], "threads": [4], "baseline_target": "a"}
GAP = 1.15  # b's true rate over a's


def alternated_records(gap: float, rounds: int = 1, blocks: int = 40, seed: int = 3) -> list[RunRecord]:
    """a and b measured in ``rounds`` alternated sessions of ``blocks`` blocks (the first one warm-up), b ``gap``
    times as fast, the host's noise common to both."""
    rng = np.random.default_rng(seed)
    out = []
    for rnd in range(1, rounds + 1):
        s = session_slices(rng, {"a": 20_000.0, "b": 20_000.0 * gap}, blocks, Noise(), warmup_blocks=1)
        out += [record(t, rnd, s[t], session=f"w.t4.r{rnd}") for t in ("a", "b")]
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[RunRecord]]:
    records = alternated_records(GAP)
    f = ResultFolder.create(tmp_path_factory.mktemp("alternated"), "alt", Manifest(experiment_id="alt", plan=PLAN))
    for r in records:
        f.add_run(r)
    return f.finalize(), records


def test_the_folder_keeps_every_slice_keyed_by_its_point_and_session(folder):
    path, records = folder
    slices = load(path).slices()
    assert list(slices.columns) == list(st.COLUMNS) and len(slices) == sum(len(r.result.slices) for r in records)
    for r in records:
        mine = slices[slices["run_id"] == r.run_id]
        assert set(mine["session"]) == {r.session} and set(mine["target"]) == {r.target}
        assert mine["operations"].tolist() == r.result.slices["operations"].tolist()
        assert mine["slice"].tolist() == r.result.slices["slice"].tolist()
    assert load(path).runs.set_index("run_id")["session"].to_dict() == {r.run_id: r.session for r in records}
    csv = pd.read_csv(path / "slices.csv")  # beside it, as every table of the folder
    assert list(csv.columns) == list(slices.columns) and csv["p99_us"].tolist() == pytest.approx(slices["p99_us"])


def test_one_round_of_an_alternated_cell_is_decided_slice_by_slice(folder):
    path, records = folder
    exp = load(path)
    v = exp.verdicts()
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"].astype(bool)].iloc[0]
    a, b = (st.keyed(r.result.slices, {"run_id": r.run_id, "session": r.session}) for r in records)
    truth = sp.compare(sp.block_pairs(a, b, sp.RATE, {"w.t4.r1": 2}))  # the statistics on the engine's own tables
    assert tp["test"] == sp.TEST and tp["n"] == 1 and tp["ratio"] == pytest.approx(truth.ratio)
    assert tp["verdict"] == stats.BETTER and 1 < tp["ci_low"] < GAP < tp["ci_high"]
    p99 = v[(v["metric"] == "p99") & ~v["at_peak"].astype(bool)].iloc[0]  # lower is better: b's p99 is lower
    assert p99["test"] == sp.TEST and p99["verdict"] == stats.BETTER and p99["ci_high"] < 1
    stored = pd.read_parquet(path / "verdicts.parquet")  # what finalize wrote: the same slice-paired verdicts
    assert stored["test"].tolist() == v["test"].tolist() and stored["verdict"].tolist() == v["verdict"].tolist()
    assert "alternated slices" in decision_text(exp.manifest.plan, v)  # the report says how they were judged
    assert "taking turns every slice" in order_text(exp)
    rounds = vd.plan_verdicts(exp.manifest.plan, exp.runs)  # the same points without their slices: one round
    assert set(rounds["verdict"]) == {stats.UNDECIDED} and rounds["ci_low"].isna().all()


def test_an_equal_pair_in_one_round_is_equivalent_and_blocks_left_out_are_said():
    records = alternated_records(1.0, seed=5)
    cut = records[1].result.slices
    records[1].result.slices = cut[cut["slice"] != cut["slice"].max()]  # b's last slice lost: its block is left out
    runs = pd.DataFrame([{**r, "status": "ok", "compared": True} for r in (_row(x) for x in records)])
    slices = pd.concat([st.keyed(r.result.slices, {"run_id": r.run_id, "session": r.session}) for r in records])
    v = vd.target_verdicts(runs, "a", slices=slices)
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"].astype(bool)].iloc[0]
    assert tp["verdict"] == stats.EQUIVALENT and 1 / 1.1 < tp["ci_low"] < 1 < tp["ci_high"] < 1.1
    # 40 blocks: one warm-up, one cut short
    pairs = sp.cell_pairs(slices, runs[runs["target"] == "a"], runs[runs["target"] == "b"], "throughput_ops")
    assert pairs is not None and pairs.blocks == 38
    d = pairs.log_ratios - pairs.log_ratios.mean()  # one session: the lag-one correlation over all its blocks
    rho = min(max(float((d[1:] * d[:-1]).sum() / (d ** 2).sum()), 0.0), 0.9)
    counted = f" ({38 * (1 - rho) / (1 + rho):.0f} effective: lag-one {rho:.2f})" if rho > 0 else ""
    assert tp["decided_by"] == (f"{sp.TEST} over 38 blocks{counted}; 1 of 39 blocks left out (a side with no "
                                "operation, a slice held by another target's late operations, no figure or a block "
                                "cut short)")


def _row(r: RunRecord) -> dict:
    """The runs-table row of ``r`` the verdicts read."""
    assert r.result is not None
    return {"run_id": r.run_id, "target": r.target, "workload": r.workload, "phase": r.phase, "threads": r.threads,
            "repetition": r.repetition, "target_rate": math.nan, "session": r.session,
            "throughput_ops": r.result.throughput_ops, "all_p99_us": float(r.result.slices["p99_us"].median())}


def test_a_cell_whose_points_lack_a_session_or_slices_is_judged_by_its_rounds():
    records = alternated_records(GAP, rounds=3)
    runs = pd.DataFrame([{**_row(r), "status": "ok"} for r in records])
    slices = pd.concat([st.keyed(r.result.slices, {"run_id": r.run_id, "session": r.session}) for r in records])
    both = vd.target_verdicts(runs, "a", slices=slices)
    assert set(both["test"]) == {sp.TEST} and (both["n"] == 3).all()  # three sessions: three rounds, one test
    apart = runs.assign(session=runs["session"].where(runs["target"] == "a"))  # b's points measured apart
    judged = vd.target_verdicts(apart, "a", slices=slices)
    assert judged.equals(vd.target_verdicts(apart, "a")) and sp.TEST not in set(judged["test"])
    lost = slices[slices["run_id"] != records[-1].run_id]  # a point whose slices are gone
    assert sp.TEST not in set(vd.target_verdicts(runs, "a", slices=lost)["test"])
    failed = runs.assign(status=runs["status"].where(runs["run_id"] != records[-1].run_id, "failed"))
    two = vd.target_verdicts(failed, "a", slices=slices)  # b's third point not compared: its session drops out
    assert set(two["test"]) == {sp.TEST} and (two["n"] == 2).all()
    assert two["decided_by"].str.startswith(f"{sp.TEST} over 78 blocks").all()  # 2 × 39: none said left out


def test_a_peak_against_another_thread_counts_peak_shares_no_session_and_is_judged_by_its_rounds():
    rng = np.random.default_rng(11)
    records = []
    for threads, rates in ((4, {"a": 10_000.0, "b": 30_000.0}), (8, {"a": 20_000.0, "b": 25_000.0})):
        for rnd in (1, 2, 3):
            s = session_slices(rng, rates, 20, Noise(), warmup_blocks=1)
            records += [record(t, rnd, s[t], session=f"w.t{threads}.r{rnd}", threads=threads) for t in rates]
    runs = pd.DataFrame([{**_row(r), "status": "ok"} for r in records])
    slices = pd.concat([st.keyed(r.result.slices, {"run_id": r.run_id, "session": r.session}) for r in records])
    v = vd.target_verdicts(runs, "a", slices=slices)
    peak = v[v["at_peak"].astype(bool)].iloc[0]  # b at 4 threads against a at 8
    assert peak["threads"] == 4 and "a at 8 threads" in peak["caveat"]
    assert peak["test"] == "paired t (log ratio per round)" and peak["n"] == 3
    assert set(v.loc[~v["at_peak"].astype(bool), "test"]) == {sp.TEST}


OLD = Path(__file__).parents[1] / "data" / "folder-v0"


def test_a_folder_without_slices_is_judged_exactly_as_before(tmp_path):
    old = load(OLD)  # written before slices (and sessions) existed
    assert len(old.slices()) == 0 and list(old.slices().columns) == list(st.COLUMNS)
    assert old.runs["session"].isna().all()
    pd.testing.assert_frame_equal(old.verdicts(), vd.plan_verdicts(old.manifest.plan, old.runs))
    manifest, records = build_runs(targets=("redis", "mongodb"), threads=(8,), repetitions=3, skipped=False)
    f = ResultFolder.create(tmp_path, "rounds", manifest)
    for r in records:
        f.add_run(r)
    exp = load(f.finalize())
    assert len(exp.slices()) == 0 and not list((tmp_path / "rounds" / "parts" / "slices").glob("*.parquet"))
    v = exp.verdicts()
    pd.testing.assert_frame_equal(v, vd.plan_verdicts(exp.manifest.plan, exp.runs))
    assert sp.TEST not in set(v["test"]) and len(v) > 0


def test_the_targets_rows_and_the_references_rows_part_the_slices_table_between_them():
    rows = pd.DataFrame({"run_id": ["a", "ref", "b", "ref"], st.ROLE: [st.TARGET, st.REFERENCE, st.TARGET,
                                                                      st.REFERENCE]})
    assert st.targets_only(rows)["run_id"].tolist() == ["a", "b"]
    assert st.reference_only(rows)["run_id"].tolist() == ["ref", "ref"]
    older = rows.drop(columns=[st.ROLE])  # a table without roles holds the targets' slices only
    assert st.targets_only(older)["run_id"].tolist() == ["a", "ref", "b", "ref"] and not len(st.reference_only(older))


def test_a_points_slices_keyed_with_the_references_role_are_the_references_and_without_a_role_a_targets():
    """slice_table.keyed, as experiment/reference.py keys the reference server's slices (role ``reference``) and
    results/folder.py a target's (no role in its key): each row carries the role its key gave, so the reference's
    rows are left out of the targets' and a target's out of the reference's."""
    slices = session_slices(np.random.default_rng(7), {"x": 20_000.0}, 3)["x"]
    key = {"run_id": "reference.w.run.t4.r1", "target": "reference", "workload": "w", "phase": "run", "threads": 4,
           "target_rate": None, "repetition": 1, "session": "w.t4.r1"}
    ref = st.keyed(slices, {**key, st.ROLE: st.REFERENCE})
    assert ref[st.ROLE].tolist() == [st.REFERENCE] * len(slices) and len(slices) > 0
    assert len(st.reference_only(ref)) == len(slices) and not len(st.targets_only(ref))
    mine = st.keyed(slices, {**key, "run_id": "a.w.run.t4.r1", "target": "a"})
    assert mine[st.ROLE].tolist() == [st.TARGET] * len(slices) and not len(st.reference_only(mine))


def test_a_value_not_of_its_columns_type_is_named_in_a_read_table_and_blanked_in_one_being_built():
    """slice_table.conform: with ``strict`` (a table read from a file) a flag that is text, or a count that is text,
    is a ValueError naming the column, the value and the type wanted; without it the flag reads False and the count
    NaN."""
    row = {c: None for c in st.COLUMNS} | {"run_id": "r", "slice": 0, "operations": 10.0, "warmup": False}
    with pytest.raises(ValueError, match=r"its column warmup holds 'x', not a flag"):
        st.conform(pd.DataFrame([row | {"warmup": "x"}]), strict=True)
    with pytest.raises(ValueError, match=r"its column operations holds 'ten', not a number"):
        st.conform(pd.DataFrame([row | {"operations": "ten"}]), strict=True)
    loose = st.conform(pd.DataFrame([row | {"warmup": "x", "operations": "ten"}]))
    assert not loose["warmup"].iloc[0] and math.isnan(loose["operations"].iloc[0])

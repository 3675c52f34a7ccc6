"""Every table of a result folder has its CSV beside its parquet file: ``pandas.read_csv`` reads the
same columns and the same rows as ``pandas.read_parquet``, for a folder written by a real run."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import ycsbctl
from ycsbctl.results.tables import OPTIONAL_TABLES, TABLES


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two points (1 and 2 threads) of workload-b against basic://, telemetry and the host yardstick on (the
    suite turns the yardstick off: YCSBCTL_YARDSTICK=off)."""
    tmp = tmp_path_factory.mktemp("csv")
    r = ycsbctl("run", "workload-b", "--target", "basic://", "--threads", "1,2", "-p", "recordcount=100",
                "--duration", "1", "--warmup", "0", "--quiet", "--yardstick", "--out", str(tmp / "f"), cwd=tmp,
                timeout=300)
    assert r.returncode == 0, r.stderr
    return tmp / "f"


DERIVED = ("cells", "verdicts", "percentile_cells", "percentile_verdicts")  # verdicts.verdict_tables, when finished


def test_every_parquet_table_has_a_csv_and_no_temporary_file_is_left(folder: Path):
    parquet = sorted(p.stem for p in folder.glob("*.parquet"))
    assert parquet == sorted((*TABLES, *DERIVED, "yardstick"))  # the derived cells and verdicts, the host yardstick
    assert sorted(p.stem for p in folder.glob("*.csv")) == parquet
    assert not list(folder.rglob("*.tmp"))


@pytest.fixture(scope="module")
def disturbed(redis_server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One point of workload-b against redis-server with a disturbance: series_100ms and events have rows."""
    tmp = tmp_path_factory.mktemp("csv-disturbed")
    r = ycsbctl("run", "workload-b", "--target", redis_server.url, "--load", "--threads", "2", "-p", "recordcount=100",
                "--duration", "2", "--warmup", "0", "--no-telemetry", "--quiet", "--allow-concurrent",
                "--disturb", "hgetall:hash:1k@500ms/500ms", "--out", str(tmp / "f"), cwd=tmp, timeout=300)
    assert r.returncode in (0, 3), r.stderr  # 3: degraded because another benchmark shared this host
    return tmp / "f"


# slices.parquet has rows only where an engine session alternated a cell's targets: its CSV is read back in
# tests/results/test_slice_verdicts.py, on a folder of synthetic alternated points
@pytest.mark.parametrize("table", [t for t in TABLES if t != "slices"])
def test_the_csv_reads_back_as_the_parquet_table(folder: Path, disturbed: Path, table: str):
    folder = disturbed if table in OPTIONAL_TABLES else folder
    pq = pd.read_parquet(folder / f"{table}.parquet")
    csv = pd.read_csv(folder / f"{table}.csv")
    assert list(csv.columns) == list(pq.columns)
    assert len(csv) == len(pq) > 0
    for col in pq.columns:
        if pd.api.types.is_numeric_dtype(pq[col]) and not pd.api.types.is_bool_dtype(pq[col]):
            assert csv[col].to_numpy(dtype=float) == pytest.approx(pq[col].to_numpy(dtype=float), nan_ok=True), col
        else:  # text: equal where set (CSV cannot tell an empty string from a missing one)
            set_ = pq[col].notna()
            assert csv.loc[set_, col].astype(str).tolist() == pq.loc[set_, col].astype(str).tolist(), col


def test_a_disturbed_folder_that_lost_its_events_table_rebuilds_it_or_says_they_are_gone(disturbed: Path, tmp_path,
                                                                                         capsys):
    """events.parquet deleted: the folder was read as one of no event and its report dropped the disturbance screen,
    silently (campaign, 27 Nov). Now the table is rebuilt from parts/events/; with those gone too, one warning."""
    import shutil

    from ycsbctl.results.frames import load

    kept = load(disturbed).events
    assert len(kept) > 0
    lost = shutil.copytree(disturbed, tmp_path / "lost-table")
    for f in ("events.parquet", "events.csv"):
        (lost / f).unlink()
    rebuilt = load(lost).events
    assert sorted(rebuilt["at_s"].tolist()) == sorted(kept["at_s"].tolist()) and len(rebuilt) == len(kept)
    assert "warning" not in capsys.readouterr().err
    shutil.rmtree(lost / "parts" / "events")
    assert len(load(lost).events) == 0
    assert capsys.readouterr().err == (f"warning: {lost} planned disturbances (hgetall:hash:1k@500ms/500ms) but its "
                                       "events (events.parquet, parts/events/) are gone: no disturbance can be shown\n")

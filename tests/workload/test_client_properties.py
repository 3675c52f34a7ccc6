"""YCSB's client properties (``-p threadcount=8`` …) are read as YCSB reads them, a wrong one is refused in one
line naming what to write, and a flag of ycsbctl's own wins over the property that means the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.workload.client_properties import (
    ClientProperties,
    fold_into_flags,
    read_client_properties,
    without_consumed,
)
from ycsbctl.workload.properties import Properties


def _read(phase: str = "run", **props: str) -> ClientProperties:
    return read_client_properties(Properties({k.replace("_", "."): v for k, v in props.items()}), phase)


def test_ycsbs_client_properties_are_typed_with_their_units() -> None:
    given = read_client_properties(Properties({
        "threadcount": "8", "target": "5000", "maxexecutiontime": "30", "operationcount": "1000", "recordcount": "0",
        "hdrhistogram.percentiles": " 99, 50,99.9 ,99", "exporter": "JSONArrayMeasurementsExporter",
        "exportfile": "out.json", "measurement.interval": "both", "measurementtype": "hdrhistogram"}))
    assert given == ClientProperties(threads=8, target_ops=5000.0, max_execution_s=30.0, operations=1000, records=0,
                                     percentiles=(99.0, 50.0, 99.9), exporter="jsonarray", exportfile="out.json",
                                     measurement="both")


def test_zero_means_no_limit_and_blank_means_not_given() -> None:
    """YCSB's ``target=0`` (no throttle), ``maxexecutiontime=0`` (no time bound) and ``operationcount=0``
    (until the time) are no bound at all; a blank value is a property not given."""
    assert _read(target="0", maxexecutiontime="0", operationcount="0", threadcount=" ") == ClientProperties()
    full = "site.ycsb.measurements.exporter.JSONMeasurementsExporter"
    assert _read(exporter=full).exporter == _read(exporter="JSONMeasurementsExporter").exporter == "json"


@pytest.mark.parametrize(("props", "says"), [
    ({"threadcount": "0"}, "threadcount=0 is out of range: use -p threadcount=N with N ≥ 1 (or --threads N)"),
    ({"threadcount": "2147483648"}, "threadcount=2147483648 is out of range"),  # past Java's int
    ({"target": "-5"}, "target=-5 is out of range: use -p target=N ops/s"),
    ({"recordcount": "1e6"}, "recordcount='1e6' is not a whole number"),
    ({"fieldlength": "-1"}, "fieldlength=-1 is out of range: use -p fieldlength=N with N ≥ 0"),
    ({"redis.port": "70000"}, "redis.port=70000 is out of range: use -p redis.port=N with 1 ≤ N ≤ 65535"),
    ({"readallfields": "yes"}, "readallfields='yes' is not a boolean"),
    ({"measurement.interval": "each"}, "measurement.interval='each': use op, intended or both"),
    ({"measurementtype": "timeseries"}, "measurementtype='timeseries' is not supported"),
    ({"measurementtype": "hdr"}, "measurementtype='hdr' is unknown"),
    ({"hdrhistogram.percentiles": "50,100.5"}, "write percentiles between 0 and 100"),
    ({"hdrhistogram.percentiles": "p99"}, "write percentiles between 0 and 100"),
    ({"exporter": "CsvExporter"}, "exporter='CsvExporter' is unknown: use TextMeasurementsExporter"),
    ({"redis.cluster": "maybe"}, "redis.cluster='maybe' is not a boolean"),
    ({"db": "site.ycsb.db.RedisClient"}, "ycsbctl picks the binding from the target"),
    ({"dotransactions": "false"}, "use `ycsbctl load WORKLOAD --target T`"),
])
def test_a_wrong_property_is_one_line_naming_the_fix(props: dict[str, str], says: str) -> None:
    with pytest.raises(UserError) as caught:
        read_client_properties(Properties(props))
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_dotransactions_false_is_the_load_phase_itself() -> None:
    assert _read("load", dotransactions="false") == ClientProperties()


def test_hdr_log_files_need_a_folder_that_exists(tmp_path: Path) -> None:
    assert _read(hdrhistogram_fileoutput="true", hdrhistogram_output_path=f"{tmp_path}/ycsb-") == ClientProperties()
    with pytest.raises(UserError, match=f"{tmp_path / 'missing'} is not a folder ycsbctl can write"):
        _read(hdrhistogram_fileoutput="true", hdrhistogram_output_path=f"{tmp_path}/missing/ycsb-")


def test_a_flag_wins_over_the_property_and_a_ycsb_bound_runs_without_warm_up() -> None:
    given = ClientProperties(threads=8, target_ops=500.0, max_execution_s=30.0, operations=100, records=50,
                             percentiles=(50.0, 99.0), measurement="intended")
    none_given = dict(threads=None, target_rates=None, records=None, operations=None, duration_s=None,
                      warmup_s=None, measurement=None)
    out = fold_into_flags(none_given, given)
    assert (out["threads"], out["target_rates"], out["records"], out["operations"], out["duration_s"]) == (
        [8], [500.0], 50, 100, 30.0)
    assert out["warmup_s"] == 0.0 and out["measurement"] == "intended" and out["percentiles"] == [50.0, 99.0]
    flags = dict(threads=[2, 4], target_rates=[100.0], records=10, operations=7, duration_s=5.0, warmup_s=None,
                 measurement="op")
    out = fold_into_flags(flags, given)
    assert {k: out[k] for k in flags} == flags  # every flag kept; no YCSB bound was taken, so no warm-up forced
    assert fold_into_flags({**none_given, "warmup_s": 2.0}, given)["warmup_s"] == 2.0  # --warmup asked
    assert fold_into_flags(none_given, ClientProperties(threads=8))["warmup_s"] is None  # no bound from YCSB


def test_the_properties_the_plan_took_over_are_not_handed_to_the_engines() -> None:
    props = Properties({"threadcount": "8", "target": "100", "recordcount": "10", "readproportion": "0.5",
                        "dotransactions": "true"})
    assert dict(without_consumed(props)) == {"recordcount": "10", "readproportion": "0.5"}


def test_redis_cluster_true_is_taken_as_ycsb_spells_it() -> None:
    """The ``-p redis.cluster=true`` of docs/studies/redis-cluster.md (the Redis store insists on a cluster with it, and
    says so at a server that is none): the check of YCSB's properties refused it as "not supported" (fault43e)."""
    assert _read(**{"redis.cluster": "true"}) == _read()


def test_ycsbctls_own_binding_properties_get_no_typo_warning_and_a_typo_still_does() -> None:
    """``-p redis.wait.timeout=200`` (docs/studies/replicas.md's, and read by the Redis binding) was warned about as
    "not one YCSB knows (it would be ignored): did you mean 'redis.timeout'?" (fault43e)."""
    from ycsbctl.workload.properties import typo_hints

    assert typo_hints(["redis.wait.timeout", "redis.wait", "redis.readfrom", "redis.tls"]) == []
    assert typo_hints(["redis.wait.timout"]) == ["warning: property 'redis.wait.timout' is not one YCSB knows (it "
                                                 "would "
                                                 "be ignored): did you mean 'redis.wait.timeout'?"]

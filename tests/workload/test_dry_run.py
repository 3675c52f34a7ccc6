"""``ycsbctl dry-run``: the operations YCSB would issue, and one ``error:`` line for bad input."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.fixtures.cli import YCSBCTL, run_cli
from ycsbctl.cli import main
from ycsbctl.workload.keys import build_key_name

ROOT = Path(__file__).resolve().parents[2]
ALL_FIELDS = "field0 field1 field2 field3 field4 field5 field6 field7 field8 field9 "
# BasicDB's verbose lines, values left out (dry-run does not print them).
LINE = re.compile(
    r"^(?:READ usertable user\d+ \[ (?:<all fields>|field\d )\]"
    r"|UPDATE usertable user\d+ \[ (?:field\d |" + ALL_FIELDS + r")\]"
    r"|SCAN usertable user\d+ \d+ \[ (?:<all fields>|field\d )\]"
    r"|INSERT usertable user\d+ \[ " + ALL_FIELDS + r"\])$"
)


def dry_run(*args: str) -> list[str]:
    result = run_cli("dry-run", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout.splitlines()


def keys_of(lines: list[str]) -> list[str]:
    return [line.split(" ", 3)[2] for line in lines]


# -- what it prints ---------------------------------------------------------------------------


def test_workload_b_run_phase_has_ycsbs_read_update_ratio_and_hot_keys() -> None:
    lines = dry_run("workload-b", "--count", "100000", "--seed", "1")
    assert len(lines) == 100_000
    assert all(LINE.match(line) for line in lines)
    ops = Counter(line.split(" ", 1)[0] for line in lines)
    assert set(ops) == {"READ", "UPDATE"}
    assert ops["READ"] / len(lines) == pytest.approx(0.95, abs=0.004)  # σ ≈ 0.0007
    popular = Counter(keys_of(lines)).most_common(2)
    assert [key for key, _ in popular] == [build_key_name(144), build_key_name(610)]
    assert popular[0][0] == "user1573987489603120213"
    assert popular[0][1] / len(lines) == pytest.approx(0.0385, abs=0.003)
    assert len(set(keys_of(lines))) == 1000  # every record is read at some point


def test_load_phase_inserts_every_key_in_order() -> None:
    lines = dry_run("workload-a", "--phase", "load")
    assert len(lines) == 1000
    assert all(line.startswith("INSERT usertable ") and LINE.match(line) for line in lines)
    assert keys_of(lines) == [build_key_name(n) for n in range(1000)]


def test_load_phase_honours_insertstart_ordered_keys_and_zeropadding() -> None:
    lines = dry_run("workloada", "--phase", "load", "-p", "insertorder=ordered", "-p", "zeropadding=6",
                    "-p", "insertstart=990", "-p", "insertcount=10")
    assert keys_of(lines) == [f"user000{n}" for n in range(990, 1000)]


def test_count_caps_the_output() -> None:
    assert len(dry_run("workloadc", "--count", "17")) == 17
    assert len(dry_run("workloadc", "--phase", "load", "--count", "5")) == 5
    assert len(dry_run("workloadc", "--count", "0")) == 0


def test_run_phase_defaults_to_operationcount() -> None:
    assert len(dry_run("workloadc", "-p", "operationcount=123")) == 123


def test_a_seed_repeats_the_stream() -> None:
    first = dry_run("workload-a", "--count", "200", "--seed", "7")
    assert dry_run("workload-a", "--count", "200", "--seed", "7") == first
    assert dry_run("workload-a", "--count", "200", "--seed", "8") != first


def test_read_modify_write_is_a_read_then_an_update_of_the_same_key() -> None:
    lines = dry_run("workload-f", "--count", "2000", "--seed", "3")
    updates = [i for i, line in enumerate(lines) if line.startswith("UPDATE")]
    assert 800 < len(updates) < 1200  # about half the operations are RMW
    for i in updates:
        assert lines[i - 1].startswith("READ ") and keys_of([lines[i - 1]]) == keys_of([lines[i]])
    assert len(lines) == 2000 + len(updates)


def test_workload_e_scans_with_lengths_up_to_100_and_inserts_new_keys() -> None:
    lines = dry_run("workload-e", "--count", "5000", "--seed", "4")
    assert all(LINE.match(line) for line in lines)
    lengths = [int(line.split()[3]) for line in lines if line.startswith("SCAN")]
    assert min(lengths) == 1 and max(lengths) == 100
    inserted = keys_of([line for line in lines if line.startswith("INSERT")])
    assert inserted == [build_key_name(n) for n in range(1000, 1000 + len(inserted))]


def test_one_field_reads_print_the_field_name() -> None:
    lines = dry_run("workload-b", "--count", "50", "-p", "readallfields=false", "--seed", "5")
    assert all(re.search(r"\[ field\d \]$", line) for line in lines)


def test_output_piped_into_head_ends_quietly() -> None:
    proc = subprocess.run(f"'{YCSBCTL}' dry-run workload-b --count 1000000 | head -3", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) == 3
    assert "Traceback" not in proc.stderr


# -- bad input: one error line, exit code 2 ---------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["workload-z"],
         "unknown workload 'workload-z': use one of insert, media-items, online-status, workload-a, workload-b"),
        (["workload-a", "-P", "/nonexistent/extra.properties"],
         "property file /nonexistent/extra.properties does not exist"),
        (["workload-a", "-P", "/"], "property file / cannot be read"),
        (["workload-a", "-p", "requestdistribution=pareto"],
         "unknown requestdistribution 'pareto': use one of uniform, zipfian"),
        (["workload-a", "-p", "insertorder=random"], "unknown insertorder 'random': use hashed or ordered"),
        (["workload-a", "-p", "readproportion=-0.5"], "readproportion=-0.5 is negative"),
        (["workload-a", "-p", "readproportion=0", "-p", "updateproportion=0"], "proportions sum to 0"),
        (["workload-a", "-p", "recordcount=many"], "recordcount='many' is not a whole number"),
        (["workload-a", "-p", "operationcount=1e5"], "operationcount='1e5' is not a whole number"),
        (["workload-a", "-p", "insertstart=900", "-p", "insertcount=200"],
         "insertstart + insertcount (900 + 200) > recordcount (1000)"),
        (["workload-a", "-p", "recordcount"], "-p 'recordcount' is malformed: write -p key=value"),
        (["workload-a", "-p", "updateproportion=lots"], "updateproportion='lots' is not a number"),
        (["workload-a", "-p", "operationcount="], "operationcount is required for the run phase"),
        (["workload-a", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=/nonexistent/h.txt"],
         "cannot read field length histogram file '/nonexistent/h.txt'"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_code_2(args: list[str], expected: str) -> None:
    result = CliRunner().invoke(main, ["dry-run", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert expected in lines[0]


def test_the_installed_command_prints_one_error_line() -> None:
    proc = subprocess.run([str(YCSBCTL), "dry-run", "workload-b", "-p", "requestdistribution=gaussian"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "error: unknown requestdistribution 'gaussian': use one of uniform, zipfian, latest, hotspot, "
        "sequential, exponential"
    ]


def test_missing_workload_path_lists_the_known_names() -> None:
    result = CliRunner().invoke(main, ["dry-run", "./no/such/workload"])
    assert result.exit_code == 2
    assert "or the path of a YCSB property file" in result.stderr


def test_values_prints_what_inserts_and_updates_write_as_basicdb() -> None:
    result = CliRunner().invoke(main, ["dry-run", "workload-a", "--phase", "load", "--count", "2", "--values",
                                       "-p", "fieldcount=2", "-p", "fieldlength=30"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("INSERT usertable user6284781860667377211 [ field0=")
    value = lines[0].split(" field0=", 1)[1][:30]
    assert lines[0].endswith(" ]") and f"field0={value} field1=" in lines[0]
    assert all(0x20 <= ord(ch) <= 0x7F for ch in value)

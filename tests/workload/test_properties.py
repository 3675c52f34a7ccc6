"""YCSB property files: parsing, precedence, workload name resolution, typed getters."""

from __future__ import annotations

from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.workload.properties import (
    WORKLOADS_DIR,
    Properties,
    known_workloads,
    load_properties,
    parse_overrides,
    parse_properties,
    read_property_file,
    resolve_workload,
)

# -- parsing ----------------------------------------------------------------------------------


def test_parses_ycsb_property_syntax() -> None:
    text = (
        "# a comment\n"
        "! another comment\n"
        "\n"
        "   \n"
        "recordcount=1000\n"
        "operationcount = 2000   \n"
        "table: accounts\n"
        "fieldcount 5\n"
        "  requestdistribution=zipfian\t\n"
        "empty=\n"
        "bare\n"
        "long=one,\\\n"
        "     two\n"
        "url=mongodb://h:1/ycsb?w=1#not-a-comment\n"
    )
    props = parse_properties(text)
    assert props == {
        "recordcount": "1000",
        "operationcount": "2000   ",  # Java keeps trailing blanks (the typed getters ignore them)
        "table": "accounts",
        "fieldcount": "5",
        "requestdistribution": "zipfian\t",
        "empty": "",
        "bare": "",
        "long": "one,two",
        "url": "mongodb://h:1/ycsb?w=1#not-a-comment",
    }


def test_a_later_line_overrides_an_earlier_one() -> None:
    assert parse_properties("a=1\na=2\n") == {"a": "2"}


def test_shipped_workload_files_parse_with_ycsbs_values() -> None:
    b = read_property_file(WORKLOADS_DIR / "workloadb")
    assert b["readproportion"] == "0.95" and b["updateproportion"] == "0.05"
    assert b["requestdistribution"] == "zipfian" and b["recordcount"] == "1000"
    e = read_property_file(WORKLOADS_DIR / "workloade")
    assert e["scanproportion"] == "0.95" and e["maxscanlength"] == "100"


# -- precedence -------------------------------------------------------------------------------


def test_precedence_is_workload_then_p_files_in_order_then_p_pairs(tmp_path: Path) -> None:
    first = tmp_path / "first.properties"
    first.write_text("recordcount=2000\noperationcount=3000\nfieldcount=4\n")
    second = tmp_path / "second.properties"
    second.write_text("operationcount=4000\nfieldcount=6\n")
    props = load_properties("workload-b", [str(first), str(second)], ["fieldcount=8"])
    assert props["readproportion"] == "0.95"  # from the workload file
    assert props["recordcount"] == "2000"  # first -P beats the workload file
    assert props["operationcount"] == "4000"  # second -P beats the first
    assert props["fieldcount"] == "8"  # -p beats every file


def test_overrides_split_on_the_first_equals_sign_and_trim() -> None:
    assert parse_overrides(["mongodb.url=mongodb://h/ycsb?w=1", " table = t1 ", "empty="]) == {
        "mongodb.url": "mongodb://h/ycsb?w=1",
        "table": "t1",
        "empty": "",
    }


@pytest.mark.parametrize("pair", ["recordcount", "=5", " = 5", ""])
def test_a_malformed_override_names_the_fix(pair: str) -> None:
    with pytest.raises(UserError, match="-p key=value"):
        parse_overrides([pair])


# -- workload names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "file"),
    [("workload-b", "workloadb"), ("workloadb", "workloadb"), ("b", "workloadb"), ("B", "workloadb"),
     ("workload_a", "workloada"), ("insert", "insert"), ("workload-f", "workloadf")],
)
def test_workload_names_resolve_to_shipped_files(name: str, file: str) -> None:
    assert resolve_workload(name) == WORKLOADS_DIR / file


def test_a_path_is_used_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "b"  # an existing path, even one named like a shipped workload
    path.write_text("recordcount=7\n")
    assert resolve_workload(str(path)) == path
    assert load_properties(str(path))["recordcount"] == "7"


def test_unknown_workload_lists_the_known_ones() -> None:
    with pytest.raises(UserError) as err:
        resolve_workload("workload-z")
    message = str(err.value)
    assert "unknown workload 'workload-z'" in message
    for name in ("workload-a", "workload-b", "workload-f", "insert"):
        assert name in message
    assert "\n" not in message


def test_known_workloads_are_a_to_f_and_insert() -> None:
    assert known_workloads() == ["insert", "media-items", "online-status"] + [f"workload{c}" for c in "abcdef"]


def test_a_directory_is_not_a_workload(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not a readable file"):
        resolve_workload(str(tmp_path))


def test_missing_property_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        read_property_file(tmp_path / "nope.properties")


def test_unreadable_property_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot be read"):
        read_property_file(tmp_path)  # a directory: open() fails even for root


# -- typed getters ----------------------------------------------------------------------------


def test_typed_getters_parse_and_default() -> None:
    p = Properties(n="42 ", x="0.25", yes="TRUE", no="false", blank="")
    assert p.get_int("n") == 42 and p.get_int("blank", 7) == 7 and p.get_int("absent", 3) == 3
    assert p.get_float("x", 1.0) == 0.25 and p.get_float("absent", 1.5) == 1.5
    assert p.get_bool("yes", False) is True and p.get_bool("no", True) is False
    assert p.get_bool("absent", True) is True


@pytest.mark.parametrize(("getter", "raw"), [("get_bool", "nope"), ("get_bool", "1"), ("get_int", "1_000"),
                                             ("get_int", "\u0661"), ("get_float", "nan"), ("get_float", "inf")])
def test_typed_getters_refuse_what_java_would_misread_or_python_would_stretch(getter: str, raw: str) -> None:
    """``Boolean.parseBoolean("nope")`` is silently false and Python's int() takes ``1_000`` and Arabic
    digits: each is a one-line error naming the property instead."""
    with pytest.raises(UserError, match=r"property k=.* is not a"):
        getattr(Properties(k=raw.encode().decode("unicode_escape")), getter)("k", *([] if getter == "get_int" else [0]))


def test_typed_getters_name_the_bad_property() -> None:
    p = Properties(recordcount="1e5", readproportion="half")
    with pytest.raises(UserError, match=r"recordcount='1e5' is not a whole number"):
        p.get_int("recordcount")
    with pytest.raises(UserError, match=r"readproportion='half' is not a number"):
        p.get_float("readproportion", 0.5)
    with pytest.raises(UserError, match="property operationcount is required"):
        p.get_int("operationcount")

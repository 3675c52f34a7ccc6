"""A workload variant (``-p online.structure=hash,set`` sweeps two) is written in a plan as
``online-status[online.structure=hash]`` and read back whole; its run ids and tables name it
``online-status-hash`` with nothing that would break a dotted run id; the many-store study's tests are
told apart from other sweep axes."""

from __future__ import annotations

import pytest

from ycsbctl.results import variants  # the module, not its ``test_of``: pytest would collect that


@pytest.mark.parametrize(("workload", "settings"), [
    ("online-status", {"online.structure": "hash"}),
    ("online-status", {"online.structure": "zset", "online.batch": "100"}),  # order kept
    ("media-items", {"media.operation": "text_prefix"}),
    ("workloads/my-file", {"fieldlength": "1-2"}),
])
def test_a_variant_written_in_a_plan_reads_back_as_it_was(workload: str, settings: dict[str, str]) -> None:
    text = variants.variant(workload, settings)
    assert text.startswith(f"{workload}[") and text.endswith("]")
    back = variants.split_variant(text)
    assert back == (workload, settings) and list(back[1]) == list(settings)


def test_a_plain_workload_is_its_own_name_with_no_settings() -> None:
    assert variants.variant("workload-b", {}) == "workload-b"
    assert variants.split_variant("workload-b") == ("workload-b", {})
    assert variants.split_variant("odd[name]") == ("odd[name]", {})  # brackets without a setting: a name


def test_run_ids_name_a_variant_by_its_values_with_no_dot_in_them() -> None:
    assert variants.variant_name("online-status", {"online.structure": "hash"}) == "online-status-hash"
    assert variants.variant_name("online-status", {"a": "zset", "b": "100"}) == "online-status-zset-100"
    assert variants.variant_name("workloadb", {}) == "workloadb"
    name = variants.variant_name("w", {"path": "/tmp/a.b c", "r": "0.5"})
    assert name == "w-_tmp_a_b_c-0_5" and "." not in name  # a run id is dotted: target.workload.phase.tN.rN


def test_a_legend_says_a_variants_values() -> None:
    assert variants.variant_label({"online.structure": "hash", "online.batch": "100"}) == "hash, 100"


def test_only_the_many_store_studys_axis_makes_tests() -> None:
    assert variants.test_of({"media.operation": "text"}) == "text"
    assert variants.test_of({"online.structure": "hash"}) is None and variants.test_of({}) is None

"""The SQL stores' table layout (stores/sql/layout.py): the workload's field names from its properties,
as YCSB names them."""

from __future__ import annotations


def test_the_workloads_field_names_are_its_prefix_and_0_to_fieldcount_less_1_ten_when_unset_or_empty():
    from ycsbctl.stores.sql.layout import field_names, workload_fields

    assert workload_fields({}) == [f"field{i}" for i in range(10)]
    assert workload_fields({"fieldcount": ""}) == [f"field{i}" for i in range(10)]
    assert workload_fields({"fieldcount": "3", "fieldnameprefix": "f_"}) == ["f_0", "f_1", "f_2"]
    assert field_names({"fieldcount": "2"}) == ("FIELD0", "FIELD1")

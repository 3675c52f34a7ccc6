"""Where make test's two workers run a test (tests/fixtures/parallel.py): a module stays whole, the Docker engine's
users share one group, so do the Elasticsearch node's, and a pytest without ``--dist loadgroup`` gets no scheduler of
ours."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.parallel import DOCKER_FIXTURES, ELASTICSEARCH, group_of, pytest_xdist_make_scheduler

TESTS = Path(__file__).resolve().parent


class _Config:
    """What xdist's scope scheduler reads of pytest's config: ``--dist`` and two workers (``--tx 2*popen``)."""

    def __init__(self, dist: str) -> None:
        self.values: dict[str, Any] = {"dist": dist, "tx": ["2*popen"], "loadscopereorder": False}

    def getvalue(self, name: str) -> Any:
        return self.values[name]


def test_the_modules_that_name_a_docker_fixture_are_one_group_and_every_other_module_its_own() -> None:
    modules = sorted(str(p.relative_to(TESTS.parent)) for p in TESTS.rglob("test_*.py"))
    docker = [m for m in modules if group_of(m) == "docker"]
    assert "tests/provision/test_docker.py" in docker and "tests/telemetry/test_container.py" in docker
    assert all(any(name in (TESTS.parent / m).read_text() for name in DOCKER_FIXTURES) for m in docker)
    node = [m for m in modules if group_of(m) == ELASTICSEARCH]
    # the session's Elasticsearch node: taken as a parameter, or asked for by name from a table of fixtures
    assert {"tests/stores/test_elasticsearch.py", "tests/workload/test_media_items_elasticsearch.py",
            "tests/experiment/test_faults_load_twice.py"} <= set(node)
    assert all(ELASTICSEARCH in (TESTS.parent / m).read_text() for m in node)
    assert "tests/provision/test_docker_study_stores.py" in docker  # Docker's own Elasticsearch: the docker group
    assert all(group_of(m) == m for m in modules if m not in docker and m not in node)


def test_loadgroup_schedules_by_module_and_any_other_dist_keeps_xdists_scheduler() -> None:
    scheduler = pytest_xdist_make_scheduler(_Config("loadgroup"), None)
    split = scheduler._split_scope
    assert split("tests/report/test_compare.py::test_a[x::y]") == split("tests/report/test_compare.py::test_b")
    assert split("tests/report/test_compare.py::test_a") == "tests/report/test_compare.py"
    assert (
        split("tests/provision/test_docker.py::test_a") == split("tests/telemetry/test_container.py::C::t") == "docker"
    )
    assert split("tests/stores/test_elasticsearch.py::test_a") == split(
        "tests/workload/test_media_items_elasticsearch.py::test_b") == "elasticsearch"
    assert pytest_xdist_make_scheduler(_Config("load"), None) is None


def test_a_plain_pytest_has_no_scheduler_of_ours(pytestconfig: pytest.Config) -> None:
    assert pytest_xdist_make_scheduler(pytestconfig, None) is None  # "no" here, and in an xdist worker too


class _Item:
    """What the marking hook reads of a collected test: its id, and the marks it is given."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid, self.marks = nodeid, []

    def add_marker(self, mark: str) -> None:
        self.marks.append(mark)


def test_the_one_cpu_modules_are_there_share_no_session_engine_or_node_and_only_their_tests_are_marked() -> None:
    from tests.fixtures import one_cpu
    from tests.fixtures.parallel import pytest_collection_modifyitems

    assert len(one_cpu.MODULES) > 100 and all((TESTS.parent / m).is_file() for m in one_cpu.MODULES)
    assert all(group_of(m) == m for m in one_cpu.MODULES)  # never the Docker engine's or the Elasticsearch node's
    listed, other = sorted(one_cpu.MODULES)[0], "tests/experiment/test_sweep_axis.py"
    assert other not in one_cpu.MODULES  # a module that runs points beside its servers stays on the workers
    items = [_Item(f"{listed}::test_a"), _Item(f"{other}::test_b"), _Item(f"{listed}::test_c[x]")]
    pytest_collection_modifyitems(_Config("loadgroup"), items)  # type: ignore[arg-type]
    assert [i.marks for i in items] == [[one_cpu.MARK], [], [one_cpu.MARK]]

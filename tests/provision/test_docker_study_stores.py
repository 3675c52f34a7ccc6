"""The many-store study's servers (Tarantool, …) on the docker backend, in images built from this host's
Debian packages by infra/docker/build_local_images.py (no registry here), driven through the CLI as a user
would: ``up``, ``load``, ``run``, ``down``.

Truths: the Docker engine (labels, the image's flavor, nothing left after ``down``) and each server's own
request counters for what the engine counted (Tarantool's ``box.stat()``, ClickHouse's ``system.events`` and
``system.query_log``, Sphinx's ``SHOW STATUS``, Elasticsearch's ``_stats``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.fixtures.cli import CONCURRENT, completed, returns, ycsbctl
from tests.fixtures.docker import load_image_builder, our_containers
from tests.fixtures.server_counters import (
    elasticsearch_counts,
    sphinx_counters,
    tarantool_counters,
    tarantool_delta,
)
from tests.fixtures.waiting import wait_until
from ycsbctl.experiment.url_datasets import SAMPLED_KEYS
from ycsbctl.stores.clickhouse.admin import events as clickhouse_events
from ycsbctl.stores.clickhouse.admin import query as clickhouse_query
from ycsbctl.stores.sphinx.admin import documents as sphinx_documents

pytestmark = pytest.mark.docker
RECORDS, OPERATIONS = 300, 1000
STUDY_IMAGES = ("tarantool", "clickhouse", "sphinx", "elasticsearch")  # catalogue target = image name
WORKLOADS = {"tarantool": "workload-b", "clickhouse": "workload-c", "sphinx": "workload-c",  # (no updates there)
             "elasticsearch": "workload-b"}
# Elasticsearch's run has one client: two updates of one document at once make it get the document again (a
# retry on conflict), which its counters would show beside the engine's operations
RUN_THREADS = {"elasticsearch": "1"}


@pytest.fixture(scope="module")
def study_images(docker_client) -> dict[str, str]:
    try:
        return load_image_builder().build_all(docker_client, only=list(STUDY_IMAGES))
    except FileNotFoundError as exc:
        pytest.skip(f"{exc}, or run `scripts/setup.sh --for-tests`")


def _tarantool_checks(url: str, before: Any, load: dict[str, dict[str, int]], run: dict[str, dict[str, int]],
                      between: Any) -> None:
    loaded = tarantool_delta(before, between)
    assert load["INSERT"] == {"OK": RECORDS} and loaded["INSERT"] == RECORDS
    ran = tarantool_delta(between, tarantool_counters(url))
    assert ran["SELECT"] == sum(run["READ"].values()) == run["READ"]["OK"]
    assert ran["UPDATE"] == sum(run["UPDATE"].values()) == run["UPDATE"]["OK"]
    assert ran["INSERT"] == ran["ERROR"] == 0


def _clickhouse_checks(url: str, before: Any, load: dict[str, dict[str, int]], run: dict[str, dict[str, int]],
                       between: Any) -> None:
    """The inserts the engine counted are the server's InsertQuery events; its reads are the point SELECTs the
    server logged as finished (system.query_log; the CLI's own questions, version and settings, are others; the load's
    check of the keys it would insert is SAMPLED_KEYS point reads)."""
    assert load["INSERT"] == {"OK": RECORDS} and between["InsertQuery"] - before.get("InsertQuery", 0) == RECORDS
    assert clickhouse_events(url).get("InsertQuery", 0) == between["InsertQuery"]
    logged = (
        "SELECT count() FROM system.query_log WHERE type = 2 AND query LIKE 'SELECT * FROM usertable WHERE YCSB_KEY = "
        "%'"
    )
    # and before the load, the load's own check that the URL does not hold its keys yet read SAMPLED_KEYS of them
    wait_until(lambda: int(clickhouse_query(url, logged)[0][0]) == run["READ"]["OK"] + SAMPLED_KEYS
               and run["READ"]["OK"] == OPERATIONS,
               what=f"{OPERATIONS} point reads in system.query_log",
               timeout_s=60)  # the log is flushed every 7.5 s, later on a host other work keeps busy


def _sphinx_checks(url: str, before: Any, load: dict[str, dict[str, int]], run: dict[str, dict[str, int]],
                   between: Any) -> None:
    """searchd counts each read as a search (SHOW STATUS), and the index holds the documents loaded."""
    assert load["INSERT"] == {"OK": RECORDS} and sphinx_documents(url) == RECORDS
    ran = sphinx_counters(url)
    assert ran["command_search"] - between["command_search"] == run["READ"]["OK"] == OPERATIONS


def _elasticsearch_counts(url: str) -> dict[str, int]:
    try:
        return elasticsearch_counts(url)
    except KeyError:  # no index yet: the load makes it
        return dict.fromkeys(("get_exists", "get_missing", "indexed", "index_failed", "deleted", "searches"), 0)


def _elasticsearch_checks(url: str, before: Any, load: dict[str, dict[str, int]], run: dict[str, dict[str, int]],
                          between: Any) -> None:
    """The index's own _stats: each insert one document indexed; each read a get, each update a get and an index."""
    assert load["INSERT"] == {"OK": RECORDS} and between["indexed"] - before["indexed"] == RECORDS
    after = _elasticsearch_counts(url)
    reads, updates = run["READ"].get("OK", 0), run["UPDATE"].get("OK", 0)
    assert after["get_exists"] - between["get_exists"] == reads + updates == OPERATIONS
    assert after["indexed"] - between["indexed"] == updates and after["get_missing"] == between["get_missing"]


COUNTERS: dict[str, Callable[[str], Any]] = {"tarantool": tarantool_counters, "clickhouse": clickhouse_events,
                                             "sphinx": sphinx_counters, "elasticsearch": _elasticsearch_counts}
CHECKS: dict[str, Callable[..., None]] = {"tarantool": _tarantool_checks, "clickhouse": _clickhouse_checks,
                                          "sphinx": _sphinx_checks, "elasticsearch": _elasticsearch_checks}
FLAVORS = {"tarantool": "tarantool", "clickhouse": "clickhouse", "sphinx": "sphinx", "elasticsearch": "elasticsearch"}
SHOWN = {"tarantool": "Tarantool 2.6.0 (wal_mode=none)", "clickhouse": "ClickHouse 18.16.1 (MergeTree)",
         "sphinx": "Sphinx 2.2.11 (real-time index, no binary log)",
         "elasticsearch": "Elasticsearch 6.8.23 OSS (Java 17"}


@pytest.mark.parametrize("target", STUDY_IMAGES)
def test_a_study_store_in_its_local_image_counts_what_the_engine_sent_and_down_leaves_no_container(
        target, docker_client, study_images, state_dir):  # noqa: F811 - the imported fixture
    up = ycsbctl("up", target, "--backend", "docker", "--image", study_images[target], "--host-network")
    assert up.returncode == 0, up.stderr
    try:
        label, url, where = up.stdout.rstrip("\n").split("\t")[:3]
        (container,) = our_containers(docker_client)
        assert label == target and container.labels["ycsbctl.target"] == target
        assert container.image.labels["ycsbctl.flavor"] == FLAVORS[target]
        assert where.startswith(f"docker, container {container.id[:12]}") and SHOWN[target] in where
        assert urlsplit(url).hostname == "127.0.0.1"

        before = COUNTERS[target](url)
        load = ycsbctl("load", WORKLOADS[target], "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "2",
                       "--processes", "1", CONCURRENT)
        assert completed(load), load.stderr
        between = COUNTERS[target](url)
        run = ycsbctl("run", WORKLOADS[target], "--target", url, "-p", f"recordcount={RECORDS}", "--threads",
                      RUN_THREADS.get(target, "2"),
                      "--processes", "1", "--operations", str(OPERATIONS), "--no-telemetry", CONCURRENT)
        assert completed(run), run.stderr
        ops = returns(run.stdout)
        assert set(ops) <= {"READ", "UPDATE"} and sum(map(sum, (v.values() for v in ops.values()))) == OPERATIONS
        CHECKS[target](url, before, returns(load.stdout), ops, between)
    finally:
        down = ycsbctl("down", "--all")
    assert down.returncode == 0 and f"{target}: stopped container {container.id[:12]}" in down.stdout
    assert our_containers(docker_client) == []

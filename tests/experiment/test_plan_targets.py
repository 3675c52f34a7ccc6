"""``--targets`` lists: names and URLs mixed, each target measured (a URL once swallowed the rest)."""

from __future__ import annotations

from ycsbctl.experiment.targets import split_targets


def test_a_list_may_mix_urls_and_names():
    assert split_targets(["redis://127.0.0.1:7000/0,basic://"]) == ["redis://127.0.0.1:7000/0", "basic://"]
    assert split_targets(["redis://127.0.0.1:7000/0,basic,ferretdb"]) == ["redis://127.0.0.1:7000/0", "basic://",
                                                                          "ferretdb"]
    assert split_targets(["redis,valkey", "basic"]) == ["redis", "valkey", "basic://"]


def test_a_mongodb_url_keeps_its_host_list_up_to_the_next_url():
    assert split_targets(["mongodb://a:1,b:2/ycsb?w=1,redis://x:1/0"]) == ["mongodb://a:1,b:2/ycsb?w=1",
                                                                           "redis://x:1/0"]
    assert split_targets(["mongodb://a:1,b:2/ycsb", "redis"]) == ["mongodb://a:1,b:2/ycsb", "redis"]


def test_repeats_are_measured_once_in_the_order_given():
    assert split_targets(["basic://,redis", "redis", "basic"]) == ["basic://", "redis"]


def test_the_ports_a_url_names_are_what_urllib_reads_of_each_host():
    """given_ports against urllib's own reading of each host of a list (as a one-host URL), and a URL with no port
    naming none: the port 0 check reads what the stores' URL parsers read."""
    from urllib.parse import urlsplit

    from ycsbctl.experiment.targets import given_ports

    for url in ("redis://127.0.0.1:0", "redis://:pw@h:6390/0", "redis://[::1]:7000", "mongodb://u:p@a:1,b:0,c/ycsb",
                "redis://h/0", "basic://", "mongodb://a,[::1]:27018/db"):
        hosts = urlsplit(url).netloc.rpartition("@")[2].split(",")
        truth = [urlsplit(f"x://{h}").port for h in hosts]
        assert given_ports(url) == [p for p in truth if p is not None], url


def test_an_empty_target_is_refused_not_read_as_none_given():
    import pytest

    from ycsbctl.errors import UserError

    for values in ([""], [" "], ["redis,"], ["basic://,,redis"], ["redis", ""]):
        with pytest.raises(UserError, match="a target is empty"):
            split_targets(values)


def test_two_targets_of_one_address_go_by_two_names_and_a_lone_one_by_its_address():
    """Two databases of one server, two files of one store, two users of one server, a host list: each target of
    a plan has a name of its own (as many names as targets), and a target alone keeps its address's name."""
    from ycsbctl.experiment.targets import target_label, target_labels

    for targets in (["redis://127.0.0.1:6399/0", "redis://127.0.0.1:6399/1"],
                    ["redis://127.0.0.1:6399", "redis://127.0.0.1:6399/1", "basic://"],
                    ["redis://a:x@127.0.0.1:6399", "redis://b:y@127.0.0.1:6399"],
                    ["sqlite:///tmp/a.db", "sqlite:///tmp/b.db", "sqlite:///tmp/c/a.db"],
                    ["mongodb://127.0.0.1:1,127.0.0.1:2/ycsb", "mongodb://127.0.0.1:1/ycsb"]):
        labels = target_labels(targets)
        assert len(set(labels)) == len(targets), labels
        assert [target_label(t, targets) for t in targets] == labels
        assert not any(secret in x for x in labels for secret in ("x@", "y@", ":x", ":y")), labels
    assert target_labels(["redis://127.0.0.1:6399/0", "redis://127.0.0.1:6399/1"]) == [
        "redis-127-0-0-1-6399-db0", "redis-127-0-0-1-6399-db1"]
    assert target_label("redis://127.0.0.1:6399/1") == "redis-127-0-0-1-6399" == target_label(
        "redis://127.0.0.1:6399/1", ["redis://127.0.0.1:6399/1", "redis://127.0.0.1:7000/1"])
    assert target_label("sqlite:///tmp/a.db") == "sqlite"


def test_a_study_of_two_databases_of_one_server_has_two_targets_and_their_points_two_run_ids():
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.experiment.resolve import resolve_study

    study = resolve_study(Plan(workloads=["workload-b"], targets=["redis://127.0.0.1:6399/0",
                                                                  "redis://127.0.0.1:6399/1"], threads=[1]))
    assert [t.label for t in study.targets] == ["redis-127-0-0-1-6399-db0", "redis-127-0-0-1-6399-db1"]
    loads = [study.dataset_load(t, study.first).run_id for t in study.targets]
    assert len(set(loads)) == 2, loads


def test_a_plan_not_made_from_target_options_has_its_urls_checked_as_target_options_are():
    """A plan ``rerun`` rebuilds from a manifest (``rerun DIR --target redis=redis://127.0.0.1:0``) or a study file
    gives is resolved by the same function as ``run``'s, which checks each URL as ``--target`` does: port 0 (which
    every store's "port or its default" read as 6379, 27017…) refused in one line, before anything starts."""
    import pytest

    from ycsbctl.errors import UserError
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.experiment.resolve import resolve_study

    for url in ("redis://127.0.0.1:0/0", "mongodb://127.0.0.1:27017,127.0.0.1:0/ycsb"):
        with pytest.raises(UserError) as e:
            resolve_study(Plan(workloads=["workload-b"], targets=["redis://127.0.0.1:6399/0", url], threads=[1]))
        assert "port 0 is no server's port" in str(e.value) and "\n" not in str(e.value)

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

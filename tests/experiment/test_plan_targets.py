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

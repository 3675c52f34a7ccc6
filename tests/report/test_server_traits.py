"""What the report says of the servers' traits (report/server_traits.py): I/O threads and shared cores,
and a server's endpoint from its runs."""

from __future__ import annotations


def test_one_server_with_several_io_threads_is_said_alone():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import trait_differences

    def exp(io_threads: int) -> SimpleNamespace:
        servers = {"valkey": {"kind": "valkey", "traits": {"server": "Valkey", "version": "9.1.2",
                                                           "io_threads": io_threads}}}
        return SimpleNamespace(manifest=SimpleNamespace(servers=servers, host={"cores": 2}), docs={},
                               targets=["valkey"])

    said = trait_differences(exp(4))  # type: ignore[arg-type]
    assert len(said) == 1 and said[0].startswith("I/O threads: valkey: io-threads 4. A server with more than one I/O "
                                                 "thread shares the cores with the client on this host's 2 cores")
    assert trait_differences(exp(1)) == []  # type: ignore[arg-type]
    assert trait_differences(exp(2))[0].startswith("I/O threads: valkey: io-threads 2. ")  # type: ignore[arg-type]


def test_a_servers_endpoint_from_its_runs_only_comes_after_the_plans_and_one_io_thread_reads_too():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import server_endpoints, traits_text

    exp = SimpleNamespace(manifest=SimpleNamespace(servers={"b": {"kind": "redis"}, "a": {"kind": "valkey"}}),
                          docs={"r1": {"target": "c", "endpoint": {"kind": "memcached"}},
                                "r2": {"target": "a", "endpoint": {"kind": "other"}}}, targets=["a", "b"])
    assert server_endpoints(exp) == {"a": {"kind": "valkey"}, "b": {"kind": "redis"},
                                     "c": {"kind": "memcached"}}  # type: ignore[arg-type]
    assert list(server_endpoints(exp)) == ["a", "b", "c"]  # type: ignore[arg-type]
    one = {"traits": {"io_threads": 1, "io_threads_do_reads": "no"}}
    assert traits_text(one) == "io-threads 1"
    one["traits"]["io_threads"] = 2
    assert traits_text(one) == "io-threads 2 (writes only: io-threads-do-reads no)"


def test_io_threads_are_said_for_one_server_of_two_and_shared_cores_only_for_a_server_on_this_host():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import trait_differences

    def exp(servers: dict) -> SimpleNamespace:
        return SimpleNamespace(manifest=SimpleNamespace(servers=servers, host={"cores": 2}), docs={},
                               targets=list(servers))

    alone = exp({"v": {"traits": {"io_threads": 2}}})
    said = trait_differences(alone)  # type: ignore[arg-type]
    assert len(said) == 1 and said[0].startswith("I/O threads: v: io-threads 2. A server with more than one")
    # the server with four I/O threads runs on a host of its own: nothing shares the client's cores
    remote = exp({"a": {"traits": {"io_threads": 1}}, "b": {"host": "10.0.0.2", "traits": {"io_threads": 4}}})
    assert trait_differences(remote) == ["I/O threads: a: io-threads 1; b: io-threads 4."]  # type: ignore[arg-type]

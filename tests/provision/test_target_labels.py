"""A target is a label + a server kind + settings: parsing, the plan's checks, the command line each
server gets, the server's own refusal in one line, what INFO says about a server, and the report's
"what differs" sentences. No server here (tests/provision/test_peers.py starts real ones)."""

from __future__ import annotations

import pytest

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.provision import catalog
from ycsbctl.provision.base import Endpoint
from ycsbctl.provision.target_spec import (
    infer_kind,
    parse_binaries,
    parse_server_config,
    parse_target_kinds,
    refused_setting,
    unknown_flag,
)
from ycsbctl.stores.redis.info import server_traits
from ycsbctl.stores.registry import server_kind
from ycsbctl.telemetry import bottleneck as bn


@pytest.mark.parametrize(("label", "kind"), [
    ("redis", "redis"), ("redis-lazyfree", "redis"), ("redis6", "redis6"), ("redis6-io2", "redis6"),
    ("valkey-io2", "valkey"), ("valkey_io2", "valkey"), ("dragonfly-2t", "dragonfly"),
])
def test_a_label_beginning_with_a_kind_and_a_dash_is_that_kind(label: str, kind: str) -> None:
    assert infer_kind(label) == kind


@pytest.mark.parametrize("label", ["fast", "redisx", "lazy-redis"])
def test_a_label_naming_no_kind_is_one_line_saying_how_to_give_it(label: str) -> None:
    with pytest.raises(UserError) as err:
        Plan(workloads=["b"], targets=["redis", label])
    assert err.value.exit_code == 2
    assert f"--target-kind {label}=redis" in str(err.value)
    assert "\n" not in str(err.value)


def test_target_kind_names_the_kind_of_any_label() -> None:
    plan = Plan(workloads=["b"], targets=["base", "lazy"], target_kinds=parse_target_kinds(["base=redis,lazy=redis"]),
                server_settings=parse_server_config(["lazy:lazyfree-lazy-user-del=yes"]))
    assert plan.spec("lazy").kind == "redis" and plan.spec("lazy").settings == {"lazyfree-lazy-user-del": "yes"}
    assert plan.spec("base").settings == {}
    with pytest.raises(UserError, match="not a server kind"):
        parse_target_kinds(["x=cassandra"])


def test_server_config_is_label_colon_key_equals_value_and_the_last_value_wins() -> None:
    got = parse_server_config(["valkey-io2:io-threads=2", "redis-x:save=900 1", "valkey-io2:io-threads=4",
                               "redis-x:--appendonly=yes"])
    assert got == {"valkey-io2": {"io-threads": "4"}, "redis-x": {"save": "900 1", "appendonly": "yes"}}
    for bad in ("io-threads=2", "valkey-io2:io-threads", "valkey-io2:=2", "a.b:x=1"):
        with pytest.raises(UserError) as err:
            parse_server_config([bad])
        assert err.value.exit_code == 2


@pytest.mark.parametrize("key", ["port", "bind", "dir", "requirepass", "daemonize"])
def test_what_ycsbctl_sets_itself_cannot_be_a_setting(key: str) -> None:
    with pytest.raises(UserError, match=f"ycsbctl sets {key} itself"):
        parse_server_config([f"redis-x:{key}=1"])


def test_settings_for_a_server_the_user_runs_are_refused() -> None:
    with pytest.raises(UserError, match="does not reconfigure") as err:
        Plan(workloads=["b"], targets=["redis://127.0.0.1:6379"],
             server_settings={"redis-127-0-0-1-6379": {"io-threads": "2"}})
    assert err.value.exit_code == 2


def test_settings_and_kinds_must_name_a_target_of_the_plan() -> None:
    with pytest.raises(UserError, match="no target is labelled 'valkey-io2'"):
        Plan(workloads=["b"], targets=["redis"], server_settings={"valkey-io2": {"io-threads": "2"}})
    with pytest.raises(UserError, match="no target is labelled"):
        Plan(workloads=["b"], targets=["redis"], binaries={"valkey": "/bin/true"})


def test_binary_is_keyed_by_label_or_kind_and_must_be_executable(tmp_path) -> None:
    exe = tmp_path / "server"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    plan = Plan(workloads=["b"], targets=["valkey", "valkey-io2", "redis-dev"],
                binaries=parse_binaries([f"valkey={exe}", f"redis-dev={exe}"]))
    assert plan.spec("valkey-io2").binary == str(exe)  # by kind
    assert plan.spec("redis-dev").binary == str(exe)  # by label
    with pytest.raises(UserError, match="not an executable file"):
        parse_binaries([f"valkey={tmp_path / 'missing'}"])


def test_the_plan_keeps_kinds_and_settings_through_the_manifest() -> None:
    plan = Plan(workloads=["b"], targets=["redis", "redis-lazyfree"],
                server_settings={"redis-lazyfree": {"lazyfree-lazy-user-del": "yes", "masterauth": "s3cret"}})
    stored = plan.to_dict()
    assert stored["server_settings"]["redis-lazyfree"] == {"lazyfree-lazy-user-del": "yes", "masterauth": "***"}
    assert stored["target_specs"]["redis-lazyfree"] == {
        "label": "redis-lazyfree", "kind": "redis", "binary": None,
        "settings": {"lazyfree-lazy-user-del": "yes", "masterauth": "***"}}
    assert stored["target_specs"]["redis"]["settings"] == {}
    back = Plan.from_dict({**stored, "server_settings": plan.server_settings})
    assert back.spec("redis-lazyfree").kind == "redis"


def test_settings_go_on_the_command_line_after_ycsbctls_own_so_they_win() -> None:
    args = catalog.server_args("redis", port=7000, bind="127.0.0.1", data_dir="/d", memory_bytes=None,
                               settings={"save": "900 1", "io-threads": "2"})
    assert args[-5:] == ["--save", "900", "1", "--io-threads", "2"]
    assert args[:2] == ["--save", ""] and args.index("--port") < len(args) - 5  # redis.conf's "save ''" first
    assert server_kind("dragonfly").settings_args({"proactor_threads": "2"}) == ["--proactor_threads=2"]
    with pytest.raises(UserError, match="takes none"):
        server_kind("mongo-wire").settings_args({"x": "1"})


def test_the_servers_own_refusal_becomes_one_line() -> None:
    log = ("\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nReading the configuration file, at line 3\n"
           ">>> 'lazyfree-lazy-user-del \"maybe\"'\nargument must be 'yes' or 'no'\n")
    assert refused_setting(log) == "'lazyfree-lazy-user-del \"maybe\"': argument must be 'yes' or 'no' (Redis 7.0.15)"
    assert refused_setting("Ready to accept connections\n") is None


def test_postgresql_and_mariadb_refusing_a_setting_at_start_are_found_in_their_logs() -> None:
    """Their own words (PostgreSQL 15, MariaDB 10.11 logs of a --server-config they refused): were not found, so
    the target was skipped (exit 1, a result folder) instead of one line, exit 2. A normal start says none."""
    pg_unknown = '2026-11-27 11:19:24.714 GMT [7547] FATAL:  unrecognized configuration parameter "bogus_setting"'
    pg_value = '2026-11-27 11:19:35.990 GMT [7806] FATAL:  invalid value for parameter "work_mem": "lots"'
    maria = "2026-11-27 11:19:28 0 [ERROR] /usr/sbin/mariadbd: unknown variable 'bogus-setting=1'"
    for line in (pg_unknown, pg_value, maria):
        assert unknown_flag(f"2026-11-27 11:19:24 LOG:  starting\n{line}\n2026-11-27 [ERROR] Aborting\n") == line
    started = ('2026-11-27 11:12:27.151 UTC [27633] LOG:  listening on IPv4 address "127.0.0.1", port 45201\n'
               "2026-11-27 11:12:27.183 UTC [27633] LOG:  database system is ready to accept connections\n"
               "2026-11-27 11:18:55 0 [Note] /usr/sbin/mariadbd: ready for connections.\n")
    assert unknown_flag(started) is None


INFO_VALKEY = {"redis_version": "7.2.4", "valkey_version": "9.1.2", "mem_allocator": "libc", "io_threads_active": 0,
               "multiplexing_api": "epoll", "arch_bits": 64}
INFO_REDIS = {"redis_version": "7.0.15", "mem_allocator": "jemalloc-5.3.0", "io_threads_active": 0}


def test_info_says_version_allocator_and_io_threads() -> None:
    assert server_traits(INFO_VALKEY, {"io-threads": "2"}) == {
        "server": "Valkey", "version": "9.1.2", "redis_compat_version": "7.2.4", "allocator": "libc",
        "io_threads": 2, "io_threads_active": 0, "multiplexing_api": "epoll", "arch_bits": 64}
    assert server_traits(INFO_REDIS, {"io-threads": "1"})["allocator"] == "jemalloc-5.3.0"
    assert server_traits({}, {}) == {}  # a server that says nothing: nothing, never an error


def _ep(label: str, io_threads: int, cpu_limit: float | None = None) -> Endpoint:
    return Endpoint(target=label, protocol="redis", url="redis://127.0.0.1:1/0", backend="local", kind="valkey",
                    cpu_limit_cores=cpu_limit, traits={"io_threads": io_threads})


def test_a_server_with_io_threads_can_use_as_many_cores_as_threads() -> None:
    assert bn.server_cores(_ep("valkey", 1), cores=8) == 1.0
    assert bn.server_cores(_ep("valkey-io2", 2), cores=8) == 2.0
    assert bn.server_cores(_ep("valkey-io4", 4), cores=2) == 2.0  # never more than the host has
    assert bn.server_cores(_ep("valkey-io4", 4, cpu_limit=3), cores=8) == 3.0


def test_io_threads_on_the_clients_cores_are_named_in_the_bottleneck_text() -> None:
    # the same figures: 150 % of one core would be "server-cpu" for a one-thread server, not for io-threads 2
    one = bn.classify(server_cpu_pct=150, server_cores=bn.server_cores(_ep("valkey", 1), cores=2),
                      client_cpu_pct=40, client_cores=1, host_cores=2)
    two_ep = _ep("valkey-io2", 2)
    two = bn.io_threads_note(bn.classify(server_cpu_pct=150, server_cores=bn.server_cores(two_ep, cores=2),
                                         client_cpu_pct=80, client_cores=1, host_cores=2), two_ep, 2)
    assert one.label == "server-cpu"
    assert two.label != "server-cpu"
    assert "2 I/O threads on the 2 cores the client uses too" in two.text and "likely client-bound" in two.text
    assert two.evidence["server_io_threads"] == 2
    # a client that hardly ran (waiting for a core) is not called client-bound: the text says what it measured
    starved = bn.io_threads_note(bn.classify(server_cpu_pct=95, server_cores=2.0, client_cpu_pct=2, client_cores=1,
                                             host_cores=2), two_ep, 2)
    assert "it ran only 2% of the time it could" in starved.text and "client-bound" not in starved.text
    # neither side crossed its line because they took turns on the host's cores: that is what limited it
    assert starved.label == "host-cpu" and starved.evidence["measured_label"] == "latency"
    one_io = bn.io_threads_note(bn.classify(server_cpu_pct=95, server_cores=2.0, client_cpu_pct=2, client_cores=1,
                                            host_cores=4), two_ep, 4)
    assert one_io.label == "latency"  # with cores to spare (2 I/O threads on 4), the measured label stands


def test_the_report_says_what_differs_between_servers(tmp_path) -> None:
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import differences, traits_text

    servers = {
        "redis": {"kind": "redis", "traits": server_traits(INFO_REDIS, {"io-threads": "1"})},
        "valkey-io2": {"kind": "valkey", "settings": {"io-threads": "2"},
                       "traits": server_traits(INFO_VALKEY, {"io-threads": "2"})},
    }
    exp = SimpleNamespace(manifest=SimpleNamespace(servers=servers, host={"cores": 2}), docs={},
                          targets=["redis", "valkey-io2"])
    lines = differences(exp)  # type: ignore[arg-type]
    text = "\n".join(lines)
    assert "redis: Redis 7.0.15; valkey-io2: Valkey 9.1.2 (Redis 7.2.4 compatible)" in text
    assert "redis: jemalloc-5.3.0; valkey-io2: libc" in text and "not comparable one to one" in text
    assert "valkey-io2: io-threads 2" in text and "taking turns on the host's cores" in text
    assert "valkey-io2 is valkey started with io-threads=2." in lines
    assert traits_text(servers["valkey-io2"]) == "Valkey 9.1.2 (Redis 7.2.4 compatible), allocator libc, io-threads 2"
    same = SimpleNamespace(manifest=SimpleNamespace(servers={"a": servers["redis"], "b": servers["redis"]},
                                                    host={}), docs={}, targets=["a", "b"])
    assert differences(same) == []  # type: ignore[arg-type]


def test_a_targets_file_lists_labels_kinds_settings_and_urls(tmp_path) -> None:
    from ycsbctl.provision.target_spec import read_targets_file

    f = tmp_path / "targets"
    f.write_text("# label  [kind]  [key=value ...]\n"
                 "redis\n"
                 "redis-lazyfree  lazyfree-lazy-user-del=yes   # the DEL study\n"
                 "\n"
                 "lazy   redis  lazyfree-lazy-user-del=yes 'save=900 1'\n"
                 "redis://127.0.0.1:6379\n")
    got = read_targets_file(str(f))
    assert got.targets == ["redis", "redis-lazyfree", "lazy", "redis://127.0.0.1:6379"]
    assert got.kinds == {"lazy": "redis"}
    assert got.settings == {"redis-lazyfree": {"lazyfree-lazy-user-del": "yes"},
                            "lazy": {"lazyfree-lazy-user-del": "yes", "save": "900 1"}}
    for line, says in (("lazy cassandra x=1", "2: 'cassandra' is not a server kind"),
                       ("redis-x port=1", "2: 'redis-x:port=1': ycsbctl sets port itself"),
                       ("redis://h:1 io-threads=2", "2: redis://h:1 is a server you run"),
                       ("redis-x 'unclosed", "2: No closing quotation")):
        f.write_text(f"redis\n{line}\n")
        with pytest.raises(UserError) as err:
            read_targets_file(str(f))
        assert str(err.value).startswith(f"{f}:") and says in str(err.value), str(err.value)
    f.write_text("# nothing\n")
    with pytest.raises(UserError, match="lists no target"):
        read_targets_file(str(f))


def test_the_command_lines_settings_win_over_the_files(tmp_path) -> None:
    from ycsbctl.cli import target_spec_maps
    from ycsbctl.provision.target_spec import read_targets_file

    f = tmp_path / "targets"
    f.write_text("lazy redis lazyfree-lazy-user-del=yes lazyfree-lazy-server-del=yes\n")
    maps = target_spec_maps(("lazy:lazyfree-lazy-user-del=no",), (), (), read_targets_file(str(f)))
    assert maps["server_settings"] == {"lazy": {"lazyfree-lazy-user-del": "no", "lazyfree-lazy-server-del": "yes"}}
    assert maps["target_kinds"] == {"lazy": "redis"}


@pytest.mark.parametrize("label", ["reference", "Reference"])
def test_the_reference_servers_name_is_no_targets_label(label: str) -> None:
    """A target labelled as the reference server (from a targets file, a study's label, --target-kind) would share
    its run ids and slice rows in the folder: refused in one line, whichever way the label is given."""
    from ycsbctl.experiment import reference
    from ycsbctl.provision.target_spec import RESERVED_LABELS, check_label, parse_target_kinds

    assert reference.LABEL in RESERVED_LABELS
    for give in (lambda: check_label(label), lambda: parse_target_kinds((f"{label}=redis",))):
        with pytest.raises(UserError, match=f"target label '{label}': the name of the reference server"):
            give()

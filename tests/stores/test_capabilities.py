"""A store's optional capabilities (``ycsbctl.stores.capabilities``): each registered store implements every
capability it declares (its own method, not the interface's abstract one), answers no capability's question it
does not declare, and a capability it lacks is silence to whoever asks; a store's own error still reaches the
caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.servers import free_port
from ycsbctl.errors import UserError
from ycsbctl.stores import registry
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.capabilities import (
    CAPABILITIES,
    ClientPauses,
    CoreLimit,
    DatasetLoss,
    RealYcsb,
    Replication,
    ServerUrls,
    StallCause,
    Tls,
    declared,
    questions,
)

STORES = [p.name for p in registry.all_protocols()]


@pytest.mark.parametrize("name", STORES)
def test_each_capability_a_store_declares_is_its_own_code(name):
    store = registry.get(name)
    for cap in declared(store):
        assert cap.__abstractmethods__, cap  # an interface with nothing to implement would declare nothing
        for question in cap.__abstractmethods__:
            own = getattr(type(store), question)
            assert own is not getattr(cap, question), (name, cap.__name__, question)
        assert registry.capability(store, cap) is store


@pytest.mark.parametrize("name", STORES)
def test_a_store_answers_no_capability_s_question_it_does_not_declare(name):
    """A method named as a capability's question on a store that does not declare it would never be asked."""
    cls = type(registry.get(name))
    for question, cap in questions().items():
        if hasattr(cls, question):
            assert issubclass(cls, cap), f"{name} has {question} but does not declare {cap.__name__}"


def test_the_core_answers_no_capability_s_question():
    assert not [q for q in questions() if hasattr(ServerProtocol, q)]


@pytest.mark.parametrize("name", STORES)
def test_a_capability_a_store_lacks_is_silence(name):
    store = registry.get(name)
    lacking = [cap for cap in CAPABILITIES if cap not in declared(store)]
    for cap in lacking:
        assert registry.capability(store, cap) is None
        for question in cap.__abstractmethods__:  # never called: any arguments do
            assert registry.ask(store, getattr(cap, question), "x://", 1, 2) is None, (name, question)


def test_what_each_store_can_do_is_declared_as_before():
    """Who answers what, as the base class's overrides said it before the capabilities (a store that gains or
    loses one changes this table on purpose)."""
    can = {p.name: {c.__name__ for c in declared(p)} for p in registry.all_protocols()}
    assert can["basic"] == {"RealYcsb"}
    assert {n for n, c in can.items() if "Replication" in c} == {"redis", "postgresql"}
    assert {n for n, c in can.items() if "ClientPauses" in c or "DatasetFile" in c} == {"sqlite"}
    assert {n for n, c in can.items() if "StallCause" in c} == {"postgresql"}
    assert {n for n, c in can.items() if "Disturbing" in c} == {"redis", "mongodb"}
    assert {n for n, c in can.items() if "Tls" in c} == {"redis", "mongodb", "postgresql", "mysql"}
    assert {n for n, c in can.items() if "ServerUrls" not in c} == {"basic"}


def test_a_store_that_declares_a_capability_it_does_not_implement_cannot_be_made():
    class Half(ServerProtocol, Replication):
        name = "half"

    with pytest.raises(TypeError, match="replicas"):
        Half()  # type: ignore[abstract]


def test_a_question_is_a_capability_s_method_or_an_error():
    with pytest.raises(AttributeError, match="replicsa"):
        registry.ask("basic://", Replication.replicsa, "basic://")  # type: ignore[attr-defined]
    for not_a_question in (ServerProtocol.ping, "replicas", lambda store, url: None):
        with pytest.raises(TypeError, match="no question of a capability"):
            registry.ask("basic://", not_a_question, "basic://")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no capability"):
        registry.capability("basic://", ServerProtocol)
    with pytest.raises(UserError, match="unsupported target URL"):
        registry.ask("http://127.0.0.1/", Replication.replicas, "http://127.0.0.1/")


def test_ask_is_the_store_s_own_answer_and_its_errors_propagate(tmp_path: Path):
    assert registry.ask("basic://", RealYcsb.ycsb_binding, "basic://", 1.0) == \
        registry.get("basic").ycsb_binding("basic://", 1.0)  # type: ignore[attr-defined]
    assert registry.ask("redis://h:1", CoreLimit.server_cores, "redis", 4.0) == 1.0
    assert registry.ask("redis://h:1", ServerUrls.loopback_url, 6379) == "redis://127.0.0.1:6379/0"
    url = f"sqlite://{tmp_path / 'x.db'}"
    with pytest.raises(ValueError, match="many"):  # a bug in the caller's counts, not "nothing to say"
        registry.ask(url, ClientPauses.pause_cause, url, {"sqlite_busy_long": "many"})
    gone = f"redis://127.0.0.1:{free_port()}"  # nothing listens: the store's admin error, for its caller
    with pytest.raises(registry.admin_errors(gone)):
        registry.ask(gone, Replication.replicas, gone)
    with pytest.raises(registry.admin_errors(gone)):
        registry.ask(gone, DatasetLoss.why_short, gone)
    assert registry.ask(gone, StallCause.stall_cause, gone) is None  # Redis does not say: nothing is asked


def test_required_says_what_the_user_asked_that_the_store_cannot_do():
    assert registry.required("redis://h:1", Tls, "no TLS") is registry.get("redis")
    with pytest.raises(UserError, match="no TLS here"):
        registry.required("memcached://h:1", Tls, "no TLS here")


def test_callers_say_without_the_store_s_word_what_a_store_lacking_a_capability_cannot_say():
    from ycsbctl.engine.spec import PhaseSpec
    from ycsbctl.engine.ycsb_java import binding_properties
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.provision.catalog import url_for
    from ycsbctl.provision.tls import ServerCertificates
    from ycsbctl.stores.disturb import disturbing, parse_disturb
    from ycsbctl.telemetry.bottleneck import server_cores

    ep = Endpoint(target="clickhouse://127.0.0.1:1", protocol="clickhouse", url="clickhouse://127.0.0.1:1",
                  backend="external")
    assert server_cores(ep, cores=4.0) == 4.0  # no CoreLimit: every core it is given
    with pytest.raises(UserError, match="cannot speak TLS to memcached servers yet"):
        url_for("memcached", 1, tls=ServerCertificates("ca", "cert", "key"))
    assert url_for("memcached", 1) == "memcached://127.0.0.1:1"
    with pytest.raises(NotImplementedError, match="basic servers are not started by ycsbctl"):
        url_for("basic", 1)
    with pytest.raises(UserError, match="cannot run the real YCSB against a tarantool URL"):
        binding_properties(PhaseSpec(url="tarantool://127.0.0.1:1", phase="run", properties={}))
    spec = parse_disturb("del:set:1000@1s", 10.0)
    with pytest.raises(UserError, match="memcached targets have no big keys to disturb"):
        disturbing(registry.get("memcached"), spec)
    assert disturbing(registry.get("redis"), spec).disturb_command(spec)

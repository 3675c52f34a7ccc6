"""The registry is the one list of stores: the layer contract and the documented layout (docs/development/layout.md)
agree with it,
and what the rest of ycsbctl asks about a store is an attribute of its protocol."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

from tests.fixtures.docs import docs_page
from ycsbctl.stores import registry

ROOT = Path(__file__).resolve().parents[2]


def _store_layer() -> tuple[set[str], bool]:
    """The store packages of the stores' import-linter contract as lint-imports builds it (its first layer,
    from the registry), and whether they must be independent of each other."""
    from ycsbctl.stores.layers_contract import StoreLayersContract

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (stores,) = [c for c in config["contracts"] if c.get("containers") == ["ycsbctl.stores"]]
    assert stores["type"] == "store_layers" and any(t.endswith("StoreLayersContract") for t in config["contract_types"])
    options = {k: v for k, v in stores.items() if k not in ("name", "type")}
    first = StoreLayersContract("stores", {"root_packages": ["ycsbctl"]}, options).layers[0]
    return {tail.name for tail in first.module_tails}, first.is_independent


def _documented_store_packages() -> set[str]:
    text = docs_page("development/layout.md")
    layout = text[text.index("  stores/ "):text.index("\n  workload/ ")]
    shared = {m.group(1) for m in re.finditer(r"^    (\w+)/ .*not a store$", layout, re.M)}
    return {m.group(1) for m in re.finditer(r"^    (\w+)/ ", layout, re.M)} - shared


def test_every_store_package_is_in_the_registry_and_each_has_its_own_package():
    packages = registry.store_packages()
    assert len(set(packages)) == len(packages) == len(registry.all_protocols())
    for protocol in registry.all_protocols():
        assert type(protocol).__module__ == f"ycsbctl.stores.{type(protocol).__module__.split('.')[2]}.store"
        assert type(protocol).__module__.split(".")[2] in packages
        assert (ROOT / "ycsbctl" / "stores" / type(protocol).__module__.split(".")[2] / "__init__.py").is_file()


def test_the_layer_contract_takes_exactly_the_registry_s_stores_as_independent_packages():
    """A new store is one folder and one registry line: the stores' contract reads its packages from the
    registry (no edit to pyproject.toml), and a store folder with a store.py but no registry line is found."""
    assert _store_layer() == (set(registry.store_packages()), True)
    folders = {p.parent.name for p in (ROOT / "ycsbctl" / "stores").glob("*/store.py")}
    assert folders == set(registry.store_packages()), "a store folder without its line in stores/registry.py"


def test_the_documented_layout_lists_exactly_the_registry_s_stores():
    assert _documented_store_packages() == set(registry.store_packages())


def test_each_store_names_itself_its_schemes_and_its_url_shape_once():
    protocols = registry.all_protocols()
    schemes = [s for p in protocols for s in p.schemes]
    assert len(schemes) == len(set(schemes)) and all(p.name and p.schemes for p in protocols)
    for p in protocols:
        assert registry.scheme_of(p.example) in p.schemes, p.example
        assert p.example in registry.examples()
        for alias, url in p.aliases.items():
            assert registry.expand_alias(alias) == url and registry.find(url) is p
    assert registry.expand_alias("redis") == "redis"  # a catalogue name stays one


def test_the_stores_without_a_server_and_the_engine_only_store_are_what_their_protocols_say():
    assert {p.name for p in registry.all_protocols() if not p.has_server} == {"basic", "sqlite"}
    assert [p.name for p in registry.all_protocols() if p.engine_only] == ["basic"]
    assert registry.is_engine_only("basic://") and not registry.is_engine_only("sqlite:///x.db")
    assert not registry.is_engine_only("redis")  # a catalogue name: a server ycsbctl starts
    assert all(p.has_server is False for p in registry.all_protocols() if p.engine_only)


def test_import_ycsb_names_a_logs_target_by_the_store_that_declares_its_db_class():
    assert registry.ycsb_log_targets() == {"RedisClient": "redis", "MongoDbClient": "mongodb",
                                           "AsyncMongoDbClient": "mongodb", "BasicDB": "basic",
                                           "MemcachedClient": "memcached"}


def test_a_store_module_imported_on_its_own_first_leaves_no_store_out():
    """A fresh interpreter that imports one store's module before anything asks the registry (a test, a
    plug-in) still gets every store, in the registry's order (once, the suite lost all but SQLite so)."""
    import subprocess
    import sys

    code = ("import ycsbctl.stores.sqlite.store\nfrom ycsbctl.stores import registry\n"
            "print(' '.join(p.name for p in registry.all_protocols()))\nprint(registry.for_url('redis://h:1').name)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    names, redis = out.stdout.split("\n")[:2]
    assert names.split() == [p.name for p in registry.all_protocols()] and len(names.split()) == len(
        registry.store_packages()
    )
    assert redis == "redis"

"""The MongoDB store (stores/mongodb/store.py): a wire server named and described from its own buildInfo
(hand-built documents, the mongo-wire server, mongo-echo), where a URL's TLS handshake goes, and a target's
properties checked against its URL before anything starts."""

from __future__ import annotations

import pytest


def test_a_mongodb_wire_server_that_is_ferretdb_is_named_by_its_own_buildinfo(mongo_wire):
    from pymongo import MongoClient

    from ycsbctl.stores import registry

    client = MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000)
    try:
        build = client.admin.command("buildInfo")
    finally:
        client.close()
    facts = registry.for_url(mongo_wire.url).describe(mongo_wire.url)
    ferret = str(build["ferretdbVersion"]).lstrip("v")
    assert (facts.name, facts.version, facts.config["mongodb_compat_version"]) == (f"FerretDB {ferret}", ferret,
                                                                                   build["version"])


def test_a_mongodb_wire_server_is_named_by_its_buildinfo_percona_enterprise_community_or_ferretdb():
    # buildInfo documents shaped as each server sends them (the fields read; the others are left out)
    from ycsbctl.stores.mongodb.store import server_facts

    opts = {"argv": ["mongod"], "parsed": {}}
    community = server_facts({"version": "7.0.2", "modules": [], "gitVersion": "02b3c6"}, opts, "inMemory", None)
    assert (community.name, community.version) == ("MongoDB 7.0.2 (inMemory)", "7.0.2")
    assert community.config == {"getCmdLineOpts": opts, "storageEngine": "inMemory"} and community.traits == {}
    bare = server_facts({"version": "6.0.1"}, opts, "", "TLSv1.3 TLS_AES_256_GCM_SHA384")
    assert (bare.name, bare.version, bare.config) == ("MongoDB 6.0.1", "6.0.1", {"getCmdLineOpts": opts})
    assert bare.traits == {"tls": "TLSv1.3 TLS_AES_256_GCM_SHA384"}
    enterprise = server_facts({"version": "7.0.2", "modules": ["enterprise"]}, opts, "wiredTiger", None)
    assert (enterprise.name, enterprise.version) == ("MongoDB Enterprise 7.0.2 (wiredTiger)", "7.0.2")
    psmdb = server_facts({"version": "7.0.8-5", "psmdbVersion": "7.0.8-5", "modules": []}, opts, "inMemory", None)
    assert (psmdb.name, psmdb.version) == ("Percona Server for MongoDB 7.0.8-5 (inMemory)", "7.0.8-5")
    # an older Percona build says so only in its build environment
    older = server_facts({"version": "3.4.10-2.10", "buildEnvironment": {"distname": "Percona-Server-MongoDB"}},
                         opts, "", None)
    assert (older.name, older.version) == ("Percona Server for MongoDB 3.4.10-2.10", "3.4.10-2.10")
    ferret = server_facts({"version": "7.0.77", "ferretdbVersion": "v1.24.0", "modules": []}, opts, "SQLite", None)
    assert (ferret.name, ferret.version) == ("FerretDB 1.24.0", "1.24.0")
    assert ferret.config == {"getCmdLineOpts": opts, "mongodb_compat_version": "7.0.77"}


def test_a_mongodb_urls_tls_handshake_goes_where_pymongo_connects_its_default_port_without_one(monkeypatch):
    # where the "encrypted" trait's handshake goes (tls_wire.negotiated, its socket left out here) against
    # pymongo's own reading of each URL; a URL of several hosts, or without TLS, makes none
    from pymongo.uri_parser import parse_uri

    from ycsbctl.stores import tls_wire
    from ycsbctl.stores.mongodb.store import tls_session

    went: list[tuple[str, int]] = []
    monkeypatch.setattr(tls_wire, "negotiated", lambda host, port, ctx, timeout_s: went.append((host,
                                                                                                port)) or "TLSv1.3")
    for url in ("mongodb://db.example/ycsb?tls=true", "mongodb://db.example:27999/ycsb?ssl=true",
                "mongodb://u:p@10.0.0.5/?tls=true&tlsAllowInvalidCertificates=true"):
        assert tls_session(url) == "TLSv1.3"
        assert went[-1] == parse_uri(url)["nodelist"][0], url
    assert went[0] == ("db.example", 27017)
    for url in ("mongodb://db.example/ycsb", "mongodb://a.example,b.example/ycsb?tls=true"):
        assert tls_session(url) is None
    assert len(went) == 3


def test_a_mongodb_wire_server_is_described_from_its_own_buildinfo_cmdline_and_storage_engine(echo):
    # infra/bin/mongo-echo answers buildInfo, getCmdLineOpts and serverStatus (with a storageEngine) as MongoDB
    # lays them out; read back here by pymongo
    from pymongo import MongoClient

    from ycsbctl.stores import registry

    c = MongoClient(echo.url, serverSelectionTimeoutMS=5000)
    try:
        build, opts = c.admin.command("buildInfo"), c.admin.command("getCmdLineOpts")
        engine = c.admin.command("serverStatus")["storageEngine"]["name"]
    finally:
        c.close()
    facts = registry.for_url(echo.url).describe(echo.url)
    assert (facts.name, facts.version) == (f"MongoDB {build['version']} ({engine})", build["version"])
    assert facts.config == {"getCmdLineOpts": {"argv": opts["argv"], "parsed": {}}, "storageEngine": engine}


def test_a_mongodb_targets_properties_are_checked_against_its_url_before_anything_starts():
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    proto = registry.get("mongodb")
    proto.check_properties("mongodb://h:27017/ycsb", {"mongodb.driver": "wire"})
    for url, props in (("mongodb://u:p@h:27017/ycsb", {"mongodb.driver": "wire"}),  # credentials: pymongo's
                       (None, {"mongodb.driver": "wire", "batchsize": "10"}),  # the target ycsbctl starts
                       ("mongodb://h:27017/ycsb", {"mongodb.driver": "native"})):
        with pytest.raises(UserError, match="mongodb.driver"):
            proto.check_properties(url, props)
    assert "drop -p mongodb.driver=pymongo" in proto.plugin_refusal({"mongodb.driver": " PyMongo "})
    assert proto.plugin_refusal({}) is None and proto.plugin_refusal({"mongodb.driver": "wire"}) is None


def test_a_collections_count_is_the_documents_the_server_counts_in_it(mongo_db):
    """The store's count (collStats' count, or estimatedDocumentCount where a server has no collStats) against the
    documents inserted and pymongo's own exact count (countDocuments); a collection that does not exist holds 0."""
    from ycsbctl.stores import registry

    url, db = mongo_db
    db["usertable"].insert_many([{"_id": f"user{i}", "field0": b"x"} for i in range(37)])
    proto = registry.for_url(url)
    assert proto.count(url, "usertable") == db["usertable"].count_documents({}) == 37
    assert proto.count(url, "nothere") == 0

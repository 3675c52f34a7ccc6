"""Deployments as users run them, named as target kinds: a catalogue server with persistence on
(``redis-aof``, ``redis-aof-always``, ``redis-rdb``), its durability on (``postgresql-durable``,
``mariadb-durable``), TLS on the wire (``redis-tls``, ``postgresql-tls``, ``mariadb-tls``, ``ferretdb-tls``), or several processes (``redis-cluster``,
``redis-repl2``).

A variant is its base kind (the same binary, image and dialect) plus settings that go on the
server's command line before a label's own ``--server-config`` (which wins), and what it needs
from provisioning: a data directory on a real disk (``durable``), a certificate (``tls``), shards
or replicas. :func:`ycsbctl.provision.catalog.get_target` resolves a variant's name to its base's
entry with :attr:`Target.variant` set; labels begin with a variant's name as with any kind
(``redis-aof-x`` is ``redis-aof``: the longest name wins).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """``base``: the catalogue kind it runs; ``settings``: directives in the base's config dialect;
    ``durable``: its data directory must be on a disk (not tmpfs) for its durability to mean
    anything; ``what``: one line for ``ycsbctl targets`` and the endpoint's notes."""

    name: str
    base: str
    what: str
    settings: tuple[tuple[str, str], ...] = ()
    durable: bool = False
    tls: bool = False  # clients speak TLS to it (a certificate from ycsbctl's own CA: ycsbctl.provision.tls)
    shards: int = 0  # a Redis Cluster of this many primaries (0: one server)
    replicas: int = 0  # replicas of each primary

    @property
    def several(self) -> bool:
        """Whether it is several processes (ycsbctl.provision.local_cluster)."""
        return bool(self.shards or self.replicas)

    @property
    def settings_dict(self) -> dict[str, str]:
        return dict(self.settings)


# RDB: a snapshot at most every 5 s once 1000 keys changed, so that a point of a few seconds with
# writes sees the fork (Redis's own default, 3600 1 300 100 60 10000, would not fire in a point).
_RDB = (("save", "5 1000"),)
_AOF = (("appendonly", "yes"), ("appendfsync", "everysec"))
_AOF_ALWAYS = (("appendonly", "yes"), ("appendfsync", "always"))

VARIANTS: dict[str, Variant] = {
    v.name: v
    for base in ("redis", "valkey")
    for v in (
        Variant(f"{base}-aof", base, "append-only file, fsync once a second (appendfsync everysec)", _AOF, True),
        Variant(f"{base}-aof-always", base, "append-only file, fsync at every write (appendfsync always)",
                _AOF_ALWAYS, True),
        Variant(f"{base}-rdb", base, "RDB snapshots by a forked child (save 5 1000: every 5 s once 1000 keys changed)",
                _RDB, True),
    )
} | {
    f"{base}-tls": Variant(f"{base}-tls", base, "TLS on the wire only (a certificate from ycsbctl's own CA)", tls=True)
    for base in ("redis", "valkey", "postgresql", "mariadb", "ferretdb")
} | {
    f"{base}-cluster": Variant(f"{base}-cluster", base, "a Redis Cluster of 3 shards on loopback ports, made with "
                               "redis-cli --cluster create (settings shards=N, replicas=N per shard)", shards=3)
    for base in ("redis", "valkey")
} | {
    f"{base}-repl2": Variant(f"{base}-repl2", base, "one primary and 2 replicas (--replicaof) on loopback ports",
                             replicas=2)
    for base in ("redis", "valkey")
} | {
    "postgresql-durable": Variant(
        "postgresql-durable", "postgresql", "durability on: fsync, synchronous_commit and full_page_writes on",
        (("fsync", "on"), ("synchronous_commit", "on"), ("full_page_writes", "on")), True),
    "postgresql-standby": Variant(
        "postgresql-standby", "postgresql", "a primary and a streaming standby (pg_basebackup), the primary's "
        "commits waiting for it (synchronous_standby_names; synchronous_commit=on, or remote_write, remote_apply, "
        "local, off)", (("synchronous_commit", "on"),), replicas=1),
    "mariadb-durable": Variant(
        "mariadb-durable", "mariadb", "durability on: the redo log flushed at every commit, doublewrite buffer on",
        (("innodb-flush-log-at-trx-commit", "1"), ("innodb-doublewrite", "1")), True),
}

"""Deployments as users run them, named as target kinds: a catalogue server with persistence on
(``redis-aof``, ``redis-rdb``), its durability on (``postgresql-durable``), TLS on the wire
(``redis-tls``, ``postgresql-tls``), or several processes (``redis-cluster``, ``redis-repl2``,
``postgresql-standby``).

Each store declares its own (:class:`~ycsbctl.stores.catalog_entry.Variant`, ``VARIANTS`` of its
``server`` module); :data:`VARIANTS` holds them all by name, in the order listings show them. A variant
is its base kind (the same binary, image and dialect) plus settings that go on the server's command
line before a label's own ``--server-config`` (which wins), and what it needs from provisioning: a data
directory on a real disk (``durable``), a certificate (``tls``), shards or replicas.
:func:`ycsbctl.provision.catalog.get_target` resolves a variant's name to its base's entry with
:attr:`Target.variant` set; labels begin with a variant's name as with any kind (``redis-aof-x`` is
``redis-aof``: the longest name wins).
"""

from __future__ import annotations

from ycsbctl.stores import registry
from ycsbctl.stores.catalog_entry import Variant

__all__ = ["VARIANTS", "Variant"]

VARIANTS: dict[str, Variant] = {v.name: v for v in sorted(registry.catalogue()[1], key=lambda v: v.listed)}

"""What a catalogue name stands for: a server ycsbctl starts (:class:`Target`: image, binary, port,
flavors, how to install it) and a deployment of one (:class:`Variant`: persistence, durability, TLS,
several processes).

Each store declares its own in its ``server`` module, beside its flavors' kinds (``KINDS``): ``TARGETS``
and ``VARIANTS``, tuples of these. The registry collects them (:func:`ycsbctl.stores.registry.catalogue`),
and provisioning keeps them by name (``TARGETS`` of :mod:`ycsbctl.provision.catalog`, ``VARIANTS`` of
:mod:`ycsbctl.provision.variants`) in the order listings show them: by their ``listed`` place, the
entries of one place in the registry's order of the stores.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST = 0  # the place in listings of the entries the default study compares (``redis``, ``mongodb``)
LAST = 100  # the place in listings of an entry that asks for none: after every entry that does
# The places of deployments in listings, by what they change: persistence, then TLS, a cluster,
# replicas; durability and standbys (LAST) after them
PERSISTENCE, TLS, CLUSTER, REPLICAS = 10, 20, 40, 50


@dataclass(frozen=True)
class Variant:
    """A deployment of a catalogue entry, named as a target kind (``redis-aof``, ``postgresql-tls``).

    ``base``: the entry it runs (the same binary, image and dialect); ``settings``: directives in the
    base's config dialect, put on the server's command line before a label's own ``--server-config``
    (which wins); ``durable``: its data directory must be on a disk (not tmpfs) for its durability to
    mean anything; ``what``: one line for ``ycsbctl targets`` and the endpoint's notes."""

    name: str
    base: str
    what: str
    settings: tuple[tuple[str, str], ...] = ()
    durable: bool = False
    tls: bool = False  # clients speak TLS to it (a certificate from ycsbctl's own CA: ycsbctl.provision.tls)
    shards: int = 0  # a Redis Cluster of this many primaries (0: one server)
    replicas: int = 0  # replicas of each primary (the streaming standbys of a kind that says ``standby``)
    listed: int = LAST  # its place among the variants in listings (`ycsbctl targets`, `--target` help)

    @property
    def several(self) -> bool:
        """Whether it is several processes (ycsbctl.provision.local_cluster)."""
        return bool(self.shards or self.replicas)

    @property
    def settings_dict(self) -> dict[str, str]:
        return dict(self.settings)


@dataclass(frozen=True)
class Target:
    """One catalogue entry: a server ycsbctl starts. ``flavor`` names the command-line dialect of the
    docker backend's server (a :class:`~ycsbctl.stores.server_kind.ServerKind`'s ``name``),
    ``local_flavor`` the local backend's."""

    name: str
    protocol: str  # its store's name in the registry (ycsbctl.stores.registry.get)
    display: str  # what answers, e.g. "Redis"
    image: str  # default docker image (overridable with --image)
    binary: str  # local binary name (on PATH, or a path for ferretdb)
    container_port: int
    flavor: str
    local_flavor: str
    install_hint: str  # how to get the local binary
    # The server inside an installed Python package (``ycsbctl[peers]``): "package:path/in/package".
    # Used when no binary of that name is in the bin folders or on PATH (those win).
    packaged: str = ""
    # Folders (globs) a distribution puts the server in, off PATH (Debian's /usr/lib/postgresql/15/bin)
    package_dirs: tuple[str, ...] = ()
    # The system user a server that refuses to run as root runs as when ycsbctl is root (postgres)
    run_as: str = ""
    # Docker: the image's environment (the official postgres image's first-start settings) and a
    # folder mounted on tmpfs (its data directory: the data lives in memory, as on the local backend)
    env: tuple[tuple[str, str], ...] = ()
    container_tmpfs: str = ""
    # How long its start may take before ycsbctl gives up, s (0: the backend's default): a JVM
    # server's start is CPU-heavy and takes minutes on a busy 2-core host
    ready_timeout_s: float = 0.0
    # What makes its binary say its version on the first line (searchd: --help; () for one that cannot)
    version_args: tuple[str, ...] = ("--version",)
    # A deployment of the base entry (ycsbctl.provision.variants): persistence, durability; None for a base
    variant: Variant | None = None
    listed: int = LAST  # its place in listings (`ycsbctl targets`, `--target` help, doctor): lower first


def tls_variant(base: str, listed: int = TLS) -> Variant:
    """``<base>-tls``: the entry ``base`` with TLS on the wire only (the same for every store that
    speaks TLS)."""
    return Variant(f"{base}-tls", base, "TLS on the wire only (a certificate from ycsbctl's own CA)",
                   tls=True, listed=listed)

"""How ycsbctl starts memcached: ``-m`` from --server-memory (else half of the host's RAM), long options."""

from __future__ import annotations

import signal
from dataclasses import dataclass

from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import DATA_FRACTION, ServerKind, long_options, memcached_mb


def memcached_args(*, port: int, bind: str, memory_bytes: int | None) -> list[str]:
    """memcached's arguments: ``-m`` (MB of items; without ``--server-memory`` :func:`memcached_mb`
    instead of its default 64 MB, which would evict a loaded dataset silently), a connection limit
    above any thread ladder, no UDP, and ``-u nobody`` (a root start needs a user; others ignore it)."""
    return ["-p", str(port), "-l", bind, "-U", "0", "-c", "4096", "-u", "nobody",
            "-m", str(memcached_mb(memory_bytes))]


@dataclass(frozen=True)
class Memcached(ServerKind):
    name: str = "memcached"
    # memcached acts on SIGTERM only when its event loop next wakes for its once-a-second clock tick (each stop
    # waited up to a second), and its items live in memory only: a clean stop keeps nothing
    stop_signal: int = signal.SIGKILL

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        return memcached_args(port=port, bind=bind, memory_bytes=memory_bytes)

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def memory_note(self, memory_bytes: int | None) -> str | None:
        if memory_bytes is None:
            return f"memcached -m {memcached_mb(None)} MB of items (half of the host's RAM; memcached's default is 64)"
        return f"memcached -m {memcached_mb(memory_bytes)} MB of items ({DATA_FRACTION:.0%} of --server-memory)"


KINDS: tuple[ServerKind, ...] = (Memcached(),)

TARGETS: tuple[Target, ...] = (
    Target("memcached", "memcached", "memcached", "memcached:1.6", "memcached", 11211, "memcached",
           "memcached", "apt-get install memcached"),
)

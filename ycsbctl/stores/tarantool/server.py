"""How ycsbctl starts Tarantool: ``tarantool -e <infra/tarantool/bootstrap.lua>`` (box.cfg and YCSB's space)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import DATA_FRACTION, ServerKind, infra_dir, memcached_mb


def tarantool_args(*, port: int, bind: str, data_dir: str | None, memory_bytes: int | None) -> list[str]:
    """``-e <lua>``: ``tarantool/bootstrap.lua`` (box.cfg and YCSB's space) with the listen address, the work
    folder (``data_dir``, else the container's /tmp) and ``memtx_memory`` (bytes: as memcached's ``-m``,
    :func:`memcached_mb`) filled in."""
    lines = (infra_dir() / "tarantool" / "bootstrap.lua").read_text().splitlines()
    code = " ".join(ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("--"))
    values = {"LISTEN": f'"{bind}:{port}"', "DIR": f'"{data_dir or "/tmp"}"',
              "MEMORY": str(memcached_mb(memory_bytes) * 1024**2)}
    return ["-e", re.sub(r"\b(LISTEN|DIR|MEMORY)\b", lambda m: values[m.group(1)], code)]


@dataclass(frozen=True)
class Tarantool(ServerKind):
    """Takes no settings (its configuration is the bootstrap's box.cfg)."""

    name: str = "tarantool"

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        return tarantool_args(port=port, bind=bind, data_dir=data_dir, memory_bytes=memory_bytes)

    def memory_note(self, memory_bytes: int | None) -> str | None:
        if memory_bytes is None:
            return f"memtx_memory={memcached_mb(None)} MB (half of the host's RAM; Tarantool's default is 256)"
        return f"memtx_memory={memcached_mb(memory_bytes)} MB ({DATA_FRACTION:.0%} of --server-memory)"


KINDS: tuple[ServerKind, ...] = (Tarantool(),)

# Started as `tarantool -e <tarantool/bootstrap.lua>`: arguments starting with "-" are tarantool's, in the
# image infra/docker/build_local_images.py makes from the Debian package (the official image untried here)
TARGETS: tuple[Target, ...] = (
    Target("tarantool", "tarantool", "Tarantool", "tarantool/tarantool:2.6.0", "tarantool", 3301, "tarantool",
           "tarantool", "apt-get install tarantool (Debian 12: Tarantool 2.6.0)"),
)

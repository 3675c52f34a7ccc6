"""How ycsbctl starts ClickHouse: its own config file (``infra/clickhouse/config.xml``; a container's: the
image's), then overrides of its keys; its HTTP interface; data on tmpfs."""

from __future__ import annotations

from dataclasses import dataclass

from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import ServerKind, infra_dir, long_options


@dataclass(frozen=True)
class ClickHouse(ServerKind):
    name: str = "clickhouse"
    data_in_memory: bool = True

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        # its own config file (a container's: the image's), then overrides of its keys
        config_file = (
            str(infra_dir() / "clickhouse" / "config.xml") if data_dir else "/etc/clickhouse-server/config.xml"
        )
        path = (data_dir or "/var/lib/clickhouse").rstrip("/")
        return [f"--config-file={config_file}", "--", f"--path={path}/", f"--tmp_path={path}/tmp/",
                f"--user_files_path={path}/user_files/", f"--format_schema_path={path}/format_schemas/",
                f"--http_port={port}", f"--listen_host={bind}"]

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)


KINDS: tuple[ServerKind, ...] = (ClickHouse(),)

# Its HTTP interface; data on tmpfs (a data folder on /dev/shm; in a container, a tmpfs mount)
TARGETS: tuple[Target, ...] = (
    Target("clickhouse", "clickhouse", "ClickHouse", "yandex/clickhouse-server:18.16.1", "clickhouse-server",
           8123, "clickhouse", "clickhouse",
           "apt-get install clickhouse-server (Debian 12: ClickHouse 18.16.1)",
           package_dirs=("/usr/sbin",), container_tmpfs="/var/lib/clickhouse",
           version_args=()),  # 18.16's server has no --version (its client says 18.16.1)
)

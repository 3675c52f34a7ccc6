"""How ycsbctl starts Elasticsearch (6.8 OSS behind ycsbctl's launcher): a config folder in its data folder
(``infra/elasticsearch/``), settings as ``-E key=value``; takes no ``--server-config`` settings."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import Initialise, ServerKind, infra_dir


def elasticsearch_config(launcher: str, data_dir: str, user: str | None) -> None:
    """``data_dir/config``: the zip's ``log4j2.properties`` (from the install beside ``launcher``) with ycsbctl's
    ``elasticsearch.yml`` and ``jvm.options`` (infra/elasticsearch/); the folder is the server user's, as
    Elasticsearch writes its keystore there at first start. Also ``data_dir/tmp``, its ``ES_TMPDIR``
    (:meth:`Elasticsearch.env`)."""
    homes = sorted(Path(launcher).resolve().parent.glob("elasticsearch-6.8.*"))
    if not homes:
        raise UserError(f"no Elasticsearch 6.8 beside {launcher}", fix="run scripts/setup.sh", exit_code=1)
    config = Path(data_dir) / "config"
    config.mkdir()
    tmp = Path(Elasticsearch().env(data_dir)["ES_TMPDIR"])
    tmp.mkdir()
    shutil.copy(homes[-1] / "config" / "log4j2.properties", config)
    for name in ("elasticsearch.yml", "jvm.options"):
        shutil.copy(infra_dir() / "elasticsearch" / name, config)
    if user:
        for path in (config, tmp, *config.iterdir()):
            shutil.chown(path, user=user, group=None)


@dataclass(frozen=True)
class Elasticsearch(ServerKind):
    name: str = "elasticsearch"
    data_in_memory: bool = True

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        # the config folder local_prep made in the data folder (a container's: the image's)
        home = data_dir or "/usr/share/elasticsearch"
        return ["--conf", f"{home}/config", "-E", f"http.port={port}", "-E", f"network.host={bind}",
                "-E", f"path.data={home}/data", "-E", f"path.logs={home}/logs"]

    def env(self, data_dir: str | None) -> dict[str, str]:
        """Elasticsearch's ``ES_TMPDIR`` (its launcher's and its JVM's ``java.io.tmpdir``, through jvm.options) in
        its data folder, which goes at stop: left unset, its launcher makes a /tmp/elasticsearch-<random> folder
        per start that nothing removes."""
        return {"ES_TMPDIR": f"{data_dir}/tmp"} if data_dir else {}

    def prepare(self, binary: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
        elasticsearch_config(binary, data_dir, user)


KINDS: tuple[ServerKind, ...] = (Elasticsearch(),)

# The OSS zip from Maven Central behind a small launcher (infra/elasticsearch/elasticsearch-oss), both put
# by scripts/setup.sh in ycsbctl's bin folder, or for root in /usr/local/lib/ycsbctl (the launcher on
# PATH): Elasticsearch refuses to run as root, so ycsbctl runs it as nobody then
TARGETS: tuple[Target, ...] = (
    Target("elasticsearch", "elasticsearch", "Elasticsearch", "localhost/elasticsearch-oss:6.8.23",
           "elasticsearch-oss", 9200, "elasticsearch", "elasticsearch",
           "run scripts/setup.sh (Elasticsearch 6.8.23 OSS from Maven Central, "
           "org.elasticsearch.distribution.zip)",
           run_as="nobody", container_tmpfs="/usr/share/elasticsearch/data", ready_timeout_s=300.0),
)

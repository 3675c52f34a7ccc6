"""How ycsbctl starts Sphinx's searchd: SphinxQL (its MySQL-protocol listener), its config made from
``infra/sphinx/sphinx.conf`` at each start (a container's: the image's); takes no settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import Initialise, ServerKind, infra_dir


def sphinx_config(data_dir: str) -> None:
    """``data_dir/sphinx.conf``: infra/sphinx/sphinx.conf with its indexes' and logs' folder (``DATA``) filled in."""
    text = (infra_dir() / "sphinx" / "sphinx.conf").read_text()
    (Path(data_dir) / "sphinx.conf").write_text(text.replace("DATA/", f"{data_dir}/"))


@dataclass(frozen=True)
class Searchd(ServerKind):
    name: str = "sphinx"
    data_in_memory: bool = True

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        # the config local_prep wrote into the data folder (a container's: the image's)
        sphinx_conf = f"{data_dir}/sphinx.conf" if data_dir else "/etc/sphinxsearch/sphinx.conf"
        return ["--config", sphinx_conf, "--listen", f"{bind}:{port}:mysql41", "--nodetach"]

    def prepare(self, binary: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
        sphinx_config(data_dir)


KINDS: tuple[ServerKind, ...] = (Searchd(),)

# SphinxQL (searchd's MySQL-protocol listener); its config made from infra/sphinx/sphinx.conf at each
# start (provision.local_prep), the image's at /etc/sphinxsearch/sphinx.conf with its data on a tmpfs mount
TARGETS: tuple[Target, ...] = (
    Target("sphinx", "sphinx", "Sphinx", "localhost/sphinx:2.2.11", "searchd", 9306, "sphinx", "sphinx",
           "apt-get install sphinxsearch (Debian 12: Sphinx 2.2.11)", container_tmpfs="/var/lib/sphinxsearch",
           version_args=("--help",)),
)

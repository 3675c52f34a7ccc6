"""``ycsbctl run --help`` as a person scans it: its options in titled panels (targets first), every option in one,
and the ``--target`` help naming every catalogue name from the catalogue itself; the entry point the engine's
workers re-import stays without the help's library."""

from __future__ import annotations

import re
import subprocess
import sys

import click
import pytest

from tests.fixtures.cli import env, ycsbctl
from ycsbctl.cli.experiment import load, run
from ycsbctl.cli.help_panels import PANELS
from ycsbctl.provision.catalog import kind_names
from ycsbctl.stores import registry


@pytest.fixture(scope="module")
def run_help() -> str:
    done = ycsbctl("run", "--help")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_catalogue_name_and_url_shape_is_in_the_run_help(run_help: str):
    words = set(re.findall(r"[\w.-]+", run_help))
    names = kind_names()
    assert len(names) > 30  # the whole catalogue, its variants too (redis-aof-always, postgresql-standby, …)
    assert [n for n in names if n not in words] == []
    shapes = run_help.split()
    assert [p.example for p in registry.all_protocols() if not any(w.startswith(p.example) for w in shapes)] == []


@pytest.mark.parametrize("command", [run, load], ids=["run", "load"])
def test_every_option_is_in_exactly_one_panel(command: click.Command):
    ctx = click.Context(command, info_name=command.name, help_option_names=["-h", "--help"])  # as main's
    for param in command.get_params(ctx):
        names = {*param.opts, param.name}
        homes = [title for title, listed in PANELS if names & set(listed)]
        if isinstance(param, click.Option):
            assert len(homes) == 1, (param.opts, homes)
    listed = [o for _, options in PANELS for o in options]
    assert len(listed) == len(set(listed))


def test_the_panels_come_in_their_order_with_their_options_and_no_leftover_list(run_help: str):
    found = [re.search(rf"^ *{re.escape(title)}:", run_help, re.M) for title, _ in PANELS]
    assert None not in found, [t for (t, _), f in zip(PANELS, found) if f is None]
    at = [f.start() for f in found if f is not None]
    assert at == sorted(at), at
    # an option in no panel would be listed under rich-click's default title
    assert not re.search(r"^ *Options:", run_help, re.M)
    for (title, options), start, end in zip(PANELS, at, [*at[1:], len(run_help)]):
        for option in options:
            assert re.search(rf"(^|[\s,]){re.escape(option)}\b", run_help[start:end], re.M), (title, option)
    # defaults are written as the help texts write theirs
    assert "[default: native]" in run_help and "[default: 10.0]" in run_help


def test_the_entry_point_the_workers_import_does_not_import_the_help_library():
    """The engine's workers re-import ``ycsbctl.cli`` (:data:`ycsbctl.engine.launch.PRELOAD`): rich-click loads
    only with the command modules whose help it lays out."""
    code = "import sys, ycsbctl.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in ('rich_click', 'rich')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

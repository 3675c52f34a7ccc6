"""The ``ycsbctl`` command line: parse, build a plan, call one function, print.

Each sub-module registers the commands of one stage on :data:`main`; no logic lives here.
"""

from __future__ import annotations

import sys

import click

from ycsbctl import __version__
from ycsbctl.errors import UserError


class _Group(click.Group):
    """Turns a :class:`UserError` into one ``error:`` line and its exit code (2 for bad input)."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except UserError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ycsbctl")
def main() -> None:
    """Compare Redis and an in-memory MongoDB (and their peers) under YCSB load.

    \b
    Typical use:
      ycsbctl run workload-b                 provision redis + mongodb, load, sweep 8..128 threads, report
      ycsbctl run workload-b --target redis://127.0.0.1:6379 --threads 32 --duration 10
      ycsbctl load workload-b --target mongodb://127.0.0.1:27017/ycsb
      ycsbctl dry-run workload-b --count 20  print the operations YCSB would issue
      ycsbctl targets | up | status | down   manage the servers ycsbctl starts
      ycsbctl report DIR | compare A B       render result folders

    Workloads are YCSB property files: a name from workloads/ (workload-a, b, insert…) or a path.
    """


def _register() -> None:
    # Imported for their side effect: each module adds its commands to ``main``.
    import importlib

    for name in ("workload", "engine", "experiment", "servers", "telemetry", "results", "report"):
        try:
            importlib.import_module(f"ycsbctl.cli.{name}")
        except ModuleNotFoundError as exc:  # a stage not built yet
            if exc.name != f"ycsbctl.cli.{name}":
                raise


_register()

"""The ``ycsbctl`` command line: parse, build a plan, call one function, print.

Each sub-module registers the commands of one stage on :data:`main`; no logic lives here.
"""

# Nothing is imported before the handler below but what Python loaded at its start (no ``from __future__``: that
# module is not always loaded): signal's C half, not signal.py, whose import builds its enums first (a Ctrl-C there
# was a traceback). From the first line on a Ctrl-C is the handler's, until the module's last line gives it back.
import _signal
import os
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C while this module's libraries import (the first fraction of a second): nothing has
    started, so one line and exit 130, not a KeyboardInterrupt traceback from inside an import. An
    engine worker being spawned imports this module too: it leaves quietly (its controller speaks)."""
    if "--multiprocessing-fork" not in sys.argv:
        os.write(2, b"ycsbctl: interrupted while starting: nothing was started\n")
    os._exit(130)


_ON_INTERRUPT = _signal.getsignal(_signal.SIGINT)
# SIGTERM and SIGHUP too, where they would end the process without a word (their default; not nohup's SIGHUP)
_STOPS = [s for s in (_signal.SIGTERM, _signal.SIGHUP) if _signal.getsignal(s) == _signal.SIG_DFL]
if _ON_INTERRUPT is _signal.default_int_handler:  # not when SIGINT is ignored (a spawned worker inherits that)
    try:
        for _s in (_signal.SIGINT, *_STOPS):
            _signal.signal(_s, _interrupted_while_starting)
    except ValueError:  # imported off the main thread (a Dask worker's): its signals are not ours
        _ON_INTERRUPT = None

import atexit  # noqa: E402 - after the handler above, which covers these imports
import gc  # noqa: E402
import importlib  # noqa: E402
import signal  # noqa: E402

import click  # noqa: E402

from ycsbctl import __version__  # noqa: E402
from ycsbctl.errors import UserError  # noqa: E402
from ycsbctl.processes import default_stops_as_interrupt, interrupts_redelivered  # noqa: E402
from ycsbctl.urls import redact_text  # noqa: E402
from ycsbctl.user_input import decimal_number, finite, whole_number  # noqa: E402

# Command name -> the module that defines it. Modules load on first use, so `ycsbctl run` does
# not import docker, matplotlib… and neither do the engine's worker processes, which re-import
# this entry point when they are spawned (measured: 0.96 s with every module, 0.2 s without).
COMMANDS = {
    "run": "experiment", "load": "experiment", "dry-run": "workload",
    "targets": "servers", "up": "servers", "status": "servers", "down": "servers", "doctor": "servers",
    "iperf": "telemetry", "report": "report", "compare": "report", "import-ycsb": "results", "list": "listing",
    "lab": "lab", "calibrate": "calibrate", "rerun": "rerun",
}


def _ignore_interrupts() -> None:
    """At interpreter exit the command is done (and said so): a Ctrl-C now would only break the
    libraries' own exit handlers (pymongo's, Dask's) with a traceback and a misleading exit code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _quiet_exit() -> None:
    """Make :func:`_ignore_interrupts` the first exit handler to run: atexit runs the last
    registered first, and the libraries the command imported have registered theirs by now."""
    atexit.unregister(_ignore_interrupts)
    atexit.register(_ignore_interrupts)


# The last exit handler to run (the first registered): every object still alive is frozen, so the interpreter's
# teardown, which collects garbage several times over all of them (pandas, pyarrow and the sweep's modules: a few
# hundred thousand objects), walks none of them. Each command ended that many tenths of a second after its work
# was done, and a test reading a command's output waits for that end (`python -m bench command_cost` times a
# command's start, point and end). What the teardown still does for them is done: exit handlers (weakref
# finalizers, multiprocessing's, the libraries') have run, module globals are still cleared (closing what only
# they hold) and stdout and stderr are flushed; only objects in reference cycles are left to the OS, as at os._exit.
atexit.register(gc.freeze)


class _Group(click.Group):
    """Loads command modules lazily and turns a :class:`UserError` into one ``error:`` line and
    its exit code (2 for bad input)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            importlib.import_module(f"ycsbctl.cli.{COMMANDS[name]}")
        return self.commands.get(name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as exc:
            click.echo(f"error: {redact_text(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:  # (click would print an empty line and call it Abort, exit 1)
            # a command that started something says itself what it stopped; this one had not got that far
            # (still importing its module, or parsing)
            click.echo("ycsbctl: interrupted before anything was started", err=True)
            sys.exit(130)
        except Exception as exc:
            from ycsbctl.stores.deadline import passed_in

            passed = passed_in(exc)  # an admin call past its deadline, wherever no caller said it: one line, exit 1
            if passed is None:
                raise
            click.echo(f"error: {redact_text(str(passed))}", err=True)
            sys.exit(1)

    def main(self, *args, **kwargs):
        """Click's usage errors as one ``error:`` line too (not click's four-line usage block)."""
        kwargs["standalone_mode"] = False
        try:
            # a Ctrl-C that lands in a finalizer is not lost; SIGTERM/SIGHUP are Ctrl-C (one line, exit 130), not a
            # silent exit 143 (report, compare, list, … and every command still parsing its line)
            with interrupts_redelivered(), default_stops_as_interrupt():
                return super().main(*args, **kwargs)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "ycsbctl"
            click.echo(f"error: {redact_text(exc.format_message())} (see `{where} -h`)", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error: {redact_text(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):  # Ctrl-C while click parsed the command line
                click.echo("ycsbctl: interrupted before anything was started", err=True)
                sys.exit(130)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        finally:
            _quiet_exit()


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
      ycsbctl list                           past experiments in reports/, newest first
      ycsbctl lab up | down                  hosts made of network namespaces, for --cluster rehearsals

    Workloads are YCSB property files: a name from workloads/ (workload-a, b, insert…) or a path.
    """


# The longest point (or warm-up) a --duration/--warmup may ask, in seconds: 365 days. 1e300 passed and broke the
# engine's deadline (an int of nanoseconds: OverflowError in a worker or the controller; campaign, 27 Nov).
MAX_POINT_S = 365 * 86_400


class FiniteFloatRange(click.FloatRange):
    """click's ``FloatRange`` for every float option of every command, refusing NaN and ±infinity as well:
    ``nan`` passes any range check (``nan < 0.1`` is False) and ``inf`` any lower bound, and either later
    breaks a worker or the controller. The refusal is click's one line, exit 2."""

    def convert(self, value, param, ctx):
        try:  # before the range: 'inf' beyond an upper bound is said to be no finite number, as without one
            decimal_number(value) if isinstance(value, str) else finite(float(value))
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a finite number: give one such as 10 or 2.5", param, ctx)
        return super().convert(value, param, ctx)


class WholeRange(click.IntRange):
    """click's ``IntRange`` for every whole-number option of every command, read by the one rule for a number a
    user types (:func:`ycsbctl.user_input.whole_number`: ASCII digits; click's own int() reads ``٣`` as 3). The
    refusal is click's one line, exit 2."""

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                whole_number(value)
            except ValueError:
                self.fail(f"{value!r} is not a whole number: give digits such as 8", param, ctx)
        return super().convert(value, param, ctx)


def image_option(items: tuple[str, ...], targets: list[str]) -> dict[str, str]:
    """``--image TARGET=IMAGE`` (repeatable) as a map; a bare ``IMAGE`` is allowed with one target."""
    images: dict[str, str] = {}
    for item in items:
        name, sep, img = item.partition("=")
        if not sep and len(targets) == 1:
            name, img = targets[0], item
        elif not sep or not name or not img:
            raise click.BadParameter(f"{item!r}: write TARGET=IMAGE (e.g. redis=redis:7.2)", param_hint="--image")
        images[name] = img
    return images



TARGET_SPEC_HELP = {
    "server_config": "Server setting for the target labelled LABEL, as in its config file (repeatable): "
                     "redis-lazyfree:lazyfree-lazy-user-del=yes, valkey-io2:io-threads=2. Only for servers "
                     "ycsbctl starts; a setting the server refuses at start ends the run (exit 2).",
    "target_kind": "Server kind of a label that does not begin with one (repeatable): lazy=redis. A label "
                   "beginning with a kind and '-' needs none: redis-lazyfree is redis, valkey-io2 is valkey.",
    "targets_file": "Targets from a file, one per line: LABEL [KIND] [key=value …] (e.g. "
                    "'redis-lazyfree lazyfree-lazy-user-del=yes'), or a URL; before --target/--targets, "
                    "whose --server-config win.",
    "binary": "Run this server build for a kind or a label (repeatable, local backend): "
              "valkey=/opt/valkey/bin/valkey-server, redis-unstable=~/redis/src/redis-server.",
    "tls": "Start the servers ycsbctl runs speaking TLS only (a certificate from ycsbctl's own CA, kept in its "
           "state folder), and speak TLS to them (Redis-protocol targets; local backend).",
}


def target_spec_option_list() -> list:
    """``--server-config``, ``--target-kind``, ``--binary``: targets as label + kind + settings."""
    return [
        click.option("--server-config", "server_config", multiple=True, metavar="LABEL:KEY=VALUE",
                     help=TARGET_SPEC_HELP["server_config"]),
        click.option("--target-kind", "target_kind", multiple=True, metavar="LABEL=KIND",
                     help=TARGET_SPEC_HELP["target_kind"]),
        click.option("--binary", "binary", multiple=True, metavar="NAME=PATH", help=TARGET_SPEC_HELP["binary"]),
        click.option("--tls", "tls", is_flag=True, default=False, help=TARGET_SPEC_HELP["tls"]),
    ]


def targets_file_option():
    return click.option("--targets-file", "targets_file", default=None, metavar="FILE",
                        help=TARGET_SPEC_HELP["targets_file"])


def target_spec_options(f):
    """The three options as one decorator."""
    for o in reversed(target_spec_option_list()):
        f = o(f)
    return f


def target_spec_maps(server_config: tuple[str, ...], target_kind: tuple[str, ...],
                     binary: tuple[str, ...], targets_file=None, tls: bool = False) -> dict:
    """The options (and a :class:`~ycsbctl.provision.target_spec.TargetsFile`'s kinds and settings,
    which the options override) as the Plan's ``server_settings``, ``target_kinds``, ``binaries`` and ``tls``."""
    from ycsbctl.provision.target_spec import parse_binaries, parse_server_config, parse_target_kinds

    settings = {label: dict(kv) for label, kv in (targets_file.settings if targets_file else {}).items()}
    for label, kv in parse_server_config(server_config).items():
        settings.setdefault(label, {}).update(kv)
    kinds = {**(targets_file.kinds if targets_file else {}), **parse_target_kinds(target_kind)}
    return {"server_settings": settings, "target_kinds": kinds, "binaries": parse_binaries(binary), "tls": tls}


def docker_host_option(items: tuple[str, ...]) -> dict[str, str]:
    """``--docker-host [TARGET=]URL`` (repeatable) as a map; a bare URL applies to every provisioned
    target (key :data:`ALL_TARGETS`), ``TARGET=URL`` to one."""
    from ycsbctl.provision.engines import ALL_TARGETS, check_docker_host

    hosts: dict[str, str] = {}
    for item in items:
        name, sep, url = item.partition("=")
        if not sep or "://" in name:
            name, url = ALL_TARGETS, item
        if not name:
            raise click.BadParameter(f"{item!r}: write URL or TARGET=URL (e.g. redis=tcp://dbhost:2375)",
                                     param_hint="--docker-host")
        hosts[name] = check_docker_host(url)
    return hosts


# Last: the module is whole. From here a Ctrl-C is KeyboardInterrupt again (main() says it in one line), and
# SIGTERM/SIGHUP their default, which main() turns into KeyboardInterrupt.
if _ON_INTERRUPT is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    for _s in _STOPS:
        _signal.signal(_s, _signal.SIG_DFL)

"""The help of ``ycsbctl run`` and ``ycsbctl load`` as a person scans it: their options in titled panels, the
options most runs set first (rich-click's :class:`~rich_click.RichOptionPanel`, in its plain layout), and the
catalogue's names from the catalogue itself.

Imported by the command modules only, never by :mod:`ycsbctl.cli` itself, which the engine's workers re-import:
rich-click stays out of them (tests/cli/test_help.py)."""

from __future__ import annotations

from typing import Any

from rich_click import RichCommand, RichContext, RichHelpFormatter, RichOptionPanel

from ycsbctl.provision.catalog import kind_names
from ycsbctl.provision.variants import VARIANTS
from ycsbctl.stores import registry


def catalogue_names() -> str:
    """Every catalogue name a target may be (:func:`~ycsbctl.provision.catalog.kind_names`), each server kind with
    its variants in parentheses: ``redis (redis-aof, …, redis-repl2), mongodb, valkey (…), …``."""
    variants: dict[str, list[str]] = {}
    for name in kind_names():
        variant = VARIANTS.get(name)
        if variant is None:
            variants.setdefault(name, [])
        else:
            variants.setdefault(variant.base, []).append(name)
    return ", ".join(kind + (f" ({', '.join(names)})" if names else "") for kind, names in variants.items())


# The option panels of `run --help` and `load --help`, the options most runs set first (an option a command does not
# have is left out of its panels). Every option is in one: tests/cli/test_help.py checks that none is left over.
PANELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Targets", ("--target", "--targets", "--targets-file", "--server-config", "--target-kind", "--binary", "--tls")),
    ("Points", ("--threads", "--duration", "--profile", "--records", "--operations", "--warmup", "--target-rate",
                "-P", "-p", "--timeout", "--max-error-rate", "--seed", "--disturb")),
    ("Rounds and verdicts", ("--repeat", "--budget", "--precision", "--max-repeat", "--margin", "--baseline",
                             "--alpha", "--order", "--slice")),
    ("Load phase", ("--load", "--load-threads")),
    ("Latency objective search", ("--slo", "--slo-start", "--slo-points")),
    ("Servers ycsbctl starts", ("--backend", "--docker-host", "--image", "--server-cpus", "--server-memory",
                                "--placement")),
    ("Load generator", ("--engine", "--ycsb-home", "--processes", "--cluster")),
    ("Telemetry and profiling", ("--telemetry", "--cpu-profile", "--iperf-server", "--yardstick", "--reference")),
    ("Output", ("--out", "--format", "--quiet", "--report", "--resume", "--save-study", "--allow-concurrent",
                "--help")),
)

# rich-click's plain layout (no boxes: a panel is a titled list, as click's own "Options:"), a blank line between the
# description's paragraphs, defaults written as the help texts write theirs; RICH_CLICK_THEME still picks another look
HELP_LAYOUT = {"theme": "default-slim", "default_string": r"\[default: {}]", "text_paragraph_linebreaks": "\n\n",
               "padding_helptext_first_line": (0, 0, 1, 0)}


class _Formatter(RichHelpFormatter):
    """rich's lines without the spaces that pad them to the width (a help page piped to a file or a pager)."""

    def getvalue(self) -> str:
        return "\n".join(line.rstrip(" ") for line in super().getvalue().split("\n"))


class _Context(RichContext):
    formatter_class = _Formatter


class PanelledCommand(RichCommand):
    """A command whose help shows its options in the panels it is given (``panels``), laid out as
    :data:`HELP_LAYOUT`."""

    context_class = _Context


def targets_said() -> str:
    """The Targets panel's lines, at the page's whole width above its options: every catalogue name and every URL
    shape, from the catalogue and the registry."""
    return (f"A target is a catalogue name (variants in parentheses; `ycsbctl targets` describes each): "
            f"{catalogue_names()}; or a URL: {registry.examples()}.")


def panelled(**attrs: Any) -> dict[str, Any]:
    """The ``main.command`` arguments of a command whose help shows its options in :data:`PANELS`."""
    said = {"Targets": targets_said()}
    panels = [RichOptionPanel(title, options=list(names), help=said.get(title), inline_help_in_title=False)
              for title, names in PANELS]
    return {"cls": PanelledCommand, "panels": panels, "context_settings": {"rich_help_config": HELP_LAYOUT}, **attrs}

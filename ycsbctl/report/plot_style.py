"""How the report's figures look and are saved, shared by every figure module: the Okabe–Ito palette
(colour-blind safe), line styles per operation, axis formatters, titles, legends below the axes,
and :func:`save` (PNG at 100 dpi and SVG, whole or absent)."""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

# Figures are built with the object API and never touch pyplot, so no GUI backend is ever loaded:
# savefig renders PNG through Agg and SVG through the SVG backend, and a notebook keeps its own backend.
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullLocator

from ycsbctl.processes import deferred_signals

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
FAILED_COLOR = "#B2182B"
OP_STYLES = {"READ": "-", "UPDATE": "--", "INSERT": ":", "SCAN": "-.", "READ-MODIFY-WRITE": (0, (5, 1, 1, 1)),
             "DELETE": (0, (1, 2))}
MIB = 2**20


@dataclass
class PlotFile:
    """One saved figure: ``png`` and ``svg`` paths and what it shows."""

    name: str
    title: str
    png: Path
    svg: Path


def target_colors(targets: list[str]) -> dict[str, str]:
    return {t: OKABE_ITO[i % len(OKABE_ITO)] for i, t in enumerate(targets)}


def latency_unit(max_us: float) -> tuple[float, str]:
    """Divisor and unit for a latency axis: ms once values reach 20,000 µs, else µs."""
    return (1000.0, "ms") if max_us == max_us and max_us >= 20_000 else (1.0, "µs")


def duration(v_us: float, _pos: object = None) -> str:
    """A tick label for a latency in µs: ``500 µs``, ``2 ms``, ``1.5 s``."""
    if v_us < 1000:
        return f"{v_us:g} µs"
    return f"{v_us / 1000:g} ms" if v_us < 1e6 else f"{v_us / 1e6:g} s"


def kilo(v: float, _pos: object = None) -> str:
    return f"{v / 1000:g}k" if abs(v) >= 1000 else f"{v:g}"


def threads_axis(ax, threads: list[int]) -> None:
    """A log₂ axis of client threads; counts below one (a run file edited so: its point is failed) are not
    placed on it (nor said again by matplotlib: the load already named that run file)."""
    threads = [t for t in threads if t >= 1] or [1]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Data has no positive values", UserWarning)
        ax.set_xscale("log", base=2)
    ax.set_xticks(threads)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(min(threads) / 1.35, max(threads) * 1.35)
    ax.set_xlabel("client threads (log₂ scale)")


def axis_top(x: float) -> float:
    """An upper axis limit 15% above ``x`` (1 when there is nothing to show)."""
    x = float(x)
    return x * 1.15 if math.isfinite(x) and x > 0 else 1.0


def titles(fig: Figure, title: str, subtitle: str) -> None:
    fig.suptitle(title, fontsize=12, fontweight="bold", y=0.98)
    if subtitle:
        fig.text(0.5, 0.915, subtitle, ha="center", fontsize=8.5, color="#444")


def legend_below(fig: Figure, handles: list, ncol: int) -> int:
    """The figure's legend centred below the axes, in at most 4 columns, fewer when they would be wider than the
    figure as its renderer draws them (five targets and a long entry cut both ends off); → its rows."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    ncol = max(1, min(ncol, 4))
    renderer = FigureCanvasAgg(fig).get_renderer()  # the renderer savefig's PNG uses
    while True:
        legend = fig.legend(handles=handles, loc="lower center", ncol=ncol, frameon=False, fontsize=8.5)
        if ncol == 1 or legend.get_window_extent(renderer).width <= fig.bbox.width:
            return math.ceil(len(handles) / ncol)
        legend.remove()
        ncol -= 1


SPREAD_FOR_LOG = 20.0  # targets this far apart flatten each other on a linear axis


def far_apart(per_target: pd.Series) -> bool:
    """Whether the targets' typical values (one per target) differ by more than ``SPREAD_FOR_LOG``×:
    then a linear axis would draw the smaller ones as a flat line at zero, and a log axis is used."""
    v = per_target[per_target > 0].dropna()
    return len(v) > 1 and float(v.max() / v.min()) > SPREAD_FOR_LOG


def save(fig: Figure, plots_dir: Path, name: str, title: str) -> PlotFile:
    """Write ``<name>.png`` (100 dpi) and ``<name>.svg`` into ``plots_dir``."""
    plots_dir.mkdir(parents=True, exist_ok=True)
    png, svg = plots_dir / f"{name}.png", plots_dir / f"{name}.svg"
    # zlib level 1, not Pillow's 6: the same pixels (PNG is lossless), ~10 % less of the PNG's CPU (0.77-0.86 s
    # against 0.92-0.95 s for a 9-figure report) for files ~5 % larger
    png_kwargs = {"dpi": 100, "format": "png", "pil_kwargs": {"compress_level": 1}}
    for path, kwargs in ((png, png_kwargs), (svg, {"format": "svg"})):
        tmp = path.with_name(path.name + ".tmp")  # whole or absent: a full disk leaves no truncated figure
        try:
            # Ctrl-C waits for the figure: an interrupt landing inside Agg's C++ drawing comes out as
            # "ValueError: Invalid bounding box" instead of KeyboardInterrupt.
            with deferred_signals():
                fig.savefig(tmp, **kwargs)
                os.replace(tmp, path)
        except BaseException:  # a full disk or Ctrl-C: no half figure left behind
            tmp.unlink(missing_ok=True)
            raise
    return PlotFile(name, title, png, svg)


def spread_labels(fig: Figure, labels: list, step_pt: float = 2.0, rounds: int = 200) -> None:
    """Move annotations (offset in points) up, one step at a time, until no two of their boxes overlap
    as the figure's own renderer draws them; a label keeps its x and stays above its point."""
    if len(labels) < 2:
        return
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()  # the renderer savefig's PNG uses
    for _ in range(rounds):
        boxes = [a.get_window_extent(renderer) for a in labels]
        moved = False
        for i in range(len(labels)):
            if any(boxes[i].overlaps(boxes[j]) for j in range(i)):
                x, y = labels[i].xyann
                labels[i].xyann = (x, y + step_pt)
                boxes[i] = labels[i].get_window_extent(renderer)
                moved = True
        if not moved:
            return

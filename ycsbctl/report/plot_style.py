"""How the report's figures look and are saved, shared by every figure module: one colour per store
(:func:`target_colors`: the Okabe–Ito palette, colour-blind safe, up to eight stores; matplotlib's tab20 family
beyond), line styles per operation, axis formatters, titles, legends below the axes,
and :func:`save` (PNG at 100 dpi and SVG, whole or absent)."""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

# Figures are built with the object API and never touch pyplot, so no GUI backend is ever loaded:
# savefig renders PNG through Agg and SVG through the SVG backend, and a notebook keeps its own backend.
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullLocator

from ycsbctl.processes import deferred_signals

if TYPE_CHECKING:
    from ycsbctl.results.frames import Experiment

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
# More than eight stores (a many-store study): tab20's dark shades, then its light ones (neighbours in a legend far
# apart in hue), then tab20b and tab20c — greys left out (a grey is a bar with no store's colour: "#777")
_TAB20 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
          "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5")
FAILED_COLOR = "#B2182B"
# READ-MODIFY-WRITE's line: a long dash and a dot, as (offset, (on, off, on, off)) in points scaled by the line width
LONG_DASH_DOT = (0, (5,  # the dash
                     1,  # a gap
                     1,  # the dot
                     1))  # the gap before the next dash
OP_STYLES = {"READ": "-", "UPDATE": "--", "INSERT": ":", "SCAN": "-.", "READ-MODIFY-WRITE": LONG_DASH_DOT,
             "DELETE": (0, (1, 2))}
MIB = 2**20


@dataclass
class PlotFile:
    """One saved figure: ``png`` and ``svg`` paths and what it shows."""

    name: str
    title: str
    png: Path
    svg: Path


def palette(n: int) -> list[str]:
    """``n`` distinct colours (hex): the Okabe–Ito palette for up to eight, else tab20's then tab20b's and tab20c's
    (without greys), then hues spaced evenly around the colour wheel at two lightnesses."""
    if n <= len(OKABE_ITO):
        return list(OKABE_ITO[:n])
    import colorsys

    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    more = [to_hex(c) for name in ("tab20b", "tab20c") for c in colormaps[name].colors]  # type: ignore[attr-defined]
    out = list(dict.fromkeys([*_TAB20, *(c for c in more if len({c[1:3], c[3:5], c[5:7]}) > 1)]))
    k = max(n - len(out), 0) + 8  # a few spare hues: two that round to one hex are one colour
    out += [to_hex(colorsys.hls_to_rgb(i / k, 0.35 + 0.3 * (i % 2), 0.75)) for i in range(k)]
    return list(dict.fromkeys(out))[:n]


def target_colors(targets: list[str]) -> dict[str, str]:
    """Each store's colour, one distinct colour per store (:func:`palette` of as many as there are), in the order
    given: the one place a store's colour is decided, so that it keeps it from figure to figure of a report."""
    names = list(dict.fromkeys(targets))
    return dict(zip(names, palette(len(names))))


def experiment_colors(exp: Experiment) -> dict[str, str]:
    """:func:`target_colors` of every store of ``exp``: those with runs in plan order, then those that could answer
    none of its tests (a many-store study's "cannot" cells), so that every figure of its report agrees."""
    return target_colors([*exp.targets, *(c.target for c in exp.manifest.cannot)])


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


def legend_below(fig: Figure, handles: list, ncol: int, max_cols: int = 4) -> int:
    """The figure's legend centred below the axes, in at most ``max_cols`` columns, fewer when they would be wider
    than the figure as its renderer draws them (five targets and a long entry cut both ends off); → its rows."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    ncol = max(1, min(ncol, max_cols))
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

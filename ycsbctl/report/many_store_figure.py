"""The many-store study's figure (:mod:`ycsbctl.report.many_store` reads the folder into a
:class:`~ycsbctl.report.many_store.StoreStudy`): per test, one bar per store — throughput (ops/s) and p99 (µs) at
the study's concurrency — and each store's memory per item (bytes), readable at any number of stores: each store in
its own colour (given: :func:`ycsbctl.report.plot_style.target_colors`); a cell without figures hatched by why
(cannot, failed, not measured: the legend says which), a degraded bar dotted in white over its own colour; value
labels only where no two overlap (else none, and the note says the report's table holds the figures); titles and
notes wrapped inside the page, the figure as tall as its title, legend and notes need around axes of a fixed
height. Every size is measured with the renderer the figure's PNG is drawn with (px at 100 dpi)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ycsbctl.report.many_store import TEST_NAMES, StoreStudy
from ycsbctl.report.text_fit import any_overlap, apart, renderer_of, wrap_to
from ycsbctl.report.unlike import UNLIKE_MARK

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text

WIDTH_IN = 14.0
AXES_PX = 300.0  # the panels' height
PAD_PX, GAP_PX = 8.0, 6.0  # from the page's edge; between blocks
HATCHES = {"cannot": "///", "failed": "xxx"}  # any other status without figures: "\\\\"
DEGRADED_HATCH = "..."  # over a degraded cell's bar, in white
HATCH_WORDS = {"cannot": "the store cannot answer the test", "failed": "failed"}
NOTE_COLOR = "#9a3b00"
CROWDED = ("Too many bars to label each one: every figure of the chart is in the report's table of the "
           "many-store study.")
PANELS = (("throughput", "throughput at {} threads", "ops/s"), ("p99_us", "p99 latency at {} threads", "µs"))
# a cell without figures: an empty bar as tall as this share of its panel's largest figure (the p99 panel is on a log
# scale, where 5 % already stands ~1.3 decades below it), its status written on it
EMPTY_BAR = {"throughput": 0.12, "p99_us": 0.05}
# The memory bars' names, (rotation °, font size pt) tried in turn until they fit: level, then upright and smaller
NAME_LOOKS = ((0, 8),
              (90, 8),
              (90, 7),
              (90, 6),
              (90, 5))


def _hatch(status: str) -> str:
    return HATCHES.get(status, "\\\\")


def _test_panel(ax: Axes, study: StoreStudy, colors: dict[str, str], attr: str) -> list[Text]:
    """One panel of grouped bars (one group per test, one bar per store); → its labels (value or status)."""
    tests, targets = study.tests, study.targets
    width = 0.8 / len(targets)  # a study with cells has targets: its cells are its tests x its targets
    x = np.arange(len(tests))
    top = max([getattr(c, attr) for c in study.cells if getattr(c, attr) == getattr(c, attr)] or [1.0])
    labels = []
    for i, t in enumerate(targets):
        xs = x + (i - (len(targets) - 1) / 2) * width
        for xi, test in zip(xs, tests):
            c = study.cell(test, t)
            if c is None:
                continue
            v = getattr(c, attr)
            if v == v:  # measured (ok, or degraded: white dots over the store's own colour, never a paler colour
                # that another store's could be — tab20 pairs each hue with a light one)
                ax.bar(xi, v, width, color=colors.get(t, "#777"), edgecolor="white" if c.status != "ok" else None,
                       hatch=DEGRADED_HATCH if c.status != "ok" else None, linewidth=0)
                labels.append(ax.text(xi, v, f"{v:,.0f}", ha="center", va="bottom", fontsize=6, rotation=90))
            else:
                base = top * EMPTY_BAR[attr]
                ax.bar(xi, base, width, color="none", edgecolor=colors.get(t, "#777"), hatch=_hatch(c.status))
                labels.append(ax.text(xi, base, c.status, ha="center", va="bottom", fontsize=6, rotation=90))
    if attr == "p99_us":  # from tens of µs (a key read) to seconds (a scan): one scale would hide the fast
        ax.set_yscale("log")
    ax.set_xticks(x, [TEST_NAMES.get(t, t) for t in tests], rotation=20, fontsize=8)
    return labels


def _memory_panel(ax: Axes, study: StoreStudy, colors: dict[str, str]) -> list[Text]:
    """Each store's bytes per item after its first load, its name under its bar (smaller type when the names
    would overlap, none when even 5-point type would: the legend names the colours); → its value labels."""
    mem = [(t, study.bytes_per_item[t]) for t in study.targets if t in study.bytes_per_item]
    bars = ax.bar(range(len(mem)), [v for _, v in mem], color=[colors.get(t, "#777") for t, _ in mem])
    labels: list[Text] = list(ax.bar_label(bars, fmt="{:,.0f}", fontsize=7, rotation=90 if len(mem) > 4 else 0))
    ax.set_title("memory per item after load" + (UNLIKE_MARK if study.memory_caveat() else ""), fontsize=10)
    ax.set_ylabel("bytes / item")
    return labels


def _name_memory_bars(ax: Axes, names: list[str], renderer: RendererBase) -> None:
    for rotation, size in NAME_LOOKS:
        ax.set_xticks(range(len(names)), names, rotation=rotation, fontsize=size)
        if not any_overlap(ax.get_xticklabels(), renderer) and apart(ax.get_xticklabels(), renderer):
            return
    ax.set_xticks(range(len(names)), [])
    ax.set_xlabel("stores by colour (the legend)", fontsize=8)


def _anchor(t: Text) -> float:
    """The data value a label stands on (a bar's top)."""
    return float(t.xy[1]) if hasattr(t, "xy") else float(t.get_position()[1])


def _headroom(ax: Axes, labels: list[Text], renderer: RendererBase) -> None:
    """Raise the panel's top so that every label ends inside it (2 % below its top edge): each label's height
    above its anchor is measured in px, the same at any limit."""
    if not labels:
        return
    lo, hi = ax.get_ylim()
    log = ax.get_yscale() == "log"
    f = np.log10 if log else (lambda v: v)
    need = f(hi)
    for t in labels:
        v = _anchor(t)
        if not v > 0 and log:
            continue
        above = t.get_window_extent(renderer).y1 - ax.transData.transform((0, v))[1]
        room = 0.98 * AXES_PX - above
        if room > 0:
            need = max(need, f(lo) + (f(v) - f(lo)) * AXES_PX / room)
    ax.set_ylim(lo, 10 ** need if log else need)


def _texts_below(fig: Figure, notes: list[str], width: float, renderer: RendererBase) -> list[Text]:
    out = []
    for note in notes:
        t = fig.text(0.5, 0.0, note, ha="center", va="bottom", fontsize=8.5, color=NOTE_COLOR)
        wrap_to(t, width, renderer)
        out.append(t)
    return out


def _legend_handles(study: StoreStudy, colors: dict[str, str]) -> list:
    from matplotlib.patches import Patch

    handles = [Patch(color=colors.get(t, "#777"), label=t) for t in study.targets]
    statuses = list(dict.fromkeys(c.status for c in study.cells if c.throughput != c.throughput))
    for s in statuses:
        handles.append(Patch(facecolor="none", edgecolor="#555", hatch=_hatch(s), label=HATCH_WORDS.get(s, s)))
    if any(c.status != "ok" and c.throughput == c.throughput for c in study.cells):
        handles.append(Patch(facecolor="#555", edgecolor="white", hatch=DEGRADED_HATCH,
                             label="degraded (measured on a busy host: † in the headlines)"))
    return handles


def store_study_figure(study: StoreStudy | None, colors: dict[str, str], subtitle: str = "") -> Figure | None:
    """The study's figure (see the module's docstring); None without a study or without cells."""
    # matplotlib (~0.3 s of CPU) only here: every `ycsbctl run` prints the study's headlines and most draw no figure
    from matplotlib.figure import Figure

    from ycsbctl.report.plot_style import legend_below

    if study is None or not study.cells:
        return None
    fig = Figure(figsize=(WIDTH_IN, 6.0))
    axes = list(fig.subplots(1, 3, gridspec_kw={"width_ratios": [3, 3, 1.4]}))
    fig.subplots_adjust(left=0.06, right=0.985, wspace=0.3)
    renderer = renderer_of(fig)
    labels = {}
    for ax, (attr, title, unit) in zip(axes, PANELS):
        labels[id(ax)] = _test_panel(ax, study, colors, attr)
        ax.set_title(title.format(study.threads), fontsize=10)
        ax.set_ylabel(unit)
    labels[id(axes[2])] = _memory_panel(axes[2], study, colors)
    _name_memory_bars(axes[2], [t for t in study.targets if t in study.bytes_per_item], renderer)
    crowded = False
    for ax in axes:  # apart or none: which x they sit at does not change with the figure's height
        if not apart(labels[id(ax)], renderer):
            crowded = True
            for t in labels.pop(id(ax)):
                t.remove()
    for ax in axes:  # a panel's title within its panel's width (the memory one is narrow)
        wrap_to(ax.title, ax.bbox.width, renderer)
    width = fig.bbox.width - 2 * PAD_PX
    head = fig.suptitle("the many-store study: each test on each store", fontsize=12, fontweight="bold", va="top")
    wrap_to(head, width, renderer)
    sub = fig.text(0.5, 1.0, subtitle, ha="center", va="top", fontsize=8.5, color="#444") if subtitle else None
    if sub is not None:
        wrap_to(sub, width, renderer)
    notes = _texts_below(fig, [n for n in (study.memory_caveat(), CROWDED if crowded else "") if n], width, renderer)
    handles = _legend_handles(study, colors)
    legend_below(fig, handles, len(handles), max_cols=6)
    _stack(fig, axes, [head, *([sub] if sub is not None else [])], notes, renderer)
    for ax in axes:
        _headroom(ax, labels.get(id(ax), []), renderer)
    return fig


def _stack(fig: Figure, axes: list[Axes], heads: list[Text], notes: list[Text], renderer: RendererBase) -> None:
    """Set the figure's height and place, top down: the title lines, the panels (their titles above, their tick
    labels below), the legend, the notes — each block its measured height apart from the next."""
    legend = fig.legends[-1]

    def h(t) -> float:
        return float(t.get_window_extent(renderer).height)

    above = max(h(ax.title) for ax in axes) + 10.0  # a panel's title sits 6 points above it
    below = max(ax.bbox.y0 - (box.y0 if (box := ax.xaxis.get_tightbbox(renderer)) is not None else ax.bbox.y0)
                for ax in axes)
    top_px = PAD_PX + sum(h(t) + GAP_PX for t in heads) + above
    foot = [h(t) + GAP_PX for t in notes]
    bottom_px = PAD_PX + sum(foot) + h(legend) + GAP_PX + below + GAP_PX
    total = top_px + AXES_PX + bottom_px
    fig.set_size_inches(WIDTH_IN, total / fig.dpi)
    fig.subplots_adjust(top=1 - top_px / total, bottom=bottom_px / total)
    y = PAD_PX
    for t in heads:
        t.set_y(1 - y / total)
        y += h(t) + GAP_PX
    y = PAD_PX
    for t, step in zip(reversed(notes), reversed(foot)):
        t.set_y(y / total)
        y += step
    legend.set_bbox_to_anchor((0.5, y / total), transform=fig.transFigure)

"""The many-store study's figure readable at any number of stores (issue 72: overlapping labels, two stores in
one colour, a note cut at both edges, "(degraded: host busy…)" after each of 43 ratios), checked with
matplotlib's own renderer and against the folder's runs table: as many distinct colours among the stores' bars
as there are stores, each store in one colour from figure to figure; no two drawn texts' boxes intersect and
every one lies inside the page; the first screen says a store is degraded at most once, the cause once for the
study, and marks (†) exactly the cells runs.csv holds degraded. On folders made in memory (3 and 20 stores)
and on a real small run (SQLite, redis-server, memcached)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.colors import to_hex, to_rgba

from tests.fixtures.figure_texts import drawn_texts, outside, overlapping
from tests.fixtures.many_stores import TESTS, many_store_study
from ycsbctl.report.many_store import DEGRADED_MARK, TEST_NAMES, store_study
from ycsbctl.report.many_store_figure import CROWDED, store_study_figure
from ycsbctl.report.plot_style import experiment_colors
from ycsbctl.report.plots import context_line
from ycsbctl.report.study_headlines import study_headlines
from ycsbctl.results import load

pytestmark = [pytest.mark.truth, pytest.mark.report]

SIZES = (3, 20)  # 3: every bar keeps its label; 20: past the 8 Okabe-Ito colours, all of tab20 (12 added no case)


@pytest.fixture(scope="module", params=SIZES, ids=[f"{n}-stores" for n in SIZES])
def study(request, tmp_path_factory):
    """A finished study of 3 or 20 stores (the 20 on three tests), one repetition each (setting up 200 runs
    took 14 s), a third of them (at least one) degraded by a busy host."""
    n = request.param
    return many_store_study(tmp_path_factory.mktemp("many"), n, busy=max(1, n // 3),
                            tests=("byid", "1cond", "update") if n > 12 else TESTS, repeat=1)


def _figure(exp):
    fig = store_study_figure(store_study(exp), experiment_colors(exp), context_line(exp.manifest))
    assert fig is not None
    return fig


def _bar_colours(fig) -> set[str]:
    """The colour (hex, without alpha) of each bar of every panel: a measured bar's face, a hatched one's edge."""
    out = set()
    for ax in fig.axes:
        for p in ax.patches:
            face = to_rgba(p.get_facecolor())
            out.add(to_hex(p.get_edgecolor() if face[3] == 0 else face, keep_alpha=False))
    return out


def _legend_colours(fig, stores: list[str]) -> dict[str, str]:
    legend = fig.legends[-1]
    return {t.get_text(): to_hex(h.get_facecolor(), keep_alpha=False)
            for t, h in zip(legend.get_texts(), legend.legend_handles) if t.get_text() in stores}


def test_each_store_has_a_colour_of_its_own_its_bars_and_legend_entry_alike(study):
    s = store_study(study)
    runs = pd.read_csv(study.path / "runs.csv")
    stores = list(dict.fromkeys([*runs["target"], *(c["target"] for c in json.loads(
        (study.path / "manifest.json").read_text())["cannot"])]))  # every store the folder names
    assert sorted(s.targets) == sorted(stores)
    fig = _figure(study)
    bars = _bar_colours(fig)
    assert len(bars) == len(stores), (len(bars), len(stores))
    legend = _legend_colours(fig, stores)
    assert sorted(legend) == sorted(stores) and set(legend.values()) == bars


def test_no_two_texts_overlap_and_every_one_lies_inside_the_page(study):
    fig = _figure(study)
    texts = drawn_texts(fig)
    assert overlapping(texts) == []
    assert outside(fig, texts) == []
    words = " ".join(" ".join(t.split()) for t, _ in texts)
    assert "Unlike quantities, not comparable:" in words and "sqlite's figure is page_count*page_size" in words
    s = store_study(study)
    labelled = [t for ax in fig.axes for t in ax.texts]
    if len(s.targets) <= 3:  # room for every bar's label: each cell has one in each of its two panels
        assert len(labelled) == 2 * len(s.cells) + len(s.bytes_per_item) and CROWDED not in words
    else:  # too many: none, and the figure says where the figures are
        assert " ".join(CROWDED.split()) in words


def _names_degraded(line: str, store: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(store)}(?![\w-])", line)) and "degraded" in line


def test_the_first_screen_says_degraded_once_per_store_and_marks_the_cells_runs_csv_holds_degraded(study):
    lines = study_headlines(study, study.verdicts())
    runs = pd.read_csv(study.path / "runs.csv")
    degraded = runs[runs["status"] == "degraded"]
    busy = list(dict.fromkeys(degraded["target"]))
    assert busy
    for store in store_study(study).targets:
        assert sum(_names_degraded(line, store) for line in lines) <= 1, store
    assert sum(line.count("host busy: other programs used CPU") for line in lines) == 1
    marked = {(m, line.split(" at ", 1)[0]) for line in lines for m in re.findall(r"([\w-]+)" + DEGRADED_MARK, line)}
    truth = {(t, TEST_NAMES[w.removeprefix("media-items-")]) for t, w in zip(degraded["target"], degraded["workload"])}
    assert marked == truth


def test_a_real_small_study_keeps_each_stores_colour_in_every_figure_and_its_texts_apart(
        tmp_path: Path, redis_server, rds, memcached_server, monkeypatch) -> None:
    """``ycsbctl run media-items`` on SQLite, redis-server and memcached (GET-BY-ID, which all answer, and
    QUERY-1COND, which only SQLite can): its report's figures, drawn again from the folder as the report draws
    them, give each store one colour in all of them, and the study's figure no overlapping or cut text; its
    console and its report's top say a store degraded at most once (on a quiet host none may be: the folders made
    in memory above have degraded stores for sure)."""
    from ycsbctl.experiment.targets import target_label
    from ycsbctl.report import plots

    out = tmp_path / "study"
    targets = [f"sqlite:///{tmp_path / 'm.db'}", redis_server.url, memcached_server.url]
    r = subprocess.run(
        [sys.executable, "-m", "ycsbctl", "run", "media-items", *(a for t in targets for a in ("--target", t)),
         "--records", "300", "--threads", "2", "--duration", "0.5", "--no-telemetry", "--load", "--allow-concurrent",
         "--processes", "1", "--no-report", "-p", "media.operation=byid,1cond", "--out", str(out)],
        capture_output=True, text=True, timeout=300)
    assert r.returncode in (0, 3), r.stderr[-2000:]  # 3: a point degraded on a busy host (its figures still drawn)
    stores = [target_label(t) for t in targets]
    exp = load(out)
    figures = {}
    monkeypatch.setattr(plots, "save", lambda fig, d, name, title: figures.setdefault(name, fig))
    plots.render_plots(exp, "p99")
    fig = figures["store-study"]
    assert len(_bar_colours(fig)) == len(stores) == len(_legend_colours(fig, stores))
    colours = _legend_colours(fig, stores)
    for name, other in figures.items():  # every line or bar of a store, in any figure, in its colour
        for ax in other.axes:
            for line in ax.get_lines():
                store = next((s for s in stores if line.get_label().startswith(s)), None)
                if store is not None:
                    assert to_hex(line.get_color(), keep_alpha=False) == colours[store], (name, store)
        for legend in other.legends:
            for t, h in zip(legend.get_texts(), legend.legend_handles):
                store = next((s for s in stores if t.get_text().split(" ")[0] == s), None)
                colour = h.get_color() if hasattr(h, "get_color") else h.get_facecolor()
                if store is not None:
                    assert to_hex(colour, keep_alpha=False) == colours[store], (name, t.get_text())
    texts = drawn_texts(fig)
    assert overlapping(texts) == [] and outside(fig, texts) == []
    said = (r.stdout + r.stderr).splitlines()
    # the report's first screen as its page renders it (drawn here, not by the run: --no-report saves ~10 s)
    from ycsbctl.report.html import build_context, environment

    html = environment().get_template("report.html.j2").render(**build_context(exp, {}, exp.points(), "p99"))
    top = html.split('<ul class="findings headlines">', 1)[1].split("</ul>", 1)[0]
    for store in stores:
        assert sum(_names_degraded(line, store) for line in said if " at 2 threads: " in line or "†" in line) <= 1
        assert sum(_names_degraded(li, store) for li in top.split("<li>")) <= 1
    assert any(line.startswith("GET-BY-ID at 2 threads: fastest ") for line in said)


def test_a_note_wraps_at_spaces_to_the_width_it_is_given_with_every_word_kept():
    """Each line, drawn alone, is no wider than asked (a word wider than that alone on its line), the words and
    their order unchanged, and a line could not take the next line's first word."""
    from matplotlib.figure import Figure

    from ycsbctl.report.text_fit import renderer_of, wrap_to

    fig = Figure(figsize=(6, 2))
    renderer = renderer_of(fig)
    text = ("Unlike quantities, not comparable: redis, valkey and keydb's figures are used_memory; sqlite's "
            "figure is page_count*page_size; an_unbreakable_word_wider_than_the_width_asked_for.")
    words = text.split(" ")
    note = fig.text(0.5, 0.5, text, fontsize=8.5)
    lines = wrap_to(note, 150.0, renderer)
    got = note.get_text().split("\n")
    assert lines == len(got) > 3 and " ".join(got).split() == words

    def width(s: str) -> float:
        probe = fig.text(0, 0, s, fontsize=8.5)
        w = probe.get_window_extent(renderer).width
        probe.remove()
        return w

    for line, after in zip(got, [*got[1:], ""]):
        assert width(line) <= 150.0 or " " not in line
        if after:
            assert width(f"{line} {after.split()[0]}") > 150.0
    blank = fig.text(0.5, 0.1, "  ", fontsize=8.5)  # a note of no words takes no line (no room kept for it)
    assert wrap_to(blank, 150.0, renderer) == 0


def test_exactly_the_cells_runs_csv_holds_degraded_are_dotted_in_white_over_their_stores_colour(study):
    """In each test panel (throughput, p99) a degraded cell's bar is its store's own colour with white dots over it
    (never a paler colour another store could have), every other measured bar plain: the dotted bars are exactly the
    (store, test) cells whose runs runs.csv holds degraded, each in the colour the legend gives its store."""
    from ycsbctl.report.many_store_figure import DEGRADED_HATCH

    runs = pd.read_csv(study.path / "runs.csv")
    degraded = runs[runs["status"] == "degraded"]
    cells = set(zip(degraded["target"], degraded["workload"]))
    assert cells and len(cells) < len(set(zip(runs["target"], runs["workload"])))
    fig = _figure(study)
    legend = _legend_colours(fig, list(store_study(study).targets))
    for ax in fig.axes[:2]:
        dotted = [p for p in ax.patches if p.get_hatch() == DEGRADED_HATCH]
        assert len(dotted) == len(cells), ax.get_title()
        assert {to_hex(p.get_facecolor(), keep_alpha=False) for p in dotted} == {legend[t] for t, _ in cells}
        assert {to_hex(p.get_edgecolor(), keep_alpha=False) for p in dotted} == {"#ffffff"}


def test_every_bar_label_ends_inside_its_panel(study):
    """Each panel's top is raised until every value (or status) label above a bar ends inside it, 2 % of the panel
    below its top edge (the label's height measured in px by the figure's own renderer, whatever the scale)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _figure(study)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    labelled = [ax for ax in fig.axes if ax.texts]
    assert labelled or len(store_study(study).targets) > 3  # a crowded figure has none: the table holds them
    for ax in labelled:
        top = ax.get_window_extent(renderer).y1
        highest = max(t.get_window_extent(renderer).y1 for t in ax.texts)
        assert highest <= top - 0.02 * ax.get_window_extent(renderer).height + 0.5, ax.get_title()



def test_a_panels_top_is_raised_no_further_than_its_labels_need(study):
    """The other side of the labels' headroom: a panel's top is either the axis's own (matplotlib's autoscale of its
    bars, found again here) or raised until the label that needs the most room ends exactly 2 % of the panel below
    its top edge (in px, by the figure's own renderer), on a log scale (the p99 panel) as on a linear one."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _figure(study)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    labelled = [ax for ax in fig.axes if ax.texts]
    assert labelled or len(store_study(study).targets) > 3  # a crowded figure has none: the table holds them
    assert not labelled or any(ax.get_yscale() == "log" for ax in labelled)
    for ax in labelled:
        box = ax.get_window_extent(renderer)
        gap = box.y1 - 0.02 * box.height - max(t.get_window_extent(renderer).y1 for t in ax.texts)
        top = ax.get_ylim()[1]
        ax.autoscale(axis="y")  # the limits matplotlib gives the bars alone
        assert abs(gap) <= 0.5 or top == pytest.approx(ax.get_ylim()[1], rel=1e-9), (ax.get_title(), gap, top)

def test_a_cell_without_figures_is_drawn_below_its_panels_largest_figure(study):
    """A cell the store cannot answer has no figure: its bar is an empty hatched one, one per such cell (the
    manifest's ``cannot`` list), and it stands below the largest figure of its panel (the largest mean throughput
    and p99 of runs.csv's measured cells), so that it never reads as the fastest store nor sets the panel's scale."""
    runs = pd.read_csv(study.path / "runs.csv")
    measured = runs[runs["status"].isin(["ok", "degraded"])].groupby(["target", "workload"])
    largest = {"throughput": measured["throughput_ops"].mean().max(), "p99": measured["all_p99_us"].mean().max()}
    cannot = {(c["target"], c["workload"]) for c in json.loads((study.path / "manifest.json").read_text())["cannot"]}
    assert cannot
    fig = _figure(study)
    for ax, panel in zip(fig.axes[:2], ("throughput", "p99")):
        empty = [p for p in ax.patches if to_rgba(p.get_facecolor())[3] == 0]
        assert len(empty) == len(cannot), ax.get_title()
        assert all(0 < p.get_height() < largest[panel] for p in empty), (ax.get_title(), largest[panel],
                                                                        [p.get_height() for p in empty])


def test_the_legend_has_the_degraded_entry_only_when_a_measured_cell_is_degraded(tmp_path):
    """The legend's "degraded" entry stands for bars dotted in white: a study with a store that cannot answer some
    tests (hatched) but no degraded point has none; the module's studies (a busy store's points degraded) have it."""
    quiet = many_store_study(tmp_path, 3, busy=0, repeat=1)
    assert not (pd.read_csv(quiet.path / "runs.csv")["status"] == "degraded").any()
    words = [t.get_text() for t in _figure(quiet).legends[-1].get_texts()]
    assert not any("degraded" in w for w in words) and any("cannot" in w for w in words), words

"""``--repeat auto``: rounds until every compared cell is decided or the budget is spent, in-process over
``basic://`` (the engine's own work, the rates set by the recording engine: tests/fixtures/sweep.py), and the
options that set it up from the command line."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.cli import run_cli
from tests.fixtures.sweep import BasicServers, RecordingEngine
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.experiment.sequential import runs_of
from ycsbctl.experiment.sweep import Sweep
from ycsbctl.results import looks, stats
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.schema import Manifest
from ycsbctl.results.verdicts import plan_verdicts

SMALL = dict(workloads=["workload-b"], threads=[2], records=60, duration_s=0.1, warmup_s=0.0, telemetry=False,
             processes=1)
NOISE = (1.00, 1.03, 0.98, 1.01, 0.99, 1.02, 0.97, 1.00, 1.01, 0.99, 1.02, 0.98) * 3


def _rates(gap: dict[str, float]):
    """Each target's points at 100k ops/s × its ``gap`` factor × a round's noise (the same for every target in a
    round, as a host's drift is; each target its own small wobble on top)."""
    seen: dict[str, int] = {}

    def set_rate(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        if spec.phase != "run":
            return result
        seen[spec.url] = k = seen.get(spec.url, 0) + 1
        wobble = 1 + 0.01 * ((k * (3 if "valkey" in spec.url else 5)) % 3 - 1)
        factor = next((f for name, f in gap.items() if name in spec.url), 1.0)
        result.runtime_ms = result.operations / 100.0 / (factor * NOISE[k] * wobble)
        return result
    return set_rate


def _sweep(plan: Plan, gap: dict[str, float]) -> tuple[list, list[str], MemorySink]:
    notes: list[str] = []
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()))
    console = Console(Progress(10, quiet=True))
    console.note = notes.append  # type: ignore[method-assign]
    outcome = Sweep(resolve_study(plan), BasicServers(), RecordingEngine(_rates(gap)), store, console).run()
    return [r for r in outcome.records if r.phase == "run"], notes, store


def test_rounds_stop_at_the_first_look_where_every_cell_is_decided_and_the_report_reads_the_same_verdicts():
    plan = Plan(targets=["redis", "valkey"], sequential=True, budget_s=600, max_repeat=30, **SMALL)
    runs, notes, store = _sweep(plan, {"valkey": 0.7})
    rounds = max(r.repetition for r in runs)
    assert rounds in looks.LOOK_ROUNDS and rounds > 1  # one round without telemetry bounds no noise: a test decides
    assert notes[-1] == f"every compared cell is decided after {rounds} rounds"
    v = plan_verdicts(store.manifest.plan, runs_of(runs))
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"]]
    assert list(tp["verdict"]) == [stats.WORSE]
    # decided at the level the last look spends (the family's: Benjamini–Yekutieli over its tested cells), as the
    # report computes it from the same rounds
    planned = store.manifest.plan["planned_rounds"]  # after round 1: the rounds the budget holds at its length
    assert rounds <= planned <= 30 and any(n.startswith(f"rounds planned: {planned} (") for n in notes)
    assert store.manifest.plan["spending"] == looks.SPENDING  # the looks spend alpha by Lan–DeMets over the plan
    spent = looks.plan_spent_alpha(store.manifest.plan, 0.05, rounds)
    assert spent == looks.spent_alpha(0.05, rounds, True, planned, looks.SPENDING)
    tested = v[~v["at_peak"] & v["p_adjusted"].notna()]
    called = int((tested["p_adjusted"] < spent).sum())
    assert tp["ci_level"].iloc[0] == pytest.approx(1 - max(called, 1) * spent / len(tested))
    # each look before the last said which cells were still open
    opened = [n for n in notes if "still undecided" in n]
    assert [int(n.split(":")[0].split()[1]) for n in opened] == [r for r in looks.LOOK_ROUNDS if r < rounds]
    assert all(f"still undecided, round {int(n.split(':')[0].split()[1]) + 1} next (" in n for n in opened), opened


def test_an_a_a_pair_ends_equivalent_within_the_margin():
    plan = Plan(targets=["redis", "valkey"], sequential=True, budget_s=600, max_repeat=30, margin=0.10, **SMALL)
    runs, notes, store = _sweep(plan, {})
    v = plan_verdicts(store.manifest.plan, runs_of(runs))
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"]]
    assert list(tp["verdict"]) == [stats.EQUIVALENT] and "decided after" in notes[-1]
    assert tp["ci_low"].iloc[0] >= 1 / 1.1 and tp["ci_high"].iloc[0] <= 1.1


def test_a_spent_budget_stops_the_rounds_and_says_what_is_left_open():
    plan = Plan(targets=["redis", "valkey"], sequential=True, budget_s=1e-6, max_repeat=30, **SMALL)
    runs, notes, _ = _sweep(plan, {"valkey": 0.98})
    assert max(r.repetition for r in runs) == 1
    (line,) = [n for n in notes if n.startswith("rounds stop")]
    assert "--budget" in line and "1 cell(s) left undecided" in line
    capped = Plan(targets=["redis", "valkey"], sequential=True, budget_s=600, max_repeat=2, **SMALL)
    runs, notes, _ = _sweep(capped, {"valkey": 0.93})  # 7 % slower: two rounds are too few to say within ±10 % or not
    # the sweep never runs past --max-repeat; the line says why it stopped (its family also holds the p99 cells, whose
    # figures are measured, so the level of round 2's look is not fixed: the rule itself is checked directly below)
    assert max(r.repetition for r in runs) == 2
    assert any("2 rounds ran (--max-repeat)" in n or "decided after 2 rounds" in n for n in notes), notes
    from ycsbctl.experiment.sequential import OpenCell, Rounds

    cell = OpenCell("valkey workload-b 2 threads: 0.93× undecided")
    go, line = Rounds(budget_s=600.0, most=2, planned=2).another(2, [cell])
    assert not go and line is not None and "2 rounds ran (--max-repeat)" in line and "1 cell(s) left undecided" in line


def test_the_closing_line_says_how_many_rounds_would_decide_the_cells_left_open():
    """The rounds an open cell needs, from its interval (looks.narrowing_needed), against classify itself: the
    interval narrowed about its centre by √(that factor) just fits (equivalent, or beyond 1.0), a little less does
    not; the closing line states the most any open cell needs, in rounds and time, as an estimate."""
    import math

    from ycsbctl.experiment.sequential import OpenCell, Rounds
    from ycsbctl.results.looks import NEED_SHOWN

    def narrowed(low: float, high: float, factor: float) -> tuple[float, float]:
        centre, half = (math.log(low) + math.log(high)) / 2, (math.log(high) - math.log(low)) / 2
        return math.exp(centre - half / math.sqrt(factor)), math.exp(centre + half / math.sqrt(factor))

    for low, high, margin, fits in ((0.90, 1.10, 0.05, stats.EQUIVALENT), (0.97, 1.06, 0.05, stats.EQUIVALENT),
                                    (0.80, 1.02, 0.05, stats.WORSE), (0.99, 1.30, 0.10, stats.BETTER)):
        need = looks.narrowing_needed(low, high, margin)
        assert need > 1  # undecided as it stands: it needs more rounds
        assert stats.classify(*narrowed(low, high, need * 1.001), True, margin) == fits
        assert stats.classify(*narrowed(low, high, need * 0.98), True, margin) == stats.UNDECIDED
    # a minimum-effect test's margin (between folders): beyond ±3 % rather than beyond 1.0
    need = looks.narrowing_needed(0.85, 1.02, 0.0, beyond=0.03)
    assert stats.classify(*narrowed(0.85, 1.02, need * 1.001), True, 0.0, 0.03) == stats.WORSE
    assert stats.classify(*narrowed(0.85, 1.02, need * 0.98), True, 0.0, 0.03) == stats.UNDECIDED
    assert looks.narrowing_needed(math.nan, math.nan, 0.05) == math.inf  # no interval: nothing to say
    # the rounds in all: ⌈done × narrowing⌉, and at least one more than ran (a cell already narrow enough at its
    # spread was still open at the look's level)
    assert [looks.rounds_needed(x, 3) for x in (4.2, 0.5, math.inf, NEED_SHOWN + 1.0)] == [13, 4, None, None]
    assert looks.rounds_needed(2.0, 0) is None
    import time

    rounds = Rounds(budget_s=600.0, most=30, planned=3, started=time.monotonic() - 180.0)  # 3 rounds of ~60 s
    cells = [OpenCell("a", 2.0), OpenCell("b", 4.2)]  # the last of them needs 4.2× the 3 rounds: 13
    _, line = rounds.another(3, cells)
    assert line is not None and "2 cell(s) left undecided" in line
    assert line.endswith("; at their spread, about 13 rounds in all (~13 min at ~60 s a round) would decide the last "
                         "of them, were its ratio to hold")
    _, line = rounds.another(3, [OpenCell("a", NEED_SHOWN + 1.0)])
    assert line is not None and f"more than {NEED_SHOWN}× the 3 rounds run" in line and "rounds in all" not in line
    _, line = rounds.another(3, [OpenCell("a")])  # no interval: the line says nothing of rounds needed
    assert line is not None and line.endswith("the difference each could have detected)")



def test_the_length_of_the_rounds_needed_is_said_in_minutes_from_two_minutes_on():
    """The closing line's length of the rounds needed (rounds in all × the rounds' length), worked out here: 4 rounds
    of 29.75 s are 119 s, said in seconds; 4 of 30 s are 120 s, two minutes, said as "~2 min", never "~120 s"; 4 of
    45 s are 3 min."""
    from ycsbctl.experiment.sequential import OpenCell, need_text

    cells = [OpenCell("a cell", 1.2)]  # after 3 rounds it needs ⌈3 × 1.2⌉ = 4 in all
    assert looks.rounds_needed(1.2, 3) == 4
    for round_s, length in ((29.75, "~119 s"), (30.0, "~2 min"), (45.0, "~3 min")):
        assert need_text(cells, 3, round_s) == (f"; at their spread, about 4 rounds in all ({length} at ~{round_s:.0f} "
                                                "s a round) would decide the last of them, were its ratio to hold")

def test_the_rounds_stop_at_those_the_budget_was_planned_to_hold_after_the_first():
    import time

    from ycsbctl.experiment.sequential import OpenCell, Rounds

    t0 = time.monotonic()
    rounds = Rounds(budget_s=35.0, most=30, started=t0 - 10.0)
    rounds.plan_from_first_round()  # a first round of 10 s and the moments this test took since
    took = time.monotonic() - t0
    assert rounds.round_s is not None and 10.0 <= rounds.round_s <= 10.0 + took
    planned = int(35.0 // rounds.round_s)  # the rounds 35 s hold at that length (3 while the test took < 1.6 s)
    assert rounds.planned == planned >= 1
    assert rounds.planned_line().startswith(f"rounds planned: {planned} (the --budget of 35 s holds {planned} at "
                                            f"~{rounds.round_s:.0f} s a round)")
    rounds.budget_s = 1e9  # whatever the clock says now, the plan stops them
    go, line = rounds.another(planned, [OpenCell("a cell")])
    assert not go and f"the {planned} round{'s' if planned != 1 else ''} planned from the --budget ran" in line
    assert "1 cell(s) left undecided" in line
    assert rounds.another(planned - 1, [OpenCell("a cell")])[0] or planned == 1
    capped = Rounds(budget_s=1e9, most=30, started=time.monotonic() - 1.0)
    capped.plan_from_first_round()
    assert capped.planned == 30 and "--max-repeat 30" in capped.planned_line()


@pytest.mark.parametrize("args, said", [
    (["--margin", "nan"], "--margin 'nan': give a share such as 10% or 0.1"),
    (["--margin", "150%"], "--margin '150%': give a share such as 10% or 0.1"),
    (["--budget", "inf"], "--budget 'inf': give a time such as 90s, 10m or 1h"),
    (["--budget", "0s"], "--budget '0s': give a time such as 90s, 10m or 1h"),
    (["--budget", "soon"], "--budget 'soon': give a time such as 90s, 10m or 1h"),
    (["--repeat", "auto", "--slo", "p99<1ms"], "--slo runs each rate once: drop --repeat/--precision"),
    # a budget that bounds nothing was ignored silently
    (["--budget", "10m"], "--budget '10m' bounds the rounds --repeat auto adds to decide between two or more targets; "
                          "--repeat 1 runs its rounds whole: drop --budget"),
    (["--repeat", "3", "--budget", "10m"], "--repeat 3 runs its rounds whole: drop --budget"),
    (["--repeat", "auto", "--budget", "10m"], "with one target there is nothing to decide: drop --budget"),
    (["--repeat", "auto", "--precision", "5%", "--budget", "10m"], "--precision stops at its width or --max-repeat"),
])
def test_a_bad_margin_or_budget_is_one_line_and_exit_2(args, said):
    r = run_cli("run", "workload-b", "--target", "basic://", "--threads", "2", *args)
    assert r.exit_code == 2 and said in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_the_default_plan_decides_by_itself_and_a_named_target_runs_one_round():
    from ycsbctl.cli.option_values import repeat_option

    assert repeat_option(None, None, default_plan=True) == (1, None, True)
    assert repeat_option(None, None, default_plan=False) == (1, None, False)
    assert repeat_option("auto", "3%", default_plan=False) == (3, 0.03, False)  # --precision keeps its meaning
    assert repeat_option("4", None, default_plan=True) == (4, None, False)


def test_a_resumed_run_counts_the_rounds_its_folder_holds_as_spent_at_their_recorded_length():
    """``--resume`` after 2 rounds of ~50 s (the manifest's ``round_s``) with a 120 s budget: the rounds' clock starts
    100 s back, so a third round (~150 s in all) does not start — where the resumed command's first seconds divided
    by the 2 rounds read as a round's length (a slow start: no round fits; a quick one: every round fits)."""
    import time

    from ycsbctl.experiment.sequential import OpenCell

    plan = Plan(targets=["redis", "valkey"], sequential=True, budget_s=120, max_repeat=30, **SMALL)
    manifest = Manifest(experiment_id="t", plan={**plan.to_dict(), "planned_rounds": 30, "round_s": 50.0})
    sweep = Sweep(resolve_study(plan), BasicServers(), RecordingEngine(_rates({})), MemorySink(manifest),
                  Console(Progress(10, quiet=True)))
    t0 = time.monotonic()
    rounds = sweep._stage_rounds(2)
    assert rounds.started is not None and t0 - 100.0 <= rounds.started <= time.monotonic() - 100.0
    assert rounds.budget_s == pytest.approx(120.0, abs=time.monotonic() - t0 + 1e-6)
    go, line = rounds.another(2, [OpenCell("a cell")])
    assert not go and line is not None and rounds.stopped is not None
    assert rounds.stopped.startswith("the --budget of 120 s would be passed by another round (100 s spent, ~50 s")
    fits = Sweep(resolve_study(plan), BasicServers(), RecordingEngine(_rates({})), MemorySink(
        Manifest(experiment_id="t", plan={**plan.to_dict(), "planned_rounds": 30, "round_s": 30.0})),
        Console(Progress(10, quiet=True)))._stage_rounds(2)  # 2 of ~30 s: a third ends at ~90 s, within 120 s
    assert fits.another(2, [OpenCell("a cell")])[0]


def test_a_round_starts_only_if_it_can_end_within_the_budget():
    """The budget rule by hand: after ``done`` rounds that took ``spent`` seconds, round ``done + 1`` (at their mean
    length, ``spent / done``) starts only if ``spent + spent / done`` stays within ``--budget``. Two rounds took
    100 s (50 s a round): a third ends at ~150 s, so a budget of 160 s runs it and one of 140 s — which 100 s alone
    is still within — does not. No plan of rounds is set, so only the budget decides."""
    import time

    from ycsbctl.experiment.sequential import OpenCell, Rounds

    fits = Rounds(budget_s=160.0, most=30, started=time.monotonic() - 100.0)
    go, line = fits.another(2, [OpenCell("a cell")])
    assert go and fits.stopped is None and line is not None and line.startswith("round 2: 1 cell(s) still undecided")
    past = Rounds(budget_s=140.0, most=30, started=time.monotonic() - 100.0)
    go, line = past.another(2, [OpenCell("a cell")])
    assert not go and line is not None and past.stopped is not None
    said = "the --budget of 140 s would be passed by another round (100 s spent, ~50 s a round)"
    assert past.stopped.startswith(said)
    assert "1 cell(s) left undecided" in line
    # the mean round counts every round so far: 100 s over 4 rounds is 25 s a round, a fifth ends at ~125 s
    assert Rounds(budget_s=140.0, most=30, started=time.monotonic() - 100.0).another(4, None) == (True, None)
    assert not Rounds(budget_s=120.0, most=30, started=time.monotonic() - 100.0).another(4, None)[0]


def _dies_in_round_2(servers: BasicServers, gap: dict[str, float], who: str = "valkey"):
    """The rates of :func:`_rates`; ``who``'s server dies during its second run point (and cannot restart)."""
    rates, seen = _rates(gap), {"n": 0}

    def on_run(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        result = rates(n, spec, result)
        if spec.phase == "run" and who in spec.url:
            seen["n"] += 1
            if seen["n"] == 2:
                servers.dead.add(who)
        return result
    return on_run


def _sweep_dying(plan: Plan, servers: BasicServers, on_run) -> tuple[list, list[str]]:
    notes: list[str] = []
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()))
    console = Console(Progress(10, quiet=True))
    console.note = notes.append  # type: ignore[method-assign]
    outcome = Sweep(resolve_study(plan), servers, RecordingEngine(on_run), store, console).run()
    return [r for r in outcome.records if r.phase == "run"], notes


def test_auto_rounds_stop_once_a_compared_target_is_gone_and_the_line_says_why():
    """redis against valkey, 2 % apart (undecided for many rounds); valkey's server dies in round 2 and cannot
    restart. No round can decide its cell now: the rounds stop there (not at the 6 of --max-repeat, each look
    repeating valkey's two rounds as "still undecided"), and the closing line names the target that went and why."""
    from ycsbctl.errors import UserError

    servers = BasicServers(restart_error=UserError("port 6390 is in use", fix="stop it"))
    plan = Plan(targets=["redis", "valkey"], sequential=True, budget_s=600, max_repeat=6, **SMALL)
    runs, notes = _sweep_dying(plan, servers, _dies_in_round_2(servers, {"valkey": 0.98}))
    assert max(r.repetition for r in runs) == 2 and not [r for r in runs if r.target == "valkey" and r.repetition > 2]
    (line,) = [n for n in notes if n.startswith("rounds stop")]
    assert line.startswith("rounds stop: valkey (could not restart after a crash: port 6390 is in use: stop it) is "
                           "gone: no compared cell can gain a round; the cells still undecided stay so"), line
    assert not [n for n in notes if "round 3 next" in n]


def test_a_gone_target_no_longer_holds_the_rounds_of_the_others_open():
    """Three targets: valkey (2 % apart) goes in round 2; keydb, 30 % slower, is still compared: the rounds go on
    until its cell is decided, valkey's no longer holding them open, and the line says valkey went."""
    from ycsbctl.errors import UserError

    servers = BasicServers(restart_error=UserError("port 6390 is in use", fix="stop it"))
    plan = Plan(targets=["redis", "valkey", "keydb"], sequential=True, budget_s=600, max_repeat=30, **SMALL)
    runs, notes = _sweep_dying(plan, servers, _dies_in_round_2(servers, {"valkey": 0.98, "keydb": 0.7}))
    rounds = max(r.repetition for r in runs)
    assert rounds in looks.LOOK_ROUNDS and rounds < 30
    assert {r.repetition for r in runs if r.target == "keydb"} == set(range(1, rounds + 1))
    assert notes[-1] == (f"every compared cell is decided after {rounds} rounds (valkey (could not restart after a "
                         "crash: port 6390 is in use: stop it) is gone: its cells stay as its last round left them)")


def test_no_compared_cell_can_gain_a_round_once_the_baseline_or_every_other_target_is_gone():
    from ycsbctl.experiment.sequential import Gone, Rounds, gone_of
    from ycsbctl.results.schema import SkippedTarget

    three = ("redis", "valkey", "keydb")
    assert not Gone({}, three, "redis").stuck and not Gone({"valkey": "died"}, three, "redis").stuck
    assert Gone({"redis": "died"}, three, "redis").stuck  # the baseline: every cell is against it
    assert Gone({"valkey": "died", "keydb": "died"}, three, "redis").stuck
    # a target gone before the stage listed it (a blocks round leaves it out) is still one of the compared
    gone = gone_of([SkippedTarget("redis", "could not restart after a crash")], {"redis"}, ["valkey"], "redis")
    assert gone.targets == ("valkey", "redis") and gone.stuck
    go, line = Rounds(budget_s=600.0, most=30).another(3, None, gone)
    assert not go and line == ("rounds stop: redis (could not restart after a crash) is gone: no compared cell can "
                               "gain a round; the cells still undecided stay so (see the report: the difference each "
                               "could have detected)")


def test_a_resumed_auto_run_interrupted_after_its_rounds_were_planned_runs_them_with_the_looks_it_had(tmp_path):
    """Two real Redis servers compared with ``--repeat auto``, interrupted (SIGINT) as soon as "rounds planned" is
    said, then ``--resume``d: the rounds go on from round 2 — each target gets the consecutive rounds 1..k, k the
    planned count or an earlier look (1, 2, 3, 5, 8…) that decided every cell, as the manifest's rounds_stopped says
    — and the servers' own counters (INFO commandstats) count every operation the resumed rounds say they made
    (was: nothing ran, exit 0, the folder marked complete as if its rounds had ended)."""
    import signal
    import subprocess

    import pandas as pd
    import redis

    from tests.fixtures.cli import CLI, env
    from tests.fixtures.servers import start_redis

    servers = [start_redis(tmp_path / f"s{i}") for i in (1, 2)]
    out = tmp_path / "auto"
    quiet = env(YCSBCTL_HOST_BUSY_SHARE="off", YCSBCTL_YARDSTICK="off", YCSBCTL_REPORT="off")
    try:
        first = subprocess.Popen([*CLI, "run", "workload-c", "--targets", ",".join(s.url for s in servers), "--load",
                                  "--records", "200", "--repeat", "auto", "--budget", "60s", "--max-repeat", "3",
                                  "--threads", "1",
                                  "--duration", "0.3", "--warmup", "0", "--processes", "1", "--no-telemetry", "--out",
                                  str(out)], cwd=tmp_path, env=quiet, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        assert first.stderr is not None
        said = []
        for line in first.stderr:
            said.append(line)
            if line.startswith("rounds planned: "):
                first.send_signal(signal.SIGINT)
                break
        _, rest = first.communicate(timeout=120)
        assert first.returncode == 130, "".join(said) + rest
        planned = int(said[-1].split()[2])
        counters = [redis.Redis.from_url(s.url) for s in servers]
        for c in counters:
            c.config_resetstat()
        again = subprocess.run([*CLI, "run", "--resume", str(out)], cwd=tmp_path, env=quiet, capture_output=True,
                               text=True, timeout=300)
        gets = sum(int(c.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) for c in counters)
    finally:
        for s in servers:
            s.stop()
    assert again.returncode == 0, again.stderr[-3000:]
    runs = pd.read_parquet(out / "runs.parquet")
    sweep = runs[runs["phase"] == "run"]
    rounds = {t: sorted(g["repetition"]) for t, g in sweep.groupby("target")}
    k = len(next(iter(rounds.values())))
    assert len(rounds) == 2 and all(r == list(range(1, k + 1)) for r in rounds.values()), rounds
    stopped = json.loads((out / "manifest.json").read_text())["plan"]["rounds_stopped"]["run"]
    # every way the rounds may end: the planned count ran (3: --max-repeat, while a round is under 20 s), or a look
    # decided every cell (alternated rounds of two identical servers may read equivalent), or — on a host so slow that
    # a round takes over 20 s — the budget would be passed by another (the resume reads the rounds' length from the
    # manifest's round_s, not its own start)
    assert json.loads((out / "manifest.json").read_text())["plan"]["round_s"] > 0
    assert k >= 2 and (k == planned and ("planned from the --budget ran" in stopped or "(--max-repeat)" in stopped)
                       or k in looks.LOOK_ROUNDS and "every compared cell is decided" in stopped
                       or k <= planned and stopped.startswith("the --budget of 60 s would be passed by another")), \
        (k, planned, stopped)
    assert sweep[sweep["repetition"] >= 2]["operations"].sum() == gets  # the resumed rounds, on the servers

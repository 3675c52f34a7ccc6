"""The whole-map sample of ``scripts/mutation.py`` (``make mutation``): which mutants to draw, in what
order, how one is run without a coverage probe, and the score's 95 % interval.

The draw is stratified by module: a first round takes one mutant of every module (in an order shuffled
by the seed), so that every module contributes; later draws follow each module's share of the map's
scored mutants (the module furthest below its share draws next), so that the pooled share killed
estimates the whole map's. The run stops drawing when its time budget is spent.

A drawn mutant runs its module's tests without a coverage probe first (one probe per module costs
as much as the module's tests, for the one or two mutants a sample draws from it): pytest stops at the
first failing test, and that test is then run alone on the unmutated tree; a test that fails there too
fails without any mutant and is left out (and said), and the mutant runs again without it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from mutation_equivalent import EQUIVALENT
from mutation_ops import ROOT, Mutant, Spot, build, spots
from mutation_tree import PYTHON, mapped_tests, print_end, scratch

T = TypeVar("T")


def draw_order(population: Mapping[str, Sequence[T]], seed: int) -> Iterator[tuple[str, T]]:
    """Every item of ``population`` (module -> its scored mutants) once, as (module, item): first one of
    every module, modules in a seeded random order, then by share (the module whose drawn count is
    furthest below ``len(its items) / total`` of the draws so far goes next, ties broken by the seed)."""
    rng = random.Random(seed)
    pools = {m: rng.sample(list(items), len(items)) for m, items in population.items() if items}
    total = sum(len(p) for p in pools.values())
    drawn = dict.fromkeys(pools, 0)
    modules = list(pools)
    rng.shuffle(modules)
    for m in modules:
        drawn[m] = 1
        yield m, pools[m][0]
    n = len(modules)
    tiebreak = {m: rng.random() for m in modules}
    while n < total:
        n += 1
        m = max((m for m in modules if drawn[m] < len(pools[m])),
                key=lambda m: (len(pools[m]) * n / total - drawn[m], tiebreak[m]))
        yield m, pools[m][drawn[m]]
        drawn[m] += 1


def interval(killed: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Clopper–Pearson (exact binomial) interval of the share killed, ``killed`` of ``n`` (0..1)."""
    from scipy.stats import binomtest

    if n == 0:
        return 0.0, 1.0
    ci = binomtest(killed, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


@dataclass
class Outcome:
    """How one pytest run of a mutant ended: its exit code (-1: past its time limit), the tests that
    failed (node ids), and how long it took (s)."""

    rc: int
    failed: list[str]
    took_s: float


def wait_or_stop(proc: subprocess.Popen, timeout_s: float) -> int:
    """``proc``'s exit code, or -1 when it runs past ``timeout_s``: then Ctrl-C first, so that its fixtures
    stop the servers they started (a plain kill left memcached and PostgreSQL servers running), and,
    30 s later, SIGKILL to its whole process group (it runs in a session of its own)."""
    try:
        return proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return -1


def run_tests(python: Path, tree: Path, args: list[str], env: dict[str, str], timeout_s: float,
              outcomes: Path) -> Outcome:
    """pytest on ``args`` in ``tree``, stopping at the first failure, with the outcomes plug-in
    (scripts/mutation_probe.py, without coverage); past ``timeout_s``, stopped by :func:`wait_or_stop`."""
    outcomes.unlink(missing_ok=True)
    run_env = {**env, "PYTHONPATH": f"{env['PYTHONPATH']}:{tree / 'scripts'}", "MUTATION_OUTCOMES": str(outcomes)}
    run_env.pop("MUTATION_COVERAGE", None)
    t = time.monotonic()
    proc = subprocess.Popen([str(python), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "mutation_probe",
                             *args], cwd=tree, env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    rc = wait_or_stop(proc, timeout_s)
    seen = json.loads(outcomes.read_text(encoding="utf-8")) if outcomes.exists() else {}
    return Outcome(rc, [k for k, v in seen.items() if v["failed"]], time.monotonic() - t)


@dataclass
class Unprobed:
    """Runs mutants of modules whose tests were not probed: each kill is confirmed by the killing test
    passing on the unmutated tree. ``bad`` holds, per test set, the tests that fail without any mutant;
    ``good`` the tests seen passing there."""

    python: Path
    tree: Path
    env: dict[str, str]
    scratch: Path
    bad: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    good: set[str] = field(default_factory=set)
    collects: dict[tuple[str, ...], bool] = field(default_factory=dict)

    def passes_unmutated(self, test: str, timeout_s: float) -> bool:
        if test in self.good:
            return True
        ok = run_tests(self.python, self.tree, [test], self.env, timeout_s, self.scratch / "confirm.json").rc == 0
        if ok:
            self.good.add(test)
        return ok

    def collects_unmutated(self, tests: tuple[str, ...], timeout_s: float) -> bool:
        if tests not in self.collects:
            self.collects[tests] = run_tests(self.python, self.tree, [*tests, "--collect-only"], self.env, timeout_s,
                                             self.scratch / "collect.json").rc == 0
        return self.collects[tests]

    def killed(self, target: Path, source: str, tests: list[str], timeout_s: float) -> bool | None:
        """Whether a test of ``tests`` (pytest arguments) fails with ``target`` holding ``source``; None
        when the run reached ``timeout_s`` (the caller decides: a hang, or its budget cut it)."""
        key = tuple(tests)
        bad = self.bad.setdefault(key, set())
        original = target.read_bytes()
        while True:
            try:
                target.write_text(source, encoding="utf-8")
                out = run_tests(self.python, self.tree, [*tests, *(f"--deselect={b}" for b in sorted(bad))],
                                self.env, timeout_s, self.scratch / "outcomes.json")
            finally:
                target.write_bytes(original)
            if out.rc == 0:
                return False
            if out.rc == -1:
                return None
            if out.rc == 5:  # no test left to run
                return False
            if not out.failed:  # the mutant broke collection or import (exit 2): a kill, if the tree collects
                return self.collects_unmutated(key, timeout_s)
            test = out.failed[0]
            if self.passes_unmutated(test, timeout_s):
                return True
            bad.add(test)
            print(f"    failing without any mutant, left out: {test}", flush=True)


def run_sample(tests: dict[str, list[str]], seed: int, budget_s: float, timeout_s: float) -> int:
    """``make mutation``: a stratified random sample of the scored mutants of the whole map ``tests``
    (module -> its pytest arguments), drawn until ``budget_s`` (s) is spent (draw_order), each run by
    Unprobed; prints the share killed with its 95 % Clopper–Pearson interval, a row per module, every
    survivor and every mutant set aside by a rule."""
    started, load = time.monotonic(), os.getloadavg()
    print(f"whole-map sample, seed {seed} (--seed {seed} draws the same), budget {budget_s / 60:.0f} min, "
          f"load average {load[0]:.2f}", flush=True)
    texts = {m: (ROOT / m).read_text(encoding="utf-8") for m in tests}
    population: dict[str, list[Spot]] = {}
    listed: dict[str, int] = {}
    set_aside: list[Mutant] = []
    for m, text in texts.items():
        lines, found = text.splitlines(), spots(m, text)
        set_aside += [x for x in (build(m, text, s) for s in found if s.rule) if x is not None]
        scored = [s for s in found if not s.rule]
        population[m] = [s for s in scored if f"{m}: {lines[s.line - 1].strip()} | {s.what}" not in EQUIVALENT]
        listed[m] = len(scored) - len(population[m])
    total = sum(len(v) for v in population.values())
    print(f"{total} scored mutants in {len(population)} modules; not scored: {sum(listed.values())} listed in "
          f"EQUIVALENT, {len(set_aside)} equivalent by rule", flush=True)
    results: dict[str, list[tuple[Mutant, bool]]] = {}
    with scratch() as (tmp, tree, env):
        runner = Unprobed(PYTHON, tree, env, tmp)
        for module, spot in draw_order(population, seed):
            left = budget_s - (time.monotonic() - started)
            if left <= 0:
                break
            x = build(module, texts[module], spot)
            if x is None:
                continue
            limit = min(timeout_s, left + 60)
            killed = runner.killed(tree / module, x.source, mapped_tests(tests, tree, module), limit)
            if killed is None and limit < timeout_s:
                print(f"  the budget ran out during {module}:{x.line}: {x.what} (not scored)", flush=True)
                break
            results.setdefault(module, []).append((x, killed is not False))  # past its time limit: a hang, a kill
            n = sum(len(v) for v in results.values())
            if killed is False:
                print(f"  [{n}] SURVIVED {module}:{x.line}: {x.what}", flush=True)
            elif n % 10 == 0:
                print(f"  [{n}] {(time.monotonic() - started) / 60:.1f} min", flush=True)
    k = sum(ok for v in results.values() for _, ok in v)
    n = sum(len(v) for v in results.values())
    low, high = interval(k, n)
    print(f"\n{'module':52} {'killed':>6} {'drawn':>6} {'of':>5} {'listed':>6}")
    for m in tests:
        got = results.get(m, [])
        print(f"{m:52} {sum(ok for _, ok in got):6d} {len(got):6d} {len(population[m]):5d} {listed[m]:6d}")
    untouched = [m for m in tests if population[m] and m not in results]
    minutes, load = (time.monotonic() - started) / 60, os.getloadavg()
    print(f"\nwhole map: {k} of {n} sampled mutants killed, {100 * k / n if n else 0:.1f} % (95 % Clopper-Pearson "
          f"{100 * low:.1f}-{100 * high:.1f} %), {len(results)} of {sum(1 for v in population.values() if v)} modules "
          f"sampled, seed {seed}, {minutes:.1f} min, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    if untouched:
        print(f"not reached within the budget: {', '.join(untouched)}")
    survivors = [x for v in results.values() for x, ok in v if not ok]
    print_end(survivors, set_aside, texts)
    return 0

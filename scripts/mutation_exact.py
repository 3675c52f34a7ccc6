"""The exact run of named modules (``make mutation MUTATION_ARGS="ycsbctl/report/compare.py"``): every
mutant of each (or ``--max N`` of them), each run against the tests that ran its line.

A module's tests run once first, under coverage.py (scripts/mutation_probe.py): each test's duration,
the tests that fail without any mutant (left out, and said), and which tests ran each line. A mutant then
runs only the tests that ran its line, quickest first, stopping at the first failure; a line run only at
import or in another process (a spawned engine worker) runs every test of the module. A kill by a test
that runs the line only in another process is not looked for when tests of this process run it: the
score is a lower bound.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import mutation_sample
from mutation_equivalent import EQUIVALENT
from mutation_ops import ROOT, Mutant, import_lines
from mutation_tree import PYTHON, mapped_tests, print_end, scratch


def _pytest(tree: Path, args: list[str], env: dict[str, str], timeout_s: float) -> tuple[int, float]:
    """pytest's exit code on ``args`` in ``tree`` and how long it took (s); -1 when it ran past
    ``timeout_s`` (a mutant that loops: mutation_sample.wait_or_stop)."""
    t = time.monotonic()
    proc = subprocess.Popen([str(PYTHON), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args], cwd=tree,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    return mutation_sample.wait_or_stop(proc, timeout_s), time.monotonic() - t


@dataclass
class Baseline:
    """One run of a module's tests without any mutant: each test's duration (s), the tests that fail
    anyway (left out of every mutant's run, and said), and which tests ran each line of the mutated
    modules in this process (``lines[module][line]``: test ids; a line run only at import, or only in
    another process, has none)."""

    took_s: float
    durations: dict[str, float]
    failed: list[str]
    lines: dict[str, dict[int, set[str]]]

    def passing(self) -> list[str]:
        """The tests that pass without a mutant, quickest first."""
        return sorted((t for t in self.durations if t not in self.failed), key=self.durations.__getitem__)

    def covering(self, module: str, first: int, last: int) -> list[str]:
        """The passing tests that ran any of lines ``first``..``last`` of ``module``, quickest first."""
        ran = set().union(*(self.lines.get(module, {}).get(n, set()) for n in range(first, last + 1)))
        return [t for t in self.passing() if t in ran]


def _widened(contexts: set[str], tests: list[str]) -> set[str]:
    """The tests that ran a line, from its coverage contexts: a line run while a test's fixtures were set up
    (``<id>|setup``, scripts/mutation_probe.py) counts for every test of that test's file, as a module-scoped
    fixture (one ``calibrate`` run, its figures read by the file's tests one by one) is made in the first
    one's set-up only; the kill of a later test that reads what it made was not looked for."""
    out = {c for c in contexts if not c.endswith("|setup")}
    for c in contexts - out:
        file = c.removesuffix("|setup").split("::", 1)[0]
        out |= {t for t in tests if t.split("::", 1)[0] == file}
    return out


def baseline(tree: Path, tests: list[str], modules: list[str], env: dict[str, str], tmp: Path,
             timeout_s: float) -> Baseline | None:
    """Run ``tests`` once under coverage.py (scripts/mutation_probe.py), for ``modules``; None when
    no test passes."""
    import json

    import coverage

    cov_file, outcomes = tmp / f"cov-{abs(hash(tuple(tests)))}", tmp / f"outcomes-{abs(hash(tuple(tests)))}.json"
    probe_env = {**env, "PYTHONPATH": f"{env['PYTHONPATH']}:{tree / 'scripts'}", "MUTATION_COVERAGE": str(cov_file),
                 "MUTATION_OUTCOMES": str(outcomes), "MUTATION_INCLUDE": ",".join(str(tree / m) for m in modules)}
    t = time.monotonic()
    proc = subprocess.run([str(PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutation_probe", *tests],
                          cwd=tree, env=probe_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=timeout_s * 3)
    took = time.monotonic() - t
    if not outcomes.exists():
        print(f"  its tests did not run (pytest exit {proc.returncode})", flush=True)
        return None
    seen = json.loads(outcomes.read_text(encoding="utf-8"))
    data = coverage.CoverageData(basename=str(cov_file))
    data.read()
    lines: dict[str, dict[int, set[str]]] = {}
    for m in modules:
        by_line = data.contexts_by_lineno(str(tree / m)) if str(tree / m) in data.measured_files() else {}
        lines[m] = {n: _widened({c for c in ctx if c}, list(seen)) for n, ctx in by_line.items()}
    base = Baseline(took, {k: float(v["s"]) for k, v in seen.items()},
                    sorted(k for k, v in seen.items() if v["failed"]),
                    lines)
    return base if base.passing() else None


def _run_module(tree: Path, env: dict[str, str], module: str, ms: list[Mutant], base: Baseline, text: str,
                timeout_s: float) -> tuple[int, list[Mutant]]:
    """Run the scored mutants ``ms`` of ``module`` (source ``text``) in ``tree``, each against the tests
    ``base`` says ran its line; (how many were killed, the survivors)."""
    target = tree / module
    original = target.read_bytes()
    at_import = import_lines(text)
    killed, survivors = 0, []
    for i, x in enumerate(ms, 1):
        # the tests that ran the mutated line in pytest's own process; else (a line run at import
        # or in a spawned worker) every test of the module
        chosen = (base.passing() if x.line in at_import else
                  base.covering(module, x.line, x.end_line or x.line) or base.passing())
        budget = min(timeout_s, 60.0 + 3 * sum(base.durations[t] for t in chosen))
        try:
            target.write_text(x.source, encoding="utf-8")
            rc, _ = _pytest(tree, chosen, env, budget)
        finally:
            target.write_bytes(original)
        if rc == 0:
            survivors.append(x)
            print(f"  [{i}/{len(ms)}] SURVIVED {module}:{x.line}: {x.what}", flush=True)
        else:
            killed += 1
    return killed, survivors


def _print_scores(scores: dict[str, tuple[int, int, int]]) -> None:
    """A row per module (killed, scored, score, equivalent) and their total."""
    print("\nmutation score")
    print(f"{'module':48} {'killed':>7} {'total':>6} {'score':>7} {'equiv':>6}")
    total_k = total_n = total_e = 0
    for m, (k, n, e) in scores.items():
        total_k, total_n, total_e = total_k + k, total_n + n, total_e + e
        print(f"{m:48} {k:7d} {n:6d} {100 * k / n if n else 100:6.1f}% {e:6d}")
    print(f"{'all':48} {total_k:7d} {total_n:6d} {100 * total_k / total_n if total_n else 100:6.1f}% {total_e:6d}")


def run_exact(tests: dict[str, list[str]], plan: dict[str, list[Mutant]], timeout_s: float) -> int:
    """Run every mutant of ``plan`` (module -> its mutants) against its module's tests in the map
    ``tests``, those EQUIVALENT lists or a rule sets aside apart; prints a score per module, every
    survivor and every mutant set aside by a rule."""
    scores: dict[str, tuple[int, int, int]] = {}  # module -> killed, scored, equivalent
    survivors: list[Mutant] = []
    set_aside: list[Mutant] = []
    started = time.monotonic()
    texts = {m: (ROOT / m).read_text(encoding="utf-8") for m in plan}
    with scratch() as (tmp, tree, env):
        baselines: dict[tuple[str, ...], Baseline | None] = {}
        for module, ms in plan.items():
            key = tuple(mapped_tests(tests, tree, module))
            if key not in baselines:  # modules with the same tests share one run (coverage of them all)
                sharing = [m for m in plan if tuple(tests[m]) == tuple(tests[module])]
                baselines[key] = baseline(tree, list(key), sharing, env, tmp, timeout_s)
            base = baselines[key]
            if base is None:
                print(f"{module}: no test of it passes without any mutant; skipped", flush=True)
                continue
            equivalent = [x for x in ms if x.rule or x.key(texts[module]) in EQUIVALENT]
            set_aside += [x for x in ms if x.rule]
            ms = [x for x in ms if not x.rule and x.key(texts[module]) not in EQUIVALENT]
            print(f"{module}: {len(ms)} mutants (+{len(equivalent)} equivalent), its {len(base.passing())} tests "
                  f"take {sum(base.durations.values()):.0f} s"
                  + (f"; failing without any mutant, left out: {', '.join(base.failed)}" if base.failed else ""),
                  flush=True)
            killed, lost = _run_module(tree, env, module, ms, base, texts[module], timeout_s)
            survivors += lost
            scores[module] = (killed, len(ms), len(equivalent))
    _print_scores(scores)
    print(f"took {time.monotonic() - started:.0f} s")
    print_end(survivors, set_aside, texts)
    return 0

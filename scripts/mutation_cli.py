"""Mutation testing of the modules that compute what users read: ``make mutation``.

Each mutant is one small change of one module (a comparison flipped, an integer ±1, an arithmetic
operator swapped, a float constant nudged by 1 %, a percentile name or a mean/max/min swapped, and/or
swapped: scripts/mutation_ops.py); the module's fast tests (the map in scripts/mutation.py) run against
it, and a mutant that no test notices "survives".

Without module names it draws a stratified random sample of the whole map within a time budget
(scripts/mutation_sample.py) and prints the share killed with its 95 % interval. Named modules get an
exact run (scripts/mutation_exact.py): each mutant runs only the tests that ran its line under
coverage.py. Equivalent mutants (scripts/mutation_equivalent.py, each with why, and those of the rules
of scripts/mutation_rules.py) are listed, not scored. The checkout is never touched: the tree is copied
to a temporary folder (scripts/mutation_tree.py). Prints a score per module and every surviving mutant.

    python scripts/mutation.py --seed 43 --budget-min 25   # the whole-map sample
    python scripts/mutation.py --all                 # every mutant of every module (hours)
    python scripts/mutation.py ycsbctl/telemetry/bottleneck.py --max 20
    python scripts/mutation.py --list                # the mutants, without running tests
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from mutation_exact import run_exact
from mutation_ops import Mutant, mutants
from mutation_sample import run_sample


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*",
                    help="modules to mutate, every mutant of each (default: a sample of the whole map)")
    ap.add_argument("--max", type=int, default=0,
                    help="at most N mutants per module, a random sample (the same each time; --seed draws another)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant's tests (a hang is a kill)")
    ap.add_argument("--survivors-of", type=Path, metavar="LOG",
                    help="run only the mutants a previous run's output lists as surviving (after adding tests)")
    ap.add_argument("--all", action="store_true", help="every mutant of every module (hours), not a sample")
    ap.add_argument("--seed", type=int, default=None,
                    help="the whole-map sample's seed (default: a new one, printed); with --max, another draw per "
                         "module")
    ap.add_argument("--budget-min", type=float, default=25.0,
                    help="the whole-map sample's time budget, minutes: it stops drawing when spent (default 25)")
    return ap


def _survivors(log: Path) -> set[tuple[str, int, str]]:
    """(module, line, change) of every mutant a previous run's output ``log`` lists as surviving."""
    wanted = set()
    for line in log.read_text(encoding="utf-8").splitlines():
        if "SURVIVED " in line:
            where, what = line.split("SURVIVED ", 1)[1].split(": ", 1)
            module, lineno = where.rsplit(":", 1)
            wanted.add((module, int(lineno), what.strip()))
    return wanted


def main(tests: dict[str, list[str]], argv: list[str] | None = None) -> int:
    """``make mutation`` on the map ``tests`` (module -> its pytest arguments); the exit status."""
    args = _parser().parse_args(argv)
    if not (args.modules or args.max or args.list or args.all or args.survivors_of):
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        return run_sample(tests, seed, 60 * args.budget_min, args.timeout)
    wanted = _survivors(args.survivors_of) if args.survivors_of else None
    if wanted is not None:
        args.modules = args.modules or sorted({w[0] for w in wanted})
    modules = args.modules or list(tests)
    unknown = [m for m in modules if m not in tests]
    if unknown:
        print(f"no tests mapped for {', '.join(unknown)}; known: {', '.join(tests)}", file=sys.stderr)
        return 2
    plan: dict[str, list[Mutant]] = {}
    for m in modules:
        ms = mutants(m, 0 if wanted is not None else args.max, args.seed)
        plan[m] = ms if wanted is None else [x for x in ms if (x.module, x.line, x.what) in wanted]
    if args.list:
        for m, ms in plan.items():
            for x in ms:
                print(f"{m}:{x.line}: {x.what}")
        print(f"{sum(len(ms) for ms in plan.values())} mutants")
        return 0
    return run_exact(tests, plan, args.timeout)

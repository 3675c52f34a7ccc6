"""Mutation testing of the modules that compute what users read: ``make mutation``.

Each mutant is one small change of one module (a comparison flipped, an integer ±1, an arithmetic
operator swapped, a float constant nudged by 1 %, a percentile name or a mean/max/min swapped, and/or
swapped); the module's fast tests run against it, and a mutant that no test notices "survives".

The checkout is never touched: the tree is copied to a temporary folder, each mutant is written
there and the original file put back after its tests (always, in ``finally``), and the folder is
removed at the end. Prints a score per module and every surviving mutant.

    python scripts/mutation.py                       # every module below
    python scripts/mutation.py ycsbctl/telemetry/bottleneck.py --max 20
    python scripts/mutation.py --list                # the mutants, without running tests
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"

# Module -> its tests (pytest arguments; -x stops at the first failure, so a killed mutant is cheap).
# "-k not test_cli_" leaves out the tests that run the CLI in a subprocess (a plain "not cli" also
# dropped every test with "client" in its name). test_truth_report reuses two experiments made once (YCSBCTL_TRUTH_CACHE): the report code is what
# is mutated, not the measurements. test_report.py renders plots (~25 s): the report modules' mutants
# that survive the truth tests cost that much each.
TESTS: dict[str, list[str]] = {
    "ycsbctl/results/histogram.py": ["tests/results/test_histogram_truth.py", "tests/engine/test_measurements.py"],
    "ycsbctl/telemetry/bottleneck.py": ["tests/telemetry/test_bottleneck_truth.py", "tests/telemetry/test_bottleneck.py"],
    "ycsbctl/telemetry/network.py": ["tests/telemetry/test_network_truth.py", "tests/telemetry/test_network.py"],
    "ycsbctl/report/summary.py": ["tests/report/test_summary_truth.py", "tests/report/test_report_truth.py", "tests/report/test_report.py",
                                  "-k", "not test_cli_ and not chromium"],
    "ycsbctl/report/html.py": ["tests/report/test_report_truth.py", "tests/report/test_report.py", "-k", "not test_cli_ and not chromium"],
    "ycsbctl/results/frames.py": ["tests/results/test_frames_truth.py", "tests/report/test_report_truth.py", "tests/results/test_store.py",
                                  "-k", "not test_cli_"],
    "ycsbctl/engine/measurements.py": ["tests/engine/test_measurements.py", "tests/engine/test_measurements_truth.py",
                                       "tests/engine/test_engine_truth.py"],
    "ycsbctl/results/ycsb_text.py": ["tests/results/test_ycsb_text.py", "tests/results/test_ycsb_text_truth.py", "tests/engine/test_engine_truth.py"],
    "ycsbctl/experiment/rate_search.py": ["tests/experiment/test_rate_search.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/results/slo.py": ["tests/experiment/test_rate_search.py", "tests/experiment/test_rate_search_truth.py"],
    "ycsbctl/engine/throttle.py": ["tests/engine/test_timerfd.py", "tests/engine/test_pacing_chains.py", "tests/engine/test_engine.py",
                                   "-k", "target or paced or pacer or lag"],
    # Each operation's timing and count, and which operations a client runs (chains, their takes).
    "ycsbctl/stores/chain.py": ["tests/stores/test_redis_binding.py", "tests/stores/test_mongodb_wire_chain.py",
                                "tests/engine/test_engine_truth.py", "tests/engine/test_batched_writes.py"],
    "ycsbctl/engine/worker.py": ["tests/engine/test_engine_truth.py", "tests/engine/test_engine.py"],
    # A point's verdict: stall, client-stall, data gone missing during the point.
    "ycsbctl/experiment/judge.py": ["tests/experiment/test_judge.py"],
    "ycsbctl/experiment/missing.py": ["tests/experiment/test_judge.py"],
    "ycsbctl/telemetry/stall.py": ["tests/experiment/test_judge.py"],
    # The disturbance study's events table: stall, operations lost, p99 before/during/after.
    "ycsbctl/results/disturbance.py": ["tests/results/test_disturbance.py"],
    # Each reply's status (OK, NOT_FOUND, ERROR) as the server's own counters count it.
    "ycsbctl/stores/memcached/binding.py": ["tests/stores/test_memcached_binding.py", "tests/stores/test_memcached_truth.py"],
    "ycsbctl/stores/postgresql/wire.py": ["tests/stores/test_postgresql_wire.py", "tests/stores/test_sql_stores.py",
                                          "-k", "postgresql or wire"],
    "ycsbctl/stores/mariadb/wire.py": ["tests/stores/test_mariadb_wire.py", "tests/stores/test_sql_stores.py",
                                       "-k", "mariadb or wire"],
    # What a result folder keeps of a point: its overall summary, its histograms (whole, decodable), its run docs.
    "ycsbctl/results/store.py": ["tests/results/test_store.py", "tests/results/test_frames_truth.py"],
    # What compare calls a real change, and what it says makes two experiments differ.
    "ycsbctl/report/compare.py": ["tests/report/test_compare.py"],
}

COMPARE_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
              ast.Mod: ast.FloorDiv, ast.RShift: ast.LShift, ast.LShift: ast.RShift, ast.BitOr: ast.BitAnd,
              ast.BitAnd: ast.BitOr}
NAME_SWAP = {"mean": "max", "max": "min", "min": "max", "sum": "max", "idxmax": "idxmin", "idxmin": "idxmax"}
PERCENTILE_SWAP = {"p50": "p95", "p95": "p99", "p99": "p95", "p999": "p99", "p9999": "p999"}


@dataclass
class Mutant:
    module: str
    line: int
    what: str
    source: str  # the whole mutated module


def _same(segment: str, node: ast.AST) -> bool:
    """The source segment really is ``node`` (positions inside f-strings may be off before 3.12)."""
    try:
        parsed = ast.parse(segment.strip(), mode="eval").body
    except SyntaxError:
        return False
    return ast.dump(parsed) == ast.dump(node)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _annotations(tree: ast.AST) -> set[int]:
    """Nodes inside type annotations: changing them changes nothing at run time."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            anns = [a.annotation for a in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs)]
            anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns = [node.annotation]
        for a in anns:
            if a is not None:
                ids |= {id(n) for n in ast.walk(a)}
    return ids


def _variants(node: ast.AST) -> list[tuple[ast.AST, str]]:
    """Mutated copies of one expression node and a description of each."""
    out: list[tuple[ast.AST, str]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAP:
                m = copy.deepcopy(node)
                m.ops[i] = COMPARE_SWAP[type(op)]()
                out.append((m, f"{type(op).__name__} -> {COMPARE_SWAP[type(op)].__name__}"))
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
        m = copy.deepcopy(node)
        m.op = BINOP_SWAP[type(node.op)]()
        out.append((m, f"{type(node.op).__name__} -> {BINOP_SWAP[type(node.op)].__name__}"))
    elif isinstance(node, ast.BoolOp):
        m = copy.deepcopy(node)
        m.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append((m, f"{type(node.op).__name__} -> {type(m.op).__name__}"))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for d in (1, -1):
            out.append((ast.Constant(node.value + d), f"{node.value} -> {node.value + d}"))
    elif isinstance(node, ast.Constant) and type(node.value) is float:
        for new in ((node.value * 1.01, node.value * 0.99) if node.value else (1.0,)):
            out.append((ast.Constant(new), f"{node.value!r} -> {new!r}"))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in PERCENTILE_SWAP:
        out.append((ast.Constant(PERCENTILE_SWAP[node.value]), f"{node.value!r} -> {PERCENTILE_SWAP[node.value]!r}"))
    elif isinstance(node, ast.Attribute) and node.attr in NAME_SWAP and isinstance(node.ctx, ast.Load):
        m = copy.deepcopy(node)
        m.attr = NAME_SWAP[node.attr]
        out.append((m, f".{node.attr} -> .{m.attr}"))
    elif isinstance(node, ast.Name) and node.id in ("min", "max") and isinstance(node.ctx, ast.Load):
        out.append((ast.Name(NAME_SWAP[node.id], ast.Load()), f"{node.id}() -> {NAME_SWAP[node.id]}()"))
    return out


def mutants(module: str) -> list[Mutant]:
    """Every mutant of ``module`` (a path relative to the checkout), in source order."""
    text = (ROOT / module).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    tree = ast.parse(text)
    skip = _docstrings(tree) | _annotations(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "end_lineno"):
            continue
        variants = _variants(node)
        if not variants:
            continue
        segment = ast.get_source_segment(text, node)
        if segment is None or not _same(segment, node):
            continue
        a = starts[node.lineno - 1] + len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        b = starts[node.end_lineno - 1] + len(lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode())
        for new, what in variants:
            replacement = ast.unparse(new)
            if not isinstance(new, (ast.Constant, ast.Name, ast.Attribute)):
                replacement = f"({replacement})"
            source = text[:a] + replacement + text[b:]
            try:
                ast.parse(source)
            except SyntaxError:
                continue
            out.append(Mutant(module, node.lineno, what, source))
    out.sort(key=lambda m: m.line)
    return out


def _pytest(tree: Path, args: list[str], env: dict[str, str], timeout_s: float) -> tuple[int, float]:
    """pytest's exit code on ``args`` in ``tree`` and how long it took (s); -1 when it ran past
    ``timeout_s`` (a mutant that loops). Such a run gets Ctrl-C first, so that its fixtures stop the
    servers they started (a plain kill left memcached and PostgreSQL servers running), then, 30 s
    later, SIGKILL to its whole process group."""
    t = time.monotonic()
    proc = subprocess.Popen([str(PYTHON), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args], cwd=tree,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return proc.wait(timeout=timeout_s), time.monotonic() - t
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return -1, time.monotonic() - t


def copy_tree(dest: Path) -> Path:
    """The checkout's sources and tests (and links to its .venv, infra/bin and .cache) in ``dest``."""
    tree = dest / "tree"
    ignore = shutil.ignore_patterns(".git", ".venv", ".cache", "reports", "__pycache__", "*.pyc", "bin")
    for name in ("ycsbctl", "tests", "workloads", "infra", "scripts"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, tree / name, ignore=ignore, symlinks=True)
    for name in ("pyproject.toml",):
        shutil.copy2(ROOT / name, tree / name)
    for link in (".venv", ".cache", "infra/bin"):
        if (ROOT / link).exists():
            (tree / link).symlink_to((ROOT / link).resolve())
    return tree


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*", help="modules to mutate (default: all of TESTS)")
    ap.add_argument("--max", type=int, default=0, help="at most N mutants per module, a fixed random sample")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant's tests (a hang is a kill)")
    ap.add_argument("--survivors-of", type=Path, metavar="LOG",
                    help="run only the mutants a previous run's output lists as surviving (after adding tests)")
    args = ap.parse_args(argv)
    wanted: set[tuple[str, int, str]] | None = None
    if args.survivors_of:
        wanted = set()
        for line in args.survivors_of.read_text(encoding="utf-8").splitlines():
            if "SURVIVED " in line:
                where, what = line.split("SURVIVED ", 1)[1].split(": ", 1)
                module, lineno = where.rsplit(":", 1)
                wanted.add((module, int(lineno), what.strip()))
        args.modules = args.modules or sorted({w[0] for w in wanted})
    modules = args.modules or list(TESTS)
    unknown = [m for m in modules if m not in TESTS]
    if unknown:
        print(f"no tests mapped for {', '.join(unknown)}; known: {', '.join(TESTS)}", file=sys.stderr)
        return 2
    plan = {}
    for m in modules:
        ms = mutants(m)
        if wanted is not None:
            ms = [x for x in ms if (x.module, x.line, x.what) in wanted]
        elif args.max and len(ms) > args.max:
            ms = sorted(random.Random(m).sample(ms, args.max), key=lambda x: x.line)
        plan[m] = ms
    if args.list:
        for m, ms in plan.items():
            for x in ms:
                print(f"{m}:{x.line}: {x.what}")
        print(f"{sum(len(ms) for ms in plan.values())} mutants")
        return 0

    scores: dict[str, tuple[int, int]] = {}
    survivors: list[Mutant] = []
    with tempfile.TemporaryDirectory(prefix="ycsbctl-mutation-") as tmp:
        tree = copy_tree(Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(tree), "YCSBCTL_TRUTH_CACHE": str(Path(tmp) / "truth-cache")}
        env.pop("YCSBCTL_NO_SKIP", None)
        (Path(tmp) / "truth-cache").mkdir()
        for module, ms in plan.items():
            tests = TESTS[module]
            tests = [t for t in tests if t.startswith("-") or (tree / t).exists() or not t.startswith("tests/")]
            rc, took = _pytest(tree, tests, env, args.timeout)
            if rc != 0:
                print(f"{module}: its tests fail without any mutant (exit {rc}); skipped", flush=True)
                continue
            print(f"{module}: {len(ms)} mutants, tests take {took:.0f} s each", flush=True)
            target = tree / module
            original = target.read_bytes()
            killed = 0
            for i, x in enumerate(ms, 1):
                try:
                    target.write_text(x.source, encoding="utf-8")
                    rc, _ = _pytest(tree, tests, env, args.timeout)
                finally:
                    target.write_bytes(original)
                if rc == 0:
                    survivors.append(x)
                    print(f"  [{i}/{len(ms)}] SURVIVED {module}:{x.line}: {x.what}", flush=True)
                else:
                    killed += 1
            scores[module] = (killed, len(ms))
    print("\nmutation score")
    print(f"{'module':40} {'killed':>7} {'total':>6} {'score':>7}")
    total_k = total_n = 0
    for m, (k, n) in scores.items():
        total_k, total_n = total_k + k, total_n + n
        print(f"{m:40} {k:7d} {n:6d} {100 * k / n if n else 100:6.1f}%")
    print(f"{'all':40} {total_k:7d} {total_n:6d} {100 * total_k / total_n if total_n else 100:6.1f}%")
    if survivors:
        print("\nsurviving mutants")
        for x in survivors:
            line = (ROOT / x.module).read_text(encoding="utf-8").splitlines()[x.line - 1].strip()
            print(f"  {x.module}:{x.line}: {x.what}    | {line[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

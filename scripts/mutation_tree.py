"""The copy of the checkout that ``make mutation`` mutates (the checkout itself is never touched), and
what the exact run and the whole-map sample print alike.

The tree's sources and tests are copied to a temporary folder (its .venv, infra/bin and .cache linked),
each mutant is written there and the original put back after its tests (in ``finally``), and the folder is
removed at the end. Experiments the truth tests make are made once per run (YCSBCTL_TRUTH_CACHE).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import mutation_rules
from mutation_ops import ROOT, Mutant

# the checkout's venv; else (a git worktree without one) the Python that runs this script
PYTHON = ROOT / ".venv" / "bin" / "python" if (ROOT / ".venv").exists() else Path(sys.executable)


def copy_tree(dest: Path) -> Path:
    """The checkout's sources and tests (and links to its .venv, infra/bin and .cache) in ``dest``."""
    tree = dest / "tree"
    ignore = shutil.ignore_patterns(".git", ".venv", ".cache", "reports", "__pycache__", "*.pyc", "bin")
    for name in ("ycsbctl", "tests", "workloads", "infra", "scripts", "notebooks", "bench"):  # tests run the notebook
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, tree / name, ignore=ignore, symlinks=True)
    for name in ("pyproject.toml", "README.md", "mkdocs.yml"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "docs", tree / "docs")  # tests hold the docs' stated defaults to the code's
    for link in (".venv", ".cache", "infra/bin"):
        if (ROOT / link).exists():
            (tree / link).symlink_to((ROOT / link).resolve())
    return tree


@contextmanager
def scratch() -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """A temporary folder with a copy of the tree in it, and the environment its tests run in: (folder,
    tree, env). The truth tests' experiments are made once, in the folder (YCSBCTL_TRUTH_CACHE)."""
    with tempfile.TemporaryDirectory(prefix="ycsbctl-mutation-") as name:
        tmp = Path(name)
        tree = copy_tree(tmp)
        env = {**os.environ, "PYTHONPATH": str(tree), "YCSBCTL_TRUTH_CACHE": str(tmp / "truth-cache")}
        env.pop("YCSBCTL_NO_SKIP", None)
        (tmp / "truth-cache").mkdir()
        yield tmp, tree, env


def print_ruled(set_aside: list[Mutant], texts: dict[str, str]) -> None:
    """Every mutant a rule of mutation_rules.RULES set aside, counted per rule and listed."""
    if not set_aside:
        return
    print(f"\n{len(set_aside)} equivalent by rule, not scored")
    for rule, why in mutation_rules.RULES.items():
        n = sum(x.rule == rule for x in set_aside)
        if n:
            print(f"  {rule}: {n} ({why})")
    for x in set_aside:
        line = texts[x.module].splitlines()[x.line - 1].strip()
        print(f"  equivalent by rule ({x.rule}) {x.module}:{x.line}: {x.what}    | {line[:100]}")


def mapped_tests(tests: dict[str, list[str]], tree: Path, module: str) -> list[str]:
    """The pytest arguments of ``module``'s tests in the map ``tests`` whose files exist in ``tree``."""
    return [t for t in tests[module] if t.startswith("-") or (tree / t).exists() or not t.startswith("tests/")]


def survivor_line(x: Mutant, texts: dict[str, str]) -> str:
    """How a surviving mutant is printed: where, what changed, and its source line."""
    return f"  {x.module}:{x.line}: {x.what}    | {texts[x.module].splitlines()[x.line - 1].strip()[:100]}"


def print_end(survivors: list[Mutant], set_aside: list[Mutant], texts: dict[str, str]) -> None:
    """A run's last lines: every surviving mutant, then those set aside as equivalent by rule."""
    if survivors:
        print("\nsurviving mutants")
        for x in survivors:
            print(survivor_line(x, texts))
    print_ruled(set_aside, texts)

"""``make mutation`` (scripts/mutation.py) covers every module that computes a figure a user reads or a
verdict: each module under results/, telemetry/, each store's samplers and SQL paths, the structure study
and the point's verdict is in its map (with tests that exist) or listed as computing no figure, with why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mutation():
    spec = importlib.util.spec_from_file_location("ycsbctl_mutation_script", ROOT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


FIGURE_FOLDERS = ("ycsbctl/results/*.py", "ycsbctl/telemetry/*.py", "ycsbctl/stores/*/stats.py",
                  "ycsbctl/stores/*/sampler*.py", "ycsbctl/stores/*/info.py", "ycsbctl/stores/*/status.py",
                  "ycsbctl/stores/sql/*.py", "ycsbctl/workload/online_status/*.py")
VERDICTS = ("ycsbctl/experiment/judge.py", "ycsbctl/experiment/missing.py", "ycsbctl/experiment/host_claim.py",
            "ycsbctl/experiment/rate_search.py")


def test_every_module_that_computes_a_figure_is_mutated_or_said_not_to_compute_one():
    m = _mutation()
    modules = {str(p.relative_to(ROOT)) for pattern in FIGURE_FOLDERS for p in ROOT.glob(pattern)} | set(VERDICTS)
    modules = {x for x in modules if not x.endswith("__init__.py") or x in m.NOT_FIGURES}
    missing = sorted(x for x in modules if x not in m.TESTS and x not in m.NOT_FIGURES)
    assert not missing, f"add to TESTS (or NOT_FIGURES, with why) in scripts/mutation.py: {missing}"
    assert not set(m.TESTS) & set(m.NOT_FIGURES)
    assert all(reason for reason in m.NOT_FIGURES.values())


def test_every_module_and_test_the_map_names_exists():
    m = _mutation()
    for module, tests in m.TESTS.items():
        assert (ROOT / module).is_file(), module
        files = [t for t in tests if t.startswith("tests/")]
        assert files, module
        for t in files:
            assert (ROOT / t).is_file(), f"{module}: {t}"
    for module in m.NOT_FIGURES:
        assert (ROOT / module).is_file(), module


def test_every_equivalent_mutant_is_one_the_tool_makes_and_says_why():
    """An EQUIVALENT entry whose line changed no longer names a mutant: it must go (or be named anew)."""
    m = _mutation()
    for module in {key.split(": ", 1)[0] for key in m.EQUIVALENT}:
        text = (ROOT / module).read_text(encoding="utf-8")
        made = {x.key(text) for x in m.mutants(module)}
        stale = [key for key in m.EQUIVALENT if key.startswith(f"{module}: ") and key not in made]
        assert not stale, f"EQUIVALENT in scripts/mutation.py names mutants that no longer exist: {stale}"
    assert all(why for why in m.EQUIVALENT.values())

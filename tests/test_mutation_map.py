"""``make mutation`` (its map, scripts/mutation.py) covers every module that computes a figure a user
reads or a verdict: each module under report/, results/, telemetry/, stores/ (every store's bindings,
wire and HTTP paths, samplers, readings), the structure study and the point's verdict is in its map
(with tests that exist) or listed as computing no figure, with why."""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is no package: the mutants and the equivalent ones
import mutation_ops  # noqa: E402
from mutation_equivalent import EQUIVALENT  # noqa: E402


def _mutation():
    """The map, scripts/mutation.py: TESTS and NOT_FIGURES."""
    spec = importlib.util.spec_from_file_location("ycsbctl_mutation_script", ROOT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# Every module of these folders (and their sub-packages, at any depth) needs a decision.
FIGURE_FOLDERS = ("ycsbctl/report", "ycsbctl/results", "ycsbctl/telemetry", "ycsbctl/stores",
                  "ycsbctl/workload/online_status", "ycsbctl/workload/media_items")
VERDICTS = ("ycsbctl/experiment/judge.py", "ycsbctl/experiment/missing.py", "ycsbctl/experiment/host_claim.py",
            "ycsbctl/experiment/rate_search.py", "ycsbctl/experiment/explain.py", "ycsbctl/experiment/outcome.py")


def _imports_only(path: Path) -> bool:
    """A package's ``__init__.py`` that holds only its docstring, imports and ``__all__``: nothing to mutate."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and "__all__" in ast.unparse(node).split("=", 1)[0]:
            continue
        return False
    return True


def undecided(m) -> list[str]:
    """The modules of :data:`FIGURE_FOLDERS` and :data:`VERDICTS` in neither ``m.TESTS`` nor ``m.NOT_FIGURES``."""
    modules = {str(p.relative_to(ROOT)) for folder in FIGURE_FOLDERS for p in (ROOT / folder).rglob("*.py")}
    modules = {x for x in modules | set(VERDICTS)
               if not (x.endswith("__init__.py") and _imports_only(ROOT / x)) or x in m.NOT_FIGURES}
    return sorted(x for x in modules if x not in m.TESTS and x not in m.NOT_FIGURES)


def test_every_module_that_computes_a_figure_is_mutated_or_said_not_to_compute_one():
    m = _mutation()
    missing = undecided(m)
    assert not missing, f"add to TESTS (or NOT_FIGURES, with why) in scripts/mutation.py: {missing}"
    assert not set(m.TESTS) & set(m.NOT_FIGURES)
    assert all(reason.strip() for reason in m.NOT_FIGURES.values())


def test_a_new_module_in_a_figure_folder_without_a_decision_is_named(tmp_path, monkeypatch):
    """The guard above looks at the folders as they are: a store's new wire module (or a report's new
    table) added without a line in TESTS or NOT_FIGURES is named, and a package's plain ``__init__`` is not."""
    m = _mutation()
    for name, text in (("wire.py", "def status(reply: bytes) -> int:\n    return 0 if reply else 1\n"),
                       ("__init__.py", '"""A store."""\n')):
        (tmp_path / "ycsbctl" / "stores" / "newstore").mkdir(parents=True, exist_ok=True)
        (tmp_path / "ycsbctl" / "stores" / "newstore" / name).write_text(text)
    (tmp_path / "ycsbctl" / "report").mkdir()
    (tmp_path / "ycsbctl" / "report" / "new_table.py").write_text("X = 1\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert undecided(m) == ["ycsbctl/report/new_table.py", "ycsbctl/stores/newstore/wire.py"]


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
    """An EQUIVALENT entry whose line changed no longer names a mutant: it must go (or be named anew). An entry
    naming two mutants at once (one line holding the same change twice, ``k + 1 if … else k + 1``) would set aside a
    scored one with the equivalent one: such a line is split first, so that each mutant has a name of its own."""
    for module in {key.split(": ", 1)[0] for key in EQUIVALENT}:
        text = (ROOT / module).read_text(encoding="utf-8")
        lines = text.splitlines()
        # the tool's mutation spots by their mutant's name (Mutant.key); only the named ones are built (parsed)
        named = [(f"{module}: {lines[x.line - 1].strip()} | {x.what}", x) for x in mutation_ops.spots(module, text)]
        spots = dict(named)
        stale = [key for key in EQUIVALENT if key.startswith(f"{module}: ")
                 and (key not in spots or mutation_ops.build(module, text, spots[key]) is None)]
        assert not stale, f"EQUIVALENT (scripts/mutation_equivalent.json) names mutants no longer made: {stale}"
        several = {k: n for k, n in Counter(key for key, _ in named if key in EQUIVALENT).items() if n > 1}
        assert not several, f"EQUIVALENT entries that name several mutants (split the line): {several}"
    assert all(why for why in EQUIVALENT.values())


def test_a_mutant_of_a_line_run_at_import_is_run_against_every_test_of_its_module():
    text = ('"""Doc."""\nLIMIT = 0.95\n\n\nclass A:\n    SIZE = 4\n\n    def f(self, x=LIMIT * 2):\n'
            '        return x + 1\n\n\n@staticmethod\ndef g(y: int = 3) -> int:\n    return y\n')
    assert mutation_ops.import_lines(text) == {1, 2, 6, 8, 12, 13}  # not the bodies of f and g (lines 9, 14)


def test_a_per_module_draw_is_the_same_each_time_and_another_with_a_seed():
    """``--max N`` draws N mutants of a module the same way every run (a survivor's fix is checked on the same
    draw); ``--seed`` draws others, so that a module is not judged on one lucky draw."""
    module = "ycsbctl/results/stats.py"

    def draw(seed=None):
        return [(x.line, x.what) for x in mutation_ops.mutants(module, 10, seed)]

    first = draw()
    assert len(first) == 10 and draw() == first
    assert draw(7) == draw(7) and draw(7) != first and draw(8) != draw(7)


def test_a_condition_over_several_lines_inside_its_statements_brackets_is_mutated_and_its_mutant_parses() -> None:
    """``if (a\\n and b)`` or a call's argument ``x\\n or y``: the segment parses as itself only in brackets of its own,
    and such a line was once left with no mutant at all (unscored)."""
    text = ("def f(a, b, x, y):\n    if (a\n            and b):\n        return g(x\n                 or y)\n"
            "    return 0\n")
    made = {(s.line, s.what) for s in mutation_ops.spots("m.py", text)}
    assert {(2, "And -> Or"), (4, "Or -> And")} <= made
    for s in mutation_ops.spots("m.py", text):
        mutant = mutation_ops.build("m.py", text, s)
        assert mutant is not None and ast.dump(ast.parse(mutant.source)) != ast.dump(ast.parse(text))

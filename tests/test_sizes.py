"""The size rules of the code (issue 62): no module over 400 lines and no function over 80 in the product, its
benchmarks, scripts and infrastructure (tests aside); the line length (120) is ruff's E501, in ``make test``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("ycsbctl", "bench", "scripts", "infra")
MODULE_LINES, FUNCTION_LINES = 400, 80
# Data tables held whole in one module, each with why (their functions are still held to 80 lines).
LONG_DATA = {"scripts/mutation.py": "the mutation map, one entry per module: the before-stop check reads this file"}


def _modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def oversized(path: Path) -> list[str]:
    """What in ``path`` breaks the size rules: the module's line count, and each function's (its ``def`` to its
    last line, decorators aside)."""
    text = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    long = text.count("\n") > MODULE_LINES and str(where) not in LONG_DATA
    out = [f"{where}: {text.count(chr(10))} lines"] if long else []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > FUNCTION_LINES:
                out.append(f"{where}:{node.lineno} {node.name}: {lines} lines")
    return out


def test_no_module_over_400_lines_and_no_function_over_80(tmp_path: Path) -> None:
    modules = _modules()
    assert len(modules) > 300 and ROOT / "ycsbctl" / "engine" / "worker.py" in modules  # the tree was found
    assert [x for m in modules for x in oversized(m)] == []
    assert all((ROOT / name).exists() for name in LONG_DATA)  # an exemption names a module that is there
    # the rule itself: a 401-line module and an 81-line function are named, 400 and 80 are not
    (tmp_path / "big.py").write_text("x = 1\n" * 401)
    body = "".join(f"    y{i} = {i}\n" for i in range(80))
    (tmp_path / "fn.py").write_text(f"def long():\n{body}\n\ndef fits():\n{body[:-len('    y79 = 79')-1]}\n")
    (tmp_path / "ok.py").write_text("x = 1\n" * 400)
    assert oversized(tmp_path / "big.py") == [f"{tmp_path / 'big.py'}: 401 lines"]
    assert oversized(tmp_path / "fn.py") == [f"{tmp_path / 'fn.py'}:1 long: 81 lines"]
    assert oversized(tmp_path / "ok.py") == []

"""The mutants of ``make mutation`` (scripts/mutation.py): which small changes of a module's source are
made, and the mutated source of each.

One change per mutant, of one expression: a comparison flipped (< and <=, == and !=, in and not in, …),
an arithmetic or bitwise operator swapped, and/or swapped, an integer ±1, a float constant nudged by 1 %
(0.0 -> 1.0), a percentile name swapped ("p99" -> "p95"), a mean/max/min/sum (or idxmax/idxmin) swapped.
Docstrings and type annotations are left alone; a change that a rule of scripts/mutation_rules.py sets
aside as equivalent is made but marked (``rule``). Module-level constants, class bodies and default
values are mutated like any other expression (mutmut 3 mutates only function bodies).
"""

from __future__ import annotations

import ast
import copy
import random
from dataclasses import dataclass
from pathlib import Path

import mutation_rules

ROOT = Path(__file__).resolve().parents[1]

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
    end_line: int = 0  # the last line of the mutated expression
    rule: str = ""  # the rule of mutation_rules.RULES that sets it aside as equivalent ("": scored)

    def key(self, text: str) -> str:
        """``module: source line | what``, the mutant's name in EQUIVALENT (stable when lines move)."""
        return f"{self.module}: {text.splitlines()[self.line - 1].strip()} | {self.what}"


def _same(segment: str, node: ast.AST) -> bool:
    """The source segment really is ``node`` (positions inside f-strings may be off before 3.12). A segment over
    several lines inside its statement's brackets (``if (a\n and b)``, a call's argument ``x\n or y``) parses as
    itself only in brackets of its own; the mutant replaces it bracketed (:func:`build`)."""
    for candidate in (segment.strip(), f"({segment})"):
        try:
            parsed = ast.parse(candidate, mode="eval").body
        except SyntaxError:
            continue
        return ast.dump(parsed) == ast.dump(node)
    return False


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
            anns = [a.annotation for a in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                                           *(a for a in (node.args.vararg, node.args.kwarg) if a is not None))]
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
                mc = copy.deepcopy(node)
                mc.ops[i] = COMPARE_SWAP[type(op)]()
                out.append((mc, f"{type(op).__name__} -> {COMPARE_SWAP[type(op)].__name__}"))
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
        mb = copy.deepcopy(node)
        mb.op = BINOP_SWAP[type(node.op)]()
        out.append((mb, f"{type(node.op).__name__} -> {BINOP_SWAP[type(node.op)].__name__}"))
    elif isinstance(node, ast.BoolOp):
        mo = copy.deepcopy(node)
        mo.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append((mo, f"{type(node.op).__name__} -> {type(mo.op).__name__}"))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for d in (1, -1):
            out.append((ast.Constant(node.value + d), f"{node.value} -> {node.value + d}"))
    elif isinstance(node, ast.Constant) and type(node.value) is float:
        for new in ((node.value * 1.01, node.value * 0.99) if node.value else (1.0,)):
            out.append((ast.Constant(new), f"{node.value!r} -> {new!r}"))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in PERCENTILE_SWAP:
        out.append((ast.Constant(PERCENTILE_SWAP[node.value]), f"{node.value!r} -> {PERCENTILE_SWAP[node.value]!r}"))
    elif isinstance(node, ast.Attribute) and node.attr in NAME_SWAP and isinstance(node.ctx, ast.Load):
        ma = copy.deepcopy(node)
        ma.attr = NAME_SWAP[node.attr]
        out.append((ma, f".{node.attr} -> .{ma.attr}"))
    elif isinstance(node, ast.Name) and node.id in ("min", "max") and isinstance(node.ctx, ast.Load):
        out.append((ast.Name(NAME_SWAP[node.id], ast.Load()), f"{node.id}() -> {NAME_SWAP[node.id]}()"))
    return out


@dataclass
class Spot:
    """One mutation of one module, before its source is built: the lines and character offsets of the
    expression replaced, the new node, what changed, and the rule that sets it aside ("" when scored)."""

    line: int
    end_line: int
    a: int
    b: int
    new: ast.AST
    what: str
    rule: str = ""


def spots(module: str, text: str) -> list[Spot]:
    """Every mutation of ``module`` (its source ``text``), in source order."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    tree = ast.parse(text)
    skip = _docstrings(tree) | _annotations(tree)
    ruled = mutation_rules.by_rule(tree)
    out: list[Spot] = []
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.expr) or node.end_lineno is None:
            continue  # every node _variants changes is an expression, with its end
        variants = _variants(node)
        if not variants:
            continue
        # the node's source by its offsets (col_offset counts UTF-8 bytes), not ast.get_source_segment, which
        # splits the whole text again for every node: 86 % of this function's time (test_mutation_map's 8 s)
        a = starts[node.lineno - 1] + len(lines[node.lineno - 1].encode()[:node.col_offset].decode())
        end, end_col = node.end_lineno, node.end_col_offset
        b = starts[end - 1] + len(lines[end - 1].encode()[:end_col].decode())
        if not _same(text[a:b], node):
            continue
        out += [Spot(node.lineno, end, a, b, new, what, ruled.get(id(node), "")) for new, what in variants]
    out.sort(key=lambda x: x.line)
    return out


def build(module: str, text: str, spot: Spot) -> Mutant | None:
    """The mutant ``spot`` makes of ``module`` (source ``text``); None when its source does not parse."""
    replacement = ast.unparse(spot.new)
    if not isinstance(spot.new, (ast.Constant, ast.Name, ast.Attribute)):
        replacement = f"({replacement})"
    source = text[:spot.a] + replacement + text[spot.b:]
    try:
        ast.parse(source)
    except SyntaxError:
        return None
    return Mutant(module, spot.line, spot.what, source, spot.end_line, spot.rule)


def mutants(module: str, limit: int = 0, seed: int | None = None) -> list[Mutant]:
    """Every mutant of ``module`` (a path relative to the checkout), in source order, those equivalent by
    rule included (``rule`` set); with ``limit``, a random sample of at most that many of the others (drawn
    before the mutated sources are built and parsed: the same for a module each time unless ``seed`` gives
    another draw) and every one a rule sets aside."""
    text = (ROOT / module).read_text(encoding="utf-8")
    found = spots(module, text)
    scored = [x for x in found if not x.rule]
    if limit and len(scored) > limit:
        scored = random.Random(module if seed is None else f"{module}:{seed}").sample(scored, limit)
    chosen = sorted([*scored, *(x for x in found if x.rule)], key=lambda x: x.line)
    return [m for m in (build(module, text, x) for x in chosen) if m is not None]


def import_lines(text: str) -> set[int]:
    """The lines of a module's source that run when it is imported: its top-level statements, its classes'
    bodies (methods aside) and every def's decorators and default values. Coverage gives such a line the
    context of whichever test imported the module first (a lazy import inside the CLI), so a mutant there is
    run against every test of the module, not that one alone."""
    out: set[int] = set()

    def span(node: ast.AST) -> set[int]:
        return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]

    def body(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for part in (*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d)):
                    out.update(span(part))
            elif isinstance(node, ast.ClassDef):
                for part in node.decorator_list:
                    out.update(span(part))
                body(node.body)
            else:
                out.update(span(node))

    body(ast.parse(text).body)
    return out

"""Equivalence by rule for ``scripts/mutation.py``: the places where a number cannot change a figure a
user reads, so that a mutant of it is set aside (counted and listed as "equivalent by rule (R)"), not
scored.

The rules are narrow on purpose: each names the calls and the keywords (or positions) it covers, and
only a numeric constant there is set aside; an operator, a name or a comparison in the same place stays
scored (``join(timeout=5 * interval + 5)``'s ``*`` can stop a join at once), and so does every number
anywhere else (a threshold, a percentile, a unit factor, a significance level, an axis limit).
"""

from __future__ import annotations

import ast

RULES: dict[str, str] = {
    "drawing-style": "a number in a matplotlib drawing call's style keyword (font size, line width, marker size, "
                     "cap size, transparency, figure size, dpi, z-order, label rotation and offset, legend columns, "
                     "margins of subplots_adjust, the panels' width and height ratios of subplots): how a mark "
                     "looks, not where it is nor what it says",
    "wait-timeout": "a number given as a timeout (timeout=, timeout_s=, connect_timeout= of any call, the client "
                    "libraries' socket_timeout=, socket_connect_timeout=, read_timeout=, write_timeout=, "
                    "serverSelectionTimeoutMS=, connectTimeoutMS=, socketTimeoutMS=, pymongo's timeoutMS=, or as the "
                    "default of a "
                    "parameter of that name; the first argument of join() and wait(); the second of connect(), "
                    "client() and AdminConnection(), the third of an admin query(url, sql, timeout_s), the second "
                    "of PgSession(), the timeout of every store's connect helper, a constant named …TIMEOUT_S): how "
                    "long to "
                    "wait for an answer, not what the answer says",
    "json-indent": "indent= of json.dump/dumps: whitespace in a file that is read back parsed",
    "cache-size": "maxsize= of functools.lru_cache: how many answers are kept, each the same computed again",
    "error-text-cap": "the length a binding's kept error message is cut to (the [:N] of what is assigned to "
                      "last_error): the message's tail, not a count or a status",
    "poll-interval": "a positive number given to sleep() (time's or asyncio's), or one of a constant tuple of them "
                     "named …DELAYS_S (a retry's waits): how long to wait before looking again; sleep(0), a yield "
                     "to the other tasks, stays scored",
}

# matplotlib's drawing calls (the method or class name) and their style keywords.
DRAWING_CALLS = frozenset({
    "plot", "errorbar", "scatter", "bar", "barh", "axvspan", "axhspan", "axhline", "axvline", "grid", "text",
    "annotate", "legend", "set_title", "suptitle", "set_xticks", "set_yticks", "set_xticklabels",
    "set_yticklabels", "bar_label", "tick_params", "Line2D", "Patch", "Figure", "figure", "subplots", "savefig",
    "subplots_adjust", "fill_between", "set_xlabel", "set_ylabel", "step", "stairs"})
STYLE_KEYWORDS = frozenset({
    "fontsize", "labelsize", "lw", "linewidth", "linewidths", "ms", "markersize", "markeredgewidth", "mew", "s",
    "capsize", "capthick", "elinewidth", "alpha", "figsize", "dpi", "zorder", "rotation", "ncol", "pad",
    "labelpad", "xytext"})  # xytext only with textcoords="offset …" (else it is a place in the data)
# subplots_adjust's margins are the figure's layout (an axis limit, set_ylim(bottom=...), is not style).
LAYOUT_KEYWORDS = frozenset({"left", "right", "top", "bottom", "wspace", "hspace"})
# subplots' panel proportions (keywords, or keys of its gridspec_kw dict): the panels' share of the figure's
# width and height, as figsize is the whole's (text fitted to a panel, report/text_fit.py, fits any width)
RATIO_KEYWORDS = frozenset({"width_ratios", "height_ratios"})
# ... and the client libraries' own names: redis-py's socket timeouts, PyMySQL's read/write, pymongo's (ms, and
# timeoutMS, its client-side limit of each operation)
TIMEOUT_KEYWORDS = frozenset({"timeout", "timeout_s", "connect_timeout", "socket_timeout", "socket_connect_timeout",
                              "read_timeout", "write_timeout", "serverSelectionTimeoutMS", "connectTimeoutMS",
                              "socketTimeoutMS", "timeoutMS"})
# call name -> the position of its timeout argument
# (client: the Redis and MongoDB stores' admin client(url, timeout_s); AdminConnection: memcached's and
# Tarantool's admin connection(url, timeout_s); query: every SQL store's and ClickHouse's admin query(url, sql,
# timeout_s); PgSession: PostgreSQL's admin session(url, timeout_s))
TIMEOUT_POSITIONS = {"join": 0, "wait": 0, "connect": 1, "_connect": 1, "client": 1, "AdminConnection": 1,
                     "query": 2, "PgSession": 1}


def _name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _offset(call: ast.Call) -> bool:
    """The call places its text at an offset in points or pixels (``textcoords="offset points"``)."""
    return any(kw.arg == "textcoords" and isinstance(kw.value,
                                                     ast.Constant) and str(kw.value.value).startswith("offset")
               for kw in call.keywords)


def _numbers(node: ast.AST) -> set[int]:
    return {id(n) for n in ast.walk(node)
            if isinstance(n, ast.Constant) and type(n.value) in (int, float)}


def by_rule(tree: ast.AST) -> dict[int, str]:
    """The numeric constants of ``tree`` that a rule of :data:`RULES` covers: node id -> rule name."""
    out: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "last_error"
                                                for t in node.targets):
            for cut in ast.walk(node.value):
                if isinstance(cut, ast.Slice) and cut.lower is None and isinstance(cut.upper, ast.Constant):
                    out.update(dict.fromkeys(_numbers(cut.upper), "error-text-cap"))
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if name.endswith("TIMEOUT_S") and isinstance(value, ast.Constant):
                out.update(dict.fromkeys(_numbers(value), "wait-timeout"))  # STOP_TIMEOUT_S = 30.0
            elif (name.endswith("DELAYS_S") and isinstance(value, ast.Tuple)
                  and all(isinstance(e, ast.Constant) for e in value.elts)):
                out.update(dict.fromkeys(_numbers(value), "poll-interval"))  # BUSY_DELAYS_S = (0.001, 0.002)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # def f(..., timeout_s=1.0)
            a = node.args
            pairs = [*zip(a.args[len(a.args) - len(a.defaults):], a.defaults),
                     *((k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)]
            for arg, default in pairs:
                if arg.arg in TIMEOUT_KEYWORDS:
                    out.update(dict.fromkeys(_numbers(default), "wait-timeout"))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        name = _name(call)
        for kw in call.keywords:
            if kw.arg == "xytext" and not _offset(call):
                continue
            if name in DRAWING_CALLS and (kw.arg in STYLE_KEYWORDS
                                          or (name == "subplots_adjust" and kw.arg in LAYOUT_KEYWORDS)
                                          or (name == "subplots" and kw.arg in RATIO_KEYWORDS)):
                out.update(dict.fromkeys(_numbers(kw.value), "drawing-style"))
            elif name == "subplots" and kw.arg == "gridspec_kw" and isinstance(kw.value, ast.Dict):
                for key, value in zip(kw.value.keys, kw.value.values):  # {"width_ratios": [3, 3, 1.4]}
                    if isinstance(key, ast.Constant) and key.value in RATIO_KEYWORDS:
                        out.update(dict.fromkeys(_numbers(value), "drawing-style"))
            elif kw.arg in TIMEOUT_KEYWORDS:
                out.update(dict.fromkeys(_numbers(kw.value), "wait-timeout"))
            elif kw.arg == "indent" and name in ("dump", "dumps"):
                out.update(dict.fromkeys(_numbers(kw.value), "json-indent"))
            elif kw.arg == "maxsize" and name == "lru_cache":
                out.update(dict.fromkeys(_numbers(kw.value), "cache-size"))
        first = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
        if name == "sleep" and isinstance(first, (int, float)) and type(first) is not bool and first > 0:
            out[id(call.args[0])] = "poll-interval"
        at = TIMEOUT_POSITIONS.get(name)
        if at is not None and len(call.args) > at and isinstance(call.args[at], ast.Constant):
            out.update(dict.fromkeys(_numbers(call.args[at]), "wait-timeout"))
    return out

"""``ycsbctl run … --save-study FILE``: the study file a command line means, written as TOML.

Only what the command line (or the study file it read) set is written; the options left at their defaults stay
the defaults of the ycsbctl that runs the file. The targets become ``[[targets]]`` tables where one has a label,
settings, a binary or an image of its own, else a list of names and URLs. Input paths are written absolute.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ycsbctl import __version__
from ycsbctl.cli.study_model import file_params, must_exist
from ycsbctl.errors import UserError

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def write_study(path: Path, ctx: click.Context, params: dict[str, Any], from_file: set[str], command_line: str) -> Path:
    """Write the study file of ``params`` (``run``'s, the study file's merged in: ``from_file`` names what it
    set) to ``path``; the path written."""
    if path.suffix != ".toml":  # `ycsbctl run FILE` knows a study file by its suffix
        raise UserError(f"--save-study {path}: name the study file ….toml, so that `ycsbctl run` reads it as one")
    given = {n for n in params if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE} | from_file
    chosen = {n: params[n] for n in given if n not in ("save_study",) and params[n] not in (None, ())}
    targets = _target_tables(chosen)
    lines = [f"# A ycsbctl study: `ycsbctl run {path.name}` runs it (ycsbctl {__version__} wrote it from",
             f"#   {command_line}).",
             "# Every key is a `ycsbctl run` option, its long name without the dashes, in the option's units;",
             "# options given on the command line override these. The keys: the manual's guide/study-files.md.", ""]
    for key, param in file_params(ctx.command).items():
        name = str(param.name)
        if name in chosen:
            lines.append(f"{_key(key)} = {_value(_plain(chosen[name], param))}")
    if targets and all(isinstance(t, str) for t in targets):
        lines.append(f"targets = {_value(targets)}")
    for t in targets if not all(isinstance(t, str) for t in targets) else []:
        lines += ["", "[[targets]]"]
        table = t if isinstance(t, dict) else ({"url": t} if "://" in t else {"name": t})
        lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"--save-study {path}: cannot write it ({exc.strerror or exc})") from None
    return path


def _target_tables(chosen: dict[str, Any]) -> list[str | dict[str, Any]]:
    """The targets in --target/--targets order, each a name or URL or (with settings of its own) a table; the
    items of --target-kind, --server-config, --binary and --image they take are removed from ``chosen``."""
    from ycsbctl.experiment.plan import is_url, split_targets

    listed = split_targets(list(chosen.pop("target", ())) + ([chosen.pop("targets")] if "targets" in chosen else []))
    kinds = _pairs(chosen, "target_kind", "=", split=",")
    settings = _pairs(chosen, "server_config", ":")
    binaries = _pairs(chosen, "binary", "=")
    images = _pairs(chosen, "images", "=")
    from ycsbctl.provision.target_spec import infer_kind

    kind_of = {t: kinds.get(t) or infer_kind(t) for t in listed if not is_url(t)}
    # a binary keyed by a kind that other targets have too stays a key of its own
    shared = {k for t, k in kind_of.items() if k != t}
    out: list[str | dict[str, Any]] = []
    for t in listed:
        if is_url(t):
            out.append(t)
            continue
        table: dict[str, Any] = {"label": t, "name": kinds.pop(t)} if t in kinds else {"name": t}
        own = [v for label, v in settings if label == t]
        if own:
            table["settings"] = dict(v.partition("=")[::2] for v in own)
        settings = [(label, v) for label, v in settings if label != t]
        if t in binaries and t not in shared:
            table["binary"] = binaries.pop(t)
        if t in images:
            table["image"] = images.pop(t)
        out.append(table if len(table) > 1 else t)
    for name, sep, left in (("target_kind", "=", kinds), ("binary", "=", binaries), ("images", "=", images)):
        if left:
            chosen[name] = tuple(f"{k}{sep}{v}" for k, v in left.items())
    if settings:
        chosen["server_config"] = tuple(f"{label}:{v}" for label, v in settings)
    return out


def _pairs(chosen: dict[str, Any], name: str, sep: str, split: str | None = None) -> Any:
    """``chosen[name]``'s items (taken out of it) as {name: rest} (``:``-items as a list of pairs, in order)."""
    items = [p for item in chosen.pop(name, ()) for p in (item.split(split) if split else [item])]
    pairs = [tuple(s.strip() for s in item.partition(sep)[::2]) for item in items]
    return pairs if sep == ":" else dict(pairs)


def _plain(value: Any, param: click.Parameter) -> Any:
    """A click value as TOML writes it: tuples as lists, paths as text, input paths absolute."""
    if isinstance(value, tuple | list):
        return [_plain(v, param) for v in value]
    if isinstance(value, Path):
        value = str(value)
    if must_exist(param) and isinstance(value, str):
        if param.name == "binary":
            name, _, rest = value.partition("=")
            return f"{name}={os.path.abspath(os.path.expanduser(rest))}"
        return os.path.abspath(os.path.expanduser(value))
    if param.name == "workloads" and isinstance(value, str) and Path(value).is_file():  # a workload file
        return os.path.abspath(value)
    return value


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def _value(v: Any) -> str:
    """``v`` (bool, int, float, text, list, table) as a TOML value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v} has no TOML form here")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {type(v).__name__}")


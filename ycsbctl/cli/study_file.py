"""``ycsbctl run STUDY.toml``: a study file read into the values of ``run``'s own click parameters, which the
command line then overrides, so the file and the options build the plan through the same code.

The file is TOML (:mod:`tomllib`), validated by the model :func:`~ycsbctl.cli.study_model.study_model` makes from
the click command; every value is then converted by its option's click type, as a typed one is. Anything wrong is
one line naming the file and the key (a :class:`~ycsbctl.errors.UserError`, exit 2). Paths the file names as
inputs (``property-file``, ``targets-file``, ``ycsb-home``, ``binary``, workload files) are taken from the
file's folder when relative; ``out`` is taken from the working directory, as on the command line.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import tomllib
from click.core import ParameterSource

from ycsbctl.errors import UserError

if TYPE_CHECKING:  # pydantic is imported when a study file is read, not by every `ycsbctl run`
    from pydantic import ValidationError

    from ycsbctl.cli.study_model import TargetTable

SUFFIX = ".toml"


def is_study_file(workloads: tuple[str, ...] | list[str]) -> bool:
    """Whether the first workload argument names a study file (``….toml``)."""
    return bool(workloads) and str(workloads[0]).endswith(SUFFIX)


def with_study_file(ctx: click.Context, given: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """``given`` (``run``'s parameters as click parsed them) with the study file's values where the command line
    gave none, and the names of the parameters the file set. Workloads after the file replace the file's, and so
    do the command line's targets and its other lists; the items of a repeatable KEY=VALUE option (``-p``,
    ``--server-config``, ``--binary``, ``--image``, …: a ``=`` in its metavar) follow the file's, and win."""
    workloads = tuple(given.get("workloads") or ())
    if not is_study_file(workloads):
        return given, set()
    from_file = read_study(Path(workloads[0]), ctx)
    merged = dict(given, workloads=workloads[1:] or from_file.pop("workloads", ()))
    from_file.pop("workloads", None)
    typed = {n for n in given if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE}
    if typed & {"target", "targets"}:  # the command line's targets replace the file's list
        from_file.pop("target", None)
    for name, value in from_file.items():
        if name not in typed:
            merged[name] = value
        elif _keyed(ctx.command, name):
            merged[name] = (*value, *given[name])
    return merged, set(from_file) | ({"workloads"} if len(workloads) == 1 else set())


def _keyed(command: click.Command, name: str) -> bool:
    """Whether ``name`` is a repeatable option of KEY=VALUE items (a later item wins over an earlier one)."""
    param = next((p for p in command.params if p.name == name), None)
    return param is not None and param.multiple and "=" in str(getattr(param, "metavar", "") or "")


def named_in_file(exc: UserError, ctx: click.Context, from_file: set[str], workloads: tuple[str, ...]) -> UserError:
    """``exc`` (raised while the plan was built) prefixed with the study file's path when the option it begins
    with (``--threads 'many': …``) took its value from the file."""
    import re

    from ycsbctl.cli.study_model import key_of

    said = re.match(r"--([a-z][a-z-]*)", exc.message)
    names = {key_of(p): str(p.name) for p in ctx.command.params}
    if not is_study_file(workloads) or said is None or names.get(said.group(1)) not in from_file:
        return exc
    return UserError(f"{workloads[0]}: {exc.message.removeprefix('--')}", exc.exit_code, fix=exc.fix)


def read_study(path: Path, ctx: click.Context) -> dict[str, Any]:
    """The study file at ``path`` as click parameter values (name → value as the option's type gives it)."""
    from pydantic import ValidationError

    from ycsbctl.cli.study_model import TargetTable, file_params, study_model

    if not path.is_file():
        raise UserError(f"{path}: no such study file", fix="give the path of a .toml study file "
                        "(`ycsbctl run … --save-study FILE` writes one)")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not a TOML file: {exc}") from None
    try:
        study = study_model(ctx.command).model_validate(doc)
    except ValidationError as exc:
        raise UserError(f"{path}: {_first_error(exc, ctx.command)}") from None
    params = {str(p.name): (key, p) for key, p in file_params(ctx.command).items()}
    raw: dict[str, Any] = {n: v for n, v in study.__dict__.items() if v is not None and n != "targets"}
    values: dict[str, Any] = {}
    for name, value in raw.items():
        key, param = params[name]
        value = _paths(path, key, param, _as_given(name, value))
        values[name] = _converted(path, key, param, value, ctx)
    if getattr(study, "targets", None) == []:  # an empty list is never "no target named": the default plan
        raise UserError(f"{path}: targets = []: the list names no target", fix="name each target (redis, mongodb, "
                        "basic://, redis://host:port…), or leave the key out for the default plan")
    for i, table in enumerate(getattr(study, "targets", None) or []):
        try:
            table = table if isinstance(table, TargetTable) else _bare(table)
        except ValidationError as exc:
            raise UserError(f"{path}: targets[{i}]: {exc.errors()[0]['msg'].removeprefix('Value error, ')}") from None
        for name, item in _table_items(path, i, table):
            values[name] = (*values.get(name, ()), item)
    return values


def _bare(target: str) -> TargetTable:
    from ycsbctl.cli.study_model import TargetTable

    return TargetTable.model_validate({"url": target} if "://" in target else {"name": target})


def _table_items(path: Path, i: int, t: TargetTable) -> list[tuple[str, str]]:
    """The command-line items (parameter name, item) of the ``i``-th target table."""
    label = t.target
    items = [("target", label)]
    if t.label is not None:
        items.append(("target_kind", f"{t.label}={t.name}"))
    items += [("server_config", f"{label}:{k}={_text(v)}") for k, v in t.settings.items()]
    if t.binary is not None:
        items.append(("binary", f"{label}={_existing(path, f'targets[{i}].binary', t.binary)}"))
    if t.image is not None:
        items.append(("images", f"{label}={t.image}"))
    return items


def _text(v: Any) -> str:
    """A TOML value as the command line writes it (true, 10, 0.5, text)."""
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _as_given(name: str, value: Any) -> Any:
    """-p given as a table as the command line gives it: KEY=VALUE items."""
    if name == "props" and isinstance(value, dict):
        return [f"{k}={_text(v)}" for k, v in value.items()]
    return value


def _paths(path: Path, key: str, param: click.Parameter, value: Any) -> Any:
    """Input paths relative to the study file's folder, checked to exist; workload files likewise."""
    from ycsbctl.cli.study_model import must_exist

    if param.name == "workloads":
        return [os.path.abspath(path.parent / w) if (path.parent / str(w)).is_file() else w for w in value]
    if not must_exist(param):
        return value
    one = (lambda v: _name_path(path, key, v)) if param.name == "binary" else (lambda v: _existing(path, key, v))
    return [one(v) for v in value] if isinstance(value, list) else one(value)


def _name_path(path: Path, key: str, item: str) -> str:
    name, sep, rest = str(item).partition("=")
    if not sep or not name or not rest:
        raise UserError(f"{path}: {key}: {item!r}: write NAME=PATH, e.g. valkey=/opt/valkey/bin/valkey-server")
    return f"{name}={_existing(path, key, rest)}"


def _existing(path: Path, key: str, value: Any) -> str:
    given = Path(str(value)).expanduser()
    full = given if given.is_absolute() else (path.parent / given)
    if not full.exists():
        where = "" if given.is_absolute() else f" (relative paths are read from the study file's folder, {path.parent})"
        raise UserError(f"{path}: {key}: {value} does not exist{where}", fix="give an existing file or folder")
    return os.path.abspath(full)


def _converted(path: Path, key: str, param: click.Parameter, value: Any, ctx: click.Context) -> Any:
    """``value`` through ``param``'s click type (its ranges, choices and checks), as a typed value is."""
    if isinstance(value, list):
        value = [str(v) if isinstance(v, int | float) and not isinstance(v, bool) and _is_text(param) else v
                 for v in value]
    elif isinstance(value, int | float) and not isinstance(value, bool) and _is_text(param):
        value = str(value)
    try:
        return param.type_cast_value(ctx, value)
    except click.BadParameter as exc:
        raise UserError(f"{path}: {key}: {exc.format_message()}") from None


def _is_text(param: click.Parameter) -> bool:
    return isinstance(param.type, click.types.StringParamType)


def _first_error(exc: ValidationError, command: click.Command) -> str:
    """The first of pydantic's errors as ``key: what is wrong, what is allowed`` (and how many more there are)."""
    from ycsbctl.cli.study_model import file_params

    errors = exc.errors()
    first = next((e for e in errors if e["type"] not in ("string_type",) or len(errors) == 1), errors[0])
    loc = _where(first["loc"])
    if first["type"] == "extra_forbidden":
        known = (["name", "url", "label", "settings", "binary", "image"] if loc.startswith("targets[")
                 else ["targets", *file_params(command)])
        leaf = str(first["loc"][-1])
        close = [leaf.replace("_", "-")] if leaf.replace("_", "-") in known else difflib.get_close_matches(
            leaf, known, n=1)
        said = f"not a key of {'a target' if loc.startswith('targets[') else 'a study file'}" + (
            f" (did you mean {close[0]}?)" if close else "") + f": use one of {', '.join(known)}"
    else:
        said = first["msg"].removeprefix("Value error, ")
        if "input" in first and not isinstance(first["input"], dict | list):
            said += f" (got {first['input']!r})"
    more = len([e for e in errors if e is not first and e["type"] != "string_type"])
    return f"{loc}: {said}" + (f" (and {more} more)" if more > 0 else "")


def _where(loc: tuple) -> str:
    """pydantic's error location as a key path (``targets[1].name``), union members' tags left out."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "TargetTable", "int", "float", "bool") or "[" in str(part) or part.startswith(
                ("constrained-", "function-")):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


# What --resume takes beside its folder: the passwords the manifest keeps none of (--target, --targets, -p) and how
# this run shows itself (--quiet, --format, --allow-concurrent, --report); everything else is the stored plan's.
RESUME_TAKES = frozenset({"resume", "target", "targets", "props", "quiet", "fmt", "allow_concurrent", "report"})


def refuse_with_resume(ctx: click.Context, from_file: set[str]) -> None:
    """A :class:`UserError` naming the options given (on the command line or by a study file) that ``--resume`` would
    not use: it finishes the plan its folder stores, so ``--budget 20m`` or ``--repeat 5`` beside it were ignored
    without a word."""
    given = [p for p in ctx.command.params if p.name is not None and p.name not in RESUME_TAKES
             and (ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE or p.name in from_file)]
    if given:
        names = ", ".join(p.opts[0] if isinstance(p, click.Option) else (p.metavar or p.name.upper()) for p in given)
        raise UserError(f"--resume finishes the plan its folder stores, as it was: {names} would change it; drop "
                        f"{'it' if len(given) == 1 else 'them'} (ycsbctl rerun DIR runs the stored plan again into a "
                        "new folder)")

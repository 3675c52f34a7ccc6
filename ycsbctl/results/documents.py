"""A dataclass as a JSON document and back, with the validation every reader of a result folder goes
through: :func:`from_doc` checks each value against its field's declared type (int, float, str, bool,
None, enums, dataclasses, lists, dicts, unions of those) and refuses unknown keys; :func:`to_doc` writes
a dataclass as JSON-ready values. The declared documents themselves are :mod:`ycsbctl.results.schema`."""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")


# -- validation: the few shapes these dataclasses use --------------------------------------------------
class SchemaError(ValueError):
    """A document does not have the declared shape (names the field and what it holds)."""


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """``value`` as the type ``hint`` (int, float, str, bool, None, enums, dataclasses, list[X],
    dict[str, X], unions of those, Any), or :class:`SchemaError`."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in typing.get_args(hint):
            return None
        errors = []
        for option in typing.get_args(hint):
            if option is type(None):
                continue
            try:
                return _coerce(value, option, where)
            except SchemaError as exc:
                errors.append(str(exc))
        raise SchemaError(errors[0] if errors else f"{where}: {value!r} does not fit {hint}")
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise SchemaError(f"{where}: expected a list, got {type(value).__name__}")
        (item,) = typing.get_args(hint) or (Any,)
        return [_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise SchemaError(f"{where}: expected an object, got {type(value).__name__}")
        _, item = typing.get_args(hint) or (str, Any)
        return {str(k): _coerce(v, item, f"{where}.{k}") for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            raise SchemaError(f"{where}: {value!r} is not one of {', '.join(str(m.value) for m in hint)}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        if not isinstance(value, dict):
            raise SchemaError(f"{where}: expected an object, got {type(value).__name__}")
        return from_doc(hint, value, where)
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint is int:
        if isinstance(value, bool):
            pass
        elif isinstance(value, int):
            return value
        elif isinstance(value, float) and value.is_integer():
            return int(value)
    elif hint in (str, bool) and isinstance(value, hint):
        return value
    raise SchemaError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {value!r}")


_DECLARED: dict[type, tuple[dict[str, Any], frozenset[str]]] = {}


def _declared(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    """(the type of each field, the names ``__init__`` takes) of a dataclass, found once per class: its
    annotations are strings (``from __future__ import annotations``), and ``typing.get_type_hints`` compiled
    and evaluated each of them on every call (:class:`TelemetrySummary`'s 54 at each run a folder's finalize
    or a load reads)."""
    if cls not in _DECLARED:
        _DECLARED[cls] = (typing.get_type_hints(cls),
                          frozenset(f.name for f in dataclasses.fields(cls) if f.init))
    return _DECLARED[cls]


def from_doc(cls: type[T], doc: dict[str, Any], where: str = "") -> T:
    """A dataclass from its JSON object: every value checked against the declared type; unknown
    keys are refused, missing ones take their defaults."""
    hints, names = _declared(cls)
    unknown = sorted(set(doc) - names)
    if unknown:
        raise SchemaError(f"{where or cls.__name__}: unknown field(s) {', '.join(unknown)}")
    values = {k: _coerce(v, hints[k], f"{where + '.' if where else ''}{k}") for k, v in doc.items()}
    try:
        return cls(**values)
    except TypeError as exc:  # a required field is missing
        raise SchemaError(f"{where or cls.__name__}: {exc}") from None


def to_doc(obj: Any) -> Any:
    """A dataclass (and what it holds) as JSON-ready values; enums become their strings."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_doc(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {k: to_doc(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_doc(v) for v in obj]
    return obj

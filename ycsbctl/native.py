"""Which per-operation path runs: the compiled core (``ycsbctl._native``, built from
``ycsbctl/_native.c`` by ``pip install``) or its pure-Python twin.

The two produce the same operations (keys, order, values per seed), the same request bytes and
the same counts; the compiled one costs less client CPU per operation (``bench engine`` prints
both). :data:`core` is the compiled module, or None when it cannot be imported (then one warning
line, from the first process only) or when :data:`FORCE_PURE_ENV` is set (tests, A/B runs).
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

FORCE_PURE_ENV = "YCSBCTL_PURE_PYTHON"  # set to 1: run the pure-Python path even where the compiled one is built


def _load() -> tuple[ModuleType | None, str]:
    """(the compiled module or None, why it is not used)."""
    if os.environ.get(FORCE_PURE_ENV, "").strip() not in ("", "0"):
        return None, f"{FORCE_PURE_ENV}={os.environ[FORCE_PURE_ENV]}"
    try:
        from ycsbctl import _native  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, f"the compiled core cannot be imported ({exc})"
    return _native, ""


core, why_pure = _load()

_WARNED_ENV = "_YCSBCTL_PURE_PATH_WARNED"  # set once said: the worker processes this one starts inherit it

if core is None and not why_pure.startswith(FORCE_PURE_ENV) and not os.environ.get(_WARNED_ENV):
    # Worker processes import this too (before multiprocessing tells them they are children): only
    # the process the user started says it, once.
    os.environ[_WARNED_ENV] = "1"
    print(f"warning: ycsbctl runs its pure-Python per-operation path: {why_pure}; reinstall with a C compiler "
          "(gcc) present, e.g. scripts/setup.sh, for less client CPU per operation", file=sys.stderr)


def active_path() -> str:
    """``compiled`` or ``pure-Python (why)``: for ``ycsbctl doctor`` and the versions of a result manifest."""
    return "compiled" if core is not None else f"pure-Python ({why_pure})"

"""Results: the data model, HDR helpers, the result folder (``folder``) and its reader (``frames``).

``from ycsbctl.results import load`` reads a result folder into an ``Experiment``. The import is
lazy so that engine workers importing ``ycsbctl.results.histogram`` do not load the reader.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Experiment", "load"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ycsbctl.results import frames

        return getattr(frames, name)
    raise AttributeError(f"module 'ycsbctl.results' has no attribute {name!r}")

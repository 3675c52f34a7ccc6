"""Workload variants: one workload with a sweep axis's values set (``-p online.structure=hash,set,zset``
sweeps three variants). A plan lists a variant as ``WORKLOAD[key=value;key=value]``; run ids and tables
name it ``<workload file>-<value>-<value>`` (``online-status-hash``). Shared by the experiment, which
makes variants, and the report, which reads their values back from the manifest's plan."""

from __future__ import annotations

import re

_VARIANT = re.compile(r"^(?P<base>.+)\[(?P<settings>[^\[\]]*=[^\[\]]*)\]$")


def variant(workload: str, settings: dict[str, str]) -> str:
    """``workload`` with ``settings`` (property → one value) set: ``online-status[online.structure=hash]``."""
    if not settings:
        return workload
    return f"{workload}[{';'.join(f'{k}={v}' for k, v in settings.items())}]"


def split_variant(text: str) -> tuple[str, dict[str, str]]:
    """``(workload, settings)`` of a variant; a plain workload has no settings."""
    m = _VARIANT.match(text)
    if m is None:
        return text, {}
    pairs = [p.partition("=") for p in m.group("settings").split(";")]
    return m.group("base"), {k: v for k, _, v in pairs}


def variant_name(base_name: str, settings: dict[str, str]) -> str:
    """How run ids and tables name a variant of the workload file ``base_name``: its values after it
    (``online-status-hash``), each made of letters, digits, ``_`` and ``-`` (a run id is dotted)."""
    if not settings:
        return base_name
    return "-".join([base_name, *(re.sub(r"[^A-Za-z0-9_-]", "_", v) for v in settings.values())])


def variant_label(settings: dict[str, str]) -> str:
    """A variant's values as a legend says them: ``hash``, ``hash, 100``."""
    return ", ".join(settings.values())


# Sweep axes whose variants are a study's tests, compared across stores rather than within one (the many-store
# study: ``media.operation=byid,…,update``): the report's many-store section shows them, not "Variants of the
# sweep axis".
TEST_AXES = ("media.operation",)


def test_of(settings: dict[str, str]) -> str | None:
    """The study test a variant is (``text``), or None for another variant or a plain workload."""
    for key in TEST_AXES:
        if key in settings:
            return settings[key]
    return None

"""The operations the engine would issue, printed like YCSB's ``BasicDB`` with ``basicdb.verbose``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ycsbctl.errors import UserError
from ycsbctl.workload.core import (
    ALL_FIELDS,
    INSERT,
    OP_NAMES,
    READ,
    READ_MODIFY_WRITE,
    SCAN,
    UPDATE,
    CoreWorkload,
)
from ycsbctl.workload.generators import LoadGenerator, RunGenerator
from ycsbctl.workload.integrity import deterministic_value
from ycsbctl.workload.plugin import Workload

_BATCH = 4096


def _fields(w: CoreWorkload, field: int, rmw: bool = False) -> str:
    if field == ALL_FIELDS and w.dataintegrity and not rmw:  # YCSB names every field to check a READ
        return "".join(n.decode() + " " for n in w.field_names)
    if field == ALL_FIELDS:
        return "<all fields>"  # BasicDB prints "[ <all fields>]": no space before "]"
    return w.field_names[field].decode() + " "


def _written(w: CoreWorkload, gen: LoadGenerator | RunGenerator, key: str, field: int) -> str:
    """BasicDB's ``name=value `` pairs of an insert (``ALL_FIELDS``) or update: the values the
    engine would write (YCSB's deterministic ones with ``dataintegrity``)."""
    pairs = gen.field_values(field)
    if w.dataintegrity:
        kb = key.encode()
        pairs = [(n, deterministic_value(kb, n, w.fieldlength)) for n, _ in pairs]
    return "".join(f"{n.decode()}={v.decode('latin-1')} " for n, v in pairs)


def dry_run_lines(w: CoreWorkload, phase: str, count: int | None = None, seed: int | None = None,
                  values: bool = False) -> Iterator[str]:
    """One line per database call, spaced as BasicDB prints them (values left out unless ``values``):
    ``INSERT usertable user… [ field0 … field9 ]``, ``READ … [ <all fields>]``, ``UPDATE … [ field3 ]``,
    ``SCAN usertable user… 57 [ <all fields>]`` (a read-modify-write is
    its READ line then its UPDATE line). With ``values``, inserts and updates print
    ``[ field0=<value> … ]`` as BasicDB does."""
    rng = np.random.default_rng(seed)
    if phase == "load":
        total = w.load_operations if count is None else min(count, w.load_operations)
        gen: LoadGenerator | RunGenerator = LoadGenerator(w, rng, w.insertstart, total)
    else:
        if count is None and w.operationcount is None:
            raise UserError("property operationcount is required for the run phase (or pass --count N)")
        total = (w.operationcount or 0) if count is None else count
        gen = RunGenerator(w, rng)
    all_names = "".join(n.decode() + " " for n in w.field_names)
    table = w.table
    done = 0
    while done < total:
        b = gen.next_batch(min(_BATCH, total - done))
        # In a run that inserts, zip reads keys[i] (and so chooses operation i's key against the
        # acknowledged limit) only after operation i−1 was printed and acknowledged, as the engine.
        for op, key, keynum, rf, wf, sl in zip(b.ops, b.keys, b.keynums, b.read_field, b.write_field, b.scan_length):
            k = key.decode()
            if values and op in (INSERT, UPDATE, READ_MODIFY_WRITE):
                written = _written(w, gen, k, ALL_FIELDS if op == INSERT else wf)
                if op == READ_MODIFY_WRITE:
                    yield f"READ {table} {k} [ {_fields(w, rf, rmw=True)}]"
                    yield f"UPDATE {table} {k} [ {written}]"
                else:
                    yield f"{OP_NAMES[op]} {table} {k} [ {written}]"
                if op == INSERT and isinstance(gen, RunGenerator):
                    gen.inserts.acknowledge(keynum)
            elif op == INSERT:
                yield f"INSERT {table} {k} [ {all_names}]"
                if isinstance(gen, RunGenerator):
                    gen.inserts.acknowledge(keynum)  # keeps the latest-key limit moving
            elif op == READ:
                yield f"READ {table} {k} [ {_fields(w, rf)}]"
            elif op == UPDATE:
                yield f"UPDATE {table} {k} [ {all_names if wf == ALL_FIELDS else _fields(w, wf)}]"
            elif op == SCAN:
                yield f"SCAN {table} {k} {sl} [ {_fields(w, rf)}]"
            elif op == READ_MODIFY_WRITE:
                yield f"READ {table} {k} [ {_fields(w, rf, rmw=True)}]"
                yield f"UPDATE {table} {k} [ {all_names if wf == ALL_FIELDS else _fields(w, wf)}]"
        done += len(b)


def plugin_dry_run_lines(w: Workload, phase: str, count: int | None, seed: int | None) -> Iterator[str]:
    """A workload plug-in's operations, one per line: its operation's name and argument (what its
    executor is handed), ``count`` of them (default: the phase's operation count)."""
    names = w.operation_names
    block = (0, w.load_operations) if phase == "load" else None
    src = w.source(phase, np.random.default_rng(seed), 0, 1, None, block)
    left = count if count is not None else (w.load_operations if phase == "load" else w.operationcount or 0)
    while left > 0:
        b = src.next_batch(min(left, _BATCH))
        if not len(b):
            return
        for op, arg in zip(b.ops, b.args):
            yield f"{names[op]} {arg}"
        left -= len(b)

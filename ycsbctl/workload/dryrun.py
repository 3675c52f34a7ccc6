"""The operations the engine would issue, printed like YCSB's ``BasicDB`` with ``basicdb.verbose``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ycsbctl.errors import UserError
from ycsbctl.workload.core import (
    ALL_FIELDS,
    INSERT,
    READ,
    READ_MODIFY_WRITE,
    SCAN,
    UPDATE,
    CoreWorkload,
    LoadGenerator,
    RunGenerator,
)

_BATCH = 4096
# The acknowledged-insert limit moves only between batches. With run-phase inserts, batches of 4096
# made keys inserted during the run measurably rarer than in YCSB's own stream (workloade, 10^5 ops:
# chi-square p 0.0004–0.06 against YCSB); batches of 256 give p 0.5–0.9 and cost ~0.2 µs per op.
_BATCH_WITH_INSERTS = 256


def _fields(w: CoreWorkload, field: int) -> str:
    if field == ALL_FIELDS:
        return "<all fields>"  # BasicDB prints "[ <all fields>]": no space before "]"
    return w.field_names[field].decode() + " "


def dry_run_lines(w: CoreWorkload, phase: str, count: int | None = None, seed: int | None = None) -> Iterator[str]:
    """One line per database call, spaced as BasicDB prints them (values left out):
    ``INSERT usertable user… [ field0 … field9 ]``, ``READ … [ <all fields>]``, ``UPDATE … [ field3 ]``,
    ``SCAN usertable user… 57 [ <all fields>]`` (a read-modify-write is
    its READ line then its UPDATE line)."""
    rng = np.random.default_rng(seed)
    if phase == "load":
        total = w.load_operations if count is None else min(count, w.load_operations)
        gen: LoadGenerator | RunGenerator = LoadGenerator(w, rng, w.insertstart, total)
    else:
        if count is None and w.operationcount is None:
            raise UserError("property operationcount is required for the run phase (or pass --count N)")
        total = w.operationcount if count is None else count
        gen = RunGenerator(w, rng)
    all_names = "".join(n.decode() + " " for n in w.field_names)
    table = w.table
    batch = _BATCH_WITH_INSERTS if isinstance(gen, RunGenerator) and not w.insert_only and any(
        op == INSERT for op, _ in w.proportions) else _BATCH
    done = 0
    while done < total:
        b = gen.next_batch(min(batch, total - done))
        for op, keynum, key, rf, wf, sl in zip(b.ops, b.keynums, b.keys, b.read_field, b.write_field, b.scan_length):
            k = key.decode()
            if op == INSERT:
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
                yield f"READ {table} {k} [ {_fields(w, rf)}]"
                yield f"UPDATE {table} {k} [ {all_names if wf == ALL_FIELDS else _fields(w, wf)}]"
        done += len(b)

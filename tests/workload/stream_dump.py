"""Prints, as JSON, the operations the workload generators make for a fixed set of workloads and seeds:
every operation's code, key, key number, fields, scan length and the field values it writes, in
order. ``test_native_streams`` runs it twice, once forced onto the pure-Python path
(``YCSBCTL_PURE_PYTHON=1``) and once on the compiled one, and compares the two op for op.

    python tests/workload/stream_dump.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl import native  # noqa: E402
from ycsbctl.workload.core import ALL_FIELDS, INSERT, READ_MODIFY_WRITE, UPDATE, CoreWorkload  # noqa: E402
from ycsbctl.workload.generators import LoadGenerator, RunGenerator  # noqa: E402
from ycsbctl.workload.properties import Properties  # noqa: E402

OPERATIONS = 3000  # three batches of 1,024 and part of a fourth
BASE = {"recordcount": "2000", "operationcount": "3000", "fieldcount": "3", "fieldlength": "12"}
# Every request distribution, with and without run-phase inserts (keys chosen at issue time then),
# hashed and ordered, zero padding, scans, one-field reads and writes, variable field lengths.
CASES: dict[str, dict[str, str]] = {
    **{f"{dist}": {"requestdistribution": dist, "readproportion": "0.5", "updateproportion": "0.3",
                   "scanproportion": "0.1", "readmodifywriteproportion": "0.1"}
       for dist in ("uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")},
    **{f"{dist}+inserts": {"requestdistribution": dist, "readproportion": "0.6", "updateproportion": "0.2",
                           "insertproportion": "0.2"}
       for dist in ("uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")},
    "zipfian ordered padded one-field": {"requestdistribution": "zipfian", "insertorder": "ordered",
                                         "zeropadding": "12", "readallfields": "false", "writeallfields": "false",
                                         "readproportion": "0.5", "updateproportion": "0.5"},
    "uniform scans zipfian lengths": {"scanproportion": "1", "readproportion": "0",
                                      "scanlengthdistribution": "zipfian", "maxscanlength": "50",
                                      "fieldlengthdistribution": "uniform"},
}
SEEDS = (1, 7)


def _values(gen: RunGenerator | LoadGenerator, op: int, write_field: int) -> list[str]:
    if op == INSERT:
        return [v.decode("latin-1") for v in gen.values_only(ALL_FIELDS)]
    if op in (UPDATE, READ_MODIFY_WRITE):
        return [v.decode("latin-1") for v in gen.values_only(write_field)]
    return []


def run_stream(props: dict[str, str], seed: int) -> list[list]:
    """The run phase's first :data:`OPERATIONS` operations, inserts acknowledged as they are issued."""
    w = CoreWorkload.from_properties(Properties({**BASE, **props}))
    gen = RunGenerator(w, np.random.default_rng([seed, 0]))
    out: list[list] = []
    while len(out) < OPERATIONS:
        b = gen.next_batch(1024)
        for i in range(len(b)):
            op, key, num = b.ops[i], b.keys[i], b.keynums[i]
            out.append([op, key.decode(), int(num), b.read_field[i], b.write_field[i], b.scan_length[i],
                        _values(gen, op, b.write_field[i])])
            if op == INSERT:
                gen.inserts.acknowledge(num)
    return out[:OPERATIONS]


def load_stream(props: dict[str, str], seed: int) -> list[list]:
    """A load block's inserts (keys in insert order, and their values)."""
    w = CoreWorkload.from_properties(Properties({**BASE, **props}))
    gen = LoadGenerator(w, np.random.default_rng([seed, 0]), w.insertstart, 1500)
    out: list[list] = []
    while True:
        b = gen.next_batch(512)
        if not len(b):
            return out
        out += [[b.ops[i], b.keys[i].decode(), int(b.keynums[i]), _values(gen, b.ops[i], b.write_field[i])]
                for i in range(len(b))]


def main() -> None:
    streams = {f"run {name} seed {seed}": run_stream(props, seed) for name, props in CASES.items() for seed in SEEDS}
    for name, props in (("load hashed", {}), ("load ordered padded", {"insertorder": "ordered", "zeropadding": "9"})):
        streams[name] = load_stream(props, 3)
    json.dump({"path": native.active_path(), "streams": streams}, sys.stdout)


if __name__ == "__main__":
    main()

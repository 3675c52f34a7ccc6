"""What a target given by URL holds, checked once before anything starts (no server started, no folder made): a
server the user runs is never loaded unless the plan says so, and is never emptied by ``ycsbctl load``, so two
plans measure the wrong thing on it unless they are refused here, in one line (exit 2):

- ``ycsbctl load`` into a URL that already holds records this load inserts, on a store whose insert of a held key
  does not simply replace the record (:attr:`~ycsbctl.stores.base.ServerProtocol.insert_overwrites`): ClickHouse
  kept both rows (2,000 rows for 1,000 keys, the load read ``ok``); the stores that refuse such an insert failed the
  load after it began. Asked of the store's own binding: a READ of keys spread over the load's range.
- a plan that reads a URL target it does not load (no ``--load``) where the target holds no record at all: every
  read would be of a missing key (a URL beside catalogue targets is not loaded while they are; media-items failed
  with "status 1 (None)"). A target holding some records is said by :mod:`ycsbctl.experiment.dataset` as before.

Not with ``--cluster``: the client hosts reach a target as they do (a loopback URL is refused by the cluster engine
for what it is), and the controller may not reach it at all.
"""

from __future__ import annotations

import asyncio

from ycsbctl.errors import UserError
from ycsbctl.experiment.study import Case, Study, Target
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.urls import redact_url
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.keys import build_key_name

SAMPLED_KEYS = 16  # keys of the load's range read before it starts: first, last and evenly between
ASK_S = 10.0  # the most the binding may take to connect, and each read (s)
HELD = ("already holds records this load inserts: empty it, or measure what it holds (ycsbctl run without "
        "--load), or load with ycsbctl run --load, which empties it first")


def check_url_datasets(study: Study) -> None:
    """Raise :class:`UserError` (exit 2) for a URL target of ``study`` that a ``ycsbctl load`` would load twice, or
    that its run-phase points would read empty (module docstring); silent when the server cannot be asked (the
    points then say why in their own words)."""
    plan = study.plan
    if plan.cluster:
        return
    for target in study.targets:
        if target.url is None or target.store.engine_only:
            continue
        if plan.phase == "load":
            for case in study.cases:
                _refuse_held(target, target.url, case)
        elif not target.loads:
            _refuse_empty(target, target.url, study.cases)


def sampled_keys(case: Case) -> list[bytes]:
    """Up to :data:`SAMPLED_KEYS` keys of the records ``case``'s load inserts (YCSB's key names of
    ``insertstart`` … ``insertstart + insertcount − 1``: the first, the last and evenly between); [] for none."""
    w = case.built
    if not isinstance(w, CorePlugin) or w.core.insertcount <= 0:
        return []
    first, count = w.core.insertstart, w.core.insertcount
    n = min(SAMPLED_KEYS, count)
    nums = sorted({first + (i * (count - 1)) // max(1, n - 1) for i in range(n)})
    return [build_key_name(k, w.core.ordered, w.core.zeropadding).encode() for k in nums]


def _refuse_held(target: Target, url: str, case: Case) -> None:
    if target.store.insert_overwrites:  # a second load replaces each record: its count stays one per key
        return
    keys = sampled_keys(case)
    held = asyncio.run(held_keys(url, dict(case.properties), case.table, keys)) if keys else None
    if held:
        raise UserError(f"{redact_url(url)} {HELD} ({len(held)} of {len(keys)} keys read across its range are there, "
                        f"{held[0].decode()} among them)")


async def held_keys(url: str, properties: dict[str, str], table: str, keys: list[bytes]) -> list[bytes] | None:
    """Which of ``keys`` the store at ``url`` holds, read through its own binding (one connection, READ each: OK is
    held); None when it cannot be asked (unreachable, too slow): the load then says why itself."""
    from ycsbctl.stores.registry import open_bindings

    try:
        bs = await asyncio.wait_for(open_bindings(url, 1, properties, ASK_S), ASK_S)
    except UserError:
        raise  # a binding property the store refuses: one line now, as the load would say it
    except Exception:  # noqa: BLE001 - unreachable, refused, too slow: the load itself says why, in the store's words
        return None
    try:
        b = bs.bindings[0]
        return [key for key in keys if await asyncio.wait_for(b.read(table, key, None), ASK_S) == Status.OK]
    except (ConnectionLost, OSError, asyncio.TimeoutError):
        return None
    finally:
        await bs.close()


def _refuse_empty(target: Target, url: str, cases: tuple[Case, ...]) -> None:
    from ycsbctl.experiment.dataset import records_held

    reader = next((c for c in cases if c.phase == "run" and c.built.counts_records and not c.built.insert_only), None)
    if reader is None or not reader.built.load_operations:  # its dataset's load would store nothing (recordcount=0)
        return
    table = reader.built.dataset_table or reader.table
    if records_held(target.store, url, table) == 0:
        where = "" if table == "usertable" else f" in {table}"
        raise UserError(f"{redact_url(url)} holds no records{where} and the plan reads them without loading it (a "
                        "target given by URL is loaded only with --load): run with --load, which loads every target "
                        "(emptying it first), or load it once with ycsbctl load")

"""YCSB's CoreWorkload: its properties, validated and typed (:class:`CoreWorkload`), the operation
codes, and YCSB's split of an operation count over threads. The operation streams drawn from it are
:mod:`ycsbctl.workload.generators`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ycsbctl.errors import UserError
from ycsbctl.results.names import OPERATIONS, VERIFY_NAME
from ycsbctl.workload.properties import Properties, read_proportions

if TYPE_CHECKING:  # numpy's import (distributions) waits for a workload that runs: bad input is refused without it
    from ycsbctl.workload import distributions as d

READ, UPDATE, INSERT, SCAN, READ_MODIFY_WRITE, DELETE, VERIFY = range(7)
# VERIFY is a measurement, not an operation: dataintegrity's check of each read (see engine/verifying_binding.py).
OP_NAMES = (*OPERATIONS, VERIFY_NAME)  # by op code
_PROPORTION_KEYS = (
    (READ, "readproportion", 0.95),
    (UPDATE, "updateproportion", 0.05),
    (INSERT, "insertproportion", 0.0),
    (SCAN, "scanproportion", 0.0),
    (READ_MODIFY_WRITE, "readmodifywriteproportion", 0.0),
)
REQUEST_DISTRIBUTIONS = ("uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
LENGTH_DISTRIBUTIONS = ("constant", "uniform", "zipfian", "histogram")
INT_MAX = 2**31 - 1
ALL_FIELDS = -1


def _field_lengths(p: Properties) -> tuple[str, tuple[int, tuple[int, ...]] | None]:
    """``fieldlengthdistribution``, and with ``histogram`` the file ``fieldlengthhistogram`` names, read:
    (block size, counts)."""
    fld = p.get("fieldlengthdistribution", "constant").strip().lower()
    if fld not in LENGTH_DISTRIBUTIONS:
        raise UserError(f"unknown fieldlengthdistribution {fld!r}: use constant, uniform, zipfian or histogram")
    histogram = None
    if fld == "histogram":
        from ycsbctl.workload.distributions import read_histogram_file

        try:
            histogram = read_histogram_file(p.get("fieldlengthhistogram", "hist.txt"))
        except ValueError as exc:
            raise UserError(f"{exc}: fix the file named by fieldlengthhistogram") from None
    return fld, histogram


def _insert_range(p: Properties, recordcount: int) -> tuple[int, int, bool]:
    """The key numbers a load inserts: (``insertstart``, ``insertcount``, whether ``insertcount`` was given;
    else it is the rest of the ``recordcount`` key space), checked to lie inside that key space."""
    insertstart = p.get_int("insertstart", 0)
    insertcount_given = p.get("insertcount", "") != ""
    insertcount = p.get_int("insertcount", 0) if insertcount_given else recordcount - insertstart
    if insertstart < 0 or insertcount < 0:
        raise UserError("insertstart and insertcount must be ≥ 0")
    if insertstart + insertcount > recordcount:
        raise UserError(
            f"insertstart + insertcount ({insertstart} + {insertcount}) > recordcount ({recordcount}): "
            "lower insertcount or raise recordcount"
        )
    return insertstart, insertcount, insertcount_given


@dataclass(frozen=True)
class CoreWorkload:
    """CoreWorkload's settings (ycsb-semantics.md §1), with YCSB's defaults."""

    recordcount: int = 0
    operationcount: int | None = None
    table: str = "usertable"
    fieldcount: int = 10
    fieldlength: int = 100
    minfieldlength: int = 1
    fieldlengthdistribution: str = "constant"
    readallfields: bool = True
    writeallfields: bool = False
    proportions: tuple[tuple[int, float], ...] = ((READ, 0.95), (UPDATE, 0.05))
    requestdistribution: str = "uniform"
    minscanlength: int = 1
    maxscanlength: int = 1000
    scanlengthdistribution: str = "uniform"
    ordered: bool = False
    insertstart: int = 0
    insertcount: int = 0
    insertcount_given: bool = False
    zeropadding: int = 1
    hotspotdatafraction: float = 0.2
    hotspotopnfraction: float = 0.8
    exponential_percentile: float = 95.0
    exponential_frac: float = 0.8571428571
    insertion_retry_limit: int = 0
    insertion_retry_interval_s: int = 3
    field_names: tuple[bytes, ...] = field(default_factory=tuple)
    dataintegrity: bool = False
    histogram: tuple[int, tuple[int, ...]] | None = None  # fieldlengthhistogram: (block size, counts)
    recordcount_property: int | None = None  # recordcount as given (0 → no load inserts, as YCSB's Client)

    @classmethod
    def from_properties(cls, p: Properties) -> CoreWorkload:
        """Validate and build; every problem is a :class:`UserError` naming the property."""
        recordcount_property = p.get_int("recordcount", 0)
        recordcount = recordcount_property or INT_MAX  # CoreWorkload's key space; the load count is the property's
        opcount = p.get_optional_int("operationcount")
        props = read_proportions(p, _PROPORTION_KEYS)
        if not props:
            raise UserError(
                "the operation proportions sum to 0: set readproportion, updateproportion, insertproportion, "
                "scanproportion or readmodifywriteproportion"
            )
        dist = p.get("requestdistribution", "uniform").strip().lower()
        if dist not in REQUEST_DISTRIBUTIONS:
            raise UserError(f"unknown requestdistribution {dist!r}: use one of {', '.join(REQUEST_DISTRIBUTIONS)}")
        order = p.get("insertorder", "hashed").strip().lower()
        if order not in ("hashed", "ordered"):
            raise UserError(f"unknown insertorder {order!r}: use hashed or ordered")
        fld, histogram = _field_lengths(p)
        sld = p.get("scanlengthdistribution", "uniform").strip().lower()
        if sld not in ("uniform", "zipfian"):
            raise UserError(f"unknown scanlengthdistribution {sld!r}: use uniform or zipfian")
        dataintegrity = p.get_bool("dataintegrity", False)
        if dataintegrity and fld != "constant":
            raise UserError("dataintegrity=true needs fieldlengthdistribution=constant (as YCSB: values are checked "
                            "whole)")
        insertstart, insertcount, insertcount_given = _insert_range(p, recordcount)
        fieldcount = p.get_int("fieldcount", 10)
        fieldlength = p.get_int("fieldlength", 100)
        minfieldlength = p.get_int("minfieldlength", 1)
        minscan, maxscan = p.get_int("minscanlength", 1), p.get_int("maxscanlength", 1000)
        if fieldcount < 1 or fieldlength < 1 or minfieldlength < 1 or minfieldlength > fieldlength:
            raise UserError("need fieldcount ≥ 1 and 1 ≤ minfieldlength ≤ fieldlength")
        if minscan < 1 or maxscan < minscan:
            raise UserError("need 1 ≤ minscanlength ≤ maxscanlength")
        if dist == "zipfian" and opcount is None and any(op == INSERT for op, _ in props):
            raise UserError("property operationcount is required with requestdistribution=zipfian (add -p "
                            "operationcount=N)")
        prefix = p.get("fieldnameprefix", "field")
        hot_data = p.get_float("hotspotdatafraction", 0.2)
        hot_ops = p.get_float("hotspotopnfraction", 0.8)
        if not (0 <= hot_data <= 1 and 0 <= hot_ops <= 1):
            raise UserError("hotspotdatafraction and hotspotopnfraction must be between 0 and 1")
        return cls(
            recordcount=recordcount,
            operationcount=opcount,
            table=p.get("table", "usertable"),
            fieldcount=fieldcount,
            fieldlength=fieldlength,
            minfieldlength=minfieldlength,
            fieldlengthdistribution=fld,
            readallfields=p.get_bool("readallfields", True),
            writeallfields=p.get_bool("writeallfields", False),
            proportions=tuple(props),
            requestdistribution=dist,
            minscanlength=minscan,
            maxscanlength=maxscan,
            scanlengthdistribution=sld,
            ordered=order == "ordered",
            insertstart=insertstart,
            insertcount=insertcount,
            insertcount_given=insertcount_given,
            zeropadding=p.get_int("zeropadding", 1),
            hotspotdatafraction=hot_data,
            hotspotopnfraction=hot_ops,
            exponential_percentile=p.get_float("exponential.percentile", 95.0),
            exponential_frac=p.get_float("exponential.frac", 0.8571428571),
            insertion_retry_limit=p.get_int("core_workload_insertion_retry_limit", 0),
            insertion_retry_interval_s=p.get_int("core_workload_insertion_retry_interval", 3),
            field_names=tuple(f"{prefix}{i}".encode() for i in range(fieldcount)),
            dataintegrity=dataintegrity,
            histogram=histogram,
            recordcount_property=recordcount_property,
        )

    # -- counts ---------------------------------------------------------------------------

    @property
    def load_operations(self) -> int:
        """Inserts of the load phase: ``insertcount`` when given, else the ``recordcount`` property as
        given (YCSB's Client): ``recordcount=0`` loads nothing, though CoreWorkload then treats the
        key space as 2^31−1 records."""
        if self.insertcount_given:
            return self.insertcount
        return self.recordcount if self.recordcount_property is None else self.recordcount_property

    @property
    def expected_new_keys(self) -> int:
        """YCSB's ``(int) (operationcount · insertproportion · 2.0)``, with the raw (not normalised)
        insertproportion, as CoreWorkload reads it."""
        ins = dict(self.proportions).get(INSERT, 0.0)
        return int((self.operationcount or 0) * ins * 2.0)

    @property
    def insert_only(self) -> bool:
        """True for a workload that only inserts (``insert``): it measures the load itself."""
        return all(op == INSERT for op, _ in self.proportions)

    def field_lengths(self) -> d.Constant | d.Uniform | d.Zipfian | d.Histogram:
        from ycsbctl.workload import distributions as d

        if self.histogram is not None:
            return d.Histogram(*self.histogram)
        if self.fieldlengthdistribution == "uniform":
            return d.Uniform(self.minfieldlength, self.fieldlength)
        if self.fieldlengthdistribution == "zipfian":
            return d.Zipfian(self.minfieldlength, self.fieldlength)
        return d.Constant(self.fieldlength)


def proportion_hint(p: Properties) -> str | None:
    """One warning when the operation proportions do not sum to 1: YCSB normalises them silently
    (each is its share of the sum), which is rarely what the user meant (``readproportion=0.9
    updateproportion=0.9`` is 50 % reads)."""
    given = [(key, op, p.get_float(key, default)) for op, key, default in _PROPORTION_KEYS]
    if any(v < 0 for _, _, v in given):  # refused by from_properties, with its own line
        return None
    given = [(key, op, v) for key, op, v in given if v > 0]
    total = sum(v for _, _, v in given)
    if not given or abs(total - 1.0) <= 1e-6:
        return None
    names = {READ: "READ", UPDATE: "UPDATE", INSERT: "INSERT", SCAN: "SCAN", READ_MODIFY_WRITE: "READ-MODIFY-WRITE"}
    shares = ", ".join(f"{names[op]} {v / total:.0%}" for _, op, v in given)
    props = ", ".join(f"{key}={v:g}" for key, _, v in given)
    return (f"warning: the operation proportions sum to {total:g} ({props}); YCSB normalises them, so each is its "
            f"share of the sum: {shares}")


def split_count(total: int, parts: int) -> list[int]:
    """YCSB's split of ``total`` operations over ``parts`` threads: total//parts, +1 for the first total%parts."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def process_blocks(total: int, threads_per_process: list[int]) -> list[tuple[int, int]]:
    """``(first, count)`` of each worker process when ``total`` load operations are split over the threads as
    YCSB splits them (:func:`split_count`), each process taking its threads' shares in turn."""
    per_thread = split_count(total, sum(threads_per_process))
    blocks, first, t = [], 0, 0
    for n in threads_per_process:
        count = sum(per_thread[t:t + n])
        blocks.append((first, count))
        first, t = first + count, t + n
    return blocks

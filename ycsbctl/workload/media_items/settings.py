"""The media-items study's settings, from YCSB-style properties (``-p media.…``): which operations a point
measures, the paging and sort of its queries, the data set's seed, and how answers are checked."""

from __future__ import annotations

from dataclasses import dataclass

from ycsbctl.errors import UserError
from ycsbctl.workload.media_items.contract import MediaSettings
from ycsbctl.workload.media_items.ops import GET_BY_ID, STUDY_NAMES, UPDATE
from ycsbctl.workload.properties import Properties, read_proportions

SORTS = ("id", "none")


@dataclass(frozen=True)
class Settings:
    """One point's study settings (units: items, queries)."""

    records: int
    operationcount: int | None
    mix: tuple[tuple[int, float], ...]  # (op code, proportion > 0)
    seed: int  # the data set's (items and query pools): media.seed
    year_gt: int  # QUERY-1COND / 2COND: year > this (the study: 2010)
    limit: int  # items per page (the study: 10)
    offset: int  # the page's first item (the study: 0)
    sort: str  # "id": ORDER BY id (the default: one page every store must agree on); "none": the study's
    total: bool  # the timed queries count their matches too (the study's did not)
    distinct_queries: int  # queries per kind drawn from the seed, each answered by the truth once
    checks: int  # queries per kind (and items) checked with their totals before each point
    checked: bool  # every timed answer compared with the truth
    store: MediaSettings

    @property
    def ops(self) -> list[int]:
        return [op for op, _ in self.mix]

    @classmethod
    def read(cls, p: Properties) -> Settings:
        # a list is a sweep axis (one variant per test); read whole, as the workload file alone is, its first
        operation = p.get("media.operation", "byid").split(",")[0].strip().lower()
        if operation == "mix":
            mix = read_proportions(p, [(code, f"media.{name}proportion", 0.0) for name, code in STUDY_NAMES.items()])
            if not mix:
                raise UserError("media.operation=mix: set at least one media.<op>proportion > 0 (byid, 1cond, 2cond, "
                                "text, text_prefix, update), e.g. -p media.byidproportion=0.9 -p "
                                "media.updateproportion=0.1")
        elif operation in STUDY_NAMES:
            mix = [(STUDY_NAMES[operation], 1.0)]
        else:
            raise UserError(f"media.operation={operation!r}: use one of {', '.join(STUDY_NAMES)} (the study's tests), "
                            "a list of them (a sweep: one point each), or mix with media.<op>proportion")
        sort = p.get("media.sort", "id").strip().lower()
        if sort not in SORTS:
            raise UserError(f"media.sort={sort!r}: use id (ORDER BY id, the default) or none (the "
                            "study's queries, no order)")
        check = p.get("media.check", "on").strip().lower()
        if check not in ("on", "off"):
            raise UserError(f"media.check={check!r}: use on (every answer compared with the truth) or off")
        ops = {op for op, _ in mix}
        if check == "on" and UPDATE in ops and ops - {UPDATE, GET_BY_ID}:
            raise UserError("a media-items mix with update and queries changes the answers it checks: measure them as "
                            "separate points (media.operation=…,update), or set media.check=off to run the mix "
                            "unchecked")
        records = p.get_int("recordcount", 100_000)
        limit, offset = p.get_int("media.limit", 10), p.get_int("media.offset", 0)
        batch = p.get_int("media.batchsize", 100)
        distinct, checks = p.get_int("media.queries", 2000), p.get_int("media.checks", 10)
        if records < 1 or limit < 1 or offset < 0 or batch < 1 or distinct < 1 or checks < 0:
            raise UserError("media-items needs recordcount, media.limit, media.batchsize, media.queries ≥ 1 and "
                            "media.offset, media.checks ≥ 0")
        ops_count = p.get_optional_int("operationcount")
        extra = {k[len("media."):]: v for k, v in p.items() if k.count(".") >= 2 and k.startswith("media.")}
        return cls(records, ops_count, tuple(mix), p.get_int("media.seed", 1), p.get_int("media.year", 2010), limit,
                   offset, sort, p.get_bool("media.total", False), distinct, min(checks, distinct), check == "on",
                   MediaSettings(p.get("table", "items"), batch, tuple(op for op, _ in mix), extra))

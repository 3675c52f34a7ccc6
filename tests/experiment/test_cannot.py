"""A cell a target's store cannot do is refused with the plug-in's reason, on the server that runs it: the
media-items study's text test on Redis (no full-text search), on MongoDB only when FerretDB stands in for it
(its $text is missing there); a workload that refuses no cell is never asked, and a store that can run every
test of the point is no refusal (None, not an empty reason)."""

from __future__ import annotations

from ycsbctl.experiment.cannot import cannot_line, refusal
from ycsbctl.results.schema import CannotCell
from ycsbctl.stores.registry import all_protocols
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.media_items.workload import MediaItems
from ycsbctl.workload.properties import Properties, load_properties


def _media(operation: str) -> MediaItems:
    """The study with one test (``text``, ``byid``…): the smallest that still draws its queries."""
    all_protocols()  # the stores' executors register as the registry loads them
    return MediaItems.from_properties(Properties({"recordcount": "200", "media.operation": operation,
                                                 "media.queries": "5", "media.checks": "5"}))


def test_the_text_test_on_redis_is_refused_with_the_plug_ins_reason() -> None:
    why = refusal(_media("text"), "redis", "redis", 50, 10.0)
    assert why == "FULLTEXT: Redis has no full-text search (RediSearch is a module these servers do not load)"
    assert refusal(_media("text"), "redis", None, 50, 10.0) == why  # a URL: its server is the user's, still Redis


def test_a_refusal_depends_on_the_server_that_runs_the_protocol() -> None:
    assert refusal(_media("text"), "mongodb", None, 50, 10.0) is None  # MongoDB itself has $text
    assert refusal(_media("text"), "mongodb", "mongodb", 50, 10.0) is None
    assert "FULLTEXT" in (refusal(_media("text"), "mongodb", "ferretdb", 50, 10.0) or "")


def test_a_store_that_can_run_the_point_is_no_refusal() -> None:
    assert refusal(_media("byid"), "redis", "redis", 50, 10.0) is None  # not "": the cell runs
    assert refusal(_media("text"), "sqlite", None, 50, 10.0) is None


def test_a_workload_that_refuses_no_cell_is_never_a_cell_refusal() -> None:
    """CoreWorkload on a protocol it has no binding for says so through its own ``refusal`` — the plan is
    refused elsewhere (``require_executor``); here, no cell is."""
    core = CorePlugin.from_properties(Properties(load_properties("workload-b")))
    assert core.refusal("no-such-protocol") is not None
    assert refusal(core, "no-such-protocol", None, 50, 10.0) is None


def test_a_refused_cell_is_one_line_naming_target_workload_and_reason() -> None:
    line = cannot_line(CannotCell("redis", "media-items-text", "FULLTEXT: Redis has no full-text search"))
    assert line == "redis media-items-text: cannot — FULLTEXT: Redis has no full-text search"


def test_ferretdbs_year_queries_are_refused_before_the_points_at_the_plans_items_connections_and_timeout() -> None:
    """The issue's run: 5,000 items at 50 connections and a 10 s timeout — FerretDB's 1- and 2-condition cells are
    "cannot" in the resolved study (no point planned for them), the reason naming the wait against the timeout; the
    same items at 4 connections, or with a 20 s timeout at 50 (the last waits 11 s), are measured."""
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.experiment.resolve import resolve_study

    def cannot(threads: list[int], timeout_s: float = 10.0) -> dict[str, str]:
        plan = Plan(workloads=[f"media-items[media.operation={t}]" for t in ("byid", "1cond", "2cond")],
                    targets=["ferretdb"], threads=threads, timeout_s=timeout_s, records=5000)
        return {c.workload: c.reason for c in resolve_study(plan).cannot}

    at_fifty = cannot([4, 50])  # the ladder's top is the plan's scale
    assert sorted(at_fifty) == ["media-items-1cond", "media-items-2cond"]
    assert "would wait ~11.2 s, past the 10 s operation timeout" in at_fifty["media-items-1cond"]
    assert at_fifty["media-items-2cond"].startswith("QUERY-2COND: FerretDB 1.24")
    assert cannot([4]) == {} and cannot([50], timeout_s=20.0) == {}
    assert refusal(_media("1cond"), "mongodb", "ferretdb", 50, 10.0) is None  # 200 items: 0.45 s for the last

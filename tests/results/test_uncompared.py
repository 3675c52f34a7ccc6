"""Why nothing (or a target) was compared: the points left out are counted per cause — never one group
per percentage that a host-busy point's reason carries — on real folders whose points are all host-busy,
hold one point, or failed, and on runs tables made by hand."""

from __future__ import annotations

import pandas as pd

from ycsbctl.results.causes import by_cause, cause, counts_text
from ycsbctl.results.frames import load
from ycsbctl.results.verdicts import baseline_of, cost_verdicts, uncompared


def _runs() -> pd.DataFrame:
    rows = []
    for target, ops in (("redis", (10000, 10400, 9800)), ("redis-tls", (7000, 7100, 6900))):
        for rep in range(3):
            rows.append({"workload": "workloadb", "target": target, "threads": 16, "phase": "run", "status": "ok",
                         "repetition": rep, "target_rate": None, "throughput_ops": float(ops[rep]),
                         "server_cpu_pct_mean": 90.0, "client_us_per_op": 14.0, "all_p99_us": 500.0})
    return pd.DataFrame(rows)


def _busy(runs: pd.DataFrame) -> pd.DataFrame:
    """Every point host-busy, each with its own share of foreign CPU in its reason (as the sampler writes it)."""
    texts = [f"other programs used {40 + 9 * i}% of a core ({(40 + 9 * i) / 200:.0%} of the host's 2 cores, above 10%) "
             f"during the point: python {40 + 9 * i}%" for i in range(len(runs))]
    return runs.assign(status="degraded", bottleneck="host-busy", error=texts)


def test_host_busy_points_of_every_percentage_are_one_cause() -> None:
    runs = _busy(_runs())
    assert runs["error"].nunique() == len(runs)  # six different percentages ...
    assert uncompared(runs, "redis") == [  # ... one group
        "No target was compared with redis: of the 6 measured points of redis and redis-tls, 6 degraded (host busy: "
        "other programs used CPU); only ok points (and host-busy ones of rounds that interleave the targets) are "
        "compared, so there is no verdict and no cost table; run again in rounds that pair the targets (--order "
        "alternate, the default with several targets, or interleaved: host-busy points are compared there), or when "
        "the host is quiet."]
    assert uncompared(_runs(), "redis") == []  # every point ok: nothing to explain


def test_a_host_busy_point_is_named_by_what_kept_the_host_busy_even_after_a_stall_said_first() -> None:
    """The stall begins the reason, but the point's label is host-busy: its cause is the busy host's, never the
    stall (which is not one of the host-busy causes)."""
    said = (
        "no reply for 2.0 s, from 1.0 s into the point; other programs used 44% of a core (22% of the host's 2 cores)"
    )
    assert cause("degraded", "host-busy", said) == "host busy: other programs used CPU"
    assert cause("degraded", None, said) == "no reply (stall)"



def test_a_host_busy_point_whose_reason_is_the_hypervisors_steal_is_named_by_the_steal(monkeypatch) -> None:
    """The hypervisor's steal makes a point host-busy as other programs' CPU does (docs/guide/why.md): a host-busy
    point whose reason is the steal clause, as telemetry/why.py writes it (after a stall said first), is counted under
    the steal, never under a bare "host busy" nor the stall."""
    from ycsbctl.telemetry.why import foreign_busy

    monkeypatch.setenv("YCSBCTL_HOST_BUSY_SHARE", "0.10")
    steal = foreign_busy({"evidence": {"host_cores": 2, "host": {"foreign_pct": 0.0, "host_steal_pct": 30.0}}})
    assert steal is not None and steal.startswith("the hypervisor gave 30% of a core")
    said = f"no reply for 2.0 s, from 1.0 s into the point; {steal}"
    assert cause("degraded", "host-busy", said) == "host busy: the hypervisor took CPU (steal)"
    assert cause("degraded", None, said) == "no reply (stall)"

def test_points_the_runs_table_marks_compared_are_not_explained() -> None:
    """A folder with the ``compared`` column (host-busy points of interleaved rounds are compared) reads it."""
    assert uncompared(_busy(_runs()).assign(compared=True), "redis") == []
    half = _busy(_runs()).assign(compared=lambda r: r["target"] == "redis")
    assert uncompared(half, "redis")[0].startswith("No target was compared with redis: of the 6 measured points of "
                                                   "redis and redis-tls, 3 degraded (host busy: other programs used "
                                                   "CPU)")


def test_causes_are_counted_most_first_with_failures_beside_degraded_points() -> None:
    runs = _busy(_runs())
    runs.loc[runs.index[:2], ["status", "bottleneck", "error"]] = ["failed", None,
                                                                   "timed out after 2.0 s waiting for a reply"]
    runs.loc[runs.index[2], ["bottleneck", "error"]] = ["stall",
                                                        "no reply for 11.9 s, from 7.0 s into the measured window"]
    assert by_cause(runs) == [("degraded", "host busy: other programs used CPU", 3), ("failed", "timed out", 2),
                              ("degraded", "no reply (stall)", 1)]


def test_a_reason_of_a_server_or_driver_is_cut_at_its_first_figure_or_parenthesis() -> None:
    assert cause("failed", None, "ServerSelectionTimeoutError: 127.0.0.1:27017: [Errno 111] Connection refused") == \
        "ServerSelectionTimeoutError"
    assert cause("failed", None, "ConnectionLost: reset (by peer)") == "ConnectionLost: reset"
    assert cause("failed", None, "12 workers exited") == "N workers exited"  # a figure first: figures replaced
    # words too few to name a cause before the first figure (under 3 characters): the clause, figures replaced
    assert cause("failed", None, "at 12.5 s the store closed; retried 3 times") == "at N s the store closed"
    assert cause("failed", None, "EOF at 12.5 s") == "EOF at"
    assert cause("failed", None, None) == ""
    assert cause("failed", None, "RuntimeError: no route to mongodb://10.0.0.1:27017/ycsb") == \
        "RuntimeError: no route to"  # a URL is an address, not a cause: never "…mongodb://"
    assert cause("degraded", "host-busy", "another benchmark ran on this host meanwhile (pid 7: ycsbctl)") == \
        "host busy: another benchmark"


def test_a_three_character_clause_before_a_figure_names_the_cause_and_groups_the_figures() -> None:
    # 3 characters are enough to name a cause (the rule above: under 3, the clause with figures replaced): "EOF",
    # cut before its figure or parenthesis whichever comes first, so that two such reasons are one group
    runs = pd.DataFrame({"status": "failed", "error": ["EOF 12 bytes into a reply", "EOF (0 bytes read)"]})
    assert [cause("failed", None, e) for e in runs["error"]] == ["EOF", "EOF"]
    assert by_cause(runs) == [("failed", "EOF", 2)]


def test_a_target_whose_points_all_failed_is_named_and_the_others_compared() -> None:
    runs = pd.concat([_runs(), _runs().query("target == 'redis-tls'").assign(target="redis-aof", status="failed",
                                                                               error="ConnectionLost: reset")])
    assert set(cost_verdicts(runs, "redis")["target"]) == {"redis-tls"}
    assert uncompared(runs, "redis") == [
        "redis-aof was not compared with redis: of the 6 measured points of redis and redis-aof, 3 failed "
        "(ConnectionLost: reset); only ok points (and host-busy ones of rounds that interleave the targets) are "
        "compared."]


def test_uncompared_needs_only_the_five_columns_it_names_and_says_nothing_without_one() -> None:
    runs = pd.DataFrame({"workload": "w", "target": ["redis", "redis", "redis-aof", "redis-aof"],
                         "threads": [8, 16, 8, 16],
                         "phase": "run", "status": ["ok", "ok", "failed", "failed"]})
    assert uncompared(runs, "redis")[0].startswith(
        "No target was compared with redis: of the 4 measured points of redis and redis-aof, 2 failed; only ok points")
    assert uncompared(runs.drop(columns="phase"), "redis") == []


def test_a_real_all_host_busy_folder_has_one_cause(reader_folders) -> None:
    exp = load(reader_folders["busy"])
    sweep = exp.runs[exp.runs["phase"] == "run"]
    assert set(sweep["bottleneck"]) == {"host-busy"}
    lines = uncompared(exp.runs, baseline_of(exp.manifest.plan, exp.runs))
    assert len(lines) == 1
    assert f"of the {len(sweep)} measured points" in lines[0]
    assert f", {len(sweep)} degraded (host busy: other programs used CPU);" in lines[0]
    assert "% of a core" not in lines[0]


def test_a_real_one_point_folder_has_nothing_to_explain(reader_folders) -> None:
    exp = load(reader_folders["one"])
    assert len(exp.runs) == 1 and uncompared(exp.runs, baseline_of(exp.manifest.plan, exp.runs)) == []


def test_a_real_folder_whose_target_failed_counts_its_failures(reader_folders) -> None:
    exp = load(reader_folders["failed"])
    failed = exp.runs[exp.runs["status"] == "failed"]
    assert len(failed) == 2 and failed["target"].nunique() == 1
    lines = uncompared(exp.runs, baseline_of(exp.manifest.plan, exp.runs))
    assert lines == ["No target was compared with basic: of the 4 measured points of basic and "
                     f"{failed['target'].iloc[0]}, "
                     "2 failed (errors above --max-error-rate); only ok points (and host-busy ones of rounds that "
                     "interleave the targets) are compared, so there is no verdict and no cost table."]


def test_an_alternated_sessions_lost_and_unreachable_targets_are_named_by_what_happened_not_cut_at_their_url() -> None:
    """The reasons a sweep writes when a server you run dies mid-session (the engine's words, as the campaign of
    29 Nov read them): grouped as "lost the server" and "could not connect", whichever address they name; was
    "cannot run against redis://", one group per address."""
    lost = ("lost the server (connection closed by the server); reconnecting failed: cannot connect to "
            "127.0.0.1:43985: [Errno 111] Connection refused")
    alone = ("cannot run against redis://127.0.0.1:43985: cannot connect to 127.0.0.1:43985: [Errno 111] Connection "
             "refused")
    partner = ("cannot run against an alternated target: cannot connect to 127.0.0.1:46989: [Errno 111] Connection "
               "refused (alternated target 2: redis://127.0.0.1:46989)")
    assert [cause("failed", None, x) for x in (lost, alone, partner)] == [
        "lost the server", "could not connect", "could not connect"]
    rows = pd.DataFrame({"status": ["failed"] * 3, "error": [alone, alone.replace("43985", "43986"), lost]})
    assert counts_text(rows) == "2 failed (could not connect), 1 failed (lost the server)"

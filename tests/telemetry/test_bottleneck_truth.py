"""Bottleneck labels at and just below each documented threshold (docs/guide/result-folder.md: client and server CPU
≥ 90 % of the cores each may use, client + server ≥ 90 % of the host, network ≥ 70 % of iperf3)."""

from __future__ import annotations

import pytest

from ycsbctl.telemetry.bottleneck import classify

pytestmark = pytest.mark.truth

BELOW = 0.01  # % of a core (or Gbit/s) under the line


def _label(**kw) -> str:
    figures = {"server_cpu_pct": 10.0, "server_cores": 1.0, "client_cpu_pct": 10.0, "client_cores": 1.0,
               "host_cores": 16.0, "net_gbit_s": None, "baseline_gbit_s": None}
    figures.update(kw)
    return classify(**figures).label


@pytest.mark.parametrize("cores", [1.0, 2.0, 4.0])
def test_client_cpu_starts_at_90_percent_of_the_workers_cores(cores):
    line = 90.0 * cores
    assert _label(client_cpu_pct=line, client_cores=cores) == "client-cpu"
    assert _label(client_cpu_pct=line - BELOW, client_cores=cores) == "latency"


@pytest.mark.parametrize("cores", [1.0, 2.0, 4.0])
def test_server_cpu_starts_at_90_percent_of_what_the_server_can_use(cores):
    line = 90.0 * cores
    assert _label(server_cpu_pct=line, server_cores=cores) == "server-cpu"
    assert _label(server_cpu_pct=line - BELOW, server_cores=cores) == "latency"


def test_host_cpu_starts_when_client_and_server_together_use_90_percent_of_the_host():
    # Two cores: server 100 % of its 2, client 80 % of its 2 — neither at its own line, together 180 % of 200 %.
    at = classify(server_cpu_pct=100.0, server_cores=2, client_cpu_pct=80.0, client_cores=2, host_cores=2)
    assert at.label == "host-cpu" and at.evidence["host_cpu_saturated"] is True
    below = classify(server_cpu_pct=100.0, server_cores=2, client_cpu_pct=80.0 - BELOW, client_cores=2,
                     host_cores=2)
    assert below.label == "latency" and below.evidence["host_cpu_saturated"] is False


@pytest.mark.parametrize("baseline", [1.0, 2.5, 40.0])
def test_network_starts_at_70_percent_of_the_iperf3_baseline(baseline):
    line = 0.7 * baseline
    assert _label(net_gbit_s=line, baseline_gbit_s=baseline) == "network"
    assert _label(net_gbit_s=line - BELOW * baseline / 100, baseline_gbit_s=baseline) == "latency"


def test_figures_in_the_evidence_are_the_shares_of_the_lines():
    b = classify(server_cpu_pct=45.0, server_cores=1, client_cpu_pct=60.0, client_cores=2, host_cores=4,
                 net_gbit_s=0.35, baseline_gbit_s=1.0)
    assert b.label == "latency"
    assert b.evidence["server_share"] == 0.45 and b.evidence["client_share"] == 0.3
    assert b.evidence["host_share"] == round(105 / 400, 3) and b.evidence["net_share"] == 0.35
    assert "server 45% of 100%" in b.text and "client 60% of 200%" in b.text and "network 35% of baseline" in b.text


def test_each_label_says_its_figures_in_percent_of_one_core():
    assert classify(server_cpu_pct=95.0, server_cores=1, client_cpu_pct=40.0, client_cores=2,
                    host_cores=16).text == "server CPU: 95% of the 100% it can use"
    assert classify(server_cpu_pct=40.0, server_cores=1, client_cpu_pct=190.0, client_cores=2,
                    host_cores=16).text == "client CPU: workers use 190% of 200%"
    assert classify(server_cpu_pct=110.0, server_cores=2, client_cpu_pct=75.0, client_cores=2,
                    host_cores=2).text == ("host CPU: client (75%) and server (110%) share 2 cores and use 185% of "
                                           "200%; neither reached its own limit, so this is the host's limit, not "
                                           "the server's")
    assert classify(server_cpu_pct=185.0, server_cores=4, client_cpu_pct=None, client_cores=None,
                    host_cores=2).text.startswith("host CPU: client (0%) and server (185%) share 2 cores")
    assert classify(server_cpu_pct=10.0, server_cores=1, client_cpu_pct=10.0, client_cores=1, host_cores=16,
                    net_gbit_s=0.8, baseline_gbit_s=1.0).text == \
        "network: 0.800 Gbit/s of the 1.000 Gbit/s iperf3 baseline (80%)"


def test_evidence_keeps_cpu_to_a_tenth_and_network_to_a_thousandth():
    ev = classify(server_cpu_pct=95.44, server_cores=1, client_cpu_pct=12.36, client_cores=1, host_cores=16,
                  net_gbit_s=0.12345, baseline_gbit_s=2.34567).evidence
    assert (ev["server_cpu_pct"], ev["client_cpu_pct"]) == (95.4, 12.4)
    assert (ev["net_gbit_s"], ev["baseline_gbit_s"], ev["net_share"]) == (0.123, 2.346, 0.053)


def test_a_baseline_without_traffic_figures_or_traffic_without_a_baseline_is_no_network_share():
    for net, base in ((None, 1.0), (0.9, None), (0.9, 0.0)):
        b = classify(server_cpu_pct=10.0, server_cores=1, client_cpu_pct=10.0, client_cores=1, host_cores=16,
                     net_gbit_s=net, baseline_gbit_s=base)
        assert b.label == "latency" and b.evidence["net_share"] is None and "network" not in b.text


def test_a_saturated_client_names_a_server_at_its_own_line_and_a_saturated_host():
    b = classify(server_cpu_pct=90.0, server_cores=1, client_cpu_pct=95.0, client_cores=1, host_cores=2)
    assert b.text == ("client CPU: workers use 95% of 100%; the server is at 90% too, but with the client saturated "
                      "this is not its limit; host CPU saturated: client + server use 185% of 200%")
    below = classify(server_cpu_pct=90.0 - BELOW, server_cores=1, client_cpu_pct=95.0, client_cores=1, host_cores=4)
    assert below.text == "client CPU: workers use 95% of 100%"


def test_an_idle_server_adds_nothing_to_the_hosts_share():
    b = classify(server_cpu_pct=0.0, server_cores=1, client_cpu_pct=50.0, client_cores=1, host_cores=1)
    assert b.evidence["host_share"] == 0.5 and b.label == "latency"


def test_a_server_without_a_client_figure_is_the_hosts_whole_share():
    b = classify(server_cpu_pct=45.0, server_cores=1, client_cpu_pct=None, client_cores=None, host_cores=1)
    assert b.evidence["host_share"] == 0.45 and b.label == "latency"


@pytest.mark.parametrize("side", ["server", "client"])
def test_a_side_its_cpu_quota_held_back_in_half_the_periods_is_saturated(side):
    # 60 % of its cores (a quota spent in 5 ms slices per core shows less than all of it), throttled
    # in half of the quota's periods: saturated; just below half: not.
    assert _label(**{f"{side}_cpu_pct": 60.0, f"{side}_throttled_pct": 50.0}) == f"{side}-cpu"
    assert _label(**{f"{side}_cpu_pct": 60.0, f"{side}_throttled_pct": 50.0 - BELOW}) == "latency"
    figures = {"server_cpu_pct": 10.0, "server_cores": 0.5, "client_cpu_pct": 10.0, "client_cores": 0.5,
               "host_cores": 16, f"{side}_cpu_pct": 40.0, f"{side}_throttled_pct": 96.04}
    b = classify(**figures)
    assert b.evidence[f"{side}_throttled_pct"] == 96.0
    assert b.text.endswith("its CPU quota held it back in 96% of the periods")


def test_a_side_without_a_quota_is_judged_by_its_cpu_alone():
    b = classify(server_cpu_pct=95.0, server_cores=1, client_cpu_pct=40.0, client_cores=1, host_cores=16)
    assert b.label == "server-cpu" and b.evidence["server_throttled_pct"] is None and "quota" not in b.text


def test_shares_keep_three_decimals():
    ev = classify(server_cpu_pct=45.67, server_cores=1, client_cpu_pct=12.34, client_cores=1, host_cores=4,
                  net_gbit_s=0.4567, baseline_gbit_s=1.0).evidence
    assert (ev["server_share"], ev["client_share"], ev["host_share"], ev["net_share"]) == (0.457, 0.123, 0.145, 0.457)


def test_a_missing_figure_gives_no_share_of_its_own():
    # no client CPU figure but worker cores known; no server CPU figure but host cores known
    b = classify(server_cpu_pct=None, server_cores=1, client_cpu_pct=None, client_cores=2, host_cores=2)
    assert b.evidence["client_share"] is None and b.evidence["server_share"] is None
    assert b.evidence["host_share"] is None and b.label == "latency"
    assert classify(server_cpu_pct=None, server_cores=1, client_cpu_pct=50.0, client_cores=1,
                    host_cores=1).evidence["host_share"] is None


def test_a_latency_text_gives_each_sides_cores_in_percent_of_one():
    b = classify(server_cpu_pct=45.0, server_cores=2, client_cpu_pct=60.0, client_cores=4, host_cores=16)
    assert b.text == "latency: no resource saturated (server 45% of 200%, client 60% of 400%)"


def test_a_server_cpu_text_gives_every_core_the_server_can_use():
    # mongod at 370 % of one core with 4 cores to use: 370 % of 400 %, not of 100 %.
    assert classify(server_cpu_pct=370.0, server_cores=4, client_cpu_pct=100.0, client_cores=4,
                    host_cores=16).text == "server CPU: 370% of the 400% it can use"

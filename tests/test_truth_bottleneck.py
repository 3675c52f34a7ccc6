"""Bottleneck labels at and just below each documented threshold (README: client and server CPU
≥ 90 % of the cores each may use, client + server ≥ 90 % of the host, network ≥ 70 % of iperf3)."""

from __future__ import annotations

import pytest

from ycsbctl.telemetry.bottleneck import classify

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

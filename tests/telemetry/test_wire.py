"""The wire sampler (telemetry/wire.py): ``ss``'s output read per connection, the wire's growth per
connection, the smallest round trips, and the bytes this process sent counted."""

from __future__ import annotations

import pytest


def test_a_counter_ss_leaves_out_is_zero():
    from ycsbctl.telemetry.wire import parse_ss

    # ss prints a counter only when it is not 0: a connection that sent nothing shows no bytes_sent nor segs_out
    text = (b"ESTAB 0 0 127.0.0.1:50000 127.0.0.1:6379\n\t cubic rtt:0.1/0.05 minrtt:0.02 segs_in:3 bytes_received:42\n"
            b"ESTAB 0 0 127.0.0.1:50002 127.0.0.1:6379\n\t cubic bytes_sent:120 segs_out:4\n")
    assert parse_ss(text) == {(b"127.0.0.1:50000", b"127.0.0.1:6379"): (0, 42, 0, 3),
                              (b"127.0.0.1:50002", b"127.0.0.1:6379"): (120, 0, 4, 0)}


def test_the_wire_grows_by_each_connections_change_and_a_new_one_on_an_old_pair_counts_from_zero():
    from ycsbctl.telemetry.wire import grown, parse_ss, wire_row

    def ss(*conns: tuple[int, str]) -> bytes:
        return b"".join(f"ESTAB 0 0 127.0.0.1:{port} 127.0.0.1:6379\n\t cubic {counters}\n".encode()
                        for port, counters in conns)

    before = parse_ss(ss((50000, "bytes_sent:1000 bytes_received:5000 segs_out:10 segs_in:20"),
                         (50002, "bytes_sent:700 bytes_received:300 segs_out:7 segs_in:3"),  # closes
                         # closes, pair used again
                         (50004, "bytes_sent:9000 bytes_received:9000 segs_out:90 segs_in:90")))
    now = parse_ss(ss((50000, "bytes_sent:1300 bytes_received:5400 segs_out:13 segs_in:24"),  # +300 +400 +3 +4
                      (50004, "bytes_sent:50 bytes_received:9020 segs_out:2 segs_in:92"),  # a new one: all of it
                      (50006, "bytes_sent:11 bytes_received:22 segs_out:1 segs_in:2")))  # born since: all of it
    assert grown(before, now) == [300 + 50 + 11, 400 + 9020 + 22, 3 + 2 + 1, 4 + 92 + 2]
    assert grown(now, now) == [0, 0, 0, 0] and grown({}, now) == [1361, 14442, 16, 118]
    # per second over the interval: bytes both ways, segments both ways
    assert wire_row([300, 400, 3, 4], 2.0, 5, 0.05) == {"wire_bytes_per_s": 350.0, "wire_packets_per_s": 3.5,
                                                       "wire_connections": 5, "wire_minrtt_ms": 0.05}


def test_the_wire_minrtt_is_the_mean_of_the_connections_smallest_round_trips(tmp_path):
    """Three connections whose smallest round trips are 0.02, 0.04 and 0.24 ms (as ``ss`` prints them, read
    by the sampler through its own child process): 0.1 ms, their mean — not the smallest (0.02) nor the
    middle one (0.04)."""
    import statistics

    from ycsbctl.telemetry.wire import WireSampler

    text = "".join(f"ESTAB 0 0 127.0.0.1:{5000 + i} 127.0.0.1:6379\n\t cubic rtt:0.3/0.1 minrtt:{m} bytes_sent:{i}\n"
                   for i, m in enumerate(("0.02", "0.04", "0.24")))
    (tmp_path / "ss.out").write_text(text)
    ss = tmp_path / "ss"
    ss.write_text(f"#!/bin/sh\ncat {tmp_path / 'ss.out'}\n")
    ss.chmod(0o755)
    sampler = WireSampler([6379])
    sampler._ss = str(ss)  # the output of ss with these three connections open, every time it is asked
    sampler.prime()
    row = sampler.sample()
    assert row["wire_minrtt_ms"] == pytest.approx(statistics.mean([0.02, 0.04, 0.24])) == pytest.approx(0.1)
    assert row["wire_connections"] == 3


def test_the_wire_sampler_counts_the_bytes_this_process_sent_to_the_port_and_reaps_ss():
    """A loopback listener; after the priming, 10,000 bytes sent to it on one connection and 500 out, 300
    back on one opened since: the sampler's bytes per second times its own interval are those 10,800 (the
    listener's side, whose source port it is, not counted), and each ``ss`` it ran is reaped with its CPU
    counted."""
    import resource
    import socket

    import psutil

    from ycsbctl.telemetry.wire import WireSampler

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            peer, _ = server.accept()
            with peer:
                sampler = WireSampler([port], interval_s=1.0)
                sampler.prime()
                t0 = sampler._t_last
                client.sendall(b"x" * 10_000)
                got = 0
                while got < 10_000:
                    got += len(peer.recv(65536))
                # a second connection born after the priming counts from zero: 500 bytes out, 300 back
                with socket.create_connection(("127.0.0.1", port)) as late:
                    other, _ = server.accept()
                    with other:
                        late.sendall(b"y" * 500)
                        got = 0
                        while got < 500:
                            got += len(other.recv(65536))
                        other.sendall(b"z" * 300)
                        got = 0
                        while got < 300:
                            got += len(late.recv(65536))
                        row = sampler.sample()
                elapsed = sampler._t_last - t0
                assert round(row["wire_bytes_per_s"] * elapsed) == 10_000 + 500 + 300
                packets = row["wire_packets_per_s"] * elapsed  # a whole number of segments, at least one each way
                assert abs(packets - round(packets)) < 1e-6 and round(packets) >= 4
                assert row["wire_connections"] == 2
    assert sampler.child_cpu_s > 0
    # the two ss runs' CPU, user and system, as the kernel counts this process's reaped children (each figure
    # cut to the µs: a µs or two apart)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert abs(sampler.child_cpu_s - reaped) < 1e-5, (sampler.child_cpu_s, reaped)
    assert not [p for p in psutil.Process().children() if p.status() == psutil.STATUS_ZOMBIE]


def test_ss_output_is_read_per_connection_and_an_absent_counter_is_zero():
    from ycsbctl.telemetry.wire import min_rtts_ms, parse_ss
    text = (b"0      0      127.0.0.1:58874 127.0.0.1:6379\n"
            b"\t bbr wscale:10,10 rtt:0.027/0.015 bytes_sent:100 bytes_acked:101 bytes_received:7 segs_out:3 "
            b"segs_in:2 data_segs_out:1 minrtt:0.006\n"
            b"0      0      127.0.0.1:58880 127.0.0.1:6379\n"
            b"\tcubic rtt:0.5/0.2 segs_out:1 segs_in:1 minrtt:0.25\n")  # nothing sent nor received yet
    assert parse_ss(text) == {(b"127.0.0.1:58874", b"127.0.0.1:6379"): (100, 7, 3, 2),
                              (b"127.0.0.1:58880", b"127.0.0.1:6379"): (0, 0, 1, 1)}
    assert min_rtts_ms(text) == [0.006, 0.25]


def test_ss_output_cut_inside_a_connections_line_leaves_that_connection_out():
    """ss killed (or its pipe read) mid-line: a last line of one field, then its counters, names no connection."""
    from ycsbctl.telemetry.wire import parse_ss
    whole = b"0      0      127.0.0.1:58874 127.0.0.1:6379\n\t bytes_sent:100 bytes_received:7 segs_out:3 segs_in:2\n"
    assert parse_ss(whole + b"0\n\t bytes_sent:5 segs_out:1\n") == parse_ss(whole) == {
        (b"127.0.0.1:58874", b"127.0.0.1:6379"): (100, 7, 3, 2)}

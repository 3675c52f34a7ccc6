"""What Dask's own log lines look like on ycsbctl's stderr once a client is connected
(ycsbctl/engine/dask_client.py): the lines a lost scheduler makes are left out or lose their
traceback, whichever thread logs them and whenever; Dask's errors keep theirs."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from ycsbctl.engine.dask_client import _quiet_dask_logs


@pytest.fixture
def dask_stderr() -> Iterator[io.StringIO]:
    """Dask's stderr handler as a command line process has it (importing distributed installs it on
    the ``distributed`` logger, not propagating; under pytest, whose handlers are on the root logger
    first, Dask installs none), writing to a buffer for the test."""
    pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install 'ycsbctl[cluster]')")
    dask = logging.getLogger("distributed")
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    handler.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
    saved = dask.handlers, dask.propagate, dask.level
    dask.handlers, dask.propagate = [handler], False
    dask.setLevel(logging.INFO)
    try:
        _quiet_dask_logs()
        yield buf
    finally:
        dask.handlers, dask.propagate = saved[0], saved[1]
        dask.setLevel(saved[2])


def _logged_with_traceback(logger: str, level: int, message: str) -> None:
    try:
        raise ConnectionResetError("the scheduler closed the connection")
    except ConnectionResetError:
        logging.getLogger(logger).log(level, message, exc_info=True)


def test_dasks_lines_below_error_keep_their_message_without_the_traceback(dask_stderr: io.StringIO) -> None:
    _logged_with_traceback("distributed.comm.tcp", logging.INFO, "Connection closed")
    _logged_with_traceback("distributed.client", logging.WARNING, "Connection to scheduler broken")
    lines = dask_stderr.getvalue().splitlines()
    assert [line.split(" - ", 1)[1] for line in lines] == ["distributed.comm.tcp - INFO - Connection closed",
                                                          "distributed.client - WARNING - Connection to scheduler "
                                                          "broken"]


def test_dasks_errors_keep_their_traceback_but_giving_up_reconnecting_is_left_out(dask_stderr: io.StringIO) -> None:
    _logged_with_traceback("distributed.worker", logging.ERROR, "Worker failed")
    _logged_with_traceback("distributed.client", logging.ERROR, "Failed to reconnect to scheduler after 30 s")
    _logged_with_traceback("distributed.batched", logging.INFO, "Batched Comm Closed")
    text = dask_stderr.getvalue()
    assert "Worker failed" in text and "Traceback (most recent call last)" in text and "ConnectionResetError" in text
    assert "Failed to reconnect" not in text and "Batched Comm Closed" not in text


def test_a_reconnecting_cancelled_at_exit_is_left_out_and_other_cancels_kept(dask_stderr: io.StringIO) -> None:
    import asyncio

    for logger in ("distributed.client", "distributed.worker"):
        try:
            raise asyncio.CancelledError()
        except asyncio.CancelledError:
            logging.getLogger(logger).error("", exc_info=True)  # as Dask's log_errors logs a cancelled _reconnect
    text = dask_stderr.getvalue()
    assert text.count(" - ERROR - ") == 1 and "distributed.worker - ERROR" in text and "CancelledError" in text
    assert "distributed.client" not in text

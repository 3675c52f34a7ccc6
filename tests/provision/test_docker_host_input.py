"""``--docker-host`` naming an engine that does not answer: one line, the exit code of "Docker does not
answer" (1), and no warning about plain TCP (said only to an engine that answers). The port is on
loopback, where nothing listens."""

from __future__ import annotations

import subprocess

from tests.fixtures.cli import CLI


def test_an_engine_that_does_not_answer_is_one_line_and_exit_1(tmp_path) -> None:
    r = subprocess.run([*CLI, "up", "redis", "--docker-host", "tcp://127.0.0.1:1"], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 1
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: Docker does not answer at tcp://127.0.0.1:1") and "Traceback" not in r.stderr

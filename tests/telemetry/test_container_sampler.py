"""The container sampler (telemetry/container.py) without a Docker engine: one stats document leaves the
caller's client open, and a sampler that never started closes."""

from __future__ import annotations


class _Engine:
    """A docker client's two parts one_shot uses: ``api.stats`` and ``close``."""

    def __init__(self) -> None:
        self.api, self.closed = self, False

    def stats(self, container_id: str, stream: bool, one_shot: bool) -> dict:
        return {"id": container_id, "stream": stream, "one_shot": one_shot}

    def close(self) -> None:
        self.closed = True


def test_one_stats_document_leaves_the_callers_client_open_and_a_sampler_closes_before_it_started():
    from ycsbctl.telemetry.container import ContainerSampler, one_shot

    engine = _Engine()
    assert one_shot("c1", client=engine) == {"id": "c1", "stream": False, "one_shot": True}
    assert not engine.closed  # the caller's: it goes on using it
    ContainerSampler("c1").close()  # nothing opened yet: nothing to close, no error

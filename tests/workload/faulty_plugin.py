"""A workload plug-in that fails on purpose, for the fault suite (``-p workload=tests.workload.faulty_plugin:Faulty``):
``faulty.mode`` = ``constructor`` (its from_properties raises), ``executor`` (its executor() raises when
asked for one), ``source`` (its source(), called in each worker, raises), ``raise`` (its executor raises on
the 100th operation), ``status`` (its executor returns 7, no status), ``shape`` (it calls the binding with a
wrong shape: ``resp(b"PING")``, not ``resp((b"PING",))``), ``opcodes`` (its op_codes name no operation of its own),
``badcode`` (its source's third batch holds op code 5, none of its operations'), ``prepare`` (its prepare()
returns 42, not a str), ``hang`` (its 100th call never returns) or ``ok`` (PINGs, every one OK).
:class:`AlternatingFaulty` is the same, saying its operations can alternate targets."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import numpy as np

from ycsbctl.workload.plugin import OK, Executor, PluginBatch, Workload
from ycsbctl.workload.properties import Properties


class _Source:
    def __init__(self, mode: str) -> None:
        self.mode, self.batches = mode, 0

    def next_batch(self, n: int) -> PluginBatch:
        self.batches += 1
        return PluginBatch([5 if self.mode == "badcode" and self.batches >= 3 else 0] * n, [None] * n)

    def batch_steps(self, n: int) -> Generator[None, None, PluginBatch]:
        yield
        return self.next_batch(n)


class Faulty(Workload):
    """One operation, ``PING``, on Redis; fails as ``faulty.mode`` says."""

    operation_names = ("PING",)

    def __init__(self, mode: str) -> None:
        self.mode, self.calls = mode, 0

    @classmethod
    def from_properties(cls, p: Properties) -> Faulty:
        mode = p.get("faulty.mode", "ok")
        if mode == "constructor":
            raise RuntimeError("the faulty plug-in refuses to be built")
        return cls(mode)

    @property
    def load_operations(self) -> int:
        return 0

    def load_blocks(self, threads_per_process: list[int]) -> list[tuple[int, int]]:
        return [(0, 0) for _ in threads_per_process]

    def op_codes(self, phase: str) -> list[int]:
        return [1] if self.mode == "opcodes" else [0]

    def source(self, phase: str, rng: np.random.Generator, process: int, processes: int,
               acked: Any = None, load_block: tuple[int, int] | None = None) -> _Source:
        if self.mode == "source":
            raise ValueError("the faulty plug-in's source")
        return _Source(self.mode)

    def executor(self, protocol: str) -> Executor[Any] | None:
        if self.mode == "executor":
            raise TypeError("the faulty plug-in's executor factory")
        if protocol != "redis":
            return None

        async def ping(binding: Any, op: int, arg: Any) -> int:
            self.calls += 1
            if self.mode == "raise" and self.calls >= 100:
                raise KeyError("the faulty plug-in's bug")
            if self.mode == "status" and self.calls >= 100:
                return 7
            if self.mode == "hang" and self.calls >= 100:
                await asyncio.sleep(3600)  # an await of its own, with no timeout
            await binding.resp(b"PING" if self.mode == "shape" else (b"PING",))
            return OK

        return ping

    async def prepare(self, executor: Any, binding: Any, phase: str) -> Any:
        return 42 if self.mode == "prepare" else None


class StrNames(Faulty):
    """Its operation_names a str, not a tuple of them."""

    operation_names = "PING"  # type: ignore[assignment]


class AlternatingFaulty(Faulty):
    """:class:`Faulty` that says its operations can alternate targets (PINGs stand on their own)."""

    alternates = True

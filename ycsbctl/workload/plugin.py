"""The workload plug-in contract, and ``workload=package.module:Class`` (YCSB's ``workload`` property).

A workload is a class built from YCSB properties that tells the engine, for one phase, which
operations to issue; the engine issues, paces, times and counts them exactly as it does YCSB's
CoreWorkload, so that measurements, telemetry, fidelity checks and reports apply unchanged.
What a workload gives the engine (:class:`Workload`):

- **Its operations' names** (:attr:`Workload.operation_names`), indexed by a small op code
  (0 … 5, and 7 for a seventh; 6 is the engine's VERIFY, 8 and up a read-modify-write's halves). Each
  name is a measurement: ``<NAME>`` for an OK operation, ``<NAME>-FAILED`` otherwise, as YCSB's DBWrapper.
- **Its load phase**: :attr:`Workload.load_operations` operations, split over the worker
  processes by :meth:`Workload.load_blocks` (a block is ``(first, count)`` in the workload's own
  unit: key numbers for CoreWorkload, load operations for online-status); :meth:`Workload.loaded_records`
  turns the OK load operations into records (bytes per record divides by it).
- **Its run phase**: ``operationcount`` (or a duration) and the op codes it may issue
  (:meth:`Workload.op_codes`).
- **Batches**: :meth:`Workload.source` gives each worker process one :class:`OperationSource`
  whose ``batch_steps(n)`` draws the next ``n`` operations in slices (a generator that yields
  between slices of ≤ ~10 µs and returns the batch): the engine prepares the next batch a slice at a
  time between operations, so that no operation in flight waits for a whole batch. A batch is
  :class:`PluginBatch` (op codes and one argument per operation); an empty batch ends the phase.
- **Chains**: a plug-in's operations run on the engine's awaited path (one request in flight per
  client thread, each timed by the engine around one ``await``); only CoreWorkload's READ/UPDATE/
  INSERT are chained from the binding's reply callback (``stores.chain``).
- **Execution per store**: :meth:`Workload.executor` (``protocol`` = the store's name: ``redis``,
  ``mongodb``, ``basic``) returns an :class:`Executor` of that store's binding interface
  (``Executor[RespBinding]`` for ``redis``), ``await executor(binding, op, arg)`` → a
  status (0 OK, 1 NOT_FOUND, 2 ERROR, 3 TIMEOUT: the stores' ``Status``), or None when the workload
  cannot run on that store (refused before anything starts). An executor speaks through the
  binding's generic request method — Redis: ``await binding.resp(*commands)`` → (status, last
  reply); MongoDB: ``await binding.run_command(doc, write)`` → (status, reply document); SQL stores:
  ``await binding.sql(statement, params)`` → (status, rows, rows changed) — so a
  plug-in carries its own per-store code and imports nothing from the engine or the stores. ycsbctl's own
  workloads (media-items, online-status) take theirs from the stores, each in its store's folder and declared
  on its ``ServerProtocol`` (:mod:`ycsbctl.workload.store_executors`).
- **Before the clients start** (optional): :meth:`Workload.prepare` runs once per worker process on its
  first binding, after it connected and outside the measurement (create a table, check answers); what it
  returns fails the point in one line.
- **Alternation** (optional, :attr:`Workload.alternates`): a workload whose run-phase operations stand on their
  own (none depends on what an earlier one stored in one target) may measure a cell's targets in one alternated
  session, each through its own store's executor; :meth:`Workload.alternation_refusal` says why not otherwise.
- **Cells a store cannot do** (optional, :attr:`Workload.refuses_cells`): :meth:`Workload.refusal` says why
  a store cannot run this workload's operations; such a target × workload cell is refused before anything
  starts, said in one line and kept in the manifest (``cannot``), while the target's other cells run.

``workload=`` absent, ``site.ycsb.workloads.CoreWorkload`` or ``ycsbctl.workload.core_plugin:CorePlugin``
is YCSB's CoreWorkload (:class:`~ycsbctl.workload.core_plugin.CorePlugin`, which hands out today's
generators unchanged). Any other value is ``package.module:Class``, imported when the properties
are checked: a class that cannot be imported, or is no :class:`Workload`, is one line, exit 2.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from ycsbctl.errors import UserError, short_error
from ycsbctl.results.names import VERIFY_NAME
from ycsbctl.workload.properties import Properties

if TYPE_CHECKING:  # a type only: checking a command line need not import numpy here
    import numpy as np

YCSB_CORE = "site.ycsb.workloads.CoreWorkload"
CORE_PLUGIN = "ycsbctl.workload.core_plugin:CorePlugin"
MAX_OPERATIONS = 7  # op codes 0..5, then 7: 6 (VERIFY) and 8.. (a read-modify-write's halves) are the engine's
SEVENTH_CODE = 7  # the op code of a plug-in's seventh operation (6 is VERIFY)
# The stores' Status codes, as plain ints (a workload imports nothing from the stores).
OK, NOT_FOUND, ERROR, TIMEOUT = 0, 1, 2, 3


@dataclass
class PluginBatch:
    """``n`` operations of a plug-in workload: op codes and one argument each (whatever the
    workload's executor takes: a key, a list of pairs, …)."""

    ops: list[int]
    args: list[Any]

    def __len__(self) -> int:
        return len(self.ops)


class OperationSource(Protocol):
    """One worker process's operations (all its client threads draw from it)."""

    def next_batch(self, n: int) -> Any: ...

    def batch_steps(self, n: int) -> Generator[None, None, Any]: ...


class RespBinding(Protocol):
    """The binding a ``redis`` executor gets: ``resp(*commands)``, each command a sequence of arguments
    (``resp((b"PING",))``, not ``resp(b"PING")``) → (status, the last reply)."""

    last_error: str | None

    async def resp(self, *commands: Sequence[bytes]) -> tuple[int, object]: ...


class CommandBinding(Protocol):
    """The binding a ``mongodb`` executor gets (ycsbctl's wire binding): ``run_command(cmd, write)`` →
    (status, the reply document or None)."""

    last_error: str | None

    async def run_command(self, cmd: dict, write: bool = False) -> tuple[int, dict | None]: ...


class TextBinding(Protocol):
    """The binding a ``memcached`` executor gets: ``mc(command)`` → (status, (status line, value) or None):
    one text-protocol command (``b"get k\r\n"``); a ``get`` hit answers ``(b"VALUE", data)``."""

    last_error: str | None

    async def mc(self, command: bytes) -> tuple[int, tuple[bytes, bytes | None] | None]: ...


class SqlBinding(Protocol):
    """The binding a SQL store's executor gets (``postgresql``, ``mariadb``, ``sqlite``, whichever driver
    the URL selects): ``sql(statement, params)`` → (status, rows, rows changed or matched). Placeholders
    are the store's own (``$1`` on PostgreSQL, ``?`` on MariaDB and SQLite); a row is a tuple of column
    values as the driver gives them (text as ``str`` or ``bytes``; ``int()`` reads a number from either)."""

    last_error: str | None

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]: ...


# The binding interface an executor is written against (contravariant: an executor that takes any binding
# is an executor for each interface)
B_contra = TypeVar("B_contra", contravariant=True)


class Executor(Protocol[B_contra]):
    """Runs one operation of a plug-in workload on one binding (one connection): → status code.
    ``Executor[RespBinding]`` is an executor for ``redis`` bindings, ``Executor[CommandBinding]`` for
    ``mongodb``, ``Executor[SqlBinding]`` for the SQL stores, ``Executor[TextBinding]`` for ``memcached`` (a
    plug-in may declare its own interface for another store's binding): type an executor's ``binding`` and
    what :meth:`Workload.executor` returns so, and mypy checks the executor's calls and that each store
    gets an executor written for its binding. The engine holds an ``Executor[Any]``: it hands each
    executor the binding of the store it was asked for."""

    async def __call__(self, binding: B_contra, op: int, arg: Any, /) -> int: ...


class Workload(ABC):
    """A workload plug-in (see the module docstring for the contract). Subclasses set
    :attr:`operation_names` and implement the abstract methods."""

    operation_names: ClassVar[tuple[str, ...]] = ()
    # Properties that may take several comma-separated values: each value is a point of a sweep axis.
    axis_properties: ClassVar[tuple[str, ...]] = ()
    # False when the store's record count says nothing about the dataset (one key holds every user):
    # the sweep then does not compare counts before and after its points.
    counts_records: ClassVar[bool] = True
    # True for CoreWorkload only: the engine runs it through the stores' YCSB bindings (read, insert,
    # update, scan, delete, and their chains) instead of an executor.
    builtin_ycsb: ClassVar[bool] = False
    # What a record is, in the user's words (``users`` for online-status): rates per record say it.
    record_unit: ClassVar[str] = "records"
    # True: a store that cannot run this workload's operations (refusal) has that cell refused, not the plan
    refuses_cells: ClassVar[bool] = False
    # The most :meth:`prepare` may take, s (added to the time the engine waits for its workers to connect)
    prepare_s: ClassVar[float] = 0.0
    # The load phase's operation timeout at least this long, s (0: --timeout's), for a load that is not
    # measured (insert_only False) into stores that serialise its writes
    load_timeout_s: ClassVar[float] = 0.0

    # True: its run phase's operations may go to several targets in one alternated session (each target loaded with
    # its own copy of the data, all clients switching target every slice): no operation's argument depends on what
    # an earlier one did to one target (CoreWorkload's run-phase inserts do: a later read picks a key that only the
    # target that took the insert holds). False (the default): measured one target at a time
    alternates: ClassVar[bool] = False

    operationcount: int | None = None  # run phase: operations in all (None/0: until the duration ends)
    insert_only: bool = False  # True: the workload measures its load phase (YCSB's ``insert``)

    @property
    def dataset_table(self) -> str | None:
        """The table (collection, index) its records live in when the workload names its own (media-items'
        ``items``); None: the properties' ``table`` (YCSB's ``usertable``)."""
        return None

    @classmethod
    @abstractmethod
    def from_properties(cls, p: Properties) -> Workload:
        """Validate and build; every bad property is a :class:`UserError` naming the fix."""

    @property
    @abstractmethod
    def load_operations(self) -> int:
        """Operations of the load phase, in all."""

    @abstractmethod
    def load_blocks(self, threads_per_process: list[int]) -> list[tuple[int, int]]:
        """``(first, count)`` of each worker process in the load phase (YCSB's per-thread split,
        grouped by process); ``count`` is in load operations."""

    def loaded_records(self, ok_operations: int) -> int:
        """Records a load of ``ok_operations`` OK operations stored (bytes per record divide by it)."""
        return ok_operations

    def records_per_operation(self) -> dict[str, int]:
        """Records (in :attr:`record_unit`) one OK operation of each kind stores, for the kinds where
        that is not one per operation (online-status: ``BATCH-STORE`` stores ``online.batchsize``
        users); empty when every operation is one record's, as in CoreWorkload."""
        return {}

    @abstractmethod
    def op_codes(self, phase: str) -> list[int]:
        """The op codes ``phase`` (``load`` | ``run``) may issue (what the engine measures)."""

    @abstractmethod
    def source(self, phase: str, rng: np.random.Generator, process: int, processes: int,
               acked: Any = None, load_block: tuple[int, int] | None = None) -> OperationSource:
        """The operations of worker ``process`` of ``processes`` for ``phase`` (``acked``: the
        run-phase insert counter shared by the processes; ``load_block``: from :meth:`load_blocks`)."""

    @abstractmethod
    def executor(self, protocol: str) -> Executor[Any] | None:
        """How a binding of store ``protocol`` executes this workload's operations (None: it cannot); an
        override may say which binding interfaces its executors take (``Executor[RespBinding] | …``)."""

    def check_memory(self, threads: int) -> None:  # noqa: B027 - optional hook
        """Refuse (UserError) a workload whose values cannot fit in this host's memory."""

    def refusal(self, protocol: str, server: str = "", connections: int = 0, timeout_s: float = 0.0) -> str | None:
        """Why store ``protocol`` (a server of kind ``server``, the catalogue's name, "" for a URL) cannot run
        this workload's operations (None: it can); with :attr:`refuses_cells`, the cell is refused rather
        than the plan. ``connections`` (the plan's most client threads) and ``timeout_s`` (its operation timeout,
        s): the plan's scale, for a store that cannot answer only from some scale on (0: not known)."""
        return None if self.executor(protocol) is not None else "it has no binding for it"

    def alternation_refusal(self) -> str | None:
        """Why its run phase cannot alternate between targets in one session (one line), or None: it can
        (:attr:`alternates`; a workload whose answer depends on its properties overrides this)."""
        if self.alternates:
            return None
        return (f"the workload plug-in {type(self).__name__} does not say its operations can alternate targets "
                "(alternates = True: no operation depends on what an earlier one stored in one target)")

    async def prepare(self, executor: Any, binding: Any, phase: str) -> str | None:
        """Once per worker process, on its first connected binding, before the common start and outside the
        measurement (``phase``: load | run): → why the point cannot be measured (it fails, said in one
        line), or None."""
        return None


def class_path(p: Properties) -> str:
    """The ``workload`` property as a ``module:Class`` path (YCSB's CoreWorkload by default)."""
    raw = p.get("workload", "").strip()
    return CORE_PLUGIN if raw in ("", YCSB_CORE) else raw


def workload_class(path: str) -> type[Workload]:
    """The class named by ``package.module:Class``; a one-line :class:`UserError` otherwise."""
    module_name, sep, name = path.partition(":")
    if not sep or not module_name or not name:
        raise UserError(f"workload={path!r}: write workload=package.module:Class (or {YCSB_CORE})")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any failure to import is the user's to fix
        raise UserError(f"workload={path!r}: cannot import {module_name} ({type(exc).__name__}: {exc})") from None
    cls = getattr(module, name, None)
    if not (isinstance(cls, type) and issubclass(cls, Workload)):
        what = "has no class" if cls is None else "has a name that is no ycsbctl workload class:"
        raise UserError(f"workload={path!r}: {module_name} {what} {name} (a subclass of "
                        "ycsbctl.workload.plugin.Workload)")
    names = cls.operation_names
    if isinstance(names, str) or not all(isinstance(n, str) and n for n in names) or len(set(names)) < len(names):
        # a str's letters were measured as operations ("[P], Operations"; fault43g)
        raise UserError(f"workload={path!r}: {name}.operation_names is {names!r}: give its operations' names, "
                        "each once, as a tuple of strings (e.g. (\"PING\",))")
    if not names or len(names) > MAX_OPERATIONS:
        raise UserError(f"workload={path!r}: {name} names {len(names)} operations: a workload has 1 to "
                        f"{MAX_OPERATIONS}")
    return cls


def load_workload(p: Properties) -> Workload:
    """The workload the properties select, built from them (checked: a :class:`UserError` when bad;
    any other exception its constructor raises is one too, naming the plug-in: exit 2)."""
    path = class_path(p)
    cls = workload_class(path)
    try:
        w = cls.from_properties(p)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - a plug-in's bug is said in one line, never a traceback
        raise UserError(f"workload={path!r}: {cls.__name__}.from_properties raised {short_error(exc)}",
                        fix="fix the plug-in or its properties") from None
    if not w.builtin_ycsb:
        _check_op_codes(w, path)
    return w


def _check_op_codes(w: Workload, path: str) -> None:
    """A plug-in's ``op_codes`` of each phase are codes of its operations (its k-th name's code is k, or
    k + 1 from the seventh on: code 6 is VERIFY's): one line, exit 2, before any worker starts."""
    names = type(w).operation_names
    codes = {c: name for c, name in enumerate(_by_code(names)) if name and c != SEVENTH_CODE - 1}  # not VERIFY
    for phase in ("load", "run"):
        try:
            got = list(w.op_codes(phase))
        except Exception as exc:  # noqa: BLE001 - a plug-in's bug is said in one line, never a traceback
            raise UserError(f"workload={path!r}: {type(w).__name__}.op_codes({phase!r}) raised {short_error(exc)}",
                            fix="fix the plug-in") from None
        bad = [c for c in got if not isinstance(c, int) or isinstance(c, bool) or c not in codes]
        if bad:
            raise UserError(f"workload={path!r}: {type(w).__name__}.op_codes({phase!r}) gave {bad[0]!r}, which is "
                            f"no code of its operations ({', '.join(f'{c} {codes[c]}' for c in sorted(codes))})",
                            fix="fix the plug-in") from None


class PluginStore(Protocol):
    """What :func:`require_executor` asks of a store (a ``stores.base.ServerProtocol``): its name, and
    why the binding its executors get cannot be had with some binding properties."""

    name: str

    def plugin_refusal(self, properties: dict[str, str]) -> str | None: ...


def require_executor(w: Workload, store: PluginStore, props: Properties) -> None:
    """A plug-in workload must say how ``store`` executes its operations, with a binding these
    properties allow (before anything starts)."""
    name = type(w).__name__
    try:
        executor = w.executor(store.name)
    except Exception as exc:  # noqa: BLE001 - a plug-in's bug is said in one line, never a traceback
        raise UserError(f"the workload {name}: its executor({store.name!r}) raised {short_error(exc)}",
                        fix="fix the plug-in") from None
    if executor is None:
        raise UserError(f"the workload {name} cannot run on a {store.name} target "
                        f"({w.refusal(store.name) or 'it has no binding for it'}): use a target it supports")
    why = store.plugin_refusal(props)
    if why:
        raise UserError(f"the workload {name} {why}")


def why_not_alternated(w: Workload) -> str | None:
    """``w``'s :meth:`Workload.alternation_refusal`, a plug-in's raise said in one line as a refusal."""
    try:
        return w.alternation_refusal()
    except Exception as exc:  # noqa: BLE001 - a plug-in's bug is said in one line, never a traceback
        return f"the workload plug-in {type(w).__name__}: its alternation_refusal() raised {short_error(exc)}"


def op_names(p: Properties) -> tuple[str, ...]:
    """The measurement names of the workload ``p`` selects, by op code: its first six operations' names,
    then (at code 6) VERIFY, the engine's check of a read (``dataintegrity``), then its seventh (code 7)."""
    return _by_code(workload_class(class_path(p)).operation_names)


def _by_code(names: Sequence[str]) -> tuple[str, ...]:
    """A plug-in's operation ``names`` placed at their op codes: the first six at 0-5, VERIFY at 6, the seventh
    on from 7 (a code no operation has: "")."""
    first = tuple(names[:SEVENTH_CODE - 1])
    return (*first, *("",) * (SEVENTH_CODE - 1 - len(first)), VERIFY_NAME, *names[SEVENTH_CODE - 1:])


def axis_values(p: Properties) -> Sequence[tuple[str, list[str]]]:
    """The sweep axes ``p`` holds: each property the workload lets take several values that has a
    comma in its value, with its values in order."""
    cls = workload_class(class_path(p))
    out = []
    for key in cls.axis_properties:
        raw = p.get(key)
        if raw is not None and "," in raw:
            values = [v.strip() for v in raw.split(",")]
            if any(not v for v in values):
                raise UserError(f"-p {key}={raw!r}: an empty value in the list (write {key}=a,b,c)")
            out.append((key, list(dict.fromkeys(values))))
    return out

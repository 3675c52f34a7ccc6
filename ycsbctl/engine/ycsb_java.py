"""Drive a real YCSB install (``site.ycsb.Client``) and read its output into a PhaseResult.

The install is a release folder (``bin/ycsb``, ``lib/``, ``<binding>-binding/lib``) or a plain
folder of jars (``.cache/ycsb-core/lib``: core + HdrHistogram, enough for ``basic://``).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import subprocess
import threading
import zipfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.errors import UserError
from ycsbctl.results import ycsb_text
from ycsbctl.results.model import PhaseResult, YcsbFacts
from ycsbctl.results.names import RunStatus
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import RealYcsb
from ycsbctl.workload.plugin import CORE_PLUGIN, class_path
from ycsbctl.workload.properties import Properties

# What every run asks for: 1 s status lines and the HdrHistogram percentiles we report.
DEFAULT_PROPERTIES = {
    "measurementtype": "hdrhistogram",
    "hdrhistogram.percentiles": "50,95,99,99.9",
    "status.interval": "1",
}
DEV_JARS = Path(__file__).resolve().parents[1] / ".cache" / "ycsb-core" / "lib"
_PROBLEM = re.compile(r"Exception|Error|ERROR")
RELEASES_URL = "https://github.com/brianfrankcooper/YCSB/releases (ycsb-0.17.0.tar.gz)"


@dataclass
class YcsbInstall:
    """A YCSB install: where it is, its core classpath and Java package (``site.ycsb``)."""

    home: Path
    kind: str  # "release" | "jars"
    core_jars: list[Path]
    package: str = "site.ycsb"
    version: str | None = None
    bin_ycsb: Path | None = None
    _class_jars: dict[str, bool] = field(default_factory=dict, repr=False)

    def db_class(self, binding: YcsbBinding) -> str:
        """The ``-db`` class name of a binding (``site.ycsb.db.RedisClient``), under the install's
        package (``site.ycsb`` since 0.14, ``com.yahoo.ycsb`` before)."""
        return f"{self.package}.{binding.db_class}"

    def classpath(self, binding: YcsbBinding) -> list[Path]:
        """Jars (and conf folders) for ``binding``: a release's ``<name>-binding`` folder, else the core
        jars when they hold its class (``BasicDB``); UserError when the install lacks it."""
        if self.kind == "release":
            folder = self.home / f"{binding.name}-binding"
            jars = sorted((folder / "lib").glob("*.jar"))
            if jars:
                conf = [p for p in (self.home / "conf", folder / "conf") if p.is_dir()]
                return conf + list(self.core_jars) + jars
        if self._has_class(self.db_class(binding)):
            return list(self.core_jars)
        raise UserError(
            f"the YCSB install at {self.home} has no {binding.name} binding ({self.db_class(binding)}); the redis "
            f"and mongodb bindings are not on Maven Central, so a YCSB release folder is needed: download "
            f"{RELEASES_URL}, unpack it and pass --ycsb-home DIR (or set YCSB_HOME)",
            exit_code=1,
        )

    def _has_class(self, cls: str) -> bool:
        entry = cls.replace(".", "/") + ".class"
        if entry not in self._class_jars:
            self._class_jars[entry] = any(_jar_has(j, entry) for j in self.core_jars)
        return self._class_jars[entry]

    def bin_ycsb_usable(self) -> bool:
        """``bin/ycsb`` exists and the interpreter on its ``#!`` line is installed."""
        if self.bin_ycsb is None or not self.bin_ycsb.is_file():
            return False
        first = self.bin_ycsb.read_bytes()[:200].split(b"\n", 1)[0].decode(errors="replace")
        if not first.startswith("#!"):
            return False
        words = first[2:].split()
        if not words:
            return False
        interpreter = words[1] if Path(words[0]).name == "env" and len(words) > 1 else words[0]
        return shutil.which(interpreter) is not None


def _jar_has(jar: Path, entry: str) -> bool:
    try:
        with zipfile.ZipFile(jar) as z:
            return entry in z.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def find_ycsb(home: str | None = None) -> YcsbInstall:
    """The YCSB install at ``home``, else ``$YCSB_HOME``, else this checkout's ``.cache/ycsb-core/lib``."""
    given = home or os.environ.get("YCSB_HOME")
    path = Path(given).expanduser() if given else DEV_JARS
    if not path.is_dir():
        hint = f"{path} is not a folder" if given else "no YCSB install found"
        raise UserError(f"{hint}: pass --ycsb-home DIR or set YCSB_HOME to a YCSB release folder "
                        f"({RELEASES_URL}) or a folder of YCSB jars")
    for kind, lib in (("release", path / "lib"), ("jars", path)):
        core = sorted(lib.glob("core-*.jar"))
        if not core:
            continue
        jars = sorted(lib.glob("*.jar"))
        version = core[-1].stem[len("core-"):]
        package = "com.yahoo.ycsb" if _jar_has(core[-1], "com/yahoo/ycsb/Client.class") else "site.ycsb"
        bin_ycsb = path / "bin" / "ycsb" if kind == "release" else None
        return YcsbInstall(path.resolve(), kind, jars, package, version, bin_ycsb)
    raise UserError(f"no YCSB core jar (core-<version>.jar) in {path} or {path / 'lib'}: pass --ycsb-home DIR "
                    f"or set YCSB_HOME to a YCSB release folder ({RELEASES_URL}) or a folder of YCSB jars")


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    candidate = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java")
    if not candidate or not os.access(candidate, os.X_OK):
        raise UserError("java is not installed: apt-get install default-jre-headless (or set JAVA_HOME)",
                        exit_code=1)
    return candidate


UNBOUNDED_OPERATIONS = 2_000_000_000


@dataclass(frozen=True)
class YcsbBinding:
    """A binding of the real YCSB: ``name`` (``bin/ycsb``'s, and its ``<name>-binding`` folder) and its
    DB class under the install's package (``db.RedisClient``), as the URL's store declares them."""

    name: str
    db_class: str


def binding_properties(spec: PhaseSpec) -> tuple[YcsbBinding, dict[str, str]]:
    """The YCSB binding for ``spec.url`` and the connection properties it needs (said by its protocol)."""
    proto = registry.for_url(spec.url)
    real = registry.required(proto, RealYcsb, f"cannot run the real YCSB against a {proto.name} URL")
    name, props = real.ycsb_binding(spec.url, spec.timeout_s)
    workload = class_path(Properties(spec.properties))
    if workload != CORE_PLUGIN:
        raise UserError(f"the Java YCSB runs CoreWorkload only, not workload={workload}: drop --engine ycsb")
    if not proto.ycsb_db_class:
        shapes = ", ".join(f"{p.schemes[0]}://" for p in registry.all_protocols() if p.ycsb_db_class)
        raise UserError(f"cannot run YCSB against {spec.url!r}: use a {shapes} URL")
    return YcsbBinding(name, proto.ycsb_db_class), props


def build_command(spec: PhaseSpec, install: YcsbInstall) -> list[str]:
    """The command that runs ``spec`` with ``install`` (``bin/ycsb`` when usable, else ``java``)."""
    binding, conn = binding_properties(spec)
    props = {"workload": "site.ycsb.workloads.CoreWorkload", **DEFAULT_PROPERTIES, **conn, **spec.properties}
    props["measurement.interval"] = spec.measurement
    if spec.duration_s:  # as our engine: the count or the time, whichever ends first
        props["maxexecutiontime"] = str(max(1, math.ceil(spec.warmup_s + spec.duration_s)))
        if spec.phase == "run" and props.get("operationcount", "0").strip() in ("", "0"):
            # YCSB 0.17.0 caps the threads at operationcount, so 0 (our "until the time ends")
            # would run no thread: give it a count no run reaches.
            props["operationcount"] = str(UNBOUNDED_OPERATIONS)
    args = ["-threads", str(spec.threads), "-s"]
    if spec.target_rate:
        args += ["-target", str(max(1, round(spec.target_rate)))]
    for key, value in props.items():
        args += ["-p", f"{key}={value}"]
    phase_flag = "-load" if spec.phase == "load" else "-t"
    classpath = install.classpath(binding)
    if install.bin_ycsb_usable():
        return [str(install.bin_ycsb), "load" if spec.phase == "load" else "run", binding.name, *args]
    return [_java(), "-cp", os.pathsep.join(str(p) for p in classpath), f"{install.package}.Client",
            phase_flag, "-db", install.db_class(binding), *args]


def run_phase_java(
    spec: PhaseSpec, install: YcsbInstall, progress: Callable[[Tick], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> PhaseResult:
    """Run one phase with the real YCSB client; status lines feed ``progress`` once a second.

    A non-zero exit gives a "failed" result with the last stderr lines in ``errors``. Ctrl-C
    (KeyboardInterrupt) terminates the JVM and propagates. The raw output is kept in
    ``result.ycsb.text`` (stderr, then stdout) and the command in ``result.ycsb.command``.
    """
    cmd = build_command(spec, install)
    _java()  # bin/ycsb needs it too: fail with the install hint, not a Python traceback
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    if on_start is not None:  # telemetry samples the client process (and its children: the JVM)
        on_start(proc.pid)
    stdout_chunks: list[str] = []
    out, err = proc.stdout, proc.stderr
    assert out is not None and err is not None  # both are pipes
    reader = threading.Thread(target=lambda: stdout_chunks.append(out.read()), daemon=True)
    reader.start()
    stderr_lines: list[str] = []
    ticker = _Ticker(progress, spec.warmup_s)
    try:
        for line in err:
            stderr_lines.append(line)
            ticker.feed(line)
        reader.join()
        # wait4 gives this child's CPU time (java, or bin/ycsb and the java it waited for)
        _, wait_status, usage = os.wait4(proc.pid, 0)
        code = proc.returncode = os.waitstatus_to_exitcode(wait_status)
    except BaseException:
        _stop(proc)
        raise
    stderr, stdout = "".join(stderr_lines), "".join(stdout_chunks)
    text = stderr + ("" if not stderr or stderr.endswith("\n") else "\n") + stdout
    parsed = ycsb_text.parse_output(text)
    result = parsed.result
    result.phase, result.threads = spec.phase, spec.threads
    result.client_cpu_s = usage.ru_utime + usage.ru_stime  # JVM start-up and JIT included
    result.target_rate = spec.target_rate
    if spec.warmup_s and not result.series.empty:
        result.series["warmup"] = result.series["second"] <= spec.warmup_s
    said = result.ycsb = result.ycsb or YcsbFacts()
    said.text, said.command, said.home, said.exit_code = text, cmd, str(install.home), code
    if spec.warmup_s:
        said.warmup_not_excluded_s = spec.warmup_s  # YCSB has no warm-up: totals include it
    # YCSB 0.17.0 exits 0 when a class is missing or a binding cannot connect: look at what it said.
    problems = [ln.strip() for ln in stderr_lines
                if _PROBLEM.search(ln) and ycsb_text.parse_status_line(ln) is None]
    if code != 0 or result.status != "ok" or (problems and result.operations == 0):
        result.status = RunStatus.FAILED
        tail = [ln.rstrip() for ln in stderr_lines if ln.strip() and not ln[0].isspace()
                and ycsb_text.parse_status_line(ln) is None]  # no stack frames, no status lines
        head = [f"YCSB exited with code {code}"] if code != 0 else []
        result.errors = list(dict.fromkeys([*head, *result.errors, *problems[:3], *tail[-5:]]))
    return result


class _Ticker:
    """Turns status lines into Ticks: totals so far, that second's rate, worst p99, errors so far."""

    def __init__(self, progress: Callable[[Tick], None] | None, warmup_s: float) -> None:
        self.progress, self.warmup_s = progress, warmup_s
        self.errors = 0
        self.last_second = -1
        self.recent: deque[str] = deque(maxlen=2)  # -s may print the same line twice

    def feed(self, line: str) -> None:
        if self.progress is None or line in self.recent:
            return
        row = ycsb_text.parse_status_line(line)
        if row is None:
            return
        self.recent.append(line)
        if not row["operations"] and self.last_second < 0:  # the JVM's threads still start and connect
            self.progress(Tick.waiting("YCSB's client threads start and connect (no operation completed yet)"))
            return
        p99 = float("nan")
        for name in ycsb_text.status_measurements(row):
            if name.startswith("Intended-") or name == "CLEANUP":
                continue
            if ycsb_text.is_failure_measurement(name):  # READ-FAILED…: one per failed operation
                self.errors += int(row.get(f"{name}.count", 0) or 0)
                continue
            value = row.get(f"{name}.p99_us", float("nan"))
            if not math.isnan(value) and (math.isnan(p99) or value > p99):
                p99 = value
        if " current ops/sec; " not in line or not math.isfinite(row["ops_per_s"]):
            return  # YCSB's first line has no rate (or "Infinity", once shown as 0 ops/s): no measured second
        self.last_second = max(int(row["elapsed_s"]), self.last_second + 1)
        self.progress(Tick(second=self.last_second, operations=row["operations"], ops_per_s=row["ops_per_s"],
                           p99_us=p99, errors=self.errors,
                           warmup=self.last_second <= self.warmup_s if self.warmup_s else False))


def _stop(proc: subprocess.Popen) -> None:
    """Terminate the YCSB process group we started (bin/ycsb runs java as a child)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


class YcsbEngine:
    """The real YCSB behind the engine seam (:mod:`ycsbctl.engine.contract`), ``--engine ycsb``."""

    name = "ycsb"

    def __init__(self, ycsb_home: str | None) -> None:
        self.ycsb_home = ycsb_home

    def prepare(self, spec: PhaseSpec) -> YcsbPhaseRun:
        if spec.alternation is not None:
            raise UserError("the Java YCSB engine (--engine ycsb) cannot alternate targets: one YCSB process "
                            "talks to one target; alternate with the native engine")
        return YcsbPhaseRun(spec, find_ycsb(self.ycsb_home))


class YcsbPhaseRun:
    """One phase run by ``bin/ycsb`` (or ``java -cp``)."""

    def __init__(self, spec: PhaseSpec, install: YcsbInstall) -> None:
        self.spec = spec
        self.install = install
        self._pids: list[int] = []

    def pids(self) -> list[int]:
        """The YCSB process and its children (bin/ycsb runs java as a child)."""
        import psutil

        out = []
        for pid in self._pids:
            try:
                p = psutil.Process(pid)
                out += [pid, *(c.pid for c in p.children(recursive=True))]
            except psutil.Error:
                pass
        return out

    def run(self, progress: Callable[[Tick], None] | None) -> PhaseResult:
        return run_phase_java(self.spec, self.install, progress, on_start=self._pids.append)

"""Every CoreWorkload property against the real YCSB 0.17.0 core jar: identical, same distribution,
different, or rejected (ycsbctl refuses it with a message; YCSB runs it).

Each case runs YCSB's own ``CoreWorkload`` twice (its run-to-run noise) and ycsbctl's dry run once,
all printing BasicDB's verbose lines (values included). A small Java harness calls ``init``, then
``doInsert``/``doTransaction`` the Client's number of times (``insertcount`` when given, else
``recordcount``; ``operationcount``) on a verbose BasicDB, all cases in one JVM (one JVM per case
costs ~0.6 s each); the Client's own counting is checked apart, in ``tests/workload/test_client_fidelity.py``.

A case is *identical* when the lines match (values compared by length, or whole with
``dataintegrity``); *same distribution* when every feature — operation mix, key popularity,
fields read and written, value lengths, scan lengths, run-phase insert keys — is within YCSB's
own noise: a chi-square test against either YCSB run with p > 1e-4 (or above YCSB's against
itself, for an overdispersed feature); else *different*.

    .venv/bin/python -m bench fidelity
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.errors import UserError  # noqa: E402
from ycsbctl.workload.core import CoreWorkload  # noqa: E402
from ycsbctl.workload.dryrun import dry_run_lines  # noqa: E402
from ycsbctl.workload.properties import WORKLOADS_DIR, load_properties  # noqa: E402

YCSB_LIB = ROOT / ".cache" / "ycsb-core" / "lib"
P_MIN = 1e-4
HIST_FILE = "BlockSize\t4\n0\t3\n1\t10\n2\t0\n3\t7\n4\t2\n"

HARNESS = r"""
import java.io.*;
import java.util.Properties;
import site.ycsb.BasicDB;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

public class FidelityHarness {
  public static void main(String[] args) throws Exception {
    PrintStream stdout = System.out;
    for (String file : args) {
      Properties p = new Properties();
      try (FileInputStream in = new FileInputStream(file)) { p.load(in); }
      try (PrintStream out = new PrintStream(new FileOutputStream(p.getProperty("harness.out")), false, "UTF-8")) {
        System.setOut(out);
        try {
          Measurements.setProperties(p);
          CoreWorkload w = new CoreWorkload();
          w.init(p);
          Object state = w.initThread(p, 0, 1);
          BasicDB db = new BasicDB();
          db.setProperties(p);
          db.init();
          boolean load = p.getProperty("harness.phase").equals("load");
          long n = load ? Long.parseLong(p.getProperty("insertcount", p.getProperty("recordcount", "0")))
                        : Long.parseLong(p.getProperty("operationcount", "0"));
          for (long i = 0; i < n; i++) {
            if (load) { w.doInsert(db, state); } else { w.doTransaction(db, state); }
          }
        } catch (Throwable t) {
          out.println("HARNESS-ERROR " + t);
        }
      }
    }
    System.setOut(stdout);
  }
}
"""


@dataclass(frozen=True)
class Case:
    """One property value to compare: ``props`` over ``workload``'s file, in ``phase``."""

    prop: str
    phase: str
    props: tuple[str, ...]
    workload: str = "workloada"
    ops: int = 3000

    @property
    def label(self) -> str:
        shown = [p for p in self.props if not p.startswith(("operationcount=", "fieldlengthhistogram="))]
        return f"{self.workload} {self.phase}: " + (" ".join(shown) or "(as shipped)")


def cases(ops: int = 3000, records: int = 1000) -> list[Case]:
    """Every property CoreWorkload 0.17.0 reads, with values that exercise it; workloads A–F."""
    run, load = "run", "load"
    rc = f"recordcount={records}"
    part = (f"insertstart={records // 4}", f"insertcount={records // 3}")
    c = [Case(f"workload{x}", run, (), f"workload{x}", ops) for x in "abcdef"]
    c += [
        Case("recordcount", load, (rc,), ops=ops), Case("recordcount", run, ("recordcount=300",), ops=ops),
        Case("operationcount", run, ("operationcount=2000", "insertproportion=0.1", "readproportion=0.8",
                                     "updateproportion=0.1"), ops=2000),
        Case("insertstart", load, (rc, *part), ops=ops),
        Case("insertcount", run, (rc, *part, "requestdistribution=uniform"), ops=ops),
        Case("table", run, ("table=other",), ops=ops),
        Case("fieldcount", load, (rc, "fieldcount=3"), ops=ops),
        Case("fieldcount", load, (rc, "fieldcount=0"), ops=ops),
        Case("fieldlength", load, (rc, "fieldlength=37"), ops=ops),
        Case("fieldlength", load, (rc, "fieldlength=0"), ops=ops),
        Case("minfieldlength", load, (rc, "fieldlengthdistribution=uniform", "minfieldlength=40"), ops=ops),
        Case("fieldlengthdistribution", load, (rc, "fieldlengthdistribution=uniform"), ops=ops),
        Case("fieldlengthdistribution", load, (rc, "fieldlengthdistribution=zipfian"), ops=ops),
        Case("fieldlengthhistogram", load, (rc, "fieldlengthdistribution=histogram", "fieldlengthhistogram={hist}"),
             ops=ops),
        Case("fieldnameprefix", run, ("fieldnameprefix=f_", "readallfields=false"), ops=ops),
        Case("readallfields", run, ("readallfields=false",), ops=ops),
        Case("writeallfields", run, ("writeallfields=true",), ops=ops),
        Case("dataintegrity", load, ("recordcount=200", "dataintegrity=true"), ops=ops),
        Case("dataintegrity", run, ("dataintegrity=true", "readmodifywriteproportion=0.2", "readproportion=0.4",
                                    "updateproportion=0.4"), ops=ops),
        Case("readproportion", run, ("readproportion=0.3", "updateproportion=0.7"), ops=ops),
        Case("updateproportion", run, ("readproportion=0", "updateproportion=1"), ops=ops),
        Case("insertproportion", run, ("readproportion=0.4", "updateproportion=0.4", "insertproportion=0.2"), ops=ops),
        Case("scanproportion", run, ("readproportion=0.5", "updateproportion=0", "scanproportion=0.5",
                                     "maxscanlength=50"), ops=ops),
        Case("readmodifywriteproportion", run, ("readproportion=0.5", "updateproportion=0",
                                                "readmodifywriteproportion=0.5"), ops=ops),
    ]
    for dist in ("uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"):
        c.append(Case("requestdistribution", run, (f"requestdistribution={dist}",), ops=ops))
        if dist in ("latest", "exponential", "uniform"):
            c.append(Case("requestdistribution", run, (f"requestdistribution={dist}", "insertproportion=0.1",
                                                       "readproportion=0.8", "updateproportion=0.1"), ops=ops))
    c += [
        Case("zeropadding", load, (rc, "zeropadding=25"), ops=ops),
        Case("zeropadding", run, ("zeropadding=0", "insertorder=ordered"), ops=ops),
        Case("insertorder", load, (rc, "insertorder=ordered"), ops=ops),
        Case("insertorder", run, ("insertorder=ordered",), ops=ops),
        Case("minscanlength", run, ("readproportion=0", "updateproportion=0", "scanproportion=1", "minscanlength=20",
                                    "maxscanlength=30"), ops=ops),
        Case("maxscanlength", run, ("readproportion=0", "updateproportion=0", "scanproportion=1", "maxscanlength=7"),
             ops=ops),
        Case("maxscanlength", run, ("readproportion=0", "updateproportion=0", "scanproportion=1", "minscanlength=0",
                                    "maxscanlength=0"), ops=ops),
        Case("scanlengthdistribution", run, ("readproportion=0", "updateproportion=0", "scanproportion=1",
                                             "scanlengthdistribution=zipfian", "maxscanlength=40"), ops=ops),
        Case("hotspotdatafraction", run, ("requestdistribution=hotspot", "hotspotdatafraction=0.05"), ops=ops),
        Case("hotspotopnfraction", run, ("requestdistribution=hotspot", "hotspotopnfraction=0.5"), ops=ops),
        Case("exponential.percentile", run, ("requestdistribution=exponential", "exponential.percentile=60"), ops=ops),
        Case("exponential.frac", run, ("requestdistribution=exponential", "exponential.frac=0.2"), ops=ops),
        Case("core_workload_insertion_retry_limit", load, (rc, "core_workload_insertion_retry_limit=3"), ops=ops),
        Case("core_workload_insertion_retry_interval", load, (rc, "core_workload_insertion_retry_interval=1"),
             ops=ops),
    ]
    return [Case(k.prop, k.phase, (*k.props, f"operationcount={k.ops}") if k.phase == "run" and not any(
        p.startswith("operationcount=") for p in k.props) else k.props, k.workload, k.ops) for k in c]


# -- running both ------------------------------------------------------------------------------


def _resolve(props: tuple[str, ...], workdir: Path) -> tuple[str, ...]:
    return tuple(p.replace("{hist}", str(workdir / "hist.txt")) for p in props)


def ycsb_lines(all_cases: list[Case], workdir: Path, classpath: str,
               repeats: int = 2) -> dict[tuple[int, int], list[str]]:
    """The BasicDB lines YCSB's CoreWorkload prints for each (case index, repeat)."""
    (workdir / "hist.txt").write_text(HIST_FILE)
    src = workdir / "FidelityHarness.java"
    src.write_text(HARNESS)
    subprocess.run(["javac", "-cp", classpath, "-d", str(workdir), str(src)], check=True, capture_output=True,
                   timeout=120)
    files, outs = [], {}
    for i, case in enumerate(all_cases):
        base = dict(load_properties(case.workload, (), _resolve(case.props, workdir)))
        for r in range(repeats):
            out = workdir / f"case{i}.{r}.out"
            props = {**base, "basicdb.verbose": "true", "harness.phase": case.phase, "harness.out": str(out)}
            f = workdir / f"case{i}.{r}.properties"
            f.write_text("".join(f"{k}={_escape(v)}\n" for k, v in props.items()))
            files.append(str(f))
            outs[(i, r)] = out
    proc = subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-cp", f"{workdir}:{classpath}", "FidelityHarness",
                           *files], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:  # CoreWorkload calls System.exit on some bad combinations
        raise RuntimeError(f"the YCSB harness failed ({proc.returncode}): {(proc.stdout + proc.stderr)[-1500:]}")
    return {k: out.read_text(encoding="utf-8").splitlines() for k, out in outs.items()}


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\")


def our_lines(case: Case, workdir: Path, seed: int = 11) -> list[str] | str:
    """ycsbctl's dry-run lines (with values), or the message of its refusal."""
    try:
        w = CoreWorkload.from_properties(load_properties(case.workload, (), _resolve(case.props, workdir)))
        return list(dry_run_lines(w, case.phase, seed=seed, values=True))
    except UserError as exc:
        return str(exc)


# -- comparing ---------------------------------------------------------------------------------


@dataclass
class Features:
    """What BasicDB's lines say, as counts (one ``Counter`` per feature) and sequences."""

    lines: list[tuple] = field(default_factory=list)  # normalised lines (values by length)
    counts: dict[str, Counter] = field(default_factory=dict)
    insert_keys: list[str] = field(default_factory=list)


def features(lines: list[str], exact_values: bool = False, prefix: str = "field") -> Features:
    """``prefix``: the field name prefix, which tells a field's ``name=`` from a value's bytes.

    In a run that inserts, the ``key`` feature is the key's *age* instead of its name: how many
    run-phase inserts back it was when read (0–255 in powers of two, then one bin), or
    ``preloaded``. Which keys are hot then depends on when each insert happened, which varies from
    run to run more than a count does; the age does not."""
    name_eq = re.compile(re.escape(prefix) + r"\d+=")  # a literal start: re scans for it fast
    f = Features()
    c = {k: Counter() for k in ("op", "table", "key", "read_fields", "written_fields", "value_length", "scan_length")}
    inserted: dict[str, int] = {}
    run_inserts = any(line.startswith("INSERT ") for line in lines) and any(
        line.startswith(("READ ", "UPDATE ", "SCAN ")) for line in lines)
    for line in lines:
        if line.startswith("HARNESS-ERROR"):
            f.lines.append((line,))
            continue
        if not line.startswith(("READ ", "UPDATE ", "INSERT ", "SCAN ", "DELETE ")):
            continue  # "Data integrity is enabled." and the like
        op, table, key, rest = line.split(" ", 3)
        c["op"][op] += 1
        c["table"][table] += 1
        body = rest[rest.index("[ ") + 2 : rest.rindex("]")]
        if op in ("INSERT", "UPDATE"):
            marks = [m for m in name_eq.finditer(body) if m.start() == 0 or body[m.start() - 1] == " "]
            names, vals = [], []
            for j, m in enumerate(marks):
                end = marks[j + 1].start() - 1 if j + 1 < len(marks) else len(body) - 1
                names.append(body[m.start() : m.end() - 1])
                vals.append(body[m.end() : end])
            order = sorted(range(len(names)), key=names.__getitem__)
            shown = tuple(vals[j] if exact_values else len(vals[j]) for j in order)
            f.lines.append((op, table, key, tuple(names[j] for j in order), shown))
            c["written_fields"][" ".join(sorted(names))] += 1
            for v in vals:
                c["value_length"][len(v)] += 1
            if op == "INSERT":
                f.insert_keys.append(key)
                inserted[key] = len(inserted)
                continue
        else:
            spec = " ".join(sorted(body.split())) if "<all fields>" not in body else "<all fields>"
            scan = rest.split(" ", 1)[0] if op == "SCAN" else ""
            f.lines.append((op, table, key, scan, spec))
            c["read_fields"][spec] += 1
            if op == "SCAN":
                c["scan_length"][int(scan)] += 1
        if run_inserts:
            at = inserted.get(key)
            c["key"]["preloaded" if at is None else min((len(inserted) - 1 - at).bit_length(), 9)] += 1
        else:
            c["key"][key] += 1
    f.counts = {k: v for k, v in c.items() if v}
    return f


def chi2_p(a: Counter, b: Counter, bins: int = 60) -> float:
    """Chi-square test that two count tables come from one distribution: the ``bins`` most common
    categories of both one by one, the rest in one bin."""
    from scipy import stats

    if not a or not b:
        return 1.0 if not a and not b else 0.0
    top = [k for k, _ in (a + b).most_common(bins)]
    rows = np.array([[c[k] for k in top] + [c.total() - sum(c[k] for k in top)] for c in (a, b)], dtype=float)
    rows = rows[:, rows.sum(axis=0) > 0]
    if rows.shape[1] < 2:
        return 1.0
    return float(stats.chi2_contingency(rows).pvalue)


@dataclass
class Row:
    case: Case
    verdict: str  # identical | same distribution | different | rejected
    p_ours: float = float("nan")  # smallest feature p-value of ours against YCSB
    p_noise: float = float("nan")  # the same for YCSB against itself
    note: str = ""


def classify(case: Case, y1: list[str], y2: list[str], mine: list[str] | str) -> Row:
    if isinstance(mine, str):
        return Row(case, "rejected", note=mine)
    exact = any(p == "dataintegrity=true" for p in case.props)
    prefix = next((p.split("=", 1)[1] for p in case.props if p.startswith("fieldnameprefix=")), "field")
    f1, f2, fm = (features(lines, exact, prefix) for lines in (y1, y2, mine))
    if any(line[0].startswith("HARNESS-ERROR") for line in f1.lines):
        return Row(case, "different", note="YCSB failed: " + f1.lines[0][0])
    if fm.lines == f1.lines:
        return Row(case, "identical", 1.0, 1.0)
    n = min(len(f1.insert_keys), len(fm.insert_keys))
    if f1.insert_keys[:n] != fm.insert_keys[:n] and f1.insert_keys[:n] == f2.insert_keys[:n]:
        return Row(case, "different", 0.0, 1.0, "insert keys differ")
    worst, noise, why = 1.0, 1.0, ""
    for name in set(f1.counts) | set(fm.counts):
        a, b, m = f1.counts.get(name, Counter()), f2.counts.get(name, Counter()), fm.counts.get(name, Counter())
        p = max(chi2_p(a, m), chi2_p(b, m))
        pn = chi2_p(a, b)
        if p < worst:
            worst, noise, why = p, pn, name
    verdict = "different" if worst < min(P_MIN, noise) else "same distribution"
    return Row(case, verdict, worst, noise, f"weakest: {why}" if why else "")


def run_table(all_cases: list[Case], classpath: str, workdir: Path) -> list[Row]:
    ys = ycsb_lines(all_cases, workdir, classpath)
    return [classify(c, ys[(i, 0)], ys[(i, 1)], our_lines(c, workdir)) for i, c in enumerate(all_cases)]


def format_table(rows: list[Row]) -> str:
    out = [f"{'property':40} {'case':70} {'verdict':18} {'p ours':>8} {'p YCSB':>8}  note"]
    for r in rows:
        out.append(f"{r.case.prop:40} {r.case.label[:70]:70} {r.verdict:18} {r.p_ours:8.2g} {r.p_noise:8.2g}  "
                   f"{r.note[:90]}")
    tally = Counter(r.verdict for r in rows)
    out.append(", ".join(f"{n} {v}" for v, n in sorted(tally.items())))
    return "\n".join(out)


def classpath() -> str | None:
    jars = sorted(YCSB_LIB.glob("*.jar"))
    if not any(j.name == "core-0.17.0.jar" for j in jars) or not shutil.which("javac"):
        return None
    return ":".join(str(j) for j in jars)


def main() -> int:
    cp = classpath()
    if cp is None:
        print(f"error: needs the YCSB core jar in {YCSB_LIB} (make test fetches it) and a JDK (javac)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ycsbctl-fidelity-") as tmp:
        rows = run_table(cases(ops=20_000, records=1000), cp, Path(tmp))
    print(f"CoreWorkload properties against YCSB 0.17.0 (BasicDB, one thread; workloads in {WORKLOADS_DIR.name}/)")
    print(format_table(rows))
    print(f"{time.perf_counter() - t0:.1f} s")
    return 1 if any(r.verdict == "different" for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The manual cannot rot: every shell block of the MkDocs pages (``docs/``) and of the README is either run here,
at small scale, or marked illustrative with the line ``<!-- illustrative -->`` right before its fence (a command
that needs servers, Docker, other hosts or minutes). The blocks run here are those of :data:`RUN`, found by their
text: each of their lines is one ``ycsbctl`` command, run as a user runs it (this worktree's command, a state folder
of the test's own), which must exit 0 and print or write what the block's page says it does. The README stays a
front page: short, its first ``ycsbctl run`` near the top."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import env, ycsbctl
from tests.fixtures.docs import MARKER, ROOT, blocks, docs_pages

SHELL = ("sh", "bash", "console", "shell")  # fence info strings of shell blocks


def manual() -> list[Path]:
    return [ROOT / "README.md", *docs_pages()]


def _help_lists_the_commands(out: dict[str, str], folder: Path) -> None:
    assert all(f"  {c} " in out["ycsbctl --help"] for c in ("run", "load", "compare", "report", "targets"))
    assert "--target" in out["ycsbctl run --help"] and "--duration" in out["ycsbctl run --help"]
    ops = [ln for ln in out["ycsbctl dry-run workload-b --count 5"].splitlines() if ln.strip()]
    assert len([ln for ln in ops if re.match(r"^(READ|UPDATE|INSERT|SCAN|READ-MODIFY-WRITE|DELETE)\b", ln)]) == 5, ops


def _a_first_point_writes_its_folder(out: dict[str, str], folder: Path) -> None:
    point = folder / "first-point"
    manifest = json.loads((point / "manifest.json").read_text())
    assert manifest["plan"]["targets"] and (point / "runs.parquet").is_file() and (point / "runs.csv").is_file()
    runs = pd.read_parquet(point / "runs.parquet")
    assert list(runs.status) == ["ok"] and int(runs.threads.iloc[0]) == 2 and runs.operations.iloc[0] > 0


SAVED = "ycsbctl run workload-b --target basic:// --threads 2,4 --duration 1 --records 1000 --save-study small.toml"


def _a_saved_study_is_the_command_lines_plan(out: dict[str, str], folder: Path) -> None:
    from ycsbctl.cli.experiment import plan_of_args

    assert not (folder / "reports").exists()  # it runs nothing
    assert plan_of_args([str(folder / "small.toml")]) == plan_of_args(shlex.split(SAVED)[2:-2])


# The blocks this module runs, by their text, with what their pages say they print or write.
RUN: dict[str, Callable[[dict[str, str], Path], None]] = {
    "ycsbctl --help\nycsbctl run --help\nycsbctl dry-run workload-b --count 5": _help_lists_the_commands,
    "ycsbctl run workload-b --target basic:// --threads 2 --duration 1 --records 1000 --out first-point":
        _a_first_point_writes_its_folder,
    SAVED: _a_saved_study_is_the_command_lines_plan,
}


def test_every_fence_says_what_it_holds():
    """A bare fence could hide a command from the check below: each names its language (``text`` for neither)."""
    bare = [b.where() for p in manual() for b in blocks(p) if not b.info]
    assert not bare, f"fences without an info string (sh, text, json, …): {bare}"


def test_every_shell_block_is_run_here_or_marked_illustrative():
    wrong = []
    for b in (b for p in manual() for b in blocks(p) if b.info.split()[0] in SHELL):
        runs = b.text in RUN
        if runs == b.illustrative:  # neither (it could rot unseen), or both (say one thing)
            wrong.append(f"{b.where()}: " + ("run here and marked illustrative" if runs else
                                             f"neither run by tests/test_docs.py nor marked {MARKER}"))
    assert not wrong, "\n".join(wrong)


def test_every_block_this_module_runs_is_still_in_the_manual():
    shown = {b.text for p in manual() for b in blocks(p)}
    assert not [text for text in RUN if text not in shown], "a block of RUN is no longer in docs/ or the README"


@pytest.mark.parametrize("text", list(RUN), ids=["help-and-dry-run", "first-point", "save-study"])
def test_the_block_runs_as_the_manual_shows_it(text: str, tmp_path: Path):
    out: dict[str, str] = {}
    environ = env(YCSBCTL_STATE_DIR=str(tmp_path / "state"), YCSBCTL_CLAIM_DIR=str(tmp_path / "claims"))
    for line in text.splitlines():
        argv = shlex.split(line, comments=True)
        assert argv[0] == "ycsbctl", f"a block run here holds ycsbctl commands only: {line!r}"
        done = ycsbctl(*argv[1:], cwd=tmp_path, timeout=120, environ=environ)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        out[line] = done.stdout
    RUN[text](out, tmp_path)


def test_the_readme_is_a_front_page():
    """At most 250 lines, its first ``ycsbctl run`` in its first 40, and the test command CI runs (``.ci/run``)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert next(i for i, ln in enumerate(lines, 1) if "ycsbctl run" in ln) <= 40
    assert "make test" in (ROOT / ".ci" / "run").read_text() and any(ln.startswith("make test ") for ln in lines)


def test_every_store_has_a_page_naming_its_urls_and_catalogue_names():
    """Each store of the registry has its page under ``docs/stores/`` (named for it, or titled with the name of a
    server it runs), and that page names every URL scheme the store serves and every catalogue name and deployment
    ycsbctl starts for it: a scheme, kind or variant added to a store's folder without its page fails here."""
    from ycsbctl.provision.catalog import TARGETS
    from ycsbctl.provision.variants import VARIANTS
    from ycsbctl.stores import registry

    pages = {p: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "stores").glob("*.md") if p.name != "index.md"}
    missing: list[str] = []
    for proto in registry.all_protocols():
        kinds = [name for name, t in TARGETS.items() if t.protocol == proto.name]
        titles = {TARGETS[k].display for k in kinds} | {proto.title or proto.name}
        page = next((p for p, text in pages.items()
                     if p.stem == proto.name or any(t in text.splitlines()[0] for t in titles)), None)
        if page is None:
            missing.append(f"{proto.name}: no page under docs/stores/")
            continue
        names = [f"{s}://" for s in proto.schemes] + [f"`{k}`" for k in kinds]
        names += [f"`{v}`" for v, variant in VARIANTS.items() if variant.base in kinds]
        missing += [f"{page.name} does not name {n}" for n in names if n not in pages[page]]
    assert not missing, "\n".join(missing)

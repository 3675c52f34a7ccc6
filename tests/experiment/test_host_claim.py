"""The host claim: a ycsbctl that is refused never shows a claim to the one measuring.

CI's clean machines would rarely catch the race end to end (a refused ycsbctl's claim lived for
its /proc scan, a few ms, and the measuring run turned a point host-busy only if it looked then),
so these tests look at the claims folder at the moment the refused one looks at the host.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.servers import ROOT
from ycsbctl.errors import UserError
from ycsbctl.experiment import host_claim
from ycsbctl.experiment.host_claim import CLAIM_DIR_ENV, claim_host


@contextlib.contextmanager
def claimed_elsewhere(claims: Path, command: str) -> Iterator[int]:
    """Another process holding a claim for ``command`` in ``claims`` until the block ends: its pid."""
    code = (f"import sys; from ycsbctl.experiment.host_claim import HostClaim; claim = HostClaim({command!r}); "
            "print('claimed', flush=True); sys.stdin.read()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, CLAIM_DIR_ENV: str(claims)})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "claimed"
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def measuring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Another ycsbctl measuring on this host: a process holding a claim in this test's claims folder."""
    claims = tmp_path / "claims"
    monkeypatch.setenv(CLAIM_DIR_ENV, str(claims))
    with claimed_elsewhere(claims, "ycsbctl run first") as pid:
        yield claims, pid


def test_a_refused_ycsbctl_looks_before_it_claims(measuring, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the refused one scans the host's processes, the only claim is the measuring one's."""
    claims, pid = measuring
    seen: list[list[str]] = []

    def scan() -> list[str]:
        seen.append(sorted(p.name for p in claims.glob("*.claim")))
        return []

    monkeypatch.setattr(host_claim, "other_load_generators", scan)
    with pytest.raises(UserError, match=f"another ycsbctl is measuring on this host \\(pid {pid}: ycsbctl run first"):
        claim_host("ycsbctl run second", allow_concurrent=False)
    assert seen == [[f"{pid}.claim"]]
    assert sorted(p.name for p in claims.glob("*.claim")) == [f"{pid}.claim"]


def test_of_two_that_looked_at_once_the_later_claim_gives_way(measuring, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look found nothing (the other claimed just after it): the claim made later is withdrawn."""
    claims, pid = measuring
    real = host_claim._live_claims
    monkeypatch.setattr(host_claim, "_live_claims", lambda mine=None, older_only=False:
                        [] if mine is None else real(mine, older_only))
    with pytest.raises(UserError, match=f"pid {pid}: ycsbctl run first"):
        claim_host("ycsbctl run second", allow_concurrent=False)
    assert sorted(p.name for p in claims.glob("*.claim")) == [f"{pid}.claim"]


def test_allowed_to_run_beside_it_the_claim_is_made_and_seen(measuring) -> None:
    claims, pid = measuring
    claim = claim_host("ycsbctl run second", allow_concurrent=True)
    try:
        assert claim.others()[:1] == [f"pid {pid}: ycsbctl run first"]
        assert claim.path.exists()
    finally:
        claim.close()
    assert not claim.path.exists()


def test_a_resume_of_a_folder_being_written_is_refused_before_the_host_is_claimed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--resume` of the folder the measuring run writes: refused by the folder's lock, and the
    host was never claimed (so the measuring run never saw a second ycsbctl)."""
    from ycsbctl.experiment import run
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.results.folder import ResultFolder
    from ycsbctl.results.schema import Manifest

    plan = Plan(workloads=["b"], targets=["basic://"])
    writing = ResultFolder.create(tmp_path, "first", Manifest(experiment_id="first", plan=plan.to_dict()))
    claimed: list[str] = []
    monkeypatch.setattr(run, "claim_host", lambda line, allow: claimed.append(line))
    try:
        with pytest.raises(UserError, match="is being written by another ycsbctl"):
            run.run_plan(plan, None, "ycsbctl run --resume first", resume=writing.path, allow_concurrent=True)
    finally:
        writing.close()
    assert claimed == []
    ResultFolder.check_free(writing.path)  # its writer gone, the folder is free again


def test_our_own_children_are_not_foreign_load_and_a_process_of_nobodys_is(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A load generator of a name of this test's own (a copy of sleep): our child and our grandchild are
    ours (``--engine ycsb`` runs YCSB's JVM itself), one started apart (its parent gone) is another's."""
    import shutil
    import uuid

    name = f"fakegen{uuid.uuid4().hex[:8]}"
    program = tmp_path / name
    shutil.copy(shutil.which("sleep") or "/bin/sleep", program)
    monkeypatch.setenv(host_claim.LOAD_GENERATORS_ENV, name)
    child = subprocess.Popen([str(program), "30"])
    shell = subprocess.Popen(["sh", "-c", f"'{program}' 31; :"])
    apart = subprocess.run(["sh", "-c", f"'{program}' 32 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True,
                           check=True)
    apart_pid = int(apart.stdout.strip())
    try:
        from tests.fixtures.waiting import wait_until

        wait_until(lambda: len(host_claim.other_load_generators()) >= 1, what="the process started apart")
        found = host_claim.other_load_generators()
        assert [f.split(":")[0] for f in found] == [f"pid {apart_pid}"], found
        assert name in found[0]
    finally:
        import psutil

        grandchildren = psutil.Process(shell.pid).children(recursive=True)
        for p in (child, shell):
            p.kill()
            p.wait()
        for g in grandchildren:
            g.kill()
        os.kill(apart_pid, 9)


def test_a_claim_is_readable_by_all_and_only_claims_made_before_mine_make_mine_give_way(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mine first, another's after it: with ``older_only`` the later one is not a reason for mine to give way; without,
    it is seen. The claim file is rw-r--r--, for every user's ycsbctl to read."""
    claims = tmp_path / "claims"
    monkeypatch.setenv(CLAIM_DIR_ENV, str(claims))
    mine = host_claim.HostClaim("ycsbctl run mine")
    try:
        with claimed_elsewhere(claims, "ycsbctl run later") as pid:
            assert (mine.path.stat().st_mode & 0o777) == 0o644
            assert host_claim._live_claims(mine.path, older_only=True) == []
            assert host_claim._live_claims(mine.path) == [f"pid {pid}: ycsbctl run later"]
    finally:
        mine.close()


def test_the_refusal_names_the_first_other_and_what_it_is_and_exits_1() -> None:
    err = host_claim._refuse(["pid 7: redis-benchmark -p 6379", "pid 8: ycsbctl run b"])
    assert str(err).startswith("another load generator is running on this host (pid 7: redis-benchmark -p 6379): ")
    assert err.exit_code == 1
    assert str(host_claim._refuse(["pid 8: ycsbctl run b", "pid 7: redis-benchmark"])).startswith(
        "another ycsbctl is measuring on this host (pid 8: ycsbctl run b): ")


def test_the_shared_claims_folder_of_another_user_is_refused_unless_every_user_may_write_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CLAIM_DIR_ENV, raising=False)
    shared = tmp_path / "ycsbctl-claims"
    monkeypatch.setattr(host_claim, "DEFAULT_CLAIM_DIR", shared)
    assert host_claim._folder() == shared and (shared.stat().st_mode & 0o7777) == 0o1777  # made as /tmp is
    if os.getuid() != 0:
        pytest.skip("giving the folder to another user needs root (CI runs as root)")
    os.chown(shared, 12345, 12345)
    os.chmod(shared, 0o755)
    with pytest.raises(UserError, match="belongs to another user and is not writable for all"):
        host_claim._folder()
    os.chmod(shared, 0o1777)
    assert host_claim._folder() == shared


def test_a_load_generator_is_found_by_its_program_past_its_15_letter_name_and_a_java_one_by_its_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A program named by 19 letters (the kernel's name keeps 15: its command line's program is what matches), with
    a command line of more than 120 characters (said cut at 120); a JVM whose main class is listed (a name with a
    dot), and one whose class is not (not a load generator)."""
    import shutil
    import uuid

    from tests.fixtures.waiting import wait_until

    long = f"fakegen{uuid.uuid4().hex[:12]}"
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    shutil.copy(shutil.which("sleep") or "/bin/sleep", tmp_path / long)
    java.symlink_to("/bin/sh")  # a "JVM" that waits: java -c 'sleep 30; :' CLASS
    monkeypatch.setenv(host_claim.LOAD_GENERATORS_ENV, f"{long},org.example.Bench")
    started = []

    def apart(*argv: str) -> int:
        out = subprocess.run(["sh", "-c", " ".join(f"'{a}'" for a in argv) + " >/dev/null 2>&1 & echo $!"],
                             capture_output=True, text=True, check=True)
        started.append(int(out.stdout.strip()))
        return started[-1]

    try:
        gen = apart(str(tmp_path / long), "30", *["0.000001"] * 20)
        jvm = apart(str(java), "-c", "sleep 30; :", "org.example.Bench")
        apart(str(java), "-c", "sleep 31; :", "org.example.Other")
        wait_until(lambda: len(host_claim.other_load_generators()) >= 2, what="the two load generators")
        found = sorted(host_claim.other_load_generators())
        cmd = " ".join([str(tmp_path / long), "30", *["0.000001"] * 20])
        assert len(cmd) > 120
        assert found == sorted([f"pid {gen}: {cmd[:120]}",
                                f"pid {jvm}: {java} -c sleep 30; : org.example.Bench"]), found
    finally:
        import psutil

        for pid in started:
            with contextlib.suppress(psutil.Error):
                for p in [*psutil.Process(pid).children(recursive=True), psutil.Process(pid)]:
                    p.kill()


def test_a_processs_stat_reads_as_psutil_reads_it_and_a_cut_one_as_nothing(tmp_path: Path) -> None:
    """Name, parent and state of a live process whose name holds ``) (`` (a program named so), as psutil
    reads them; a stat text cut before the parent, or before the name's end, names no process."""
    import psutil

    program = tmp_path / "a) (b"
    program.symlink_to("/bin/sleep")
    child = subprocess.Popen([str(program), "30"])
    try:
        with open(f"/proc/{child.pid}/stat", "rb") as f:
            stat = f.read(512)
        name, parent, state = host_claim.parse_stat(stat) or ("", 0, "")
        seen = psutil.Process(child.pid)
        assert (name, parent) == (seen.name(), os.getpid()) == ("a) (b", seen.ppid())
        assert state in "RSD"
    finally:
        child.kill()
        child.wait()
    assert host_claim.parse_stat(stat[:stat.rfind(b")") + 3]) is None  # the state, no parent
    assert host_claim.parse_stat(stat[:stat.find(b"(") + 3]) is None  # no closing parenthesis

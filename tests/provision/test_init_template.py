"""An initialised data folder kept as a template (provision/init_template.py): the first initialisation
runs and is kept whole, later folders are copies owned by the server's user, and a template is never
taken for another binary or other arguments, nor kept where it cannot be."""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import psutil
import pytest

from ycsbctl.provision import catalog, init_template, provision, teardown


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _maker(folder: Path, calls: list[str]):
    """What an initialisation writes: two files, one in a subfolder, the second with the call's number."""
    def make() -> None:
        calls.append(str(folder))
        (folder / "base").mkdir()
        (folder / "base" / "PG_VERSION").write_text("15\n")
        (folder / "postgresql.conf").write_text(f"# made by call {len(calls)}\n")
    return make


def test_the_first_initialisation_is_kept_and_later_folders_are_copies_of_it(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_TEMPLATE_DIR", str(tmp_path / "templates"))
    binary = tmp_path / "initdb"
    binary.write_text("#!/bin/sh\n")
    calls: list[str] = []
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    assert init_template.initialise("initdb", str(binary), ["-U", "ycsb"], str(first), None, _maker(first,
                                                                                                    calls)) is False
    assert init_template.initialise("initdb", str(binary), ["-U", "ycsb"], str(second), None, _maker(second,
                                                                                                     calls)) is True
    assert calls == [str(first)]  # the second made nothing: it is the first one's files
    assert _tree(second) == _tree(first) == {"base/PG_VERSION": b"15\n", "postgresql.conf": b"# made by call 1\n"}
    kept = list((tmp_path / "templates").iterdir())
    assert [p.name for p in kept] == [init_template.template_name("initdb", str(binary), ["-U", "ycsb"], None)]
    assert _tree(kept[0]) == _tree(first)  # whole, and no temporary folder left beside it

    # other arguments, or the binary replaced (an upgraded package): initialised afresh, a template of its own
    third, fourth = tmp_path / "c", tmp_path / "d"
    third.mkdir(), fourth.mkdir()
    assert not init_template.initialise("initdb", str(binary), ["-U", "other"], str(third), None, _maker(third, calls))
    binary.write_text("#!/bin/sh\n# the next version\n")
    assert not init_template.initialise("initdb", str(binary), ["-U", "ycsb"], str(fourth), None, _maker(fourth, calls))
    assert calls == [str(first), str(third), str(fourth)] and len(list((tmp_path / "templates").iterdir())) == 3


def test_templates_off_or_nowhere_to_keep_them_initialise_every_folder(tmp_path, monkeypatch):
    binary = tmp_path / "initdb"
    binary.write_text("#!/bin/sh\n")
    unwritable = tmp_path / "file-not-folder"
    unwritable.write_text("")
    for setting in (init_template.OFF, str(unwritable / "templates")):
        monkeypatch.setenv("YCSBCTL_TEMPLATE_DIR", setting)
        calls: list[str] = []
        for name in ("a", "b"):
            folder = tmp_path / f"{name}-{len(setting)}"
            folder.mkdir()
            assert init_template.initialise("initdb", str(binary), [], str(folder), None, _maker(folder,
                                                                                                 calls)) is False
            assert _tree(folder)["postgresql.conf"] == f"# made by call {len(calls)}\n".encode()
        assert len(calls) == 2
    assert not (tmp_path / init_template.OFF).exists()


def test_a_failed_initialisation_keeps_no_template(tmp_path, monkeypatch):
    monkeypatch.setenv("YCSBCTL_TEMPLATE_DIR", str(tmp_path / "templates"))
    binary = tmp_path / "initdb"
    binary.write_text("")
    folder = tmp_path / "a"
    folder.mkdir()

    def fails() -> None:
        (folder / "half").write_text("")
        raise RuntimeError("initdb failed")

    with pytest.raises(RuntimeError):
        init_template.initialise("initdb", str(binary), [], str(folder), None, fails)
    assert not (tmp_path / "templates").exists() or not list((tmp_path / "templates").iterdir())


def test_a_postgresql_from_the_template_is_the_servers_own_and_says_so(tmp_path, monkeypatch):
    """Two PostgreSQL servers, the second's data folder a copy: it starts and answers, its files are its
    user's, its log says it was copied, and its system identifier is the first's (the one difference, as the
    module says); both folders go at teardown."""
    entry = catalog.get_target("postgresql")
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"postgres is not installed ({entry.install_hint}, or run scripts/setup.sh --for-tests)")
    monkeypatch.setenv("YCSBCTL_TEMPLATE_DIR", str(tmp_path / "templates"))
    monkeypatch.setenv("YCSBCTL_STATE_DIR", str(tmp_path / "state"))
    pg_controldata = Path(catalog.find_server(entry)[0]).resolve().with_name("pg_controldata")

    def started() -> tuple[str, str, str]:
        ep = provision("postgresql", "local", experiment_id="tmpl", say=lambda _: None)
        try:
            proc = psutil.Process(ep.pid)
            data_dir = proc.cwd()
            owners = {pwd.getpwuid(p.stat().st_uid).pw_name for p in Path(data_dir).rglob("*")}
            assert owners == {proc.username()}
            control = subprocess.run([str(pg_controldata), data_dir], capture_output=True, text=True).stdout
            ident = next(line.split(":")[1].strip() for line in control.splitlines() if "system identifier" in line)
            return ident, Path(ep.log_path).read_text(errors="replace"), data_dir
        finally:
            teardown(ep)

    first, log1, dir1 = started()
    second, log2, dir2 = started()
    said = "the data folder is a copy of the one an earlier initdb made"
    assert said not in log1 and log2.count(said) == 1
    assert first == second and dir1 != dir2
    assert not os.path.exists(dir1) and not os.path.exists(dir2)

"""A non-editable install: the wheel ships the workload files and server configs, and ycsbctl run
from the wheel (not the checkout) finds them through the package; installed into a fresh venv it runs
dry-run, up, run and down from a folder outside the checkout, and finds the servers built at set-up
time where docs/guide/install.md says."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import redis
from pymongo import MongoClient

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the files git tracks (what a clone holds), so the build's
    ``build/`` and ``*.egg-info`` land in the copy and the checkout is left as it was."""
    tmp = tmp_path_factory.mktemp("wheel")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True,
                             timeout=60).stdout.decode().split("\0")
    src = tmp / "src"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp / "dist"), str(src)], check=True, capture_output=True, text=True, timeout=300)
    return next((tmp / "dist").glob("ycsbctl-*.whl"))


def test_the_wheel_carries_workloads_configs_and_templates_and_they_are_found_outside_the_checkout(wheel, tmp_path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("workloada", "workloadb", "workloadf", "insert"):
        assert f"ycsbctl/data/workloads/{f}" in names
    for f in ("redis/redis.conf", "mongodb/mongod.flags", "ferretdb/ferretdb.flags", "dragonfly/dragonfly.flags"):
        assert f"ycsbctl/data/configs/{f}" in names
    assert "ycsbctl/report/templates/report.html.j2" in names
    assert any(n.startswith("ycsbctl/_native.") and n.endswith(".so") for n in names), "the compiled core was not built"
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import ycsbctl, sys; from ycsbctl.workload.properties import known_workloads, resolve_workload;"
            "from ycsbctl.stores.server_kind import config_args;"
            "print(ycsbctl.__file__); print(sorted(known_workloads())); print(resolve_workload('workload-b'));"
            "print(config_args('redis/redis.conf'));"
            "from ycsbctl.report.html import environment; print(environment().get_template('report.html.j2').filename)")
    out = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
                         cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(str(site))  # the wheel's copy, not the checkout's
    assert "workloadb" in lines[1] and "insert" in lines[1]
    assert lines[2].startswith(str(site)) and lines[2].endswith("workloadb")
    assert "--appendonly" in lines[3] and "no" in lines[3]
    # the report's template, from the wheel
    assert lines[4].startswith(str(site)) and lines[4].endswith("report.html.j2")


# -- a non-editable install in a fresh venv, used from outside the checkout ----------------------------


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A new venv holding the wheel, installed non-editable (``pip install ycsbctl-….whl``). Its
    third-party dependencies are borrowed from this interpreter's site-packages by a plain path
    line (site does not run the ``.pth`` files there, so the checkout's editable finder stays out):
    the test checks our package, not PyPI, and runs offline."""
    tmp = tmp_path_factory.mktemp("fresh-venv")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the checkout must not look installed
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                        "--no-index", "--force-reinstall", str(wheel)], capture_output=True, text=True, timeout=300,
                       env=clean)
    assert r.returncode == 0, r.stderr
    return venv


def test_the_wheel_installed_in_a_fresh_venv_runs_dry_run_up_run_and_down_from_elsewhere(fresh_venv, tmp_path):
    venv = fresh_venv
    elsewhere, home = tmp_path / "elsewhere", tmp_path / "home"
    elsewhere.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "YCSBCTL_INFRA", "YCSBCTL_BIN_DIR",
                                                            "YCSBCTL_PURE_PYTHON",
                                                            "XDG_DATA_HOME", "VIRTUAL_ENV")}
    env.update(HOME=str(home), YCSBCTL_STATE_DIR=str(tmp_path / "state"),
               PATH=f"{venv / 'bin'}{os.pathsep}/usr/local/bin{os.pathsep}/usr/bin{os.pathsep}/bin")

    def ycsbctl(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(["ycsbctl", *args], cwd=elsewhere, env={**env, **(extra or {})}, capture_output=True,
                              text=True, timeout=300)

    where = subprocess.run(["python", "-c", "import ycsbctl; print(ycsbctl.__file__)"], cwd=elsewhere, env=env,
                           capture_output=True, text=True)
    assert where.stdout.startswith(str(venv)), where  # the installed copy, not the checkout
    path = subprocess.run(["python", "-c", "from ycsbctl.native import active_path; print(active_path())"],
                          cwd=elsewhere,
                          env=env, capture_output=True, text=True)
    assert path.stdout.strip() == "compiled", path  # the wheel's compiled core, not the pure-Python fallback

    dry = ycsbctl("dry-run", "workload-b", "--count", "5", "--seed", "1")
    assert dry.returncode == 0, dry.stderr
    assert len(dry.stdout.splitlines()) == 5 and all(ln.split()[0] in ("READ",
                                                                       "UPDATE") for ln in dry.stdout.splitlines())

    up = ycsbctl("up", "redis", "--backend", "local")
    assert up.returncode == 0, up.stderr
    url = next(w for w in up.stdout.split() if w.startswith("redis://"))
    try:
        run = ycsbctl("run", "workload-c", "--target", url, "--threads", "2", "--load", "-p", "recordcount=300",
                      "-p", "operationcount=400", "--no-telemetry")
        assert run.returncode == 0, run.stderr
        lines = dict(((ln.split(", ")[0], ln.split(", ")[1]), ln.split(", ")[2]) for ln in run.stdout.splitlines())
        assert lines[("[READ]", "Operations")] == "400"
        server = redis.Redis.from_url(url)
        assert server.dbsize() == 300 + 1  # the records and _indices, as the server counts them
        assert int(server.info("commandstats")["cmdstat_hgetall"]["calls"]) == 400
        server.close()
    finally:
        down = ycsbctl("down", "--all")
    assert _stopped_all(down), down.stderr
    assert "no servers recorded" in ycsbctl("status").stdout
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()


def test_the_installed_wheel_finds_mongo_wire_where_the_docs_say(fresh_venv, tmp_path):
    """Built servers are looked for in $YCSBCTL_BIN_DIR, then ~/.local/share/ycsbctl/bin, then PATH —
    never beside the checkout, which an installed ycsbctl does not know."""
    built = ROOT / "infra" / "bin" / "mongo-wire"
    if not built.exists():
        pytest.skip(f"{built} is not built (bash infra/build-mongo-wire.sh, or scripts/setup.sh --for-tests)")
    venv = fresh_venv
    elsewhere, home = tmp_path / "elsewhere", tmp_path / "home"
    elsewhere.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "YCSBCTL_BIN_DIR", "XDG_DATA_HOME")}
    env.update(HOME=str(home), YCSBCTL_STATE_DIR=str(tmp_path / "state"),
               PATH=f"{venv / 'bin'}{os.pathsep}/usr/local/bin{os.pathsep}/usr/bin{os.pathsep}/bin")

    def ycsbctl(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(["ycsbctl", *args], cwd=elsewhere, env={**env, **extra}, capture_output=True,
                              text=True, timeout=120)

    missing = ycsbctl("up", "ferretdb", "--backend", "local")
    assert missing.returncode != 0 and "YCSBCTL_BIN_DIR" in missing.stderr  # says where to put it
    user_bin = home / ".local" / "share" / "ycsbctl" / "bin"
    for how in ({"YCSBCTL_BIN_DIR": str(built.parent)}, {}):
        if not how:  # the user data folder, as scripts/setup.sh installs it
            user_bin.mkdir(parents=True)
            shutil.copy2(built, user_bin / "mongo-wire")
        up = ycsbctl("up", "ferretdb", "--backend", "local", **how)
        try:
            assert up.returncode == 0, up.stderr
            url = next(w for w in up.stdout.split() if w.startswith("mongodb://"))
            with MongoClient(url, serverSelectionTimeoutMS=5000) as client:
                assert client.admin.command("ping")["ok"] == 1
        finally:
            assert _stopped_all(ycsbctl("down", "--all"))


def _stopped_all(down: subprocess.CompletedProcess) -> bool:
    """``down --all`` stopped every local server: exit 0, or 1 when it says Docker was not there to ask."""
    return down.returncode == 0 or (down.returncode == 1 and "containers were not checked" in down.stderr
                                    and "stopped pid" in down.stdout)

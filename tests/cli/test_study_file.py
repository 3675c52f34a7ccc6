"""Study files: ``ycsbctl run STUDY.toml``, ``--save-study FILE``, and one-line refusals of a bad file.

Plans are built in this process (:func:`ycsbctl.cli.experiment.plan_of_args`, what ``run`` builds before it runs
anything); ``--save-study`` is the real command (it runs nothing)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import click
import pytest
from click.core import ParameterSource

from tests.fixtures.cli import run_cli
from ycsbctl.cli.experiment import plan_of_args, run
from ycsbctl.cli.study_file import with_study_file
from ycsbctl.cli.study_model import NOT_KEYS, file_params
from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan

ROOT = Path(__file__).resolve().parents[2]
LINES = 7  # command_lines() and typed_samples()' line
PLACES = dict.fromkeys(("props", "listed", "home", "server", "done"), "/x")  # inputs' paths where none is read
EXAMPLE = ROOT / "examples" / "redis-vs-mongodb.toml"


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, str]:
    """Files and folders the options name: a property file, a targets file, a YCSB home, a server binary."""
    props = tmp_path / "extra.properties"
    props.write_text("fieldcount=3\n")
    listed = tmp_path / "targets.txt"
    listed.write_text("redis-x maxmemory-policy=allkeys-lru\n")
    home = tmp_path / "ycsb-home"
    home.mkdir()
    server = tmp_path / "redis-server"
    server.write_text("#!/bin/sh\n")
    server.chmod(server.stat().st_mode | stat.S_IXUSR)
    done = tmp_path / "done"  # a result folder to --resume (only its parameter is compared)
    done.mkdir()
    return {"props": str(props), "listed": str(listed), "home": str(home), "server": str(server), "done": str(done)}


def command_lines(i: dict[str, str], out: str) -> list[list[str]]:
    """Command lines that together give every option of ``run`` a value (each line a plan ycsbctl accepts)."""
    return [
        ["workload-b", "--targets", "redis,lazy", "--target", "valkey-two", "--target-kind", "lazy=redis",
         "--server-config", "lazy:lazyfree-lazy-user-del=yes", "--server-config", "valkey-two:io-threads=2",
         "--binary", f"redis={i['server']}", "--binary", f"valkey-two={i['server']}", "--image", "redis=redis:7.2",
         "--backend", "local", "--server-cpus", "0", "--server-memory", "1g", "--placement", "off", "--tls",
         "--baseline", "lazy", "--targets-file", i["listed"], "--order", "blocks", "--repeat", "3",
         "--max-repeat", "4"],
        ["workload-b", "--targets", "redis,valkey", "--docker-host", "tcp://127.0.0.1:2375", "--backend", "docker",
         "--repeat", "auto", "--budget", "2m", "--margin", "5%", "--alpha", "0.1", "--order", "interleaved"],
        ["workload-a", "--target", "basic://", "--repeat", "2", "--precision", "3%", "--max-repeat", "6"],
        ["workload-b", "--target", "basic://", "--slo", "p99<1ms", "--slo-start", "5k", "--slo-points", "4"],
        ["workload-b", "workload-a", "--target", "basic://", "--threads", "2,4", "--load-threads", "3",
         "--operations", "1000", "--warmup", "1", "--target-rate", "1k,2k", "--profile", "smoke",
         "--cpu-profile", "all", "--max-error-rate", "0.2", "--no-load", "--timeout", "2", "--processes", "1",
         "--seed", "7", "--no-telemetry", "--cluster", "tls://127.0.0.1:8786", "--quiet", "--format", "json",
         "--allow-concurrent", "--records", "100", "-P", i["props"], "-p", "readproportion=0.9",
         "--property", "updateproportion=0.1", "--engine", "native", "--ycsb-home", i["home"],
         "--iperf-server", "127.0.0.1:5201", "--no-yardstick", "--no-reference", "--no-report", "--out", out,
         "--placement", "auto"],
        ["workload-b", "--target", "redis://127.0.0.1:6379", "--duration", "0.5", "--disturb", "del:set:1k@0.2s",
         "--yardstick", "--reference", "--report", "--resume", i["done"]],
    ]


def _params(args: list[str]) -> dict:
    """``run``'s parameters for ``args`` (a study file's merged in), as the command gets them."""
    with run.make_context("run", list(args)) as ctx:
        return with_study_file(ctx, dict(ctx.params))[0]


def _given(args: list[str]) -> set[str]:
    with run.make_context("run", list(args)) as ctx:
        return {n for n in ctx.params if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE}


def typed_samples(skip: set[str]) -> list[str]:
    """Arguments giving each option of ``run`` not in ``skip`` a value its click type alone provides (a switch, a
    choice other than the default, a number in its range): an option added to ``run`` later joins the round trip
    without a hand-written sample; a text option still needs one in :func:`command_lines`."""
    args: list[str] = []
    for p in run.params:
        if not isinstance(p, click.Option) or p.name in skip | NOT_KEYS:
            continue
        t, opt = p.type, p.opts[0]
        default = p.default if isinstance(p.default, bool | int | float | str) else None  # (click's UNSET: none)
        if isinstance(t, click.types.BoolParamType) and (not default or p.secondary_opts):
            args.append(p.secondary_opts[0] if default else opt)
        elif isinstance(t, click.Choice):
            args += [opt, next(str(c) for c in t.choices if c != default)]
        elif isinstance(t, click.IntRange | click.FloatRange) and t.min is not None:
            top = t.max if t.max is not None else t.min + 2
            args += [opt, str((t.min + top) // 2 if isinstance(t, click.IntRange) else (t.min + top) / 2)]
    return args


def _hand_given() -> set[str]:
    given: set[str] = set()
    for line in command_lines(PLACES, "/x"):
        given |= _given(line)
    return given


def all_lines(i: dict[str, str], out: str) -> list[list[str]]:
    """:func:`command_lines`, and a line of the options only :func:`typed_samples` gives a value (when any)."""
    auto = typed_samples(_hand_given())
    return command_lines(i, out) + ([["workload-b", "--target", "basic://", *auto]] if auto else [])


def test_the_command_lines_give_every_option_of_run():
    every = {str(p.name) for p in run.params} - NOT_KEYS - {"workloads"} | {"target", "targets"}
    hand = _hand_given()
    typed = _given(["workload-b", *typed_samples(hand)])
    assert len(all_lines(PLACES, "/x")) <= LINES  # test_save_study_round_trips_each_command_line_to_the_same_plan
    assert every - hand - typed == set(), "add a sample of these options of `run` to command_lines()"


def _outcome(args: list[str]) -> Plan | str:
    """The plan of ``args``, or the one line refusing it."""
    try:
        return plan_of_args(args)
    except UserError as exc:
        return str(exc)


@pytest.mark.parametrize("n", range(LINES))
def test_save_study_round_trips_each_command_line_to_the_same_plan(n: int, inputs, tmp_path: Path):
    lines = all_lines(inputs, str(tmp_path / "out"))
    if n >= len(lines):
        return  # no option of run is left to typed_samples today
    line = lines[n]
    study = tmp_path / "study.toml"
    saved = run_cli("run", *line, "--save-study", str(study))
    assert saved.exit_code == 0, saved.output
    assert "nothing was run" in saved.output and study.is_file()
    assert not (tmp_path / "out").exists()
    assert _outcome([str(study)]) == _outcome(line)
    assert n >= len(command_lines(inputs, "")) or isinstance(_outcome(line), Plan)  # the hand lines are plans
    from_file, typed = _params([str(study)]), _params(line)
    for name in set(typed) - {"target", "targets", "server_config", "target_kind", "binary", "images", "save_study"}:
        assert from_file[name] == typed[name], name


def test_the_command_line_overrides_the_study_file(tmp_path: Path):
    study = tmp_path / "s.toml"
    study.write_text('workloads = ["workload-b"]\ntargets = ["basic://"]\nduration = 2\nthreads = 4\n'
                     'property = {recordcount = 50}\n')
    plan = plan_of_args([str(study), "--duration", "0.5", "workload-a"])
    assert (plan.duration_s, plan.threads, plan.workloads, plan.targets) == (0.5, [4], ["workload-a"], ["basic://"])
    assert plan.properties == ["recordcount=50"]
    assert plan_of_args([str(study), "--target", "redis"]).targets == ["redis"]
    # a KEY=VALUE option's items follow the file's, and win
    assert plan_of_args([str(study), "-p", "recordcount=70"]).properties == ["recordcount=50", "recordcount=70"]
    assert plan_of_args([str(study), "-p", "recordcount=70"]).record_count == 70


def test_the_example_study_is_the_default_plan():
    """examples/redis-vs-mongodb.toml is `ycsbctl run workload-b` written down, with options or without."""
    assert plan_of_args([str(EXAMPLE)]) == plan_of_args(["workload-b"])
    more = ["--profile", "smoke", "--budget", "1m", "--seed", "3"]
    assert plan_of_args([str(EXAMPLE), *more]) == plan_of_args(["workload-b", *more])


def test_a_target_table_says_label_kind_settings_and_binary(tmp_path: Path):
    server = tmp_path / "bin" / "redis-server"
    server.parent.mkdir()
    server.write_text("#!/bin/sh\n")
    server.chmod(0o755)
    study = tmp_path / "s.toml"
    study.write_text('workloads = ["workload-b"]\n[[targets]]\nname = "redis"\nlabel = "lazy"\n'
                     'settings = {lazyfree-lazy-user-del = "yes", maxmemory = 1000000}\nbinary = "bin/redis-server"\n'
                     '[[targets]]\nurl = "basic://"\n')
    plan = plan_of_args([str(study)])
    assert plan.targets == ["lazy", "basic://"] and plan.target_kinds == {"lazy": "redis"}
    assert plan.server_settings == {"lazy": {"lazyfree-lazy-user-del": "yes", "maxmemory": "1000000"}}
    assert plan.binaries == {"lazy": str(server)}  # relative to the study file's folder


BAD = {
    "misspelt key": ('duraton = 0.5\n', ["duraton", "did you mean duration?"]),
    "underscores": ('target_rate = "5k"\n', ["target_rate", "did you mean target-rate?"]),
    "wrong type": ('records = "many"\n', ["records", "valid integer", "'many'"]),
    "out of range": ('records = 0\n', ["records", "greater than or equal to 1"]),
    "not a choice": ('order = "random"\n', ["order", "'interleaved'"]),
    "unknown target": ('targets = ["rediss"]\n', ["targets[0]", "'rediss' names no server kind", "redis"]),
    "unknown target table": ('[[targets]]\nname = "rediss"\n', ["targets[0]", "'rediss'"]),
    "misspelt target key": ('[[targets]]\nname = "redis"\nsetings = {a = "b"}\n',
                            ["targets[0].setings", "did you mean settings?"]),
    "missing path": ('property-file = ["nope.properties"]\n', ["property-file", "nope.properties does not exist"]),
    "missing binary": ('[[targets]]\nname = "redis"\nbinary = "/no/such/redis-server"\n',
                       ["targets[0].binary", "does not exist"]),
    "click's own check": ('threads = "many"\n', ["threads"]),
    "not TOML": ('threads = \n', ["not a TOML file"]),
    "empty target list": ('targets = []\n', ["targets = []", "names no target", "leave the key out"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_study_file_is_one_line_naming_the_file_and_the_key(case: str, tmp_path: Path):
    text, said = BAD[case]
    study = tmp_path / "bad.toml"
    study.write_text(f'workloads = ["workload-b"]\n{text}')
    result = run_cli("run", str(study))
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith(f"error: {study}"), line
    for words in said:
        assert words in line, line


def test_every_option_of_run_is_a_key_of_the_published_schema():
    from ycsbctl.cli.study_model import study_schema

    schema = study_schema(run)
    keys = set(schema["properties"])
    assert keys == set(file_params(run)) | {"targets"}
    assert schema["additionalProperties"] is False
    assert "seconds" in schema["properties"]["duration"]["description"].lower()


def test_a_study_file_relative_input_is_read_from_its_folder(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "w.properties").write_text("workload=site.ycsb.workloads.CoreWorkload\nreadproportion=1\n")
    study = tmp_path / "sub" / "s.toml"
    study.write_text('workloads = ["w.properties"]\ntargets = ["basic://"]\nproperty-file = ["w.properties"]\n')
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        plan = plan_of_args([str(study)])
    finally:
        os.chdir(here)
    assert plan.workloads == [str(tmp_path / "sub" / "w.properties")] == plan.property_files


def test_no_study_file_means_no_pydantic():
    """`ycsbctl run` without a study file does not pay for pydantic's import."""
    import subprocess
    import sys

    code = ("import sys; from ycsbctl.cli.experiment import plan_of_args; plan_of_args(['workload-b']); "
            "print('pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "False", out.stderr



def test_save_study_of_a_study_file_and_options_writes_both(tmp_path: Path):
    study, saved = tmp_path / "s.toml", tmp_path / "again.toml"
    study.write_text('workloads = ["workload-b"]\ntargets = ["basic://"]\nduration = 2\nthreads = 4\n')
    assert run_cli("run", str(study), "--duration", "0.5", "--save-study", str(saved)).exit_code == 0
    assert plan_of_args([str(saved)]) == plan_of_args([str(study), "--duration", "0.5"])
    assert plan_of_args([str(saved)]).duration_s == 0.5


def test_save_study_names_a_toml_file(tmp_path: Path):
    result = run_cli("run", "workload-b", "--target", "basic://", "--save-study", str(tmp_path / "study.txt"))
    assert result.exit_code == 2 and "name the study file ….toml" in result.output
    assert not (tmp_path / "study.txt").exists()


def test_the_manual_publishes_every_key_and_the_schema(tmp_path: Path):
    """docs/guide/study-files.md holds the markers the MkDocs hook fills from run's options (docs_hooks)."""
    import importlib.util
    import json

    page = (ROOT / "docs" / "guide" / "study-files.md").read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location("study_schema_hook", ROOT / "docs_hooks" / "study_schema.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    built = hook.on_page_markdown(page, None, None, None)
    assert hook.KEYS in page and hook.SCHEMA in page and hook.KEYS not in built
    assert all(f"| `{key}` |" in built for key in [*file_params(run), "targets"])
    hook.on_post_build({"site_dir": str(tmp_path)})
    assert set(json.loads((tmp_path / "study-file.schema.json").read_text())["properties"]) == {
        *file_params(run), "targets"}

"""Malformed input of every kind (URLs, properties, thread specs, flags, files) given to the real
``ycsbctl`` command: exit code 2, one ``error:`` line on stderr that names the fix, no traceback, no
password, and nothing started or left behind (no result folder, no server, no host claim)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.cli import CLI
from tests.fixtures.cli import env as cli_env
from tests.fixtures.cli_forks import Ended, Forks, cli_forks

SECRET = "s3cretPW"
BASIC = ["--target", "basic://", "--threads", "1"]
YCSB_LOG = Path(__file__).parents[1] / "data" / "ycsb" / "master-workloada-redis.log"
DISTURB = ["--target", "redis://127.0.0.1:9", "--threads", "1", "--duration", "5", "--disturb"]  # nothing listens on 9

# (case, arguments after the command, text the one line must contain)
CASES: list[tuple[str, list[str], str]] = [
    # -- URLs
    ("port not a number", ["run", "b", "--target", "redis://127.0.0.1:abc"], "use redis://host:port"),
    ("port out of range", ["run", "b", "--target", "redis://127.0.0.1:99999"], "use redis://host:port"),
    ("port not a number, with password", ["run", "b", "--target", f"redis://:{SECRET}@127.0.0.1:abc"],
     "use redis://host:port"),
    ("http URL with password", ["run", "b", "--target", f"http://u:{SECRET}@h:1"], "use redis://host:port"),
    ("unescaped @ in a MongoDB password", ["run", "b", "--target", f"mongodb://u:{SECRET}@x@127.0.0.1"],
     "write them percent-encoded (@ %40"),
    # the parser took a piece of the password for the port and said it: 'Port could not be cast … as 's3cretPW''
    ("unescaped / in a PostgreSQL password", ["run", "b", "--target", f"postgresql://u:{SECRET}/x@127.0.0.1:5432/db"],
     "bad postgresql URL: its user or password holds a character the URL reads as its own"),
    ("unescaped # in a Redis password", ["run", "b", "--target", f"redis://:{SECRET}#x@127.0.0.1:1/0"],
     "write them percent-encoded"),
    # port 0 was read as no port: the store's default (6379, 27017) was measured instead
    ("port zero", ["run", "b", "--target", "redis://127.0.0.1:0", "--threads", "1"], "port 0 is no server's port"),
    ("port zero in a host list, with password", ["run", "b", "--target", f"mongodb://u:{SECRET}@h:27017,h2:00/ycsb"],
     "mongodb://u:***@h:27017,h2:00/ycsb: port 0 is no server's port"),
    # an empty target (a script's unset variable) ran the whole default plan
    ("empty --target", ["run", "b", "--target", "", "--threads", "1"], "--target/--targets '': a target is empty"),
    ("empty --targets", ["run", "b", "--targets", "", "--threads", "1"], "--target/--targets '': a target is empty"),
    ("blank --targets", ["run", "b", "--targets", " ", "--threads", "1"], "a target is empty"),
    ("empty item in --targets", ["run", "b", "--targets", "basic://,", "--threads", "1"], "a target is empty"),
    ("empty --target on load", ["load", "b", "--target", ""], "a target is empty"),
    ("MongoDB port not a number", ["run", "b", "--target", "mongodb://127.0.0.1:nope/ycsb"], "mongodb://host:port/db"),
    ("unknown scheme", ["run", "b", "--target", "ftp://127.0.0.1"], "use redis://host:port"),
    ("a bad URL in a --targets list", ["run", "b", "--targets", "basic://,redis://127.0.0.1:x1"],
     "use redis://host:port"),
    ("unknown catalogue target", ["run", "b", "--target", "oracle"], "use one of redis, mongodb"),
    ("memcached URL with a password", ["run", "b", "--target", f"memcached://u:{SECRET}@127.0.0.1:11211"], "no user"),
    ("scans against memcached", ["run", "e", "--targets", "basic://,memcached://127.0.0.1:1"], "scanproportion=0"),
    # -- YCSB client properties
    ("recordcount not a number", ["run", "b", *BASIC, "-p", "recordcount=abc"], "-p recordcount=N"),
    ("recordcount negative", ["run", "b", *BASIC, "-p", "recordcount=-5"], "-p recordcount=N with N ≥ 0"),
    ("recordcount beyond Java's int", ["run", "b", *BASIC, "-p", "recordcount=3000000000"], "out of range"),
    ("operationcount in e-notation", ["run", "b", *BASIC, "-p", "operationcount=1e5"], "-p operationcount=N"),
    ("operationcount negative", ["run", "b", *BASIC, "-p", "operationcount=-1"], "-p operationcount=N"),
    ("threadcount zero", ["run", "b", "--target", "basic://", "-p", "threadcount=0"], "-p threadcount=N with N ≥ 1"),
    ("threadcount a word", ["run", "b", "--target", "basic://", "-p", "threadcount=four"], "-p threadcount=N"),
    ("target a word", ["run", "b", *BASIC, "-p", "target=fast"], "-p target=N"),
    ("target negative", ["run", "b", *BASIC, "-p", "target=-10"], "--target-rate"),
    ("maxexecutiontime a fraction", ["run", "b", *BASIC, "-p", "maxexecutiontime=1.5"], "-p maxexecutiontime=N"),
    ("measurementtype timeseries", ["run", "b", *BASIC, "-p", "measurementtype=timeseries"], "drop -p measurementtype"),
    ("unknown exporter", ["run", "b", *BASIC, "-p", "exporter=XmlExporter"], "JSONArrayMeasurementsExporter"),
    ("percentile not a number", ["run", "b", *BASIC, "-p", "hdrhistogram.percentiles=99,abc"],
     "hdrhistogram.percentiles=50,95,99"),
    ("percentile above 100", ["run", "b", *BASIC, "-p", "hdrhistogram.percentiles=150"], "between 0 and 100"),
    ("measurement.interval unknown", ["run", "b", *BASIC, "-p", "measurement.interval=sometimes"],
     "use op, intended or both"),
    ("db class", ["run", "b", *BASIC, "-p", "db=site.ycsb.db.RedisClient"], "--target redis://host:port"),
    ("dotransactions=false on run", ["run", "b", *BASIC, "-p", "dotransactions=false"], "ycsbctl load"),
    ("hdrhistogram.fileoutput not a boolean", ["run", "b", *BASIC, "-p", "hdrhistogram.fileoutput=yes"],
     "-p hdrhistogram.fileoutput=true"),
    ("hdrhistogram.output.path in a missing folder", ["run", "b", *BASIC, "-p", "hdrhistogram.fileoutput=true",
                                                      "-p", "hdrhistogram.output.path=/nonexistent-dir/x-"],
     "create the folder"),
    ("redis.port out of range", ["run", "b", *BASIC, "-p", "redis.port=70000"], "1 ≤ N ≤ 65535"),
    ("password property beside a bad one", ["run", "b", *BASIC, "-p", f"redis.password={SECRET}",
                                            "-p", "redis.timeout=soon"], "-p redis.timeout=N"),
    ("exportfile in a sweep", ["run", "b", "--target", "basic://", "--threads", "1,2", "-p", "exportfile=x.txt"],
     "drop -p exportfile"),
    ("-p without =", ["run", "b", *BASIC, "-p", "recordcount"], "write -p key=value"),
    # -- CoreWorkload properties
    ("fieldcount a word", ["run", "b", *BASIC, "-p", "fieldcount=x"], "-p fieldcount=N"),
    ("fieldcount zero", ["run", "b", *BASIC, "-p", "fieldcount=0"], "fieldcount ≥ 1"),
    ("minfieldlength above fieldlength", ["run", "b", *BASIC, "-p", "fieldlength=5", "-p", "minfieldlength=9"],
     "minfieldlength ≤ fieldlength"),
    ("readproportion a word", ["run", "b", *BASIC, "-p", "readproportion=half"], "-p readproportion=X"),
    ("readproportion negative", ["run", "b", *BASIC, "-p", "readproportion=-0.5"], "proportions must be ≥ 0"),
    ("proportions sum to zero", ["run", "b", *BASIC, "-p", "readproportion=0", "-p", "updateproportion=0"],
     "set readproportion"),
    ("unknown requestdistribution", ["run", "b", *BASIC, "-p", "requestdistribution=gaussian"], "use one of uniform"),
    ("unknown insertorder", ["run", "b", *BASIC, "-p", "insertorder=random"], "use hashed or ordered"),
    ("boolean that is not one", ["run", "b", *BASIC, "-p", "readallfields=yes"], "-p readallfields=true"),
    ("maxscanlength zero", ["run", "e", *BASIC, "-p", "maxscanlength=0"], "minscanlength ≤ maxscanlength"),
    ("insert range past recordcount", ["run", "b", *BASIC, "-p", "recordcount=1000", "-p", "insertcount=5000"],
     "lower insertcount"),
    ("hotspot fraction above 1", ["run", "b", *BASIC, "-p", "requestdistribution=hotspot",
                                  "-p", "hotspotdatafraction=2"], "between 0 and 1"),
    ("bad property on load", ["load", "b", "--target", "basic://", "-p", "fieldlength=long"], "-p fieldlength=N"),
    # -- thread specs
    ("threads zero", ["run", "b", "--target", "basic://", "--threads", "0"], "(8..128)"),
    ("threads range downwards", ["run", "b", "--target", "basic://", "--threads", "8..4"], "(8..128)"),
    ("threads words", ["run", "b", "--target", "basic://", "--threads", "a,b"], "(8,16,32)"),
    ("threads list with an empty item", ["run", "b", "--target", "basic://", "--threads", "8,,16"], "(8,16,32)"),
    ("load threads zero", ["load", "b", "--target", "basic://", "--threads", "0"], "number ≥ 1"),
    # -- flags
    ("duration zero", ["run", "b", *BASIC, "--duration", "0"], "'--duration'"),
    ("negative target rate", ["run", "b", *BASIC, "--target-rate", "-1"], "--target-rate '-1': use a rate"),
    ("repeat zero", ["run", "b", *BASIC, "--repeat", "0"], "--repeat '0': give a number of rounds (≥ 1) or auto"),
    ("repeat a word", ["run", "b", *BASIC, "--repeat", "often"], "--repeat 'often'"),
    ("precision too wide", ["run", "b", *BASIC, "--repeat", "auto", "--precision", "150%"], "--precision '150%'"),
    # -- numbers in other scripts' digits: one rule, ASCII digits (ycsbctl.user_input); "²" was a traceback, "٣" read 3
    ("repeat a superscript two", ["run", "b", *BASIC, "--repeat", "²"], "--repeat '²': give a number of rounds"),
    ("threads an Arabic-Indic three", ["run", "b", "--target", "basic://", "--threads", "٣"], "(8,16,32)"),
    ("threads a range of superscripts", ["run", "b", "--target", "basic://", "--threads", "²..⁸"], "(8..128)"),
    ("records an Arabic-Indic three", ["run", "b", *BASIC, "--records", "٣"], "'٣' is not a whole number"),
    ("records a superscript two", ["load", "b", "--target", "basic://", "--records", "²"], "is not a whole number"),
    ("duration an Arabic-Indic three", ["run", "b", *BASIC, "--duration", "٣"], "'٣' is not a finite number"),
    ("target rate in Devanagari digits", ["run", "b", *BASIC, "--target-rate", "५k"], "--target-rate '५k'"),
    ("budget in Arabic-Indic minutes", ["run", "b", *BASIC, "--repeat", "auto", "--budget", "٣m"], "--budget '٣m'"),
    ("margin a superscript share", ["run", "b", *BASIC, "--margin", "²%"], "--margin '²%'"),
    ("precision a superscript share", ["run", "b", *BASIC, "--repeat", "auto", "--precision", "³%"],
     "--precision '³%'"),
    ("iperf3 server port a superscript", ["run", "b", *BASIC, "--iperf-server", "127.0.0.1:²"],
     "--iperf-server '127.0.0.1:²'"),
    ("recordcount a superscript", ["run", "b", *BASIC, "-p", "recordcount=²"], "-p recordcount=N"),
    ("server memory in Arabic-Indic digits", ["run", "b", "--target", "redis", "--server-memory", "٣g"],
     "--server-memory '٣g' is not a size"),
    ("server cpus in Arabic-Indic digits", ["run", "b", "--target", "redis", "--server-cpus", "٣"],
     "--server-cpus '٣' is not a cpuset"),
    ("slo limit in Arabic-Indic digits", ["run", "b", "--target", "redis", "--slo", "p99<٣ms"], "--slo 'p99<٣ms'"),
    ("disturbance size in Arabic-Indic digits", ["run", "b", "--target", "redis", "--disturb", "del:set:٢M@1s"],
     "size '٢m'"),
    ("placement unknown", ["run", "b", *BASIC, "--placement", "half"], "'--placement'"),
    ("error rate above 1", ["run", "b", *BASIC, "--max-error-rate", "2"], "'--max-error-rate'"),
    ("operations zero", ["run", "b", *BASIC, "--operations", "0"], "'--operations'"),
    ("unknown profile", ["run", "b", *BASIC, "--profile", "huge"], "'--profile'"),
    # numpy's SeedSequence takes no negative seed: a traceback in a worker (run), the controller (dry-run, calibrate)
    ("seed negative", ["run", "b", *BASIC, "--seed", "-1"], "'--seed': -1 is not in the range x>=0"),
    ("dry-run seed negative", ["dry-run", "b", "--seed", "-1"], "'--seed': -1 is not in the range x>=0"),
    ("calibrate seed negative", ["calibrate", "--seed", "-2"], "'--seed': -2 is not in the range x>=0"),
    ("unknown flag", ["run", "b", *BASIC, "--thread", "4"], "--threads"),
    ("no workload", ["run", *BASIC], "name at least one workload"),
    ("load without a target", ["load", "b"], "--target URL"),
    ("bad image spec", ["run", "b", "--target", "redis", "--target", "mongodb", "--image", "=x"], "TARGET=IMAGE"),
    ("up --port out of range", ["up", "redis", "--port", "99999"], "'--port': 99999 is not in the range 1<=x<=65535"),
    # OverflowError
    ("up --port negative", ["up", "redis", "--port", "-1"], "'--port': -1 is not in the range 1<=x<=65535"),
    ("docker host not a Docker URL", ["up", "redis", "--docker-host", "http://h:2375"], "tcp://HOST:2375"),
    ("docker host for a target not started", ["up", "redis", "--docker-host", "mongodb=tcp://h:2375"],
     "not among the targets"),
    ("docker host with the local backend", ["run", "b", "--target", "redis", "--docker-host", "tcp://h:2375",
                                            "--backend", "local"], "drop --backend local"),
    ("a label given two kinds", ["run", "b", "--target", "lazy", "--target-kind", "lazy=redis", "--target-kind",
                                 "lazy=mongodb", "--threads", "1"],
     "--target-kind lazy: given two kinds (redis and mongodb)"),
    # a deployment's shape was checked as its servers started: a skipped target, exit 1 and a result folder
    ("cluster of 0 shards", ["run", "b", "--target", "redis-cluster", "--server-config", "redis-cluster:shards=0",
                             "--threads", "1"], "redis-cluster: shards='0' — give a whole number from 3 to 32"),
    ("replicas beyond 32", ["run", "b", "--target", "redis-repl2", "--server-config", "redis-repl2:replicas=99999",
                            "--threads", "1"], "redis-repl2: replicas='99999' — give a whole number from 1 to 32"),
    # -- workload plug-ins (workload=package.module:Class)
    ("workload class not importable", ["run", "b", *BASIC, "-p", "workload=nosuch.module:Thing"],
     "cannot import nosuch.module"),
    ("workload class not a workload", ["run", "b", *BASIC, "-p", "workload=ycsbctl.workload.core:CoreWorkload"],
     "a subclass of ycsbctl.workload.plugin.Workload"),
    ("workload class without a colon", ["run", "b", *BASIC, "-p", "workload=site.ycsb.workloads.Other"],
     "write workload=package.module:Class"),
    ("workload with no binding for the target", ["run", "online-status", *BASIC], "cannot run on a basic target"),
    ("plug-in workload with the pymongo driver", ["run", "online-status", "--target", "mongodb://127.0.0.1:1/ycsb",
                                                  "-p", "mongodb.driver=pymongo"],
     "the workload OnlineStatus runs over ycsbctl's own MongoDB wire binding: drop -p mongodb.driver=pymongo"),
    ("online.structure unknown", ["run", "online-status", *BASIC, "-p", "online.structure=list"],
     "use hash, set or zset"),
    # -- files
    # -- disturbances (checked before anything starts: no server is contacted)
    ("disturbance with an unknown action", ["run", "b", *DISTURB, "drop:set:1M@2s"], "unknown action 'drop'"),
    ("disturbance of size 0", ["run", "b", *DISTURB, "del:set:0@2s"], "size 0"),
    ("disturbance beyond the duration", ["run", "b", *DISTURB, "del:set:1M@9s"], "beyond the point's 5 s"),
    ("disturbance on a type it cannot apply to", ["run", "b", *DISTURB, "lrem:set:1k@1s"],
     "lrem does not apply to a set"),
    ("removing disturbance repeated", ["run", "b", *DISTURB, "del:set:1k@1s/1s"], "runs once per point"),
    ("disturbance without a duration", ["run", "b", "--target", "redis://127.0.0.1:9", "--threads", "1",
                                        "--operations", "100", "--disturb", "del:set:1k@1s"], "give --duration S"),
    ("disturbance with no analogue on MongoDB", ["run", "b", "--target", "mongodb://127.0.0.1:9/ycsb", "--threads",
                                                 "1", "--duration", "5", "--disturb", "unlink:set:1k@1s"],
     "no analogue of unlink"),
    ("disturbance of a server-less target", ["run", "b", *BASIC, "--duration", "5", "--disturb", "del:set:1k@1s"],
     "no big keys to disturb"),
    ("unknown workload", ["run", "workload-z", *BASIC], "use one of insert, media-items, online-status, workload-a"),
    ("missing -P file", ["run", "b", *BASIC, "-P", "{files}/nope.properties"], "does not exist"),
    ("-P a directory", ["run", "b", *BASIC, "-P", "{files}"], "cannot be read"),
    ("-P a binary file", ["run", "b", *BASIC, "-P", "{files}/binary"], "give a text file"),
    ("-P a JSON file", ["run", "b", *BASIC, "-P", "{files}/config.json"], "give a text file"),
    ("-P a bad unicode escape", ["run", "b", *BASIC, "-P", "{files}/bad-escape.properties"], "four hex digits"),
    ("workload file with a bad value", ["run", "{files}/my-workload", *BASIC], "-p fieldcount=N"),
    ("-P alone, with a bad value", ["run", "-P", "{files}/my-workload", *BASIC], "-p fieldcount=N"),
    ("dry-run, bad property", ["dry-run", "b", "-p", "zeropadding=wide"], "-p zeropadding=N"),
    ("dry-run, no workload and no -P", ["dry-run", "--count", "1"], "name a workload"),
    # -- hostile numbers: NaN and infinities pass every range check ('nan < 0.1' is False) and broke a worker
    ("duration NaN", ["run", "b", *BASIC, "--duration", "nan"], "'--duration': 'nan' is not a finite number"),
    ("duration infinite", ["run", "b", *BASIC, "--duration", "inf"], "'--duration': 'inf' is not a finite number"),
    ("warm-up NaN", ["run", "b", *BASIC, "--warmup", "nan"], "'--warmup': 'nan' is not a finite number"),
    ("timeout NaN", ["load", "b", "--target", "basic://", "--timeout", "nan"], "'--timeout': 'nan' is not a finite"),
    # finite but beyond any deadline the engine can hold (nanoseconds in an int64): an OverflowError traceback
    ("duration 1e300", ["run", "b", *BASIC, "--duration", "1e300"], "'--duration': 1e+300 is not in the range"),
    ("warm-up of 1e12 s", ["run", "b", *BASIC, "--warmup", "1e12", "--duration", "1"],
     "'--warmup': 1000000000000.0 is not"),
    ("error rate NaN", ["run", "b", *BASIC, "--max-error-rate", "NaN"], "'NaN' is not a finite number"),
    ("calibrate duration infinite", ["calibrate", "--duration", "Infinity"], "'Infinity' is not a finite number"),
    ("compare alpha NaN", ["compare", "{files}", "--alpha", "nan"], "'nan' is not a finite number"),
    ("a float property of 1e999", ["run", "b", *BASIC, "-p", "readproportion=1e999"], "is not a finite number"),
    ("a rate of 400 digits", ["run", "b", *BASIC, "--target-rate", "9" * 400], "use a rate in ops/s"),
    ("an SLO limit of 400 digits", ["run", "b", *BASIC, "--slo", f"p99<{'9' * 400}ms"], "> 0 and finite"),
    ("a disturbance size of 400 digits", ["run", "b", *DISTURB, f"del:set:{'9' * 400}@1s"], "use a count of members"),
    ("server memory not a size", ["run", "b", "--target", "redis", "--threads", "1", "--server-memory", "nan"],
     "--server-memory 'nan' is not a size"),  # was: the target skipped as its server started (exit 1, a folder)
    ("server memory of 400 digits", ["run", "b", "--target", "redis", "--threads", "1", "--server-memory",
                                     "9" * 400 + "g"], "no host has that much memory"),  # was an OverflowError
    # -- files the user names: read or written, checked before anything starts
    ("MongoDB CA file missing", ["run", "b", "--target", "mongodb://127.0.0.1:9/ycsb?tls=true&tlsCAFile={files}/no.pem",
                                 "--threads", "1"], "cannot read the CA certificate {files}/no.pem: No such file"),
    ("MongoDB CA file without tls=true", ["run", "b", "--target", "mongodb://127.0.0.1:9/ycsb?tlsCAFile={files}/no.pem",
                                          "--threads", "1"], "(tlsCAFile): give the PEM file of the CA"),
    ("MongoDB CA file no certificate", ["run", "b", "--target", "mongodb://127.0.0.1:9/ycsb?tls=true&tlsCAFile="
                                        "{files}/config.json", "--threads", "1"], "NO_CERTIFICATE_OR_CRL_FOUND"),
    ("MongoDB client certificate missing", ["run", "b", "--target", "mongodb://127.0.0.1:9/ycsb?tls=true&"
                                            "tlsCertificateKeyFile={files}/no.pem", "--threads", "1"],
     "cannot read the tlsCertificateKeyFile {files}/no.pem: No such file"),
    # a client certificate or key that is missing was "does not answer (FileNotFoundError …)", exit 1
    ("PostgreSQL client certificate missing", ["run", "b", "--target", "postgresql://u@127.0.0.1:9/db?sslmode=require&"
                                               "sslcert={files}/no.pem", "--threads", "1"],
     "cannot read the sslcert {files}/no.pem: No such file"),
    ("MySQL client key missing", ["run", "b", "--target", "mysql://root@127.0.0.1:9/ycsb?ssl_key={files}/no.key",
                                  "--threads", "1"], "cannot read the ssl_key {files}/no.key: No such file"),
    ("Redis client certificate missing", ["run", "b", "--target", "rediss://127.0.0.1:9/0?ssl_certfile={files}/no.pem",
                                          "--threads", "1"], "cannot read the ssl_certfile {files}/no.pem"),
    ("Redis TLS check not one of redis-py's words", ["run", "b", "--target",
                                                     "rediss://127.0.0.1:9/0?ssl_cert_reqs=maybe",
                                                     "--threads", "1"],
     "ssl_cert_reqs='maybe': use ssl_cert_reqs=required"),
    ("compare -o beside --format json", ["compare", "{files}", "--format", "json", "-o", "{files}/c.html"],
     "-o {files}/c.html would be ignored: drop -o, or drop --format json"),
    ("compare -o under a file", ["compare", "{files}", "-o", "{files}/binary/compare.html"],
     "cannot write the comparison page (-o) {files}/binary/compare.html: Not a directory"),
    ("calibrate --json in a missing folder", ["calibrate", "--json", "{files}/none/cal.json"],
     "cannot write the --json file {files}/none/cal.json: No such file or directory ({files}/none)"),
    ("exportfile a folder", ["run", "b", *BASIC, "-p", "exportfile={files}"], "cannot write the exportfile"),
    ("exportfile under a file", ["run", "b", *BASIC, "-p", "exportfile={files}/binary/x.txt"], "Not a directory"),
    ("--out under a file", ["run", "b", "--target", "basic://", "--threads", "1,2", "--out", "{files}/binary/x"],
     "cannot write the result folder {files}/binary/x: Not a directory ({files}/binary): pass --out DIR"),
    ("--ycsb-home not a folder", ["run", "b", *BASIC, "--engine", "ycsb", "--ycsb-home", "{files}/none"],
     "{files}/none is not a folder: pass --ycsb-home DIR"),
    # a folder or a foreign file as the database was refused only without --load; with it, each point failed (exit 1)
    ("SQLite database a folder, with --load", ["run", "b", "--target", "sqlite://{files}", "--load", "--threads", "1"],
     "SQLite database {files} is a folder"),
    ("SQLite database a foreign file, loaded", ["load", "b", "--target", "sqlite://{files}/binary"],
     "{files}/binary is not a SQLite database"),
    ("import-ycsb --out under a file", ["import-ycsb", str(YCSB_LOG), "--out", "{files}/binary/x"],
     "cannot write the result folder {files}/binary/x"),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad-input-files")
    (d / "binary").write_bytes(bytes(range(256)) * 8)
    (d / "config.json").write_text('{\n  "recordcount": 1000\n}\n')
    (d / "bad-escape.properties").write_text("recordcount=1000\nname=\\u12\n")
    (d / "my-workload").write_text(f"recordcount=1000\nfieldcount=ten\nredis.password={SECRET}\n")
    return d


@dataclass(frozen=True)
class Outcome:
    """One case's command as it ended (or why it did not: a timeout), and the folders it was given (its
    working folder, state and claims)."""

    result: subprocess.CompletedProcess | Ended | None
    cwd: Path
    state: Path
    claims: Path
    error: str | None = None


# What the cases' commands import past `run`'s checks before they refuse (python -X importtime): pandas for an SLO, a
# result folder or `compare`, pydantic for the study-file model, the network baseline's and `dry-run`'s modules,
# pymongo's errors for a MongoDB URL. Imported once in each interpreter rather than again in every fork that needs them.
PRELOAD = ("pandas", "ycsbctl.results.frames", "ycsbctl.results.slo", "ycsbctl.cli.study_model",
           "ycsbctl.telemetry.network", "ycsbctl.workload.dryrun", "ycsbctl.results.ycsb_import", "pymongo.errors")


@pytest.fixture(scope="module")
def forks() -> Iterator[Forks]:
    """Two interpreters that have imported the CLI and :data:`PRELOAD`, each command of this module a fork of one of
    them (:mod:`tests.fixtures.cli_forks`: the start-up and imports each command would pay are paid twice)."""
    with cli_forks(2, PRELOAD) as both:
        yield both


@pytest.fixture(scope="module")
def outcomes(files: Path, forks: Forks, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every case's command, run once, two at a time, each in a fork of :func:`forks`.
    Each case has its own working folder, state folder and claim folder, so what one leaves behind is its own;
    the test of each case checks them after its command has ended, as it did when it ran the command itself (a
    command that did not end in time fails its own case, not the others)."""
    def run(case: tuple[str, list[str], str]) -> Outcome:
        name, args, _ = case
        base = tmp_path_factory.mktemp("case")
        cwd, state, claims = base / "cwd", base / "state", base / "claims"
        cwd.mkdir()
        env = cli_env(YCSBCTL_STATE_DIR=str(state), YCSBCTL_CLAIM_DIR=str(claims))  # this checkout's ycsbctl
        argv = [a.format(files=files) for a in args]
        try:
            done = forks.run(argv, cwd, env, timeout_s=60)
        except TimeoutError as exc:
            return Outcome(None, cwd, state, claims, f"{name}: {exc}")
        return Outcome(done, cwd, state, claims)

    with ThreadPoolExecutor(2) as pool:
        return dict(zip((c[0] for c in CASES), pool.map(run, CASES)))


@pytest.mark.parametrize(("case", "args", "says"), CASES, ids=[c[0] for c in CASES])
def test_malformed_input_is_one_line_exit_2_and_leaves_nothing(case, args, says, outcomes: dict[str, Outcome],
                                                                files: Path):
    o = outcomes[case]
    assert o.result is not None, o.error
    r, cwd = o.result, o.cwd
    assert r.returncode == 2, (case, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (case, r.stderr)
    assert says.format(files=files) in lines[0], (case, lines[0])
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert SECRET not in r.stderr  # no password, whole or in part
    assert not any(cwd.iterdir())  # no result folder, no exportfile
    servers = o.state / "servers.json"
    assert not servers.exists() or not json.loads(servers.read_text() or "[]"), "a server was started"
    assert not o.claims.exists() or not any(o.claims.iterdir()), "the host was claimed"


NO_NUMPY = """
import sys
class NoNumpy:  # an import of numpy (or pandas) fails: the refusal must come before any
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "pandas"):
            raise ImportError(f"{name} imported before the bad input was refused")
sys.meta_path.insert(0, NoNumpy())
from ycsbctl.cli import main
main()
"""


@pytest.mark.parametrize("case", ["recordcount not a number", "readproportion a word"])  # the plan's, the study's
def test_a_refusal_of_core_workload_input_comes_before_numpy_is_imported(case: str, tmp_path: Path):
    """The CLI's checks of bad input need no numpy (its import is most of a refusal's CPU): the core workload's
    distributions and generators are imported when a workload runs."""
    args = next(a for name, a, _ in CASES if name == case)
    r = subprocess.run([sys.executable, "-c", NO_NUMPY, *args], capture_output=True, text=True, timeout=60,
                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "imported before" not in r.stderr, r.stderr


@pytest.mark.parametrize("seconds", ["0.5", "²", "٣"])  # "²" was a traceback; "٣" was read as 3
def test_a_bad_baseline_length_in_the_environment_is_one_line_before_the_host_is_claimed(seconds: str, tmp_path: Path,
                                                                                         forks: Forks):
    claims, cwd = tmp_path / "claims", tmp_path / "cwd"
    cwd.mkdir()
    r = forks.run(["run", "b", *BASIC], cwd, cli_env(YCSBCTL_BASELINE_S=seconds, YCSBCTL_CLAIM_DIR=str(claims)))
    assert r.returncode == 2 and r.stderr == (f"error: YCSBCTL_BASELINE_S={seconds!r}: give whole seconds of iperf3 "
                                              "traffic from 1 to 60\n"), r.stderr
    assert not claims.exists() or not any(claims.iterdir())


def test_the_table_holds_at_least_40_cases():
    assert len(CASES) >= 40


def test_dry_run_takes_the_first_p_file_as_the_workload_as_run_and_load_do(tmp_path: Path):
    r = subprocess.run([*CLI, "dry-run", "-P", str(Path(__file__).parents[2] / "workloads" / "workloada"), "--count",
                        "200", "--seed", "1"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    named = subprocess.run([*CLI, "dry-run", "workload-a", "--count", "200", "--seed", "1"], capture_output=True,
                           text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout == named.stdout and len(r.stdout.splitlines()) == 200


def test_proportions_that_do_not_sum_to_one_are_said_once_with_the_shares_ycsb_uses(tmp_path: Path):
    args = ["-p", "readproportion=0.9", "-p", "updateproportion=0.9", "-p", "recordcount=100"]
    dry = subprocess.run([*CLI, "dry-run", "workload-a", *args, "--count", "4000", "--seed", "3"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    run = subprocess.run([*CLI, "run", "workload-a", *args, "--target", "basic://", "--threads", "1", "--operations",
                          "10", "--no-telemetry", "--quiet"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    for r in (dry, run):
        assert r.returncode == 0, r.stderr
        warnings = [x for x in r.stderr.splitlines() if "proportions sum to" in x]
        assert warnings == ["warning: the operation proportions sum to 1.8 (readproportion=0.9, updateproportion=0.9); "
                            "YCSB normalises them, so each is its share of the sum: READ 50%, UPDATE 50%"], r.stderr
    reads = sum(line.startswith("READ ") for line in dry.stdout.splitlines())
    assert 0.45 * 4000 <= reads <= 0.55 * 4000  # what the warning says is what the workload does
    quiet = subprocess.run([*CLI, "dry-run", "workload-a", "--count", "1"], capture_output=True, text=True, timeout=60)
    assert "proportions" not in quiet.stderr  # 0.5 + 0.5: nothing to say

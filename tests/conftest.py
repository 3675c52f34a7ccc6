"""Shared fixtures: real servers on loopback, started per session and always stopped."""

import atexit
import os
import shutil
import signal
import tempfile

pytest_plugins = [
    "tests.fixtures.session",
    "tests.fixtures.sigterm",
    "tests.fixtures.servers",
    "tests.fixtures.sql_servers",
    "tests.fixtures.study_servers",
    "tests.fixtures.docker",
    "tests.fixtures.experiments",
    "tests.fixtures.no_skip",
    "tests.fixtures.ycsb_basicdb",
    "tests.fixtures.truth",
    "tests.fixtures.lab",
    "tests.fixtures.remote_docker",
    "tests.fixtures.cpu_hog",
    "tests.fixtures.clean_checkout",
    "tests.fixtures.faults",
    "tests.fixtures.parallel",
    "tests.fixtures.reader_folders",
]

# Every network baseline of the suite's experiments (and of the commands they start) is iperf3's shortest
# run, 1 s, not the 3 s a user's gets: the tests of the baseline itself set what they check.
os.environ.setdefault("YCSBCTL_BASELINE_S", "1")
# ... and measured once for the session: the first sweep's loopback figure is kept in a file of this session,
# which every later sweep (and the commands they start) reads, its note saying so. The tests of the baseline
# and of its note unset it.
_MEMO = os.path.join(tempfile.gettempdir(), f"ycsbctl-test-baseline-{os.getpid()}.json")
if "YCSBCTL_BASELINE_MEMO" not in os.environ:
    os.environ["YCSBCTL_BASELINE_MEMO"] = _MEMO
    atexit.register(lambda: os.path.exists(_MEMO) and os.unlink(_MEMO))
# `compare` without a control target tests against this host's drift record (results/host_drift.py): the
# suite reads none, so its verdicts use the stated default margin, whatever the user's record holds; the tests
# of the record point it elsewhere. The folder is one under /dev/null: nobody can create it, root included (a
# folder /nonexistent/... was created by a mutant that wrote its record there, and a later suite on the same
# disk read a ±2 % margin from it), and code that writes there fails loudly.
os.environ.setdefault("YCSBCTL_CACHE_DIR", os.path.join(os.devnull, "ycsbctl-test-cache"))
# PostgreSQL's and MariaDB's initialised data folders are kept once per session (provision/init_template.py) in a
# folder of the session's own, removed at the end: the first server of each kind initialises, later ones copy.
_TEMPLATES = tempfile.mkdtemp(prefix="ycsbctl-test-templates-")
if "YCSBCTL_TEMPLATE_DIR" not in os.environ:
    os.environ["YCSBCTL_TEMPLATE_DIR"] = _TEMPLATES
atexit.register(shutil.rmtree, _TEMPLATES, True)

# A run started in the background of a non-interactive shell (`make test &`, some CI runners) begins
# with SIGINT ignored, and every process the tests start would inherit that: the Ctrl-C tests' SIGINT
# would then do nothing. Python's own handler is what an interactive user has; children get the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

"""Shared fixtures: real servers on loopback, started per session and always stopped."""

pytest_plugins = [
    "tests.fixtures.servers",
    "tests.fixtures.docker",
    "tests.fixtures.experiments",
    "tests.fixtures.no_skip",
    "tests.fixtures.ycsb_basicdb",
    "tests.fixtures.truth",
    "tests.fixtures.lab",
    "tests.fixtures.remote_docker",
]

"""The exit codes a script reads (ycsbctl/results/exit_codes.py): the manual's table and every command's ``--help``
say the table the code holds, each code with its folder status (the rule that picks one: tests/experiment/
test_outcome.py)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from tests.fixtures.docs import docs_page
from ycsbctl.results.exit_codes import EXIT_CODES

FOLDER_STATUS = {0: "complete", 3: "complete", 1: "partial (complete when only the report failed)", 2: "—",
                 130: "interrupted"}


def test_the_manual_lists_each_exit_code_with_its_folder_status_and_words():
    page = docs_page("guide/result-folder.md")
    block = page.split("<!-- exit-codes:", 1)[1].split("-->", 1)[1].split("\n\n", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block.strip().splitlines()[2:]]
    assert [(int(code), status, words) for code, status, words in rows] == [
        (code, FOLDER_STATUS[code], words) for code, words in EXIT_CODES.items()]


@pytest.mark.parametrize("command", ["run", "load", "rerun"])
def test_every_command_that_measures_lists_the_exit_codes_in_its_help(command):
    from ycsbctl.cli import main

    out = CliRunner().invoke(main, [command, "--help"], terminal_width=400).output
    flat = re.sub(r"\s+", " ", out)
    assert "Exit codes:" in out
    for code, words in EXIT_CODES.items():
        assert f"{code}: {words}" in flat, (code, flat[-800:])


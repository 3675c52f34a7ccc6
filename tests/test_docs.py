"""The manual cannot rot: every shell block of the MkDocs pages (``docs/``) and of the README is either run by
:mod:`tests.test_docs_examples`, at small scale (the blocks of :data:`tests.fixtures.doc_examples.EXAMPLES`, found
by their text), or marked illustrative on the line right before its fence with what it needs that the tests cannot
give (``<!-- illustrative: needs another host -->``); docs/development/tests.md counts both, and says why. The
README stays a front page: short, its first ``ycsbctl run`` near the top."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.fixtures.doc_examples import EXAMPLES
from tests.fixtures.docs import MARKER, ROOT, Block, blocks, docs_pages

SHELL = ("sh", "bash", "console", "shell")  # fence info strings of shell blocks


def manual() -> list[Path]:
    return [ROOT / "README.md", *docs_pages()]


def test_every_fence_says_what_it_holds():
    """A bare fence could hide a command from the check below: each names its language (``text`` for neither)."""
    bare = [b.where() for p in manual() for b in blocks(p) if not b.info]
    assert not bare, f"fences without an info string (sh, text, json, …): {bare}"


def shell_blocks() -> list[Block]:
    return [b for p in manual() for b in blocks(p) if b.info.split()[0] in SHELL]


def test_every_shell_block_is_run_or_says_what_it_needs():
    wrong = []
    for b in shell_blocks():
        runs = b.text in EXAMPLES
        if runs == b.illustrative:  # neither (it could rot unseen), or both (say one thing)
            wrong.append(f"{b.where()}: " + ("run by tests/test_docs_examples.py and marked illustrative" if runs else
                                             f"neither run by tests/test_docs_examples.py nor marked {MARKER}"))
        elif b.illustrative and not b.reason:
            wrong.append(f"{b.where()}: an illustrative marker says what the block needs: {MARKER}")
    assert not wrong, "\n".join(wrong)


def test_every_block_run_is_still_in_the_manual():
    shown = {b.text for p in manual() for b in blocks(p)}
    assert not [text for text in EXAMPLES if text not in shown], "a block of EXAMPLES is no longer in docs/ or README"


def test_the_count_of_blocks_run_and_illustrative_is_the_manuals():
    """docs/development/tests.md says how many shell blocks there are, how many run, and how many are illustrative
    for each reason (its table): the numbers of the blocks found, so the page cannot go stale."""
    page = (ROOT / "docs" / "development" / "tests.md").read_text(encoding="utf-8")
    said = r"Of the (\d+) shell blocks of README\.md and docs/, (\d+) run .*? (\d+) are illustrative"
    m = re.search(said, page, re.S)
    assert m, "docs/development/tests.md: 'Of the N shell blocks of README.md and docs/, R run … I are illustrative'"
    found = shell_blocks()
    illustrative = Counter(b.reason for b in found if b.illustrative)
    assert [int(g) for g in m.groups()] == [len(found), len(found) - sum(illustrative.values()),
                                            sum(illustrative.values())]
    rows = page.split("<!-- illustrative-reasons -->")[1].split("\n\n")[0]
    table = dict(re.findall(r"^\| (.+?) \| (\d+) \|$", rows, re.M))
    assert {k: int(v) for k, v in table.items()} == dict(illustrative), sorted(illustrative.items())


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


def test_an_illustrative_marker_without_a_reason_gives_none(tmp_path: Path):
    """A bare ``<!-- illustrative -->`` is read as a marker with an empty reason (which the check above refuses)."""
    page = tmp_path / "page.md"
    page.write_text("<!-- illustrative -->\n```sh\nycsbctl a\n```\n\n<!-- illustrative: needs another host -->\n"
                    "```sh\nycsbctl b\n```\n\n```sh\nycsbctl c\n```\n", encoding="utf-8")
    assert [b.reason for b in blocks(page)] == ["", "needs another host", None]

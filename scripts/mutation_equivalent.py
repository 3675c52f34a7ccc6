"""Equivalent mutants: changes that no input can tell from the original (same output for every value the
code can be given), each with why. They are listed, not scored.

Keyed "module: the source line, stripped | the change" (mutation_ops.Mutant.key), so that they stay named
when lines move; tests/test_mutation_map.py fails on an entry that no longer names a mutant the tool makes.
The entries are data, scripts/mutation_equivalent.json (key -> why), in the order they were judged (a new one
goes at the end). The equivalents of whole kinds of change (a drawing call's style numbers, a wait's timeout,
…) are rules instead: scripts/mutation_rules.py.

A key names every mutant of that change on that source line: a line that holds one change twice (``row[0][0]``,
or the same line written in two places) has one key for both, and an entry sets both aside. An entry judged for
one of them would hide the other, scored one (``spending.py``'s two ``Sub -> Add`` of one line: one equivalent by
symmetry, the other making every step cross). So an entry must name one mutant (tests/test_mutation_map.py): a
line that holds the change twice is split first, so that each mutant has a name, and a judgement, of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

EQUIVALENT: dict[str,
                 str] = json.loads(Path(__file__).with_name("mutation_equivalent.json").read_text(encoding="utf-8"))

"""Equivalent mutants: changes that no input can tell from the original (same output for every value the
code can be given), each with why. They are listed, not scored.

Keyed "module: the source line, stripped | the change" (mutation_ops.Mutant.key), so that they stay named
when lines move; tests/test_mutation_map.py fails on an entry that no longer names a mutant the tool makes.
The entries sit in four parts, scripts/mutation_equivalent_1.py to _4.py, in the order they were judged
(a new one goes at the end of the last part), so that no module is over 400 lines. The equivalents of
whole kinds of change (a drawing call's style numbers, a wait's timeout, …) are rules instead:
scripts/mutation_rules.py.
"""

from __future__ import annotations

import mutation_equivalent_1
import mutation_equivalent_2
import mutation_equivalent_3
import mutation_equivalent_4

EQUIVALENT: dict[str, str] = {**mutation_equivalent_1.EQUIVALENT, **mutation_equivalent_2.EQUIVALENT,
                              **mutation_equivalent_3.EQUIVALENT, **mutation_equivalent_4.EQUIVALENT}

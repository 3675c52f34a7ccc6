"""The sweep's axes as the command line writes them: thread ladders (``8..128``) and offered rates
(``10k..80k/10k``), each parsed into its list or refused in one line.
"""

from __future__ import annotations

import re

from ycsbctl.errors import UserError
from ycsbctl.user_input import finite, whole_number


def parse_threads(text: str) -> list[int]:
    """``32`` → [32]; ``8,16,32`` → as given; ``8..128`` → doubling from 8 up to 128."""
    text = text.strip()
    m = re.fullmatch(r"([0-9]+)\s*\.\.\s*([0-9]+)", text)  # ASCII digits: the one rule (ycsbctl.user_input)
    try:
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo < 1 or hi < lo:
                raise ValueError
            out, t = [], lo
            while t <= hi:
                out.append(t)
                t *= 2
            return out
        values = [whole_number(x) for x in text.split(",")]  # an empty item (8,,16 or 8,) is a typo, not nothing
        if not values or min(values) < 1:
            raise ValueError
        return values
    except ValueError:
        raise UserError(f"--threads {text!r}: use a number (32), a list (8,16,32) or a doubling range "
                        "(8..128), all ≥ 1") from None


_RATE = r"([0-9]+(?:\.[0-9]+)?)\s*([kKmM]?)"  # 500, 2.5k, 1M (k = 1,000, M = 1,000,000)
_RATE_HELP = ("use a rate in ops/s (5000 or 5k), a list (10k,20k,40k), a doubling range (1k..16k) or a range "
              "with a step (10k..80k/10k); k = 1,000, M = 1,000,000, every rate > 0")


def _rate(number: str, suffix: str) -> float:
    """ops/s of ``2.5`` ``k``; ValueError for a number of so many digits that it is infinite."""
    return finite(float(number) * {"": 1, "k": 1e3, "m": 1e6}[suffix.lower()])


def parse_rates(text: str, flag: str = "--target-rate") -> list[float]:
    """Offered rates in ops/s, like :func:`parse_threads`: ``5k`` → [5000]; ``10k,20k,40k`` as given;
    ``1k..16k`` doubling from 1k up to 16k; ``10k..80k/10k`` from 10k to 80k in steps of 10k."""
    text = text.strip()
    try:
        m = re.fullmatch(rf"{_RATE}\s*\.\.\s*{_RATE}(?:\s*/\s*{_RATE})?", text)
        if m:
            lo, hi = _rate(m.group(1), m.group(2)), _rate(m.group(3), m.group(4))
            step = _rate(m.group(5), m.group(6)) if m.group(5) else None
            if lo <= 0 or hi < lo or step is not None and step <= 0:
                raise ValueError
            if step is None:
                n = 0
                while lo * 2 ** (n + 1) <= hi * (1 + 1e-9):
                    n += 1
                return [lo * 2**i for i in range(n + 1)]
            count = int((hi - lo) / step + 1e-9) + 1
            if count > 1000:
                raise ValueError
            return [round(lo + i * step, 6) for i in range(count)]
        values = []
        for piece in text.split(","):
            one = re.fullmatch(_RATE, piece.strip())
            if one is None or _rate(*one.groups()) <= 0:
                raise ValueError
            values.append(_rate(*one.groups()))
        if not values:
            raise ValueError
        return list(dict.fromkeys(values))
    except ValueError:
        raise UserError(f"{flag} {text!r}: {_RATE_HELP}") from None

"""``make mutation``'s whole-map sample (scripts/mutation_sample.py) and its equivalence rules
(scripts/mutation_rules.py): every module drawn first, then each module's share; the interval is
Clopper–Pearson's; a rule sets aside a drawing call's style number or a wait's timeout, never a number
that feeds a figure."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from itertools import islice
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import mutation_rules  # noqa: E402
import mutation_sample  # noqa: E402


def test_the_first_round_draws_one_of_every_module_then_each_modules_share():
    population = {"a": list(range(60)), "b": list(range(30)), "c": list(range(9)), "d": [0]}
    order = list(mutation_sample.draw_order(population, seed=7))
    assert {m for m, _ in order[:4]} == set(population)  # every module contributes before any draws twice
    assert Counter(m for m, _ in order) == {m: len(v) for m, v in population.items()}  # each mutant once
    assert len(set(order)) == len(order)
    # after 50 draws (4 + 46 by share), each module's count is its share of 100 to within one
    first50 = Counter(m for m, _ in order[:50])
    for m, items in population.items():
        assert abs(first50[m] - max(1, len(items) * 50 / 100)) <= 1, (m, first50)
    # the seed fixes the order; another seed changes it
    assert list(mutation_sample.draw_order(population, seed=7)) == order
    assert list(islice(mutation_sample.draw_order(population, seed=8), 20)) != order[:20]


def test_the_interval_is_clopper_pearsons():
    # the exact interval is the Beta quantiles: Beta(k, n-k+1) at 2.5 %, Beta(k+1, n-k) at 97.5 %
    from scipy.stats import beta

    low, high = mutation_sample.interval(45, 50)
    assert low == pytest.approx(beta.ppf(0.025, 45, 6), rel=1e-6)
    assert high == pytest.approx(beta.ppf(0.975, 46, 5), rel=1e-6)
    assert mutation_sample.interval(50, 50)[1] == 1.0
    assert mutation_sample.interval(0, 0) == (0.0, 1.0)


def _ruled(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    rules = mutation_rules.by_rule(tree)
    return {f"{n.lineno}:{n.value!r}": rules[id(n)] for n in ast.walk(tree) if id(n) in rules}


def test_the_client_libraries_own_timeout_keywords_are_timeouts_and_their_other_numbers_stay_scored():
    got = _ruled(
        "c = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=10, db=0)\n"  # 1: db stays scored
        "m = MongoClient(url, maxPoolSize=1, serverSelectionTimeoutMS=int(max(t, 2.0) * 1000), timeoutMS=t * 1001)\n"
        "p = pymysql.connect(host=h, port=3306, read_timeout=30, write_timeout=30)\n"            # 3: the port stays
        "with client(url, 60.0) as c: pass\n"
        "x = clients(url, 7)\n"                                                                  # 5: another name
        "with AdminConnection(url, 30.0) as c: pass\n")
    assert got == {"1:5.0": "wait-timeout", "1:10": "wait-timeout", "2:2.0": "wait-timeout", "2:1000": "wait-timeout",
                   "2:1001": "wait-timeout", "3:30": "wait-timeout", "4:60.0": "wait-timeout", "6:30.0": "wait-timeout"}


def test_a_rule_sets_aside_style_and_timeout_numbers_and_nothing_that_feeds_a_figure():
    got = _ruled(
        "ax.plot(x, y / 1000, lw=2, ms=5, alpha=0.3)\n"           # 1: the unit factor stays scored
        "ax.errorbar(x, y, yerr=[lo, hi], capsize=2.5, elinewidth=1)\n"
        "fig = Figure(figsize=(9, 5.6))\n"
        "ax.set_ylim(bottom=0, top=1.15 * top)\n"                  # 4: axis limits stay scored
        "t.join(timeout=5 * interval + 5)\n"                       # 5: numbers aside, the * and + stay
        "conn = connect(url, 5.0)\n"
        "json.dump(out, f, indent=1)\n"
        "r = ttest(a, b, alpha=0.05)\n"                            # 8: a significance level is no style
        "p = np.percentile(lat, 99)\n"                             # 9: a percentile stays scored
        "slow = ratio > 1.5\n"                                     # 10: a threshold stays scored
        "time.sleep(0.05)\n"
        "await asyncio.sleep(0)\n"                                 # 12: a yield to the other tasks stays scored
        "b.last_error = str(errors[0])[:300]\n"
        "rows = reply[:300]\n"                                     # 14: a slice of data stays scored
        "ax.annotate('x', (1, 2), xytext=(3, -12), textcoords='offset points')\n"
        "ax.annotate('x', (1, 2), xytext=(3, 40))\n"                # 16: a place in the data stays scored
        "def ping(url, timeout_s=1.5, retries=3): pass\n"          # 17: retries stays scored
        "@lru_cache(maxsize=4096)\n"
        "def text(kind): pass\n"
        "rows = query(url, 'SELECT 1', 5.0, 2)\n"                  # 20: a query's argument after the timeout stays
        "s = PgSession(url, 5.0)\n")
    assert got == {"1:2": "drawing-style", "1:5": "drawing-style", "1:0.3": "drawing-style",
                   "2:2.5": "drawing-style", "2:1": "drawing-style", "3:9": "drawing-style", "3:5.6": "drawing-style",
                   "5:5": "wait-timeout", "6:5.0": "wait-timeout", "7:1": "json-indent",
                   "11:0.05": "poll-interval", "13:300": "error-text-cap",
                   "15:3": "drawing-style", "15:12": "drawing-style",
                   "17:1.5": "wait-timeout", "18:4096": "cache-size", "20:5.0": "wait-timeout",
                   "21:5.0": "wait-timeout"}
    assert set(mutation_rules.RULES) == {"drawing-style", "wait-timeout", "json-indent", "poll-interval",
                                             "error-text-cap", "cache-size"}


def test_subplots_panel_ratios_are_drawing_style_and_the_grid_and_other_keys_stay_scored():
    got = _ruled(
        "axes = fig.subplots(1, 3, gridspec_kw={'width_ratios': [3, 3, 1.4], 'left': 0.2})\n"  # 1: 1, 3, left scored
        "axes = fig.subplots(2, 1, height_ratios=(2, 1.5))\n"
        "gs = GridSpec(1, 2, width_ratios=[7, 8])\n"                 # 3: not subplots: stays scored
        "panels = layout(gridspec_kw={'width_ratios': [5, 6]})\n")   # 4: not subplots: stays scored
    assert got == {"1:3": "drawing-style", "1:1.4": "drawing-style", "2:2": "drawing-style", "2:1.5": "drawing-style"}
    ruled = _ruled("axes = fig.subplots(1, 3, gridspec_kw={'width_ratios': [9, 9, 1.4]})\n")
    assert ruled == {"1:9": "drawing-style", "1:1.4": "drawing-style"}  # the grid's 1 and 3 stay scored


def test_a_constant_named_timeout_s_is_a_timeout_and_other_constants_stay_scored():
    got = _ruled("STOP_TIMEOUT_S = 30.0\n"
                 "READY_TIMEOUT_S = 60\n"
                 "TIMEOUT_SHARE = 0.5\n"            # 3: not a timeout in seconds
                 "MIN_STALL_S = 1.0\n"               # 4: a threshold
                 "T_TIMEOUT_S = 2 * INTERVAL_S\n"    # 5: an expression, its 2 stays scored
                 "BUSY_DELAYS_S = (0.001, 0.25)\n"   # 6: a retry's waits, each given to sleep()
                 "RETRY_DELAYS_S = (0.5, 2 * X)\n")  # 7: an expression in it: all stay scored
    assert got == {"1:30.0": "wait-timeout", "2:60": "wait-timeout", "6:0.001": "poll-interval",
                   "6:0.25": "poll-interval"}

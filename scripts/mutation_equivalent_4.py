"""Equivalent mutants, part 4 of 4, in the order they were judged: see scripts/mutation_equivalent.py."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {}
# The stores' and workloads' survivors of the round-6 draws (issue 43).
EQUIVALENT.update({
    "ycsbctl/stores/elasticsearch/rest.py: at = data.find(b\"\\ncontent-length: \", 0, head) if head > 0 else -1 | Gt -> GtE":
        "head is where the head ends (-1: not yet): at 0, a find in data[0:0] finds nothing (-1) as the else does, "
        "so > 0 and >= 0 give the same at for every data",
    "ycsbctl/workload/media_items/dataset.py: if 5 <= len(word) <= 9: | 9 -> 10":
        "the longest word the loop makes is 9 letters (at most 4 syllables of 2, rng.integers(2, 5), and one final "
        "consonant): no word of 10 letters exists to let through",
    "ycsbctl/workload/media_items/truth.py: bounds = np.searchsorted(self.data.names[order], np.arange(NAMES + 1)) | 1 -> 2":
        "one bound more, for a name number NAMES that no item has (its run starts at the end, as NAMES's does): "
        "matching reads bounds[number] and bounds[number + 1] for numbers below NAMES only",
    "ycsbctl/stores/tarantool/binding.py: while n - pos >= 5: | GtE -> Gt":
        "with exactly 5 bytes left (a length prefix alone) only a packet of length 0 would be whole, and every "
        "Tarantool reply holds at least its header map: the loop breaks on end > n either way and keeps the bytes",
    "ycsbctl/stores/redis/disturb.py: BATCH = 1_000  # members per building command (~0.3-1 ms of the server's time each) | 1000 -> 1001":
        "how many members each building command adds: the key holds the same size members m0 .. m<size-1> either "
        "way (the last command adds what is left); only the number of commands differs",
    "ycsbctl/stores/redis/disturb.py: POLL_S = 0.001  # how often ``expire`` asks whether the key is gone | 0.001 -> 0.00101":
        "the poll's interval is the resolution of the 'gone N s after it expired' figure, which the note prints to "
        "1 ms: a poll every 1 or 1.01 ms finds the key gone within the same millisecond",
    "ycsbctl/stores/memcached/binding.py: stop = start + int(buf[buf.rfind(b\" \", pos, eol) + 1:eol]) | 1 -> 0":
        "int() skips the whitespace around a number: the byte count read from the last space of the VALUE line or from the character after it is the same count",
    "ycsbctl/stores/memcached/binding.py: if eol + int(data[data.rfind(b\" \", 0, eol) + 1:eol]) + 9 == len(data): | 1 -> 0":
        "int() skips the whitespace around a number: the byte count read from the last space of the VALUE line or from the character after it is the same count",
    "ycsbctl/stores/memcached/binding.py: if eol < 0: | 0 -> 1":
        "only a reply line that is empty, at the start of the buffer, is told apart (buffered instead of handed on), "
        "and memcached's text protocol has no empty reply line: every one is a status, VALUE, END or an error",
    "ycsbctl/stores/redis/cluster_chain.py: self.stage, self.hops = 1, 0 | 1 -> 2":
        "stage is only ever asked whether it is 0 (the HMSET, or a READ / UPDATE) or not (an INSERT's ZADD): 1 and "
        "2 both say the ZADD",
    "ycsbctl/stores/redis/cluster_chain.py: self.need = self.st = self.stage = self.hops = self.req_need = 0 | 0 -> -1":
        "the slots' first values are never read: issue() sets stage, hops and st, and send() need and req_need, "
        "before the chain waits for any reply; a chain that finds its shard unconnected finishes without reading them",
    "ycsbctl/stores/redis/cluster_chain.py: self.need = self.st = self.stage = self.hops = self.req_need = 0 | 0 -> 1":
        "the slots' first values are never read: issue() sets stage, hops and st, and send() need and req_need, "
        "before the chain waits for any reply; a chain that finds its shard unconnected finishes without reading them",
    "ycsbctl/stores/postgresql/messages.py: while pos < len(self.raw): | Lt -> LtE":
        "first_row walks raw only when the reply has rows, and raw is a reply judged by its ending (SELECT n, "
        "n > 0) whose every message came in this read (a DataRow read before would have counted rows and "
        "skipped that path): the walk finds its 'D' and stops before pos reaches the end",
    "ycsbctl/stores/sphinx/wire.py: if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions | 13 -> 14":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions | 13 -> 12":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if first == 0xFE and size < 9:  # the EOF after the column definitions | 9 -> 10":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if first == 0xFE and size < 9:  # the EOF after the column definitions | 9 -> 8":
        "in the column definitions a packet whose first byte is 0xFE is the EOF (5 bytes of payload, 9 with its head): a definition begins with its catalog's length (3, 'def'), never 0xFE, so any bound above 9 bytes of packet (5 of payload) tells the same packets apart",
    "ycsbctl/stores/sphinx/wire.py: if end > n:  # a definition cut short: not a whole reply | Gt -> GtE":
        "data that ends where a definition ends is no whole reply either way (skim returns -1 at once, or walks on "
        "and finds no row or EOF after it: -1); only whether the head is learnt from it differs, and the next "
        "whole reply learns it",
    "ycsbctl/stores/sphinx/wire.py: CAPABILITIES = 1 | 4 | 512 | 8192 | 32768 | 512 -> 513":
        "513 is 512 | 1, and 1 is in the OR already: the same capabilities, bit for bit",
    "ycsbctl/stores/tarantool/iproto.py: if len(data) > 5 and data[3] == 0 and data[4] == 10 and b\"\\0\" in data[5:]:  # 3-byte length, seq 0, protocol 10 | 5 -> 4":
        "the last condition looks for the NUL that ends the version in data[5:]: five bytes have none there, so "
        "len > 4 lets no more data through than len > 5",
    "ycsbctl/stores/sphinx/media_items.py: window = max(1000, q.offset + q.limit) | 1000 -> 1001":
        "max_matches only has to hold the page (offset + limit, which max() keeps); a floor of 999, 1000 or 1001 "
        "returns the same page rows, and the total is SHOW META's total_found, which counts every match past the "
        "window (test_sphinx_counts_every_match_past_its_window: 1,205 matches, max_matches 1,000); it sizes only "
        "searchd's top-N queue",
    "ycsbctl/stores/sphinx/media_items.py: window = max(1000, q.offset + q.limit) | 1000 -> 999":
        "max_matches only has to hold the page (offset + limit, which max() keeps); a floor of 999, 1000 or 1001 "
        "returns the same page rows, and the total is SHOW META's total_found, which counts every match past the "
        "window (test_sphinx_counts_every_match_past_its_window: 1,205 matches, max_matches 1,000); it sizes only "
        "searchd's top-N queue",
    # the s9 whole-map sample's survivors (judged by the lead)
    "ycsbctl/stores/sphinx/binding.py: return int(r), [], 0 | 0 -> -1":
        "rows changed of a statement that got no reply (TIMEOUT, lost connection): the plug-in contract "
        "(workload/plugin.py) gives rows changed with OK only, and a failed status is what every caller acts on",
    **{f"ycsbctl/stores/clickhouse/store.py: query(url, \"SELECT 1\", max(timeout_s, 10.0)) | 10.0 -> {_to}":
       "a wait floor for one admin query (how long it may wait, not what it finds), like CLEAR_WAIT_S; that a plug-in "
       "workload's SELECT 1 gets it whatever the operations' timeout (max -> min) is pinned (test_clickhouse_store, a "
       "0.1 s answer)"
       for _to in ("10.1", "9.9")},
    "ycsbctl/report/deployment_findings.py: lines.append(f\"{t}, {_point_name(r)}: {what} {e.get('at_s', 0):.1f} s "
    "into the measured window{paused}\" | 0 -> 1":
        "every fork event telemetry/capture.py writes carries at_s (capture.py: the fork's sample time minus the "
        "window's start); the default is never taken",
    "ycsbctl/stores/clickhouse/media_items.py: r = rows[0] | 0 -> -1":
        "rows of one id: the study loads each id once, and a MergeTree duplicate of an id (a load repeated) holds "
        "the same item, the dataset being a function of the id (media_items/dataset.py): first and last are alike",
})
for _line in ('ax.annotate("one core", (0.01, 100), xycoords=("axes fraction", "data"), xytext=(0, 3), textcoords="offset points",',
              'ax.annotate(f"all {cores} cores", (0.01, 100 * cores), xycoords=("axes fraction", "data"), xytext=(0, 3),'):
    for _to in ("0.0101", "0.0099"):
        EQUIVALENT[f"ycsbctl/report/resource_plots.py: {_line} | 0.01 -> {_to}"] = \
            ("a label's inset from the axis's left edge, 1 % of its width: 1 % of that is 0.07 px in the 9-inch figure "
             "at 100 dpi, the same pixels (its height, the line it names, stays scored)")
_PLOT_STYLE_EQUIVALENT: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "fig.suptitle(title, fontsize=12, fontweight=\"bold\", y=0.98)": (
        (("0.98", "0.9898"), ("0.98", "0.9702")),
        "the title's place in the figure's top margin, 5 px up or down of 520 (every figure's axes start at 80-86 % of "
        "its height): as subplots_adjust's margins (the drawing-style rule), where the layout puts it, not what it says"),
    "fig.text(0.5, 0.915, subtitle, ha=\"center\", fontsize=8.5, color=\"#444\")": (
        (("0.915", "0.92415"), ("0.915", "0.90585")),
        "the subtitle's height between the title and the axes, 5 px up or down: as subplots_adjust's margins (the "
        "drawing-style rule); its centre (0.5) stays scored"),
    "return len(v) > 1 and float(v.max() / v.min()) > SPREAD_FOR_LOG": (
        (("1", "0"),), "one value's max over its min is 1, never more than 20: len(v) > 0 and > 1 decide alike"),
    "def spread_labels(fig: Figure, labels: list, step_pt: float = 2.0, rounds: int = 200) -> None:": (
        (("2.0", "2.02"), ("2.0", "1.98"), ("200", "201"), ("200", "199")),
        "the labels' search: each moves up in 2-pt steps until it overlaps none (the test), and ends at most a step "
        "past clear: 1 % of the step is 0.02 pt a step (under a pixel for the dozens of steps a crowded label takes); "
        "200 rounds (400 pt, taller than any figure) is a bound never reached"),
    "if len(labels) < 2:": (
        (("2", "1"),), "a single label overlaps no other: the loop then moves nothing and returns (the early return saves "
                "only the renderer)"),
    "OP_STYLES = {\"READ\": \"-\", \"UPDATE\": \"--\", \"INSERT\": \":\", \"SCAN\": \"-.\", "
    "\"READ-MODIFY-WRITE\": (0, (5, 1, 1, 1)),": (
        (("0", "1"), ("0", "-1"), ("5", "6"), ("5", "4"), ("1", "2")),
        "READ-MODIFY-WRITE's dash pattern (points, scaled by the line width): where it starts (the offset) and a "
        "dash or gap a point longer or shorter keep it a long dash and a dot, unlike every other operation's; a "
        "segment of 0 (1 -> 0), which would draw no dot or no gap, stays scored (test_plot_style)"),
}
EQUIVALENT["ycsbctl/report/summary.py: return f\"{v / 1e6:.2g} s\" if v < 1e7 else f\"{v / 1e6:.0f} s\" | 10000000.0 -> 10100000.0"] = \
    ("from 10 s to 10.1 s both formats write '10 s' (two significant digits of 10.0x, or none after the point); "
     "the other side, 1e7 -> 9.9e6, turns 9.9 s into 10 s and stays scored")
for _line in ("limit = _limit_us(searches[0][\"slo\"])",
              "handles += [Line2D([], [], color=\"#555\", lw=1, ls=\"-.\", label=f\"SLO {searches[0]['slo']}\"),"):
    EQUIVALENT[f"ycsbctl/report/rate_plots.py: {_line} | 0 -> -1"] = \
        ("a plan has one --slo (Plan.slo, one string), which every search of its folder stores (rate_search.py's doc): "
         "the first search's objective is the last's")
for _from, _to in (("0.99", "0.9999"), ("0.99", "0.9801"), ("0.01", "0.0101"), ("0.01", "0.0099")):
    EQUIVALENT["ycsbctl/report/rate_plots.py: ax.text(0.99, 0.01, \"bars: 95 % interval of the repetitions\" if repeated else "
               f"| {_from} -> {_to}"] = \
        ("the interval note's corner, 1 % of the axes in from their lower right (axes fraction, the note right- and "
         "bottom-aligned to it): 1 % of that moves it 8 px sideways in the 783-px-wide axes (9-inch figure at 100 dpi) "
         "or 0.04 px up, inside the axes either way: where the layout puts it, not what it says (as the title's place, "
         "_PLOT_STYLE_EQUIVALENT)")
EQUIVALENT["ycsbctl/report/compare.py: r[\"experiment\"] = c.experiments[0].id | 0 -> -1"] = \
    ("only where c.within, which is len(c.experiments) == 1 (Comparison.within): the one folder is the first and the "
     "last (the first folder of several, the baseline, is pinned by test_compare.py's three-folder α test)")
# the two whole-map samples of seeds 27116 and 27127 (issue 43, surv)
EQUIVALENT.update({
    "ycsbctl/stores/clickhouse/binding.py: return Status.OK, self.sql.row_fields(r.body.split(b\"\\n\", 1)[0], fields) | 1 -> 2":
        "the piece before the first newline is the same whatever the split's maxsplit from 1 on (0, no split, which "
        "leaves the row's newline on its last field, stays scored: test_clickhouse reads field9)",
    "ycsbctl/stores/clickhouse/media_items.py: return OK, Page(tuple(int(r[0]) for r in rows), total) | 0 -> -1":
        "the rows are SELECT id's, one column each: a row's [-1] is its [0]",
    **{"ycsbctl/experiment/calibrate.py: r = run_phase(PhaseSpec(\"load\", url, props, threads=min(8, plan.records), "
       f"processes=plan.processes, seed=plan.seed)) | 8 -> {_to}":
       "how many clients load the calibration records: every record is inserted once whichever client inserts it "
       "(the load checks each INSERT was OK, plan.records of them), and calibrate prints no figure of the load; "
       "min -> max (one client per record, which test_calibrate's connection count catches) stays scored"
       for _to in ("9", "7")},
    "ycsbctl/stores/mariadb/store.py: rows = int(cur.fetchone()[0]) | 0 -> -1":
        "both statements (SELECT COUNT(*) FROM usertable, SELECT 0) answer one column: its first is its last",
    "ycsbctl/stores/postgresql/stats.py: return num(row[0][0]) or 0.0 | 0 -> -1":
        "an aggregate without GROUP BY (coalesce(sum(...), 0)) answers one row of one column: [-1] is [0] for both "
        "indexes (0 -> 1, which finds nothing, and 'or 1.0' stay scored: test_postgresql_stats)",
    "ycsbctl/stores/tarantool/iproto.py: if b < 0x80: | Lt -> LtE":
        "the byte is a msgpack integer's first (Tarantool writes the reply type as one: IPROTO_REQUEST_TYPE): 0x80 is "
        "msgpack's empty fixmap, never an integer's first byte (positive fixints end at 0x7F, then 0xCC-0xCF)",
    "ycsbctl/engine/worker.py: BATCHED_WRITES_FROM = 32  # clients in one worker (bench engine: see WriteBatch) | 32 -> 31":
        "how many clients a worker needs before its requests of one loop turn are written together (WriteBatch): "
        "each request goes out with the same bytes in the same order either way and each operation is timed from "
        "its own write (chain.py: c.t0 = _now() next to transport.write); a speed tuning measured with bench "
        "engine, not a figure's arithmetic (test_batched_writes runs the batched path at BATCHED_WRITES_FROM + 8)",
})
for _to in ("1", "-1"):
    EQUIVALENT["ycsbctl/results/ycsb_text.py: op = ops.setdefault(metric, OpSummary(metric, 0, math.nan, math.nan, math.nan)) "
               f"| 0 -> {_to}"] = \
        ("an operation's summary is made only at its 'Operations' or 'Total Operations' line (ops starts empty, and "
         "a block's other keys join it only once it is there), and _apply sets its count from that very line next: "
         "the starting count is always overwritten")
for _to in ("0.0202", "0.0198"):
    EQUIVALENT["ycsbctl/report/plots.py: floor = float(measured[measured > 0].min()) / 2 if log_tp else 0.02 * top "
               f"| 0.02 -> {_to}"] = \
        ("on a linear axis a failed point that measured nothing is drawn at 2 % of the throughput axis's top, above "
         "its zero: 1 % of that is 0.0002 of the axis, under 0.1 px of its 330-390 px height (the log axis's half of the "
         "smallest throughput stays scored)")
EQUIVALENT["ycsbctl/report/compare.py: notes=c.notes, within=c.within, baseline=c.experiments[0].baseline, alpha=c.alpha, "
           "drift_margin=_margin_text(c), | 0 -> -1"] = \
    ("compare.html.j2 says the baseline target only where within, which is len(c.experiments) == 1 "
     "(Comparison.within): the one folder is the first and the last (between folders it names experiments[0].id)")
for _to in ("1.01e-09", "9.9e-10"):
    EQUIVALENT[f"ycsbctl/report/disturbance_report.py: fine = fine[fine[\"t_s\"].astype(float) < end - 1e-9]  "
               f"# the part-interval after the window's end | 1e-09 -> {_to}"] = \
        ("a tolerance for float rounding: the 100 ms intervals start 0.1 s apart and their starts are off by ~1e-15 s "
         "at most, so any margin between those drops the same interval at the window's end")
EQUIVALENT["ycsbctl/report/variant_study.py: width = 0.8 / max(len(targets), 1) | 1 -> 0"] = \
    "the figure is drawn only from rows (None without), each naming a target: len(targets) >= 1, so max(n, 1) is max(n, 0)"
EQUIVALENT["ycsbctl/report/variant_study.py: out.append((base, variant_name(base.rsplit(\"/\", 1)[-1], settings), "
           "variant_label(settings))) | 1 -> 2"] = \
    "rsplit's last item is the text after the last '/' whatever maxsplit >= 1 allows: [-1] of rsplit('/', 1) and ('/', 2) is one"
EQUIVALENT["ycsbctl/stores/redis/cluster.py: end = key.find(b\"}\", start + 1) | 1 -> 0"] = \
    "key[start] is b'{' (found just above), never b'}': a search for b'}' from start or from start + 1 finds the same index"
EQUIVALENT["ycsbctl/report/deployment_findings.py: if not len(runs) or \"shards\" not in runs: | Or -> And"] = \
    ("runs without a shards column go on to each target, whose _max(mine, \"shards\") is None for a missing column, "
     "and the loop skips it: no finding either way (an empty runs table has no rows to read)")
for _to in ("1.414", "1.386"):
    EQUIVALENT[f"ycsbctl/report/many_store.py: axes = fig.subplots(1, 3, gridspec_kw={{\"width_ratios\": [3, 3, 1.4]}}) "
               f"| 1.4 -> {_to}"] = ("the memory panel's share of the figure's width (as figsize, the drawing-style rule): "
                                     "1 % of it is 2 px of 1,400, not what a bar says")
_LIFTED = "fig.legends[-1].set_bbox_to_anchor((0.5, 0.06), transform=fig.transFigure)"
EQUIVALENT[f"ycsbctl/report/many_store.py: {_LIFTED} | 1 -> 0"] = \
    "the figure has one legend (legend_below's, the line before): legends[-0] is legends[-1]"
for _to in ("0.0606", "0.059399999999999994"):
    EQUIVALENT[f"ycsbctl/report/many_store.py: {_LIFTED} | 0.06 -> {_to}"] = \
        "where the legend is lifted to above the note: 1 % of 6 % of 520 px is 0.3 px, the same pixels (its centre stays scored)"
for _line, (_pairs, _why) in _PLOT_STYLE_EQUIVALENT.items():
    for _from, _to in _pairs:
        EQUIVALENT[f"ycsbctl/report/plot_style.py: {_line} | {_from} -> {_to}"] = _why
for _module in ("resource_plots.py", "many_store.py"):
    for _to in ("0.01212", "0.01188"):
        EQUIVALENT[f"ycsbctl/report/{_module}: fig.text(0.5, 0.012, unlike, ha=\"center\", va=\"bottom\", fontsize=8.5, "
                   f"color=\"#9a3b00\") | 0.012 -> {_to}"] = \
            ("the unlike-quantities note's foot, 1.2 % of the figure's height above its bottom edge: 1 % of that is "
             "0.06 px of the 4.6-5.2-inch figure at 100 dpi, the same pixels (its centre, 0.5, stays scored)")

# Every store's samplers() builds its samplers with the telemetry interval: their own default is never used.
_URL_INTERVAL = "def __init__(self, url: str, interval_s: float = 1.0) -> None:"
for _module, _line in (("redis/info.py", _URL_INTERVAL),
                       ("redis/info.py", "def __init__(self, urls: list[str], interval_s: float = 1.0) -> None:"),
                       ("sphinx/stats.py", _URL_INTERVAL), ("mongodb/status.py", _URL_INTERVAL),
                       ("clickhouse/stats.py", _URL_INTERVAL), ("postgresql/stats.py", _URL_INTERVAL),
                       ("mariadb/stats.py", _URL_INTERVAL),
                       ("elasticsearch/stats.py",
                        "def __init__(self, url: str, interval_s: float = 1.0, index: str = INDEX) -> None:")):
    for _to in ("1.01", "0.99"):
        EQUIVALENT[f"ycsbctl/stores/{_module}: {_line} | 1.0 -> {_to}"] = \
            f"a default no caller uses: every store's samplers() passes the telemetry interval ({_module})"
EQUIVALENT["ycsbctl/stores/tls_socket.py: raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1) | 1 -> 2"] = \
    "any non-zero value turns TCP_NODELAY on (the kernel reads it as a flag and stores 1); 1 -> 0 stays scored"
EQUIVALENT["ycsbctl/telemetry/capture.py: forks = pd.to_numeric(rows[\"forks\"], errors=\"coerce\").fillna(0) | 0 -> -1"] = \
    "a sample without a fork count is no fork event either way: only counts above 0 are events (forks > 0)"
for _to in ("1.01", "0.99"):
    EQUIVALENT["ycsbctl/telemetry/capture.py: def sampling(endpoint: Endpoint, client_pids: Callable[[], Iterable[int]] | "
               f"None = None, interval_s: float = 1.0, | 1.0 -> {_to}"] = \
        ("the sampling period, not a figure: every rate is a counter's growth over the elapsed time measured between "
         "two readings, every mean is over the samples inside the measured window, whatever their spacing")

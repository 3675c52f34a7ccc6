"""The media-items study's operations: op codes, measurement names and the study's names for them
(``run_benches.sh`` in restream/reindexer-benchmarks: byid, 1cond, 2cond, text, text_prefix, update)."""

GET_BY_ID, QUERY_1COND, QUERY_2COND, FULLTEXT, FULLTEXT_PREFIX, UPDATE = range(6)
INSERT = 7  # the load phase (op code 6 is the engine's VERIFY: a plug-in's seventh operation is code 7)
NAMES = ("GET-BY-ID", "QUERY-1COND", "QUERY-2COND", "FULLTEXT", "FULLTEXT-PREFIX", "UPDATE", "INSERT")
CODES = (GET_BY_ID, QUERY_1COND, QUERY_2COND, FULLTEXT, FULLTEXT_PREFIX, UPDATE, INSERT)  # of NAMES, in order
# the study's names (its HTTP routes and run_benches.sh) -> op code
STUDY_NAMES = {"byid": GET_BY_ID, "1cond": QUERY_1COND, "2cond": QUERY_2COND, "text": FULLTEXT,
               "text_prefix": FULLTEXT_PREFIX, "update": UPDATE}
QUERIES = (QUERY_1COND, QUERY_2COND, FULLTEXT, FULLTEXT_PREFIX)  # the operations that answer a page of records


def name_of(op: int) -> str:
    """The measurement name of op code ``op`` (``GET-BY-ID``, …, ``INSERT``)."""
    return NAMES[CODES.index(op)]

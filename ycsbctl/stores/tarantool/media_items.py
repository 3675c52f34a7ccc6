"""media-items on Tarantool: a space ``items`` (``id`` unsigned, ``name`` string, ``year`` unsigned,
``description`` string) with a TREE primary index on ``id`` and two secondary TREE indexes, on ``year`` and on
``name`` (non-unique: Tarantool orders their equal keys by the primary key, so a name's items come in id order).

Queries run on the server as Lua functions defined at setup and called over IPROTO (``CALL``), Tarantool's own
idiom for anything beyond one index lookup (the study's Tarantool backend asks ``index.year:select`` alone,
without an order):

- QUERY-1COND walks the primary index in ``id`` order keeping ``year > Y`` (most items match: the page comes
  after a few dozen tuples); its total is ``index.year:count(Y, {iterator = 'GT'})``;
- QUERY-2COND walks the ``name`` index's items of that name (in ``id`` order) keeping ``year > Y``;
- GET-BY-ID is a SELECT on the primary index; UPDATE an UPDATE of name, year and description (NOT_FOUND when
  no tuple); the load one CALL inserting a batch in a transaction.

Cannot: full-text search (Tarantool 2.6 has no text index; the study dropped Tarantool from it)."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_2COND
from ycsbctl.workload.plugin import NOT_FOUND, OK

SELECT, UPDATE_REQUEST, CALL, EVAL = 1, 4, 10, 8  # IPROTO request types (ycsbctl.stores.tarantool.iproto)
_NO_TEXT = "Tarantool 2.6 has no full-text index (the study dropped Tarantool from the full-text tests)"

# The space, its indexes and the functions the queries call (idempotent: every worker process runs it).
SETUP = """
local name = ...
local s = box.schema.space.create(name, {if_not_exists = true, format = {
    {name = 'id', type = 'unsigned'}, {name = 'name', type = 'string'},
    {name = 'year', type = 'unsigned'}, {name = 'description', type = 'string'}}})
s:create_index('primary', {type = 'tree', parts = {'id'}, if_not_exists = true})
s:create_index('year', {type = 'tree', parts = {'year'}, unique = false, if_not_exists = true})
s:create_index('name', {type = 'tree', parts = {'name'}, unique = false, if_not_exists = true})
function ycsbctl_items_insert(space, tuples)
    local sp = box.space[space]
    box.begin()
    for _, t in ipairs(tuples) do sp:insert(t) end
    box.commit()
    return #tuples
end
function ycsbctl_items_page(space, by_name, year_gt, name, limit, offset, count)
    local sp = box.space[space]
    local ids, skip, total = {}, offset, 0
    local gen, param, state
    if by_name then gen, param, state = sp.index.name:pairs({name}, {iterator = 'EQ'})
    else gen, param, state = sp.index.primary:pairs() end
    for _, t in gen, param, state do
        if t[3] > year_gt then
            total = total + 1
            if skip > 0 then skip = skip - 1
            elseif #ids < limit then ids[#ids + 1] = t[1]
            elseif not count or not by_name then break end
        end
    end
    if count and not by_name then total = sp.index.year:count(year_gt, {iterator = 'GT'}) end
    return ids, count and total or box.NULL
end
return s.id
"""


class IprotoBinding(Protocol):
    """The binding a ``tarantool`` executor gets (ycsbctl's IPROTO binding): ``iproto(kind, body)`` →
    (status, the reply's data decoded)."""

    last_error: str | None

    async def iproto(self, kind: int, body: bytes) -> tuple[int, list[Any]]: ...


def _packb(obj: Any) -> bytes:
    import msgpack

    return msgpack.packb(obj)


def _text(v: Any) -> str:
    return v.decode() if isinstance(v, bytes | bytearray) else str(v)


class TarantoolItems(MediaStore):
    protocol: ClassVar[str] = "tarantool"
    indexes: ClassVar[str] = "TREE primary on id; TREE on year; TREE on name (non-unique: equal names in id order)"
    cannot: ClassVar[dict[int, str]] = {FULLTEXT: _NO_TEXT, FULLTEXT_PREFIX: _NO_TEXT}
    differs: ClassVar[dict[int, str]] = {
        QUERY_2COND: "the name index's items of that name in id order, year > Y kept (a Lua function, CALL)",
    }

    space_id = 0  # the space's number (IPROTO's SELECT and UPDATE name a space by number), from setup

    async def setup(self, b: IprotoBinding) -> int:
        st, data = await b.iproto(EVAL, _packb({0x27: SETUP, 0x21: [self.table]}))
        if st == OK:
            self.space_id = int(data[0])
        return st

    async def ready(self, b: IprotoBinding) -> int:
        """The functions again (a server restarted since the load would have lost them; Lua state is not saved)."""
        return await self.setup(b)

    async def insert(self, b: IprotoBinding, items: list[Item]) -> int:
        tuples = [[it.id, it.name, it.year, it.description] for it in items]
        st, _ = await b.iproto(CALL, _packb({0x22: "ycsbctl_items_insert", 0x21: [self.table, tuples]}))
        return st

    async def get(self, b: IprotoBinding, item_id: int) -> tuple[int, Item | None]:
        # the primary index (0x11), one tuple (0x12) from the first (0x13); no iterator (0x14): IPROTO's default, EQ
        body = _packb({0x10: self.space_id, 0x11: 0, 0x12: 1, 0x13: 0, 0x20: [item_id]})
        st, data = await b.iproto(SELECT, body)
        if st != OK:
            return st, None
        if not data:
            return NOT_FOUND, None
        t = data[0]
        return OK, Item(int(t[0]), _text(t[1]), int(t[2]), _text(t[3]))

    async def query(self, b: IprotoBinding, q: Query, count: bool) -> tuple[int, Page]:
        args = [self.table, q.has_name, q.year_gt, q.name, q.limit, q.offset, count]
        st, data = await b.iproto(CALL, _packb({0x22: "ycsbctl_items_page", 0x21: args}))
        if st != OK:
            return st, Page(())
        ids, total = data[0], data[1] if len(data) > 1 else None
        return OK, Page(tuple(int(i) for i in ids), int(total) if count and total is not None else None)

    async def update(self, b: IprotoBinding, item: Item) -> int:
        ops = [["=", 1, item.name], ["=", 2, item.year], ["=", 3, item.description]]
        st, data = await b.iproto(UPDATE_REQUEST, _packb({0x10: self.space_id, 0x11: 0, 0x20: [item.id], 0x21: ops}))
        return st if st != OK else OK if data else NOT_FOUND


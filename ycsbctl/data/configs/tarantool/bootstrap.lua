-- Tarantool as ycsbctl starts it (given to `tarantool -e`, with LISTEN, DIR and MEMORY filled in): an
-- in-memory server. No write-ahead log (wal_mode none: what a commit is promised, shown in the report), the
-- memtx engine's memory quota from --server-memory, and YCSB's space: `ycsb` (id 1024) with a TREE primary
-- index on its first field, a string, as YCSB's tarantool/src/main/conf/tarantool-tree.lua. The guest user
-- may read, write and evaluate (ycsbctl's admin calls): the server listens on loopback (or a port published
-- on 127.0.0.1 only), and only once all of this is done (a client that connects is served).
box.cfg{work_dir = DIR, memtx_memory = MEMORY, wal_mode = "none", log_level = 5, readahead = 65536,
        net_msg_max = 4096}
box.schema.user.grant("guest", "read,write,execute,create,drop,alter", "universe", nil, {if_not_exists = true})
local space = box.schema.space.create("ycsb", {id = 1024, if_not_exists = true})
space:create_index("primary", {type = "tree", parts = {1, "string"}, if_not_exists = true})
box.cfg{listen = LISTEN}

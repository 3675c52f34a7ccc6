"""``postgresql://``: PostgreSQL through asyncpg, YCSB's jdbc layout."""

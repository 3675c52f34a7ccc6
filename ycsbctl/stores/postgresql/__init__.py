"""``postgresql://``: PostgreSQL on its wire protocol (or asyncpg), YCSB's jdbc layout."""

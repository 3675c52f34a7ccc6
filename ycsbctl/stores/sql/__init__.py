"""What the SQL stores share (SQLite, PostgreSQL, MariaDB): YCSB's jdbc layout, its SQL text and statuses."""

"""``mysql://``: MariaDB (and MySQL) through asyncmy, YCSB's jdbc layout."""

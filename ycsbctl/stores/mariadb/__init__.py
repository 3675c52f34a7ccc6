"""``mysql://``: MariaDB (and MySQL) on its wire protocol (or asyncmy), YCSB's jdbc layout."""

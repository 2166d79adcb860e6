"""Several Sahra processes on one PostgreSQL database: which process owns which tables
(``partitions.py``), and how an update that reached the wrong process gets to the owner
(``inbox.py``)."""

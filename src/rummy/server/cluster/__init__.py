"""Where each table lives: the registry of live tables and, on a cluster (``--redis``), membership,
leases and the links that carry a socket's commands to the worker owning its table."""

"""Programs that use tavli: the ``tavli`` command line, and later the clients of the server."""

"""The host: CPython tools around the board (command line, serial bridge, archive)."""

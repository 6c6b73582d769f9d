"""The one place where CPython and MicroPython differ for the rules core."""

try:
    from micropython import const
except ImportError:  # CPython: host, simulator, tests

    def const(x):
        return x

"""A few lines of test support for scripts that run under MicroPython (no pytest there)."""

import sys

RULES = "../shared/rules/"  # scripts run with the repository root as the working directory


def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)


def load_json(name):
    import json

    with open(RULES + name) as f:
        return json.load(f)

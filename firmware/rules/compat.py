"""The one place where CPython and MicroPython differ for the rules core, and for the
firmware's hot loops: machine code where MicroPython can make it, from one source.

A hot loop's source is compiled on the chip with @micropython.viper (or .native): the
firmware's .mpy files (./flash.sh) and the frozen image alike hold bytecode only, and the
chip's own compiler emits Thumb.  Where no such emitter exists (CPython: the host, the
virtual board, the tests) the same source is compiled as plain Python, so the host and the
board run one implementation.  Viper's pointer types are names only to plain Python.  (Here
and not in a module of its own: on stock MicroPython every module imported at start-up is
read from the flash before `hello`.)
"""

import sys

try:
    from micropython import const
except ImportError:  # CPython: host, simulator, tests

    def const(x):
        return x


MADE = {}  # name -> how it was compiled: "viper", "native" or "bytecode" (the tests ask)


def compile_fn(src, name, emitter=None):
    """src (one `def name(...)`) compiled, with `@micropython.<emitter>` on MicroPython when
    its port can (a port without that emitter, or emitter None: bytecode)."""
    space = {"ptr8": int, "ptr16": int, "ptr32": int}
    if emitter and sys.implementation.name == "micropython":
        import micropython

        space["micropython"] = micropython
        try:
            exec("@micropython.%s\n%s" % (emitter, src), space)
            MADE[name] = emitter
            return space[name]
        except SyntaxError:  # a port built without it
            pass
    exec(src, space)
    MADE[name] = "bytecode"
    return space[name]


def late(src, name, emitter, space):
    """A stand-in that compiles src (compile_fn) at its first call, puts the function made
    in space (the module's globals) under name, and calls it: compiled when first needed,
    not at import (a board's start-up compiles only what it uses before `hello`)."""

    def first(*args):
        f = compile_fn(src, name, emitter)
        space[name] = f
        return f(*args)

    return first

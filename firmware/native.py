"""Hot loops as machine code where MicroPython can make it, from one source (issue #23 item 4).

A function's source is compiled at start-up with @micropython.viper (or .native): the
firmware's .mpy files (./flash.sh) and the frozen image alike hold bytecode only, and the
chip's own compiler emits Thumb.  Where no such emitter exists (CPython: the host, the
virtual board, the tests) the same source is compiled as plain Python, so the host and the
board run one implementation.  Viper's pointer types are names only to plain Python.
"""

import sys

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

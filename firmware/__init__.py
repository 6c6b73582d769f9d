"""Everything that runs on the board; the rules core in firmware.rules is imported by the host too."""


def drop_module(package, name):
    """Forget the module package.name once its work is done, so that its code can be
    collected (on stock MicroPython a module's bytecode takes heap).  The firmware loads
    the code a game seldom needs late and drops it after (docs/architecture.md)."""
    import sys

    sys.modules.pop(package + "." + name, None)
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, name):
        delattr(parent, name)

# Run at power-up (frozen into eboard-pico.uf2): start the board.  Firmware that flash.sh
# copied onto the Pico's filesystem later overrides the frozen one: sys.path searches the
# filesystem first.  Without it, the frozen modules are searched first: every import that
# looks in littlefs before .frozen costs some 3 ms (a third of the image's boot).  The
# keyboard interrupt is off from the first line: a stray Ctrl-C must not stop the board.
import micropython

micropython.kbd_intr(-1)

import os
import sys

try:
    os.stat("firmware")
except OSError:
    if ".frozen" in sys.path:
        sys.path.remove(".frozen")
        sys.path.insert(0, ".frozen")

from boards.main import run

run()

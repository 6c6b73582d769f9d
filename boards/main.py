"""The composition root: which board the firmware runs on.  The profile's drivers are made
here and handed to the firmware's loop (firmware/main.py's run); the firmware imports
nothing of boards/.

    micropython -m boards.main [--realtime] [--journal PATH]     the virtual board (unix port)

On the Pico the root main.py (flash.sh writes it; our image has boards/pico-image/main.py
frozen in) calls run(): the pico profile.  On any other platform: the virtual board's.
"""

import sys

# First: on the Pico, firmware.main trims sys.path for every import after it (it costs a
# littlefs lookup a folder) and turns the keyboard interrupt off.
from firmware import main as loop


def make_hardware(argv):
    if sys.platform == "rp2":
        from boards import pico

        return pico.Hardware()
    from boards import sim

    path = "journal.bin"
    if "--journal" in argv:
        path = argv[argv.index("--journal") + 1]
    hw = sim.Hardware(journal_path=path, realtime="--realtime" in argv, switches_path="switches")
    hw.load_autoplay("autoplay.txt")  # hands for a board nobody sits at (tests of serve)
    hw.load_hands("hands")  # and hands that come later, while a host holds the port
    return hw


def run(argv=None):
    argv = sys.argv if argv is None else argv
    if "--raw-repl" in argv:  # the virtual board after a soft reboot in the raw REPL
        from boards import simrepl

        simrepl.repl(sys.stdin.buffer, raw=True)
    loop.run(make_hardware(argv))


if __name__ == "__main__":
    run()

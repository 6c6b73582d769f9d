# heapsize=256K (the firmware's .mpy files on a 64-bit port)
"""The bring-up self-test on the real interpreter (tests/test_selftest.py has the rest),
and proof that a board playing a game never loads it."""

import os
import sys

from mpytest import check

import bringup

p = bringup.Person((os.getenv("EBOARD_TMP") or "/tmp") + "/selftest.journal")
p.keep = False  # (the report below says what the test needs)
p.must("new chess")
p.must("sim setup")
p.wait(600)
p.must("sim lift e2")
p.must("sim place e4")
p.wait(600)
check("firmware.selftest" not in sys.modules, "an ordinary game loaded the self-test")
p.must("sim fault switch e5 closed")
p.must("sim fault led c3")
lit = p.bring_up()
check(lit == 144, "the walk lit %d LEDs alone" % lit)
report = p.must("selftest report")
check(report == "ok selftest report done tested 143 untested 0 faults closed:e5,dead-led:c3", report)
print("ok")

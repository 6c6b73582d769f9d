"""The bring-up self-test (firmware/selftest.py) on the virtual board: faults planted with
`sim fault`, a person's hands and eyes (tests/mpy/bringup.py), and what the board names."""

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mpy"))
import bringup  # noqa: E402

from firmware import selftest  # noqa: E402


def test_a_stuck_switch_and_a_dead_led_are_named(tmp_path):
    p = bringup.Person(str(tmp_path / "j"), ["switch e5 closed", "led c3"])
    assert p.bring_up() == 144  # the walk lit every LED alone, once
    said = [e for e in p.events() if not e.startswith("selftest switch ")]
    assert said == [
        "selftest clear",
        "selftest fault closed e5",
        "selftest walk",
        "selftest dark",
        "selftest fault dead-led c3",
        "selftest switches",
        "selftest done 143 144",
    ]
    # c3's switch works (its touch in the dark phase counted); e5's cannot be tested.
    names = [e.split()[2] for e in p.events() if e.startswith("selftest switch ")]
    assert len(names) == 143 and len(set(names)) == 143 and "e5" not in names and "c3" in names
    assert p.must("selftest report") == "ok selftest report done tested 143 untested 0 faults closed:e5,dead-led:c3"
    frame = p.must("leds").split()[2]
    assert frame[selftest.parse_square("e5")] == "r" and frame.count("d") == 143


def test_lines_held_high_or_low_and_shorted_are_named_not_their_squares(tmp_path):
    p = bringup.Person(str(tmp_path / "j"), ["line column c high", "line row 7 low", "short row 3 row 4"])
    p.must("selftest start")
    p.wait(selftest.CALM_MS + 20)
    assert p.events()[1:4] == [
        "selftest fault line-high column c",
        "selftest fault shorted row 3 row 4",
        "selftest fault line-low row 7",
    ]
    assert p.events()[4] == "selftest walk"  # column c reads closed everywhere: no square is blamed
    p.wait(144 * selftest.WALK_MS + 3 * selftest.COLOUR_MS + selftest.DARK_MS + 20)
    frame = p.must("leds").split()[2]
    faulty = {q for q in range(144) if frame[q] == "r"}
    assert len(faulty) == 12 + 12 + 24 - 3  # column c, rows 7, 3 and 4 (c3, c4, c7 counted once)
    assert selftest.parse_square("c9") in faulty and selftest.parse_square("d4") in faulty
    assert "untested 99 " in p.must("selftest report")


def test_a_magnet_left_on_at_start_is_forgiven_once_lifted(tmp_path):
    p = bringup.Person(str(tmp_path / "j"))
    p.must("sim place @40")
    p.must("selftest start")
    p.wait(selftest.CALM_MS + 20)
    assert "selftest fault closed e4" in p.events()
    p.wait(144 * selftest.WALK_MS + 3 * selftest.COLOUR_MS + 20)
    p.must("sim lift @40")
    p.wait(100)
    assert p.events()[-1] == "selftest switch e4"
    assert p.must("selftest report").endswith("faults -")


def test_four_corner_magnets_at_power_up_start_it_without_a_pc(tmp_path):
    p = bringup.Person(str(tmp_path / "j"))
    p.must("new lippo")
    for sq in (0, 11, 132, 143):
        p.must("sim place @%d" % sq)
    p.board = bringup.Board(p.hw, p.hear)  # the power comes back
    p.board.boot(p.hw.clock.now())
    assert p.said[-2].startswith("hello eboard 3 lippo setup ")
    assert p.said[-1] == "selftest clear"
    assert p.must("state").split()[3] == "selftest"
    for sq in (0, 11, 132, 143):  # the corners come off; then the walk, no fault
        p.must("sim lift @%d" % sq)
    p.wait(selftest.CALM_MS + 100)
    assert p.events()[-1] == "selftest walk"
    assert p.must("selftest stop") == "ok selftest stop"
    assert p.must("state").split()[2:4] == ["lippo", "setup"]  # the game is where it was


def test_requests_refuse_what_they_cannot_do(tmp_path):
    p = bringup.Person(str(tmp_path / "j"))
    assert p.send("selftest report") == "error not-testing no self-test is running"
    assert p.send("selftest stop").startswith("error not-testing")
    assert p.send("selftest").startswith("error bad-args selftest start|stop|report")
    assert p.send("selftest go").startswith("error bad-args")
    assert p.send("sim fault switch z9 closed") == "error bad-args no square z9"
    assert p.send("sim fault line row 13 high").startswith("error bad-args row 1-12")
    assert p.send("sim fault magic").startswith("error bad-args sim fault switch")
    assert p.must("sim fault led @5") == "ok sim fault led @5"
    assert p.hw.leds.dead[5] == 1
    assert p.must("sim fault clear") == "ok sim fault clear" and p.hw.leds.dead is None


def test_a_probe_that_reads_nothing_back_checks_no_lines():
    # Every line reading low however it is driven is no board (its 3.3 V would be shorted):
    # the pads are not read back (rp2040js does not), so only the scan is judged.
    assert selftest.line_faults([0] * 25, [0] * 12) is None
    good = [1 << i for i in range(24)] + [0]
    good[4] |= 1 << (12 + 2)  # row 5 driven: column c high through a closed switch, c5
    assert selftest.line_faults(good, [0, 0, 0, 0, 1 << 2] + [0] * 7) == []
    assert selftest.line_faults(good, [0] * 12) == [("shorted", "row", "5", "column", "c")]

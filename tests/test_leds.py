"""The LED frame encoding: chain order and the power budget."""

from array import array

from firmware import leds


def test_the_chain_runs_in_serpentine_order():
    assert leds.SERPENTINE[0] == 0 and leds.SERPENTINE[11] == 11  # a1 .. m1
    assert leds.SERPENTINE[12] == 23 and leds.SERPENTINE[23] == 12  # a2 is last of row 2
    assert sorted(leds.SERPENTINE) == list(range(144))


def test_a_lit_square_lands_on_its_chain_position_in_grb_order():
    frame = bytearray(144)
    frame[12] = leds.EXTRA  # a2, red
    words = array("I", bytes(4 * 144))
    leds.encode(frame, 255, words, 10_000)
    assert words[23] == (0 << 16 | 255 << 8 | 0) << 8
    assert sum(1 for w in words if w) == 1


def test_a_frame_that_would_draw_too_much_is_dimmed_to_the_budget():
    frame = bytearray([leds.FROM] * 144)  # everything white
    words = array("I", bytes(4 * 144))
    ma = leds.encode(frame, 255, words, 2000)
    assert ma == 2000
    r = words[0] >> 16 & 255
    assert 0 < r < 60  # 144 LEDs x 3 channels x 20 mA x r/255 fits in 2 A
    small = bytearray(144)
    small[0] = leds.DEST
    assert leds.encode(small, 64, words, 2000) < 200

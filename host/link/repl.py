"""The deliberate way into a board's MicroPython REPL: the `repl` request (docs/protocol.md).

A board in play ignores Ctrl-C, so that a stray byte 3 on the USB link cannot stop it; flash.sh
and a person with mpremote first ask the firmware to stop:

    python -m host.link.repl PORT     (what ./flash.sh --repl PORT runs)

A board already at its REPL (stock MicroPython, or firmware that has stopped) answers with
its prompt instead, and is left as it is.
"""

from __future__ import annotations

import sys
import time

import serial

PROMPTS = (b">>> ", b"raw REPL", b"\r\n>")


def stop_for_repl(port: str, timeout_s: float = 5.0) -> str:
    """Ask the board on port to stop its firmware for the REPL; what it did, in words.
    OSError (serial.SerialException) if the port cannot be opened; TimeoutError if the
    board says nothing that tells."""
    with serial.Serial(port, 115200, timeout=0.1) as ser:
        ser.reset_input_buffer()
        ser.write(b"\nrepl\n")  # a newline first ends whatever half line was there
        got = b""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            got += ser.read(ser.in_waiting or 1)
            for line in got.split(b"\n"):
                words = line.strip().split()
                if words[1:3] == [b"ok", b"repl"] and words[0].isdigit():
                    time.sleep(0.2)  # the firmware ends; MicroPython's REPL starts
                    return "the firmware stopped: the REPL is free (mpremote, flash.sh)"
                if words[1:3] == [b"error", b"unknown-command"] and words[0].isdigit():
                    return "firmware from before the `repl` request: Ctrl-C (mpremote) reaches the REPL"
            if any(p in got for p in PROMPTS) and b" ok " not in got:
                return "the board is at its REPL already"
    raise TimeoutError(f"{port}: no answer to `repl` in {timeout_s:.0f} s (is it a board running eboard or MicroPython?)")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m host.link.repl PORT   (stop the board's firmware for the REPL)", file=sys.stderr)
        return 2
    try:
        print(f"{args[0]}: {stop_for_repl(args[0])}", file=sys.stderr)
    except (OSError, serial.SerialException, TimeoutError) as e:
        print(f"{args[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The deliberate way into a board's MicroPython REPL: the `repl` request (docs/protocol.md).

A board in play ignores Ctrl-C, so that a stray byte 3 on the USB link cannot stop it;
flash.sh, and a person about to use mpremote, first ask the firmware to stop:

    python -m host.link.repl PORT     (what ./flash.sh --repl PORT runs)

It reads the board's boot id first (`version`), then sends `repl <boot id>`: a stray
`repl` (line noise, a person typing in a serial monitor) carries no boot id and is
refused.  The board answers `ok repl <idle s>`, releases its watchdog and ends its
firmware; MicroPython's REPL then has the link (and takes Ctrl-C again), so that mpremote
connects as to any board, until the board is reset, or until the REPL has stood idle that
many seconds: then the board resets itself and plays on.  A board already at its REPL (stock MicroPython, or
firmware that has stopped) is left as it is.
"""

from __future__ import annotations

import sys
import time

import serial

PROMPT = b">>> "


def _said(got: bytes, *words: bytes) -> bool:
    """Whether a line of the board's (a message number, then words) says words."""
    for line in got.split(b"\n"):
        w = line.split()
        if len(w) > len(words) and w[0].isdigit() and tuple(w[1 : 1 + len(words)]) == words:
            return True
    return False


def _boot_of(got: bytes) -> str | None:
    """The boot id in a board's `ok version ... <boot>` (its last word), if got holds one."""
    for line in got.split(b"\n"):
        w = line.split()
        if len(w) >= 4 and w[0].isdigit() and w[1:3] == [b"ok", b"version"] and w[-1].isdigit():
            return w[-1].decode()
    return None


def stop_for_repl(port: str, timeout_s: float = 10.0, idle_s: int | None = None) -> str:
    """Ask the board on port to stop its firmware for the REPL; what it did, in words.
    The request carries this power-up's boot id (read first, from `version`), which a
    stray line cannot: a bare `repl` is refused.  idle_s: the seconds the REPL may then
    stand idle before the board goes back to play (the board's default, 60, if None).
    OSError (serial.SerialException) if the port cannot be opened; TimeoutError if the
    board says nothing that tells."""
    with serial.Serial(port, 115200, timeout=0.1) as ser:
        ser.reset_input_buffer()
        # A newline first ends whatever half line was there (answered `error empty`).
        ser.write(b"\nversion\n")
        got = b""
        deadline = time.monotonic() + timeout_s
        asked = False
        while time.monotonic() < deadline:
            got += ser.read(ser.in_waiting or 1)
            boot = _boot_of(got)
            if boot is not None and not asked:
                ser.write(f"repl {boot}{'' if idle_s is None else f' {idle_s}'}\n".encode())
                asked = True
                got = b""
                continue
            if _said(got, b"ok", b"repl"):
                # The firmware ends; MicroPython's REPL says its banner and prompt.
                rest = got[got.index(b"ok repl") :]
                while PROMPT not in rest and time.monotonic() < deadline:
                    rest += ser.read(ser.in_waiting or 1)
                if PROMPT not in rest:
                    raise TimeoutError(f"{port}: the firmware stopped, but no REPL prompt came")
                return "the firmware stopped: its REPL is free (mpremote, flash.sh) until it stands idle or a reset"
            if asked and _said(got, b"error", b"bad-args"):
                # A firmware from before the boot id: its `repl` takes no words.
                ser.write(b"repl\n")
                asked = False
                got = b""
                continue
            if _said(got, b"error", b"unknown-command", b"repl"):
                return "firmware from before the `repl` request: Ctrl-C (mpremote) reaches its REPL"
            if PROMPT in got and not _said(got, b"error"):
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

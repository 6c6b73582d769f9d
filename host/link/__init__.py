"""The board's link: the first room a move reaches on the host.

A board's line comes in here, whatever the board is: a real one on USB, the virtual board
(the real firmware under the MicroPython unix port, behind a pseudo-terminal) or the
emulated Pico (MicroPython's own Pico firmware on rp2040js).  All three look like a board
on USB, so one BoardLink (docs/protocol.md) talks to each.

  wire.py     BoardLink: the protocol's framing, requests and replies, events, `hello`
  port.py     Port: a serial port on one file descriptor, waited on with poll() (a hall's
              hundreds of boards; pyserial keeps five a port and select()s them)
  virtual.py  VirtualBoard, TemporaryBoard: the firmware behind a pty (eboard sim, play --sim)
  pico.py     EmulatedPico: the emulated RP2040 behind a pty, its hands and its flash
  words.py    the board's words: every reply and event read once into checked values
              (State, Game, History, Move, End, ...); WordsError where a line is not a board's
  repl.py     the `repl` request, the way into a board's REPL: `python -m host.link.repl PORT`
              (flash.sh); not imported here, so that it runs as a module

This package is the room's one door: the rooms above (record, web, commands) import from
`host.link`, never from its modules.  It imports nothing of the host; the virtual boards
run the firmware in processes of their own.
"""

from host.link.pico import EmulatedPico, Hands, PicoError, SimCommands, firmware_key, frame_colours, make_flash, wait_firmware
from host.link.pico import board as emulated_board
from host.link.pico import missing as pico_missing
from host.link.virtual import ROOT, TemporaryBoard, VirtualBoard, VirtualBoardError
from host.link.wire import PROTOCOL, BoardError, BoardLink, BridgeTimeout, LinkError, printable
from host.link.words import (
    Alert, End, Event, Game, Hello, History, Move, NewGame, NewPosition, Ready, Said, Square, State, Undo, Version,
    WordsError, read_event, read_fen, read_game, read_history, read_leds, read_moves, read_occupancy, read_state, read_version,
)

__all__ = [
    "PROTOCOL", "ROOT", "BoardError", "BoardLink", "BridgeTimeout", "EmulatedPico", "Hands", "LinkError", "PicoError",
    "SimCommands", "TemporaryBoard", "VirtualBoard", "VirtualBoardError", "emulated_board", "firmware_key",
    "frame_colours", "make_flash", "pico_missing", "printable", "wait_firmware",
    "Alert", "End", "Event", "Game", "Hello", "History", "Move", "NewGame", "NewPosition", "Ready", "Said", "Square",
    "State", "Undo", "Version", "WordsError", "read_event", "read_fen", "read_game", "read_history", "read_leds",
    "read_moves", "read_occupancy", "read_state", "read_version",
]

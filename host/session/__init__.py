"""The session: what a command that follows a board holds while it runs, the room between
the fronts (apps) and the commands.

  session.py   Session: one board, its bridge to the archive, the terminal view, the
               computer and the clock, and the commands a person types (play, board-engine)
  home.py      Home: the archive and the board (a port, the archive's own virtual board or
               emulated Pico) set up and torn down together; the boards kept beside the
               archive (own_board, pico_home); Hall: serve's archive and many boards
  club.py      virtual hands that play random games on serve --sim's boards
  view.py      the terminal view of a board (Snapshot, render)
  opponent.py  the computer as an opponent: our engine or a UCI one, searching in a thread
  takeback.py  a takeback said in words: which man goes back where
  start.py     a game and its FEN checked before a board is asked; a prompt's example move
  pieces.py    the key to the pieces (`help pieces`; docs/pieces.md)
  army.py      virtual hands for battle chess's screened setup

This package is the room's one door: host.commands imports from `host.session`, never
from its modules.  It imports the rooms below it (link, record, engine, web, apps).
"""

from host.session.army import ArmyHands
from host.session.club import hand_steps
from host.session.home import Hall, Home, HomeBoard, HomeError, leave_pico_home, open_hall, open_home, own_board, pico_home
from host.session.opponent import Job, Opponent, OpponentError, flag_result
from host.session.session import HELP, PlayError, Session
from host.session.start import check, example_move
from host.session.view import LED_NAMES, Snapshot, render
from host.session.home import PairHome, open_pair  # kriegspiel's two boards

__all__ = [
    "ArmyHands", "HELP", "Hall", "Home", "HomeBoard", "HomeError", "Job", "LED_NAMES", "Opponent", "OpponentError",
    "PlayError", "Session", "Snapshot", "check", "example_move", "flag_result", "hand_steps", "leave_pico_home",
    "open_hall", "open_home", "own_board", "pico_home", "render",
]
__all__ += ["PairHome", "open_pair"]

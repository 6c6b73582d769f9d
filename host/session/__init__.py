"""The session: what a command that follows a board holds while it runs, the room between
the fronts (apps) and the commands.

  home.py     Home: the archive and the board (a port, the archive's own virtual board or
              emulated Pico) set up and torn down together; the boards kept beside the
              archive (own_board, pico_home)

This package is the room's one door: host.commands imports from `host.session`, never
from its modules.
"""

from host.session.home import Home, HomeBoard, leave_pico_home, own_board, pico_home

__all__ = ["Home", "HomeBoard", "leave_pico_home", "own_board", "pico_home"]

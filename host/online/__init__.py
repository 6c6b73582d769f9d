"""Online: the board's games played on a server, lichess's Board API (issue #37), the room
between the session and the commands.

  api.py    Api: lichess over HTTP (the stdlib's http.client), its NDJSON streams in threads
  token.py  load_token: the token from LICHESS_TOKEN or a file of mode 600 (never said)
  find.py   Finder: the wait for a game (a seek, a challenge accepted, a game started)
  game.py   Online: one lichess game kept the same as the board's (host.session's Session)
  broadcast.py  Broadcast: a round's PGN live, in broadcaster's folder layout and pushed to a
            lichess broadcast round (issue #35; docs/broadcast.md)

This package is the room's one door: host.commands imports from `host.online`, never from its
modules.  It imports the rooms below it (link, record, session)."""

from host.online.api import Api, ApiError, Offline
from host.online.broadcast import Broadcast, BroadcastError, check_round_id, round_folder
from host.online.find import Finder
from host.online.game import LichessClock, Online, OnlineError
from host.online.token import ENV, TokenError, load_token

__all__ = ["Api", "ApiError", "Broadcast", "BroadcastError", "ENV", "Finder", "LichessClock", "Offline", "Online",
           "OnlineError", "TokenError", "check_round_id", "load_token", "round_folder"]

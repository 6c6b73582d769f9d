"""The record: what a game leaves behind, the second room a move reaches.

The bridge follows a board over its link (host.link) and files every message and every
move in the archive as it happens; the rest of the room reads and writes that record in
the forms people use.

  bridge.py    Bridge: one board's messages -> the archive, across reconnects and resets
  archive.py   Archive: SQLite (WAL), the one file on disk every command shares, or PostgreSQL
  store.py     Store: the archive's database connection, SQLite or PostgreSQL (its one seam)
  shared.py    SharedArchive: one Archive connection for many threads (serve's followers)
  notation.py  SAN and coordinates, over the rules core's own move list
  pgn.py       PGN export and import (a game, a round: round_pgn); a Kriegspiel player's scoresheet
  clock.py     Clock: base + increment, fed by timestamped events; PGN's [%clk]
  announce.py  a Kriegspiel announcement in words (English or the seed's Russian)
  speech.py    every game's moves, ends and takebacks in words (English, Russian); the Speaker

This package is the room's one door: the rooms above (engine, web, commands) import from
`host.record`, never from its modules.  It imports the rules core and host.link only.
"""

from host.record.announce import ANSWER_LEDS, plies, words
from host.record.archive import Archive, ArchiveError, GameRow, own_tag, pgn_date, result_text, tag_value_ok
from host.record.bridge import Bridge
from host.record.clock import Clock, ClockError, fmt, pgn_clk
from host.record.notation import MoveError, WhichPiece, parse, parse_line, san, san_list
from host.record.shared import SharedArchive
from host.record.pgn import export, games_pgn, read_moves, round_pgn, scoresheet, unreadable
from host.record.speech import (
    LANGS, Speaker, computer_words, end_words, flag_words, move_text_words, move_words, piece_name, put_back_words,
    resign_words, square_words, takeback_words, wav, winner_words,
)

__all__ = [
    "ANSWER_LEDS", "Archive", "ArchiveError", "Bridge", "Clock", "ClockError", "GameRow", "MoveError", "export", "fmt",
    "games_pgn", "round_pgn",
    "own_tag", "parse", "parse_line", "pgn_clk", "plies", "pgn_date", "read_moves", "result_text", "san", "san_list",
    "scoresheet", "SharedArchive", "tag_value_ok", "unreadable",
    "WhichPiece",
    "words",
    # speech.py
    "LANGS", "Speaker", "computer_words", "end_words", "flag_words", "move_text_words", "move_words", "piece_name",
    "put_back_words", "resign_words", "square_words", "takeback_words", "wav", "winner_words",
]

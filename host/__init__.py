"""The host: CPython tools around the board, in rooms a move passes through.

  link/      the board's link: a real board, the virtual board, the emulated Pico
  record/    the record: the bridge that files a board's messages, the archive, SAN, PGN, clocks
  engine/    the computer: our search over the rules core, UCI engines
  web/       the browser's view: pages and live streams of the boards and the archive
  commands/  the people's commands: `eboard` and its play, kriegspiel, serve, club room

Arrows point down that list (commands -> web, engine -> record -> link -> the rules core in
firmware/), and a room is entered only through its door, its package; docs/architecture.md
draws them, and tests/test_architecture.py holds them.
"""

"""`eboard lichess`: a lichess game played on the board (issue #37; docs/lichess.md).

The board is followed as in `play` (host.session's Session: the bridge, the archive, the
view, the web page); host.online's Finder waits for the game (a seek, a challenge, a game
started) and its Online keeps lichess's game and the board's the same.  Typed lines:
moves and the virtual hands as in play (a move typed waits while it is the opponent's
turn), and lichess's own: draw, draw no, takeback, takeback no, resign, abort, claim win,
quit (the board leaves; the game goes on on lichess: --game ID joins it again).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import TextIO

from host.link import BoardError, BridgeTimeout, LinkError
from host.online import Api, Finder, Online, OnlineError
from host.record import Archive
from host.session import Home, Session, render
from host.web import board_feed

REFUSED_HERE = {  # play's typed commands that have no place in an online game
    "new": "a lichess game is on the board: quit first to start another game",
    "battle": "a lichess game is on the board: quit first",
    "undo": "takeback asks your opponent on lichess to take your move back",
    "hint": "no engine help in a lichess game (lichess's rules forbid it)",
    "make": "your opponent's moves are made by the virtual hands themselves",
}
QUIT = ("quit", "exit", "q")
HELP = ("lichess: draw (offer, or accept), draw no, takeback, takeback no, resign, abort, claim win, quit "
        "(the game goes on on lichess: eboard lichess --game ID joins it again); moves as in play")


def run(api: Api, me: str, port: str | None, sim: bool, archive_path: str | None, inp: TextIO = sys.stdin,
        out: TextIO = sys.stdout, pico=None, game: str | None = None, seek: dict[str, str] | None = None,  # type: ignore[no-untyped-def]
        accept: str | None = None, web: bool = False, speaker=None) -> int:
    from host.commands.console import LineInput

    archive = Archive(archive_path)
    colour = out.isatty() and os.environ.get("TERM", "") not in ("", "dumb")
    colour = colour and not (speaker is not None and not speaker.aloud)
    with Home(archive, port, sim, pico) as home:
        assert home.port is not None
        session = Session(home.port, archive, home.sim, out, colour, home.hands, timeout_s=home.timeout_s)
        session.pico = bool(pico)
        session.speaker = speaker
        session.feed = board_feed(session.bridge, archive) if web else None
        online: Online | None = None
        finder = None if game is not None else Finder(api, session.snap.notes.append, seek, accept)
        if game is not None:
            online = Online(session, api, game, me, join=True)
            online.connect()
        typed = LineInput(inp)
        seen = [0]
        interactive = inp.isatty()
        todo: list[str] = []
        ended = False
        down = ""
        show(session, online, out, seen)
        if interactive:
            out.write("type a move (e2e4), draw, resign, help, quit\n> ")
            out.flush()
        try:
            while True:
                if not todo and not ended:
                    lines = typed.lines(0.05)
                    if lines is None:
                        ended = True
                    else:
                        todo += lines
                if online is not None and online.over:
                    break
                if ended and not todo and online is None:
                    break  # the input ended before any game began
                try:
                    if todo and ready(online, todo[0], interactive):
                        if not command(session, online, todo.pop(0).strip()):
                            break
                    session.serve(0.05)
                    if finder is not None:
                        gid = finder.step()
                        if gid is not None:
                            finder = None
                            online = Online(session, api, gid, me)
                            online.connect()
                    if online is not None:
                        online.step()
                    if session.feed is not None:
                        session.feed.flush()
                    if session.dirty or down:
                        if down:
                            session.snap.notes.append("the board answers again")
                            down = ""
                        show(session, online, out, seen)
                        if interactive:
                            out.write("> ")
                            out.flush()
                except (LinkError, BridgeTimeout) as e:
                    if str(e) != down:
                        down = str(e)
                        out.write(f"board: {down}: waiting for it (quit to stop)\n")
                        out.flush()
        except KeyboardInterrupt:
            out.write("\n")
        except OnlineError as e:
            session.snap.notes.append(str(e))
        finally:
            if finder is not None:
                finder.close()
            if online is not None:
                online.close()
        try:
            show(session, online, out, seen)
            if online is not None and not online.over and online.board_game is not None:
                archive.adjourn(online.board_game)
                out.write(f"the lichess game goes on at https://lichess.org/{online.id}: eboard lichess --game "
                          f"{online.id} joins it again\n")
        finally:
            session.bridge.close()
    return 0


def ready(online: Online | None, line: str, interactive: bool) -> bool:
    """May the line be carried out now?  A move waits while the opponent is to move (its
    move is not on the board yet); so does every line of a script (input that is not a
    terminal: it acts on its turn, as a person does), while a person's draw, takeback,
    resign, abort and claim go at once.  quit and help always go at once."""
    words = line.split()
    if not words or words[0] in QUIT or words[0] == "help":
        return True
    if interactive and words[0] in ("draw", "takeback", "resign", "abort", "claim"):
        return True
    if online is None or not online.started or online.over:
        return online is not None and online.over
    board = online.board_moves()
    return board is not None and online.turn(online.base + len(board)) == online.colour


def command(session: Session, online: Online | None, line: str) -> bool:
    """One typed line; False to stop."""
    words = line.split()
    session.dirty = True
    if words and words[0] in QUIT:
        return False
    if words[:1] == ["help"] and len(words) == 1:
        session.command(line)
        session.snap.page = HELP + "\n\n" + session.snap.page
        return True
    if words and words[0] in REFUSED_HERE:
        session.snap.notes.append(f"{words[0]}: {REFUSED_HERE[words[0]]}")
        return True
    if online is not None and online.typed(words):
        return True
    if words and words[0] in ("draw", "takeback", "resign", "abort", "claim"):
        session.snap.notes.append(f"{words[0]}: no lichess game yet")
        return True
    try:
        session.command(line)
    except BoardError as e:  # (the session says its refusals itself; this is a last guard)
        session.snap.notes.append(str(e))
    return True


def show(session: Session, online: Online | None, out: TextIO, seen: list[int]) -> None:
    """The view (play's), with lichess's lines under its head; seen: [the notes shown so far]."""
    session.refresh()
    if online is not None:
        session.snap.status = online.status_lines() + session.snap.status
    size = None
    if session.colour:
        out.write("\x1b[H\x1b[2J")
        size = tuple(shutil.get_terminal_size())
    notes = session.snap.notes
    if not session.colour:  # lines, never redrawn: the notes the view's last three would hide, said first
        for note in notes[min(seen[0], len(notes)):-3]:
            out.write(note + "\n")
    seen[0] = len(notes)
    out.write(render(session.snap, session.colour, size))
    out.flush()
    session.dirty = False

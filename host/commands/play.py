"""`eboard play`: a game on a board (or a virtual one) with the live view in the terminal;
the commands typed are the session's (host/session/session.py: `help` lists them)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from host.link import BridgeTimeout, LinkError
from host.record import Archive
from host.session import Home, Opponent, Session, example_move
from host.web import board_feed


def run(
    port: str | None,
    sim: bool,
    game: str | None,
    fen: str | None,
    archive_path: str | None,
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    battle: bool = False,
    tags: dict[str, str] | None = None,
    web: bool = False,
    pico=None,
    resume: str | None = None,
    opponent: Opponent | None = None,
    control: str | None = None,
    speaker=None,
    seed: int | None = None,
) -> int:
    """pico: an emulated Pico instead (True: stock MicroPython + flash.sh; or the Path
    of a UF2 with the firmware in it), its hands doing what --sim's do.  speaker: a
    host.record.Speaker that says every move and end (--speak; --words prints them, and
    the view is then never cleared and drawn again, for a screen reader)."""
    from host.commands.console import LineInput
    from host.commands.resume import resume_game

    archive = Archive(archive_path, create=resume is None)  # --resume of no archive makes none
    if resume is not None:
        resumed = archive.game(resume)  # no such game: said before any board starts
        opponent = opponent if opponent is not None else resumed_opponent(archive, resumed.id)
    colour = out.isatty() and os.environ.get("TERM", "") not in ("", "dumb")
    colour = colour and not (speaker is not None and not speaker.aloud)  # --words: lines, never redrawn
    with Home(archive, port, sim, pico) as home:
        assert home.port is not None
        sim = home.sim
        session = Session(home.port, archive, sim, out, colour, home.hands, timeout_s=home.timeout_s)
        session.tags = tags or {}
        session.pico = bool(pico)
        session.speaker = speaker
        session.seed = seed  # the virtual hands' battle arrays (None: fresh ones)
        session.real_port = port is not None and not sim and not pico
        session.archive_given = archive_path is not None
        if opponent is not None or control is not None:
            session.versus(opponent, None if resume is not None else control)  # (a resumed game's: below)
        if resume is not None:
            session.snap.notes.append(resume_game(session.bridge, archive, resume, session.hand if session.sim else None))
            session.resume_clock(control)
        elif battle:
            session.battle()
        else:  # a virtual board starts afresh: its last game was adjourned (--resume)
            session.start(game or ("lippo" if sim else None), fen, again=sim, forget=True)
        session.show()
        feed = board_feed(session.bridge, archive) if web else None  # the web room's live board
        session.feed = feed
        session.publish()
        interactive = inp.isatty()
        if interactive:
            example = example_move(session.snap.game, session.snap.fen)  # the game's own (checkers12: c3d4)
            out.write(f"type a move{f' ({example})' if example else ''}, lift/place SQ, help, quit\n> ")
            out.flush()
        typed = LineInput(inp)
        todo: list[str] = []  # lines typed (or pasted) and not yet carried out, in order
        down = ""  # why the board does not answer, while it does not
        ended = False  # the end of input: the computer's move under way is still shown
        interrupted = False
        try:
            while True:
                if not todo and not ended:
                    timed = feed is not None or not interactive or session.clock is not None or session.job is not None
                    lines = typed.lines(0.05 if timed else 0.5)
                    if lines is None:
                        ended = True
                    else:
                        todo += lines
                if ended and not todo and not session.busy() and session.job is None:
                    break
                try:
                    # Lines typed while the computer is to move wait for its move (quit does not).
                    if todo and (not session.busy() or todo[0].strip() in ("quit", "exit", "q")):
                        if not session.command(todo.pop(0).strip()):
                            break
                    session.serve(0.05)
                    session.tick_clock()
                    if feed is not None:
                        feed.flush()
                    if session.dirty or down:
                        session.show()
                        if down:
                            session.snap.notes.append("the board answers again")
                            down = ""
                            session.show()
                        if interactive:
                            out.write("> ")
                            out.flush()
                except (LinkError, BridgeTimeout) as e:
                    if str(e) != down:
                        down = str(e)
                        out.write(f"board: {down}: waiting for it (quit to stop)\n")
                        out.flush()
        except KeyboardInterrupt:  # Ctrl-C: as quit, the game adjourned (never left in progress)
            interrupted = True
            out.write("\n")
        session.leave()
        adjourned = session.bridge.game_id
        session.keep_clock()  # the clock as it stands: --resume goes on with it
        if adjourned is not None and archive.drop_unplayed(adjourned):
            out.write(f"game {adjourned}: no move was made: it is not archived\n")
        elif adjourned is not None and archive.adjourn(adjourned):
            out.write(f"game {adjourned} adjourned: {session.resume_hint(adjourned)}\n")
        if interrupted:
            return 130  # (as an interrupted program does)
    return 0


def resumed_opponent(archive: Archive, game_id: int) -> Opponent | None:
    """The computer of an archived game, as it played (its side, engine, level and time a
    move), or None for a game between people."""
    kept = archive.opponent(game_id)
    if kept is None:
        return None
    side, engine, level_no, movetime_ms = kept
    return Opponent(side, engine, level_no, movetime_ms)

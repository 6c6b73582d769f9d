"""The web room: `eboard web`, and `--web [PORT]` beside play, serve and kriegspiel.

hub.py is the one door the other commands use (no web framework imported there);
server.py serves the pages (aiohttp), render.py draws them (the board's SVG from
host/web/diagram.py), templates/ and static/ are all the files a page ever fetches.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from host.web.server import WebServer

DEFAULT_PORT = 8080


def port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port {text!r}: a whole number from 0 to 65535") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"bad port {n}: a whole number from 0 to 65535")
    return n


def add_arguments(p: argparse.ArgumentParser) -> None:
    """--web [PORT] and --web-host HOST, for play, serve and kriegspiel."""
    p.add_argument("--web", nargs="?", type=port, const=DEFAULT_PORT, metavar="PORT",
                   help=f"also serve the browser view (default port {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                   help="the address the browser view listens on (default 127.0.0.1; 0.0.0.0 opens it to the network)")


class WebUnavailable(Exception):
    """The web room cannot start: one line a person can act on."""


def start(archive_path: str | None, host: str, port: int, out: TextIO = sys.stderr) -> WebServer:
    """The web server, started in its own thread; its address printed on out."""
    from host.record import ArchiveError

    try:
        from host.web.server import WebServer
    except ImportError as e:
        missing = "" if e.name == "aiohttp" else f" ({e.name}, which it needs, is missing)"
        raise WebUnavailable(f"the browser view (--web) needs aiohttp, not installed for this Python{missing}: "
                             f"{sys.executable} -m pip install 'aiohttp>=3.9'  (./play.sh --web installs it)") from None
    server = WebServer(archive_path, host, port)
    try:
        url = server.start()
    except (OSError, ArchiveError) as e:
        raise WebUnavailable(str(e)) from None
    print(f"web: {url}/", file=out, flush=True)
    return server


def board_feed(bridge: Any, archive: Any) -> Any:
    """A bridge's board published to the web room (flush() it from the link's thread)."""
    from host.web.hub import BoardFeed

    return BoardFeed(bridge, archive)


def kriegspiel_feed(server: WebServer, game: str, ends: dict[int, Any], tell: Callable[[str, str], None]) -> Any:
    """A Kriegspiel match published to the web room; tell(who, link) is given each link
    (who: white, black, spectators): the caller hands each player's to that player only."""
    from firmware.rules.kriegspiel import SIDES
    from host.web.hub import KriegFeed

    feed = KriegFeed(game, {SIDES[side]: end for side, end in ends.items()})
    for who, link in feed.links(server.url).items():
        tell(who, link)
    return feed

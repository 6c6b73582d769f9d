"""Battle chess's screened free setup (battle-setup.md): each side builds its own array in
its first three ranks; the two arrays then make the start position (no castling).

An array is checked alone (rules B1-B5, one reason code per broken rule), so a board can
check its owner's array without seeing the other; start_fen() joins two arrays and finds
the start conflicts of §2.5.
"""

from .board import WHITE, BLACK

ARMY = "KQRRBBNNPPPPPPPP"  # B1: the full army, 16 men
ERRORS = ("army_count", "outside_home_zone", "pawn_on_wrong_rank", "two_pawns_on_a_file", "bishops_same_colour")


class SetupConflict(ValueError):
    """Two arrays that are each valid but cannot start a game (§2.5)."""


def field(men):
    """[(letter, file, rank)] -> a FEN board field (letters as given: upper case White)."""
    grid = [["" for _ in range(8)] for _ in range(8)]
    for letter, f, r in men:
        grid[r][f] = letter
    rows = []
    for r in range(7, -1, -1):
        row = ""
        run = 0
        for f in range(8):
            if grid[r][f]:
                row += (str(run) if run else "") + grid[r][f]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def men(board, side):
    """The men of side (WHITE or BLACK) in a FEN board field: [(letter, file, rank)],
    letters in the side's case, files and ranks 0-based.  ValueError if the field is not 8 x 8."""
    rows = board.split("/")
    if len(rows) != 8:
        raise ValueError("a chess board field has 8 ranks")
    out = []
    for i, row in enumerate(rows):
        r = 7 - i
        f = 0
        for ch in row:
            if "1" <= ch <= "8":
                f += int(ch)
                continue
            if ch.upper() not in "KQRBNP" or not ch.isalpha():
                raise ValueError("no chess man %r" % ch)
            if ch.isupper() == (side == WHITE):
                out.append((ch, f, r))
            f += 1
        if f != 8:
            raise ValueError("rank %d has %d files" % (r + 1, f))
    return out


def errors(board, side):
    """The codes of the rules side's array in the FEN board field breaks, in rule order
    ([] if it is a valid array).  The other side's men are ignored."""
    own = men(board, side)
    out = []
    letters = sorted(m[0].upper() for m in own)
    if letters != sorted(ARMY):
        out.append(ERRORS[0])
    home = (0, 1, 2) if side == WHITE else (7, 6, 5)
    if any(r not in home for _, _, r in own):
        out.append(ERRORS[1])
    pawn_ranks = home[1:]
    if any(p in "Pp" and r not in pawn_ranks for p, _, r in own):
        out.append(ERRORS[2])
    files = [f for p, f, _ in own if p in "Pp"]
    if len(set(files)) != len(files):
        out.append(ERRORS[3])
    colours = [(f + r) & 1 for p, f, r in own if p in "Bb"]
    if len(colours) == 2 and colours[0] == colours[1]:
        out.append(ERRORS[4])
    return out


def allowed(letter, side, placed):
    """The (file, rank) squares where the next man `letter` of side may stand, given the
    men already placed [(letter, file, rank)] (a board's guided setup lights these).
    The pawns come last, so a piece may not take a file's last square for its pawn:
    every array built this way can be finished."""
    home = (0, 1, 2) if side == WHITE else (7, 6, 5)
    ranks = home[1:] if letter == "P" else home
    taken = [(f, r) for _, f, r in placed]
    pawn_files = [f for p, f, _ in placed if p == "P"]
    bishop = [(f + r) & 1 for p, f, r in placed if p == "B"]
    out = []
    for r in ranks:
        for f in range(8):
            if (f, r) in taken:
                continue
            if letter == "P" and f in pawn_files:
                continue
            if letter == "B" and bishop and (f + r) & 1 == bishop[0]:
                continue
            if letter != "P" and r in home[1:] and f not in pawn_files:
                other = home[1] + home[2] - r
                if (f, other) in taken:
                    continue  # the file's last square for its pawn: keep it free
            out.append((f, r))
    return out


def start_fen(white_board, black_board):
    """The start FEN of two arrays (FEN board fields; each side's men are taken from its
    own field).  ValueError naming the side whose array is invalid; SetupConflict if
    Black's king stands in check (§2.5: both set up again)."""
    both = []
    for board, side, name in ((white_board, WHITE, "white"), (black_board, BLACK, "black")):
        bad = errors(board, side)
        if bad:
            raise ValueError("%s's array: %s" % (name, ", ".join(bad)))
        both += men(board, side)
    fen = field(both) + " w - - 0 1"
    from .games import chess
    from .position import FenError

    try:
        chess.new(fen)
    except FenError:
        raise SetupConflict("setup_conflict: Black's king stands in check")
    return fen

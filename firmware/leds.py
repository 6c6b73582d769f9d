"""LED frames: one colour class per physical square, and the palette that lights them.

The tracker writes classes into a bytearray(144); a driver turns them into colours with
the brightness cap.  `CODES` gives each class a letter, for the virtual board's
`sim frame` and the tests.
"""

OFF = 0
DEST = 1  # a legal destination of the lifted piece
CAPTURE = 2  # a destination that captures, or a victim to remove
FROM = 3  # the lifted piece's square, or a piece to move next
LAST = 4  # the last move
MISSING = 5  # a piece belongs here: put one down
EXTRA = 6  # no piece belongs here: take it away
CHOICE = 7  # promotion: the current choice
OPTION = 8  # promotion: another choice
WIN = 9
LOSE = 10
DRAW = 11
CHECK = 12  # a royal piece under attack
NOTICE = 13  # an umpire's announcement

CODES = ".dxflmrCoWLDkn"  # class -> letter (sim frame)

# (r, g, b) at full scale; the driver scales by brightness / 255.
PALETTE = (
    (0, 0, 0),
    (0, 90, 255),  # DEST blue
    (255, 40, 0),  # CAPTURE red-orange
    (255, 255, 255),  # FROM white
    (60, 60, 0),  # LAST dim yellow
    (0, 255, 0),  # MISSING green: put a piece here
    (255, 0, 0),  # EXTRA red: take it away
    (255, 0, 255),  # CHOICE magenta
    (40, 0, 40),  # OPTION dim magenta
    (0, 255, 0),  # WIN
    (255, 0, 0),  # LOSE
    (255, 160, 0),  # DRAW
    (255, 0, 0),  # CHECK
    (0, 200, 200),  # NOTICE cyan
)

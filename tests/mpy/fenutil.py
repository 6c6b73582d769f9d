"""Boards of the specs' JSON ({square: code}) as FEN, for the tests on both interpreters."""

FILES12 = "abcdefghiklm"


def board_fen(board, side, letter_of, files=FILES12, ranks=12):
    """{square: 'wX'} -> a FEN (no castling, no en passant); letter_of(code[1:]) gives the
    FEN letter of a piece code."""
    rows = []
    for r in range(ranks, 0, -1):
        row = ""
        run = 0
        for f in files:
            code = board.get(f + str(r))
            if not code:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            letter = letter_of(code[1:])
            row += letter if code[0] == "w" else letter.lower()
        if run:
            row += str(run)
        rows.append(row)
    return "/".join(rows) + " " + side + " - - 0 1"

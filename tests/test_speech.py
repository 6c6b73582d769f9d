"""Spoken moves (issue #37 item 4): every game's moves, ends and takebacks in words
(host.record's speech), said by espeak-ng into WAV files that sox measures, and printed
by `eboard play --sim --words` in a real terminal.

The oracles: docs/pieces.md for the pieces' names; python-chess for chess's captures,
checks and mates; sentences written by hand for a move of each kind of each game; sox for
the sound (every sentence spoken, none empty, none cut)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from firmware.rules import GAMES, new_position
from host.record import (
    Speaker, computer_words, end_words, flag_words, move_text_words, move_words, piece_name, resign_words,
    square_words, takeback_words, wav,
)

ROOT = Path(__file__).resolve().parent.parent
SAY = ("en", "ru")


def pieces_md() -> dict[str, dict[str, str]]:
    """docs/pieces.md's tables: game -> letter -> name."""
    out: dict[str, dict[str, str]] = {}
    game = ""
    for line in (ROOT / "docs" / "pieces.md").read_text().splitlines():
        if line.startswith("## "):
            game = line[3:].strip()
            out[game] = {}
        m = re.fullmatch(r"\| ([A-Z]) \| ([^|]+) \| \d+ \|", line)
        if m and game:
            out[game][m.group(1)] = m.group(2).strip()
    return out


def test_every_piece_of_every_game_has_a_name_in_both_languages():
    docs = pieces_md()
    assert set(docs) == set(GAMES)
    for gid in GAMES:
        g = new_position(gid).game
        letters = g.letter[1:]
        assert set(letters) == set(docs[gid]), gid
        for t, letter in enumerate(letters, 1):
            en = piece_name(g, t, "en")
            assert en and en in docs[gid][letter], (gid, letter, en)  # the docs' name (korolewa: its word)
            for case in (0, 1):
                ru = piece_name(g, t, "ru", case)
                assert ru and re.fullmatch(r"[А-Яа-яЁё -]+", ru), (gid, letter, ru)
        # two pieces of a game are never said alike
        for lang in SAY:
            names = [piece_name(g, t, lang) for t in range(1, len(g.letter))]
            assert len(set(names)) == len(names) or gid == "courier" and lang == "ru", (gid, lang, names)


def test_courier_russian_ferz_and_queen():
    # courier has no queen: its F is the ferz, said ферзь, and no other man is
    g = new_position("courier").game
    assert [piece_name(g, t, "ru") for t in range(1, len(g.letter))].count("ферзь") == 1


@pytest.mark.parametrize("gid", GAMES)
def test_files_past_h_are_said_as_words(gid):
    lay = new_position(gid).game.layout
    said = {"i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike"}
    for f in lay.letters:
        name = f + "7"
        en, ru = square_words(name, "en"), square_words(name, "ru")
        assert en == (f"{said[f]} 7" if f in said else name)
        assert re.fullmatch(r"[А-Яа-яЁё]+ 7", ru), ru  # never a Latin letter to a Russian voice
    assert len({square_words(f + "1", "ru") for f in lay.letters}) == len(lay.letters)


# A move of each kind in each game: (game, FEN or None, move string, English, Russian).
KINDS = [
    ("chess960", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "Castles king side.", "Короткая рокировка."),
    ("chess960", "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1", "a1b3", "Knight to b3.", "Конь бэ 3."),
    ("chess", None, "g1f3", "Knight to f3.", "Конь эф 3."),
    ("chess", None, "e2e4", "Pawn to e4.", "Пешка е 4."),
    ("chess", "r1bqkbnr/ppp1pp1p/n7/3p2p1/8/N1P1P3/PP1P1PPP/R1BQKBNR w KQkq - 1 4", "f1a6",
     "Bishop takes a6.", "Слон бьёт а 6."),
    ("chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5",
     "Pawn from e4 takes d5.", "Пешка с е 4 бьёт дэ 5."),
    ("chess", "1n2k2r/7p/5p2/Bpp1pPp1/P2Pr1n1/K4b1B/7P/1N2Q1NR w - e6 0 34", "f5e6",
     "Pawn from f5 takes e6.", "Пешка с эф 5 бьёт е 6."),
    ("chess", "2bqkb1r/2pppp2/r7/ppPnn1pp/4P1P1/N2P3N/PP2BP1P/R1BQK2R w KQk - 2 15", "e1g1",
     "Castles king side.", "Короткая рокировка."),
    ("chess", "r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8", "Castles queen side, check.", "Длинная рокировка, шах."),
    ("chess", "r1b1kb1r/1pq1pp1p/4n3/p2P2p1/P4NnP/N7/p1PP1PP1/2BQKBR1 b kq - 0 14", "a2a1q",
     "Pawn to a1, becomes a queen.", "Пешка а 1, превращается в ферзя."),
    ("chess", "r1b1kb1r/1p2pp2/4n3/p2P3p/P4pnP/N7/pBqP1PP1/1Q2KB1R b kq - 1 17", "a2b1q",
     "Pawn from a2 takes b1, becomes a queen, check.", "Пешка с а 2 бьёт бэ 1, превращается в ферзя, шах."),
    ("chess", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4",
     "Queen to h4, checkmate.", "Ферзь аш 4, мат."),
    ("chess", "k7/8/8/8/8/8/8/1N1N2K1 w - - 0 1", "b1c3", "Knight from b1 to c3.", "Конь с бэ 1 на цэ 3."),
    ("lippo", None, "b1e4", "Mortar to e4.", "Мортира е 4."),
    ("lippo", None, "b3b5", "Soldier to b5.", "Солдат бэ 5."),
    ("lippo", None, "k1k4", "Shrapnel to kilo 4.", "Шрапнель Кило 4."),
    ("lippo", None, "i1i4", "Aeroplane to india 4.", "Аэроплан Индия 4."),
    ("lippo", "kmhagdp1ahmk/eontlffltnoe/ussssssssssu/12/3g8/12/12/T11/12/USSSSSSSSSSU/EON1LFFLTNOE/KMHAGDPGAHMK w KQkq - 2 2",
     "a5d8", "Tank takes d8.", "Танк бьёт дэ 8."),
    ("lippo", "kmha1dp1a1mk/e1n1hff2no1/ts1lssls1sG1/1us7u1/g3o1s1s2t/2s4e4/4E7/3M3A3T/2S1SG3H2/1S1S1SSSSSSU/"
     "1ONTLFFg1NOE/K1HA1DP4K w KQkq - 2 24", "g1i1",
     "Castles: the President to india 1, the Fortress to h1.", "Рокировка: Президент Индия 1, Крепость аш 1."),
    ("lippo", "kmh1gdpg1hmk/1ontlffltnoe/ussssssssssu/7a4/12/8A3/9a2/12/7L1G2/USSSeSSSSSSU/EONTLFF1TNOE/KMHA1DPG1HMK w KQkq - 0 7",
     "f2e3", "Fougasse on f2 blows up the Grenade on e3.", "Фугас эф 2 взрывает Гранату е 3."),
    ("lippo", "k11/4S1P5/12/12/12/s11/12/12/S11/12/12/5p6 w - - 0 1", "e11e12l",
     "Soldier to e12, becomes a Machine-gun.", "Солдат е 12, превращается в Пулемёт."),
    ("lippo", "k11/4S1P5/12/12/12/s11/12/12/S11/12/12/5p6 w - - 0 1", "e11e12", "Soldier to e12.", "Солдат е 12."),
    ("lippo", "k11/4S1P5/12/12/12/s11/12/12/S11/12/12/5p6 w - - 0 1", "g11g12,g3",
     "President to g12, and a new Soldier on g3.", "Президент жэ 12, новый Солдат на жэ 3."),
    ("lippo", "p11/12/12/12/12/3n8/12/4S7/12/12/5FF5/6P5 b - - 0 1", "d7e5",  # §11: no Soldier left on either side
     "Cavalry takes e5, White gets a Soldier on f2 and g2, Black gets a Soldier on f11 and g11.",
     "Кавалерия бьёт е 5, у белых Солдат на эф 2 и жэ 2, у чёрных Солдат на эф 11 и жэ 11."),
    ("checkers12", None, "a3b4", "Man from a3 to b4.", "Шашка с а 3 на бэ 4."),
    ("checkers12", "1m1m1m1m1m1m/m1m1m1m1m1m1/9m1m/m1m3m1m3/5m5m/4M7/12/2M9/7M3M/M1M1M1M1M3/3M3M1M1M/M1M1M1M3M1 b - - 0 12",
     "f8d6b4", "Man from f8 jumps to d6, b4, taking e7, c5.", "Шашка с эф 8 прыгает на дэ 6, бэ 4, бьёт е 7, цэ 5."),
    ("checkers12", "12/4M7/12/12/12/12/1m10/12/12/12/12/12 w - - 0 1", "e11f12",
     "Man from e11 to f12, becomes a king.", "Шашка с е 11 на эф 12, превращается в дамку."),
    ("courier", "rn1bmkfwbenr/pp1ppppppppp/4e7/2p9/12/4E3P3/PPPPPPPP1PPP/RN1BMKFWBENR w - c6 0 3", "e3c5",
     "Alfil takes c5.", "Альфил бьёт цэ 5."),
    ("courier", "12/8E1P1/1r4k1fR1p/r2pp4E2/1R1P2Bb4/2p3F2M2/4K7/9W2 w - - 1 120", "l7l8f",
     "Pawn to lima 8, becomes a ferz.", "Пешка Лима 8, превращается в ферзя."),
    ("gardner", "3k1/1B2p/4K/P2p1/n3R b - - 3 23", "d2e1q",
     "Pawn from d2 takes e1, becomes a queen, check.", "Пешка с дэ 2 бьёт е 1, превращается в ферзя, шах."),
    ("hundred", None, "i1h3", "Knight to h3.", "Конь аш 3."),
    ("hundred", None, "e2d1", "Pawn changes places with the jester on d1.", "Пешка и шут дэ 1 меняются местами."),
    ("hundred", "r1bzk4r/p2pppg1pp/npq6n/B1p3ppb1/8Z1/6P1N1/P9/2PPP2P2/1P1K1P2PP/RNQ1G4R b kq - 9 25", "e10g10",
     "Castles: the king to g10, the rook to f10.", "Рокировка: король жэ 10, ладья эф 10."),
    ("hundred", "r1bzk4r/p2pppg1pp/npq6n/B1p3ppb1/8Z1/6P1N1/P9/2PPP2P2/1P1K1P2PP/RNQ1G4R b kq - 9 25", "e10g10,k",
     "King to g10.", "Король жэ 10."),
    ("hundred", "10/g8G/8r1/pP5P2/P2z3R1P/6B3/R5P1P1/8K1/5kZ3/7B2 b - - 0 134 - h1", "f2e1,b9",
     "King to e1, a pawn comes onto b9.", "Король е 1, пешка ставится на бэ 9."),
    ("hundred", "6r1q1/1P1n4kp/3B6/3r3pp1/2p3p3/2p1PB4/PP1P3p2/9P/9z/5R1K2 w - - 1 90", "b9b10n",
     "Pawn to b10, becomes a knight.", "Пешка бэ 10, превращается в коня."),
    ("grosschess", "rnbzkqgbnr/pop1vimpop/1p1pppp1p1/2s7/10/10/10/1P1PPPPOP1/POPSVIMPBP/RNBZKQG1NR b KQkq - 3 2", "c7g3",
     "Sagittarius takes g3.", "Стрелец бьёт жэ 3."),
    ("grosschess", "rn1zkigb1r/3s1q2o1/pSp3p1p1/m4p1p1p/3oVp1v2/4pPP3/7n1P/1PPPIM1bP1/P2KZ5/RNB1QB1GNR w - - 0 42 - "
     "d3,d9,i9,d10,e10", "e6f7,g8", "Korolewa takes f7, then g8.", "Королева бьёт эф 7, затем жэ 8."),
    ("grosschess", "bnV1kg4/2z2iP3/B5p1p1/4o2p2/3p1p4/4s3vM/1PPP5P/2K2R2P1/P1N1I4q/R1B1Q2Gn1 w - - 1 78 - a1,f9,e10",
     "g9g10g", "Pawn to g10, becomes a general.", "Пешка жэ 10, превращается в генерала."),
    ("chess-t1", None, "a1a3", "Ritter to a3.", "Риттер а 3."),
    ("chess-t1", "rspck1sr/ii1iiipi/2i5/6i1/2I1S3/8/II1IIIII/R1PCKPSR w - - 6 4", "e4g5", "Scout takes g5.", "Скаут бьёт жэ 5."),
    ("chess-t1", "rs3cs1/3ii2i/pii1ki1r/i2I2i1/1I2p1PI/6PI/I1I1II2/RS1CK1SR w - - 36 19", "d5d6",
     "Knecht to d6, becomes a Wer Knecht.", "Кнехт дэ 6, превращается в веркнехта."),
    ("chess-t1", "6k1/1V2i3/8/p4i2/1i1vpi2/3RVr2/8/2K5 w - - 4 112", "b7b8r",
     "Wer Knecht to b8, becomes a Ritter.", "Веркнехт бэ 8, превращается в риттера."),
]


@pytest.mark.parametrize("gid,fen,move,en,ru", KINDS, ids=[f"{k[0]}-{k[2]}" for k in KINDS])
def test_a_move_of_each_kind(gid, fen, move, en, ru):
    pos = new_position(gid, fen)
    before = pos.fen()
    m = pos.parse_move(move)
    assert move_words(pos, m, "en") == en
    assert move_words(pos, m, "ru") == ru
    assert pos.fen() == before  # the position is left as it was
    assert move_text_words(gid, fen, move, "en") == en


def test_every_game_has_each_of_its_kinds_tested():
    assert {k[0] for k in KINDS} == set(GAMES)


@pytest.mark.parametrize("gid", GAMES)
def test_the_moves_of_random_games_are_said(gid):
    """A sample of the legal moves of random games (each ply's, the one played among them),
    in both languages: a sentence naming the moving man (the rules core's piece on the from
    square) and where it goes."""
    rnd = random.Random(37)
    pos = new_position(gid)
    for _ in range(60):
        ms = pos.legal_moves()
        if not ms:
            break
        played = rnd.choice(ms)
        g = pos.game
        for m in set(rnd.sample(ms, min(4, len(ms))) + [played]):
            text = pos.move_str(m)
            sqs = re.findall(r"[a-m]\d+", text)
            name = piece_name(g, pos.cells[pos.move_from(m) if gid != "checkers12" else g.layout.cell(sqs[0])] & 31)
            for lang in SAY:
                said = move_words(pos, m, lang, ms)
                assert said.endswith(".") and "  " not in said
                if lang == "en":
                    assert name.lower() in said.lower() or "castles" in said.lower(), (text, said)
                    assert square_words(sqs[1]) in said or "castles" in said.lower(), (text, said)
                    assert re.search(r"\b[i-m]\d", said) is None, said  # no bare file letter past h
                else:
                    assert re.search(r"[a-z]", said) is None, said  # a Russian voice hears no Latin letter
        pos.push(played)


def test_chess_captures_checks_and_mates_agree_with_python_chess():
    """Random games, each ply's played move, every check and mate among its legal moves
    (python-chess says which), some captures and a few others: said as python-chess has them."""
    chess = pytest.importorskip("chess")
    rnd = random.Random(4)
    seen = {"takes": 0, "check": 0, "checkmate": 0}
    for game in range(10):
        pos = new_position("chess")
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 120:
            ms = pos.legal_moves()
            played = rnd.choice(ms)
            for m in ms:
                theirs = chess.Move.from_uci(pos.move_str(m))
                capture = board.is_capture(theirs)
                board.push(theirs)
                mate = board.is_checkmate()
                check = board.is_check() and not mate
                board.pop()
                if not (m == played or check or mate or capture and rnd.random() < 0.3 or rnd.random() < 0.05):
                    continue
                said = move_words(pos, m, "en", ms)
                if "castles" not in said:
                    assert (" takes " in said) == capture, said
                assert said.endswith(", checkmate.") == mate, said
                assert said.endswith(", check.") == check, said
                seen["takes"] += capture
                seen["check"] += check
                seen["checkmate"] += mate
            board.push(chess.Move.from_uci(pos.move_str(played)))
            pos.push(played)
    assert all(seen.values()), seen


def test_the_computer_before_its_move_is_made():
    pos = new_position("chess")
    m = pos.parse_move("g1f3")
    assert computer_words(pos, m) == "The computer plays knight to f3: make it on the board."
    assert computer_words(pos, m, "ru") == "Компьютер играет: конь эф 3. Сделайте этот ход на доске."
    lippo = new_position("lippo")
    assert computer_words(lippo, lippo.parse_move("i1i4")) == "The computer plays Aeroplane to india 4: make it on the board."


def test_corrections_put_the_men_back():
    pos = new_position("chess")
    assert takeback_words("chess", pos.fen(), ["g1f3"]) == "Put the knight back on g1."
    assert takeback_words("chess", pos.fen(), ["g1f3"], "ru") == "Поставьте коня обратно на жэ 1."
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert takeback_words("chess", fen, ["e4d5"]) == "Put the pawn back on e4, put Black's pawn back on d5."
    # two moves taken back (yours and the computer's answer), the last first
    assert takeback_words("chess", pos.fen(), ["g8f6", "g1f3"]) == "Put the knight back on g8. Put the knight back on g1."
    # castling: the king and the rook
    fen = "2bqkb1r/2pppp2/r7/ppPnn1pp/4P1P1/N2P3N/PP2BP1P/R1BQK2R w KQk - 2 15"
    assert takeback_words("chess", fen, ["e1g1"]) == "Put the king back on e1, put the rook back on h1."
    # lippo's Fougasse: the man it blew up comes back
    fen = "kmh1gdpg1hmk/1ontlffltnoe/ussssssssssu/7a4/12/8A3/9a2/12/7L1G2/USSSeSSSSSSU/EONTLFF1TNOE/KMHA1DPG1HMK w KQkq - 0 7"
    assert takeback_words("lippo", fen, ["f2e3"]) == "Put Black's Grenade back on e3."
    assert takeback_words("chess", pos.fen(), ["e7e5"]) == "Set the men as the board shows."  # not a move there


def test_results_and_flags():
    assert resign_words("white") == "White resigns."
    assert resign_words("black", "ru") == "Чёрные сдались."
    assert flag_words("black", "1-0") == "Black's flag fell: White wins."
    assert flag_words("white", "0-1", "ru") == "У белых упал флажок: чёрные выиграли."
    assert end_words("time", "1-0") == "Black's flag fell: White wins."
    assert end_words("time", "1/2-1/2") == "A flag fell, and the other side cannot mate: a draw."
    assert end_words("agreement", "1/2-1/2") == "Draw by agreement."
    assert end_words("agreement", "1/2-1/2", "ru") == "Ничья по соглашению."
    assert end_words("resign", "0-1") == "White resigns."
    assert end_words("checkmate", "1-0") == "Checkmate: White wins."
    assert end_words("stalemate", "1/2-1/2") == "Stalemate: a draw."
    assert end_words("president-captured", "0-1", "ru") == "Президент взят: чёрные выиграли."
    assert end_words("some-new-end", "1-0") == "Some new end: White wins."
    with pytest.raises(ValueError, match="languages are en, ru"):
        end_words("checkmate", "1-0", "de")


def test_words_mode_prints_one_sentence_a_line():
    import io

    out = io.StringIO()
    s = Speaker("en", aloud=False, out=out)
    s.say("Knight to f3.")
    s.say("")
    s("Checkmate: White wins.")
    assert out.getvalue() == "Knight to f3.\nCheckmate: White wins.\n"


def test_the_speaker_never_makes_the_game_wait(monkeypatch):
    """say() queues: the voice (here held until released) says the sentences in its own
    thread, in order; close() waits for what is queued."""
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/espeak-ng")
    release = threading.Event()
    said: list[list[str]] = []

    def voice(argv: list[str]) -> None:
        release.wait()
        said.append(argv)

    s = Speaker("ru", run=voice)
    s.say("Конь эф 3.")
    s.say("Пешка е 5.")  # returned although the voice is still busy with the first
    assert said == []
    release.set()
    s.close()
    assert said == [["/usr/bin/espeak-ng", "-v", "ru", "Конь эф 3."], ["/usr/bin/espeak-ng", "-v", "ru", "Пешка е 5."]]


def test_no_espeak_is_said_in_words(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="apt-get install espeak-ng"):
        Speaker("en")
    Speaker("en", aloud=False)  # --words needs no voice


# ---- the sound: espeak-ng writes WAV files, sox measures them ---------------------------------

needs_voice = pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("sox") is None,
                                 reason="apt-get install espeak-ng sox")
SECONDS_A_WORD = 0.15  # espeak-ng's default 175 words a minute is 0.34 s a word: half of it and less is cut
RMS_FLOOR = 0.02  # a sentence said is far louder (0.08 measured); silence is 0


def stat(path: Path, *effect: str) -> dict[str, float]:
    r = subprocess.run(["sox", str(path), "-n", *effect, "stat"], capture_output=True, text=True, check=True)
    out = {}
    for line in r.stderr.splitlines():
        key, _, value = line.partition(":")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            pass
    return out


def events() -> list[tuple[str, str]]:
    """Every kind of event a game says, in both languages: moves of each kind of each game,
    the computer's move, a takeback, results and flags."""
    out = []
    for lang in SAY:
        out += [(lang, en if lang == "en" else ru) for gid, fen, move, en, ru in KINDS]
        pos = new_position("chess")
        out += [
            (lang, computer_words(pos, pos.parse_move("g1f3"), lang)),
            (lang, takeback_words("chess", pos.fen(), ["g1f3"], lang)),
            (lang, resign_words("white", lang)),
            (lang, flag_words("black", "1-0", lang)),
            (lang, end_words("agreement", "1/2-1/2", lang)),
            (lang, end_words("checkmate", "0-1", lang)),
        ]
    return out


@needs_voice
def test_every_event_is_spoken_none_empty_none_cut(tmp_path):
    """Each sentence through the Speaker's own command line, into a WAV file (-w): sound
    long enough for its words, loud enough, and ending in the voice's own silence (the last
    50 ms), not cut off mid-word."""
    spoken: list[list[str]] = []
    speakers = {lang: Speaker(lang, run=spoken.append) for lang in SAY}
    todo = events()
    for lang, text in todo:
        speakers[lang].say(text)
    for s in speakers.values():
        s.close()
    assert sorted(argv[-1] for argv in spoken) == sorted(text for _, text in todo)  # every event said
    for i, argv in enumerate(spoken):
        path = tmp_path / f"{i}.wav"
        subprocess.run(argv[:-1] + ["-w", str(path), argv[-1]], check=True, capture_output=True)
        whole = stat(path)
        words = len(argv[-1].split())
        assert whole["Length (seconds)"] >= SECONDS_A_WORD * words, (argv, whole)
        assert whole["RMS     amplitude"] >= RMS_FLOOR, (argv, whole)
        tail = stat(path, "trim", "-0.05")
        assert tail["Maximum amplitude"] < 0.01, (argv, tail)  # the voice ended: silence, not a cut


@needs_voice
def test_an_empty_sentence_would_be_caught(tmp_path):
    """The floors tell: nothing said is no sound, a cut sentence ends loud."""
    wav("", str(tmp_path / "empty.wav"))
    assert stat(tmp_path / "empty.wav")["RMS     amplitude"] < RMS_FLOOR
    wav("Knight takes e5, check.", str(tmp_path / "whole.wav"), "en")
    subprocess.run(["sox", str(tmp_path / "whole.wav"), str(tmp_path / "cut.wav"), "trim", "0", "0.5"], check=True)
    assert stat(tmp_path / "cut.wav", "trim", "-0.05")["Maximum amplitude"] >= 0.01

"""The game, journaled to flash after every move, so a power cut loses nothing.

A journal is a file of records: a 2-byte length, the record's text, and its CRC-32.  It is
read as a stream, one record at a time (a record is at most MAX_RECORD bytes), so a journal
of any size, or of any garbage, costs a boot no more memory than one record.

A bad record (short, too long, a bad CRC, not ASCII) that is the last thing in the file is
the torn record of a power cut: it is cut off and the game goes on.  A bad record with
anything after it is damage: the board (app.py) sets the journal aside and says so.

Records (text), protocol 2:
                 N <seq> <uid> <game> <fen>     a new game ("-": its start position)
                 K <seq> <uid> <game> <side> <view fen>   a Kriegspiel player's board
                 P <seq> <uid> <fen>            the host set a position: a new game (uid)
                 B <seq>                        the pieces stood ready: the game began
                 M <seq> <move>                 a move, with the sequence number of its message
                 U <seq> <move>                 the last move taken back
                 C <seq> <claim>                a lippo claim (perpetual, declare, demand)
                 V <seq> <view fen>             a Kriegspiel player's new view
                 E <seq> <reason> <result> [<white points> <black points>]   the game ended
                 S <seq>                        sequence numbers up to here may have been used
                 X <seq> <ply> <fen>|<move> ...  a checkpoint (app.py): the position at that ply,
                                                then the moves after it that the rules still look
                                                back on; a power-up replays from the last one
The journal holds the game being played and the games before it (each from its N or K on),
within a share of the flash (firmware/new_journal.py), so that a host away across
games' ends and new games can still fetch them all (`since`).

Journal is the file (firmware/ring.py's RingJournal: the flash ring on our image); the
board's Logbook says which record goes in and when: a record is numbered with the message
that tells it, and written before that message goes out; the message numbers are reserved
a block at a time (S) so that they go on rising after a reset; a checkpoint (X) every
CHECKPOINT_EVERY plies, so that a power-up replays less of a long game; and once the flash
is full (F), the game goes on in RAM, its moves from that ply on kept by the Logbook for
`history`, and nothing more of it is journaled (a record after a gap would be a wrong
game).  Its seldom work (a new game's journal, a checkpoint, a compaction, a full flash)
is firmware/rewrites.py's, which the Board loads for it and drops after (journal_work).
"""

import os
import struct

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - every port we use has it
    from zlib import crc32

MAX_RECORD = 512  # bytes of text in one record: far above any record the board writes
COPY_CHUNK = 256  # bytes moved at a time when the file is cut back
READ_CHUNK = 512  # bytes read at a time by records()
ROOM_BYTES = 8192  # the journal's spare room (a file beside it): freed when the flash is full


class JournalFull(OSError):
    """The flash has no room for another record."""


class Journal:
    """Append-only records in one file; rewritten whole only for a new game."""

    def __init__(self, path):
        self.path = path
        self.size = 0  # bytes of good records
        self.problem = None  # after check(): what was wrong with the file (None: nothing)
        # (head_at, set once known by a power-up or a new game's journal, and read by
        # readback's history: where the game being played begins; 0 or unset: not known.
        # Not set here: an attribute more in every board's heap, for a reading that is
        # only faster with it)

    def records(self, at=0):
        """Yields the text of each good record, in order, reading the file as a stream
        (from byte at, where a record begins: self.end after the one before it); stops at
        the first bad one.  Afterwards self.end is the good records' size and self.bad
        None (the file ended cleanly) or (offset, why)."""
        self.end = at
        self.bad = None
        try:
            f = open(self.path, "rb")
        except OSError:
            return
        with f:
            if at:
                f.seek(at)
            # Read READ_CHUNK bytes at a time, not two reads a record: a long game's
            # power-up reads a thousand records, and each read is a call into the file
            # system.  At most a record and a chunk are held.
            buf = b""
            j = 0  # where the next record begins in buf (at byte i of the file)
            i = at
            more = True
            while True:
                if more and len(buf) - j < MAX_RECORD + 6:
                    chunk = f.read(READ_CHUNK)
                    if chunk:
                        buf = buf[j:] + chunk
                        j = 0
                        continue
                    more = False
                left = len(buf) - j
                if not left:
                    break
                if left < 2:
                    self.bad = (i, "a short length")
                    break
                (n,) = struct.unpack_from("<H", buf, j)
                if n > MAX_RECORD:
                    self.bad = (i, "a record of %d bytes" % n)
                    break
                if left < n + 6:
                    self.bad = (i, "a short record")
                    break
                body = buf[j + 2 : j + 2 + n]
                (crc,) = struct.unpack_from("<I", buf, j + 2 + n)
                if crc32(body) & 0xFFFFFFFF != crc:
                    self.bad = (i, "a bad checksum")
                    break
                # (min and max run in C: a Python loop over every byte cost a long
                # game's power-up some 0.1 ms a record on the chip)
                if n and (min(body) < 32 or max(body) > 126):
                    self.bad = (i, "a record that is not text")
                    break
                j += n + 6
                i += n + 6
                self.end = i
                yield body.decode()

    def check(self):
        """Read the whole journal: None if it is usable (a torn last record is cut off),
        else a line saying what is wrong (the file is left as it is)."""
        count = 0
        for _ in self.records():
            count += 1
        return self.verdict(count)

    def verdict(self, count):
        """After a pass of records() that read all count good records (the board's boot
        reads the journal once, for its own checks and for this): check()'s answer."""
        self.size = self.end
        if self.bad is None:
            return None
        from firmware import torn  # a damaged or torn journal: rare, its code loaded for it

        return torn.verdict(self, count, MAX_RECORD)

    def set_aside(self):
        """Rename the journal (an unusable one) to <path>.bad; the board starts a new one."""
        from firmware import torn

        return torn.set_aside(self)

    def load(self):
        """The good records, as a list (tests and tools; the board streams them)."""
        out = list(self.records())
        self.size = self.end
        return out

    def _cut(self, size):
        # Keep the first size bytes: copied in small chunks to a new file, then renamed
        # over the old one (no truncate() on MicroPython; no whole file in RAM).
        tmp = self.path + ".new"
        with open(self.path, "rb") as src:
            with open(tmp, "wb") as dst:
                left = size
                while left > 0:
                    chunk = src.read(min(COPY_CHUNK, left))
                    if not chunk:
                        break
                    dst.write(chunk)
                    left -= len(chunk)
        os.rename(tmp, self.path)
        self.size = size

    def append(self, text):
        """Add one record; JournalFull if the flash is full (the file is left as it was)."""
        rec = record(text)
        try:
            with open(self.path, "ab") as f:
                f.write(rec)
        except OSError as e:
            self._restore()
            if e.args and e.args[0] == 28:  # ENOSPC
                raise JournalFull(28, "flash full")
            raise
        self.size += len(rec)

    def keep_room(self):
        """A spare file beside the journal, made while there is room: when the flash fills,
        free_room() deletes it, and that room takes the record saying so (F, app.py), so
        that every power-up knows which moves the board lacks."""
        room = self.path + ".room"
        try:
            open(room, "rb").close()
            return
        except OSError:
            pass
        try:
            with open(room, "wb") as f:
                block = bytes(256)
                for _ in range(ROOM_BYTES // 256):
                    f.write(block)
        except OSError:
            try:
                os.remove(room)
            except OSError:
                pass

    def free_room(self):
        try:
            os.remove(self.path + ".room")
        except OSError:
            pass

    def idle(self):
        """Work a journal does while the board stands idle: none for a file."""
        return False

    def _restore(self):
        # A failed append may leave a partial record: cut it off again.
        try:
            self._cut(self.size)
        except OSError:
            pass

    def rewrite(self, texts):
        """Replace the journal by these records (any iterable, which may read this very
        journal), atomically: a new file, then a rename."""
        tmp = self.path + ".new"
        size = 0
        try:
            with open(tmp, "wb") as f:
                for t in texts:
                    rec = record(t)
                    f.write(rec)
                    size += len(rec)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            if e.args and e.args[0] == 28:
                raise JournalFull(28, "flash full")
            raise
        os.rename(tmp, self.path)
        self.size = size


def record(text):
    """One record's bytes: the 2-byte length, the text, its CRC-32 (the file's and the ring's)."""
    body = text.encode()
    return struct.pack("<H", len(body)) + body + struct.pack("<I", crc32(body) & 0xFFFFFFFF)


SEQ_BLOCK = 256  # message numbers reserved in the journal at a time
SEQ_AHEAD = 64  # numbers left in the block when a board standing idle reserves the next one:
# not in a move's scans (on stock MicroPython an S record's append erases a flash sector, 45 ms)
COMPACT_AFTER = 64  # reservation records in the journal before it is rewritten without them
CHECKPOINT_EVERY = 50  # plies between two checkpoints (X records): a power-up replays fewer
CHECKPOINT_LATE = 25  # plies a due checkpoint waits for an idle second at most; then it is taken
# in the scan after a move, so that a game played with no idle second still has its checkpoints


class Logbook:
    """The board's journal kept: its records numbered, its checkpoints, a full flash."""

    def __init__(self, board, journal):
        self.board = board  # its ply, position and outbox (the numbers); its _send says what fails
        self.journal = journal
        self.seq_reserved = 0  # message numbers below this are reserved in the journal
        self.reservations = 0  # S records in the journal
        self.ok = True  # the last record went in
        self.unsaved_from = 0  # the flash filled: the first ply of the game not on it (0: none)
        self.unsaved = None  # the moves from that ply on, kept in RAM (a bytearray)
        self.checkpoint_ply = 0  # the board's ply at the last checkpoint written or replayed
        self.claim_ply = 0  # the board's ply at the game's last claim (a checkpoint starts after it)
        self.checkpoint_due = False  # a checkpoint waits for an idle second or the host's move's reply

    def begin(self):
        """A new game, or a position set: no checkpoint, claim or gap in its record yet."""
        self.checkpoint_ply = self.claim_ply = self.unsaved_from = 0

    def write(self, text):
        """Append the record text; True if it went in.  A full flash begins the game's
        unsaved moves (and is said); another error is alerted."""
        if self.unsaved_from and text[0] != "S" and text[0] != "P":
            return False  # the game's record on the flash stops where the flash filled
        try:
            self.journal.append(text)
            self.ok = True
            return True
        except JournalFull:
            self.ok = False
            if not self.unsaved_from:  # a takeback not saved: its move is the first wrong ply
                ply = self.board.ply
                self.board.journal_work("full", ply if text[0] == "U" else ply + 1)
        except OSError as e:
            self.board._send("alert journal %s" % e)
        return False

    def made(self, text):
        """The move text, made: its record (M), or its word in RAM once the flash is full."""
        if not self.write("M %d %s" % (self.board.next_seq(), text)) and self.unsaved_from:
            self.unsaved.extend(text.encode() + b" ")

    def undone(self, text):
        """The move text, taken back (U); the board's ply is still the move's."""
        if not self.write("U %d %s" % (self.board.next_seq(), text)) and self.unsaved_from:
            if self.unsaved:
                self.unsaved = self.unsaved[: self.unsaved.rfind(b" ", 0, len(self.unsaved) - 1) + 1]
            else:  # a saved move taken back: the record is the game's only before it
                self.unsaved_from = min(self.unsaved_from, self.board.ply)

    # ---- message numbers ----------------------------------------------------------------

    def reserve(self):
        """Message numbers survive a reset: a block of them is written down before any is
        used, and after a reset numbering goes on above the last block written."""
        self.seq_reserved = self.board.outbox.seq + SEQ_BLOCK
        self.reservations += 1
        if self.reservations > COMPACT_AFTER:
            self.board.journal_work("compact")
        self.write("S %d" % self.seq_reserved)

    # ---- games ----------------------------------------------------------------------------

    def last_head(self):
        """The number of the journal's last N or K record: where the game being played
        begins (the games before it are kept only for a host that missed them)."""
        start = i = 0
        for rec in self.journal.records():
            if rec[0] == "N" or rec[0] == "K":
                start = i
            i += 1
        return start

    # ---- checkpoints ------------------------------------------------------------------------

    def settled(self, scan):
        """A move's work done (Board.settle): a checkpoint falls due every CHECKPOINT_EVERY
        plies, taken when the board stands idle (idle) or after the reply to the host's
        move that made it due (protocol.handle); in a scan (scan), one overdue by
        CHECKPOINT_LATE plies goes now: a power-up's replay must not grow without bound
        (a host's `hello` waits 3 s)."""
        since = self.board.ply - self.checkpoint_ply
        self.checkpoint_due = since >= CHECKPOINT_EVERY
        if scan and since >= CHECKPOINT_EVERY + CHECKPOINT_LATE:
            self.checkpoint()

    def idle(self):
        """The work no scan after a move can afford, done when the board stands idle: a
        due checkpoint, the journal's next sector erased (a flash ring, firmware/ring.py:
        ~45 ms), and the next block of message numbers."""
        if self.checkpoint_due and not self.board.after_due:
            self.checkpoint()
        self.journal.idle()
        if self.seq_reserved - self.board.outbox.seq <= SEQ_AHEAD:
            self.reserve()

    def checkpoint(self):
        """A checkpoint record, if the game allows one now (firmware/rewrites.py's
        checkpoint: its code loaded for it and dropped after)."""
        self.checkpoint_due = False
        if self.board.pos is not None and self.board.ply - self.checkpoint_ply >= CHECKPOINT_EVERY:
            self.board.journal_work("checkpoint")

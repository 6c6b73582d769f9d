"""The outbox keeps the newest messages for a host that reconnects: at most KEEP of them,
as many as ROOM bytes hold, without a gap (docs/protocol.md, `since`)."""

import random

from firmware.outbox import KEEP, ROOM, Outbox


def test_the_newest_messages_are_kept_without_a_gap():
    sent = []
    box = Outbox(sent.append)
    rnd = random.Random(3)
    for i in range(3000):
        box.send("move %d " % i + "x" * rnd.choice([2, 10, 20, 60, 200, 800]))
        kept, low = box.kept_since(0)
        assert kept == sent[len(sent) - len(kept):]
        assert len(kept) <= KEEP and sum(len(k) for k in kept) <= ROOM
        assert low == box.seq + 1 - len(kept)
        assert (len(sent[-1]) <= ROOM) == (kept[-1:] == sent[-1:])
        assert box.kept_since(box.seq - 2)[0] == kept[-2:]


def test_short_messages_keep_the_last_32():
    sent = []
    box = Outbox(sent.append)
    for i in range(100):
        box.send("lift e%d" % (i % 8 + 1))
    kept, low = box.kept_since(50)
    assert kept == sent[-32:] and low == 69

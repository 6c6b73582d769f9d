"""A littlefs filled until not one byte more fits, as a person's files on a board would
(the tests of a full flash: on the unix port, and on the emulated Pico through mpremote,
which runs this file's text there)."""

import os


def fill(folder):
    """Files in folder (a path without its last /) until none fits; returns their names.
    Each is written whole and closed: a write that fails is not kept, its room comes back."""
    names = []
    for size in (65536, 4096, 512, 64, 8, 1):
        while True:
            name = "%s/fill%d" % (folder, len(names))
            try:
                with open(name, "wb") as f:
                    for _ in range(max(1, size // 4096)):
                        f.write(bytes(min(size, 4096)))
            except OSError:
                try:
                    os.remove(name)
                except OSError:
                    pass
                break
            names.append(name)
    return names

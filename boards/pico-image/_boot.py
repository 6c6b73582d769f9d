# The image's power-up mount, frozen in place of the port's _boot.py (manifest.py).  The
# image's storage (build-image.sh) is stock MicroPython's 1408 KB file system and, below it,
# a ring of raw sectors for the journal (firmware/ring.py: a move's record never waits for a
# littlefs erase).  The file system stays where stock MicroPython and every earlier image
# keep it, so a board's files survive a change of firmware either way; boards/pico.py finds
# the ring as the storage the file system leaves.
import vfs
import rp2

FS_BYTES = 1408 * 1024

bdev = rp2.Flash()
ring = bdev.ioctl(4, 0) * 4096 - FS_BYTES
if ring > 0:
    bdev = rp2.Flash(start=ring)
# As the port's own: mount the file system, or make one on a flash that has none.
try:
    fs = vfs.VfsLfs2(bdev, progsize=256)
except:
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    fs = vfs.VfsLfs2(bdev, progsize=256)
vfs.mount(fs, "/")

del vfs, bdev, fs, ring

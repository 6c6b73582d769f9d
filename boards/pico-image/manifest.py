# eboard-pico.uf2: MicroPython for RPI_PICO with the eboard firmware frozen in (boards/build-image.sh).
# The port's own frozen modules (its boards/manifest.py), with our _boot.py for the port's:
# it mounts the file system above the journal's flash ring.
freeze("$(PORT_DIR)/modules", ("rp2.py", "_boot_fat.py"))
module("_boot.py")
include("$(MPY_DIR)/extmod/asyncio")
require("onewire")
require("ds18x20")
require("dht")
require("neopixel")
include("eboard.py")

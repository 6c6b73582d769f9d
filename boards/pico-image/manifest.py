# eboard-pico.uf2: MicroPython for RPI_PICO with the eboard firmware frozen in (boards/build-image.sh).
# The port's own frozen modules first (_boot.py mounts the filesystem, rp2, asyncio, neopixel...).
include("$(PORT_DIR)/boards/manifest.py")
include("eboard.py")

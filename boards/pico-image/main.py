# Run at power-up (frozen into eboard-pico.uf2): start the board.  Modules on the Pico's
# filesystem come first on sys.path, so firmware copied later by flash.sh overrides the
# frozen one.
from firmware.main import run

run()

# The eboard firmware, frozen: the part of the image that is ours.  Included by manifest.py
# (the Pico image) and by unix.py (the 32-bit unix port build that checks it, build-image.sh).
# Paths are relative to this file: the repository is two folders up.
package("firmware", base_path="../..")
# Every module of boards/ that the Pico runs (tests/test_image.py checks the list against
# the imports of the boot path): boards/picoonce.py too, loaded at power-up and dropped.
package("boards", files=("__init__.py", "main.py", "pico.py", "picoonce.py"), base_path="../..")
module("main.py")

# The check of the image on the 32-bit unix port (build-image.sh -> build/micropython-32):
# the same frozen firmware as the Pico's, and the virtual board's profile frozen beside it,
# so that the tests can run the frozen firmware with nothing of it on the filesystem.
include("eboard.py")
package("boards", files=("sim.py", "simrepl.py", "simfaults.py"), base_path="../..")

"""Everything that runs on the board; the rules core in firmware.rules is imported by the host too."""

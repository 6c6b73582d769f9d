"""Hardware profiles: pico (the real board) and sim (the virtual one)."""

"""One module per game id: its tables, and a Position subclass where its rules need hooks."""

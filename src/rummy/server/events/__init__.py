"""What a table's events mean, worked out by the engine with no I/O: the event payloads and rebuilding a
game from them, move-log sentences, fair-deal checks, finished games' results and replay frames."""

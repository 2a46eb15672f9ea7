"""One table as an actor: its owner task and inbox, clock and bot runner, seats and clients, the
WebSocket protocol and the messages (views) it sends; the catalog of what a table can be."""

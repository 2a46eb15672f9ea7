"""The FastAPI application: pages, the JSON API, the table WebSocket and the guard every request
passes."""

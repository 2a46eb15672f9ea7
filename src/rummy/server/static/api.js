// HTTP calls and the table WebSocket of the `rummy serve` protocol (docs/protocol.md, version 1).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "The server cannot be reached: " + err.message);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || String(response.status), error.message || response.statusText);
  }
  return data;
}

export const api = {
  session: () => request("GET", "/api/session"),
  login: (name) => request("POST", "/api/session", { name }),
  variants: () => request("GET", "/api/variants"),
  createTable: (body) => request("POST", "/api/tables", body),
  myTables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  recordUrl: (id) => `/api/tables/${encodeURIComponent(id)}/record`,
};

// Close codes after which reconnecting cannot help (docs/protocol.md): a cross-site handshake, no such table.
const FINAL_CLOSE_CODES = new Set([4403, 4404]);

/**
 * One table's WebSocket. Handlers: onState(msg), onError(msg), onAck(msg), onStatus("open"|"closed").
 * Reconnects with back-off (not after a final close code); every message carries a fresh id, actions
 * the last seen seq.
 */
export class TableSocket {
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.seq = 0;
    this.counter = 0;
    this.prefix = Math.random().toString(36).slice(2, 7);
    this.ws = null;
    this.closed = false;
    this.retry = 500;
    this.queue = [];
    this.pingTimer = null;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 500;
      this.handlers.onStatus?.("open");
      for (const msg of this.queue.splice(0)) ws.send(JSON.stringify(msg));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send("ping"), 25000);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "state") {
        if (typeof msg.seq === "number") this.seq = msg.seq;
        this.handlers.onState?.(msg);
      } else if (msg.type === "error") {
        this.handlers.onError?.(msg);
      } else if (msg.type === "ack") {
        this.handlers.onAck?.(msg);
      }
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      this.handlers.onStatus?.("closed", event);
      if (this.closed || FINAL_CLOSE_CODES.has(event.code)) return;
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.ws?.close();
  }

  /** Send a message of `type` with `fields`; returns its id. */
  send(type, fields = {}) {
    const id = `${this.prefix}-${++this.counter}`;
    const msg = { v: 1, id, type, ...fields };
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (type !== "ping") this.queue.push(msg);
    return id;
  }

  /** Send an action in record notation, e.g. "p2 layoff 3 8H". */
  action(text) {
    return this.send("action", { seq: this.seq, action: text });
  }
}

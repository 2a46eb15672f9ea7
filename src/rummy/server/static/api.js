// HTTP calls and the table WebSocket of the `rummy serve` protocol (docs/protocol.md, version 1).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** One HTTP request to the server's API; its JSON answer, or an ApiError.  ``body`` is sent as JSON,
 * or as it is (a File or a string already in JSON) when ``raw``. */
export async function request(method, path, body, { raw = false } = {}) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = raw ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "The server cannot be reached: " + err.message);
  }
  let data;
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
  help: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/help`),
  /** The engine's order of a meld picked in any order ("run:5D-JK-3D"): {spec, kind, cards, as, wild}. */
  arrange: (id, meld) => request("GET", `/api/tables/${encodeURIComponent(id)}/arrange?meld=${encodeURIComponent(meld)}`),
  /** Lay-offs of `cards` on meld `meldId` in an order that fits: {layoffs: ["layoff 3 4H", …]}. */
  layoffs: (id, meldId, cards) => request("GET",
    `/api/tables/${encodeURIComponent(id)}/layoffs?meld=${meldId}&cards=${encodeURIComponent(cards.join("-"))}`),
  recordUrl: (id) => `/api/tables/${encodeURIComponent(id)}/record`,
  history: (limit, offset) => request("GET", `/api/history?limit=${limit}&offset=${offset}`),
  historyStats: () => request("GET", "/api/history/stats"),
  identityCode: () => request("POST", "/api/identity/code", {}),
  redeemCode: (code) => request("POST", "/api/identity/redeem", { code }),
};

const GONE = new Set([4403, 4404]); // cross-site refused, no such table: reconnecting cannot help
const MOVED = 4307; // another worker runs the table: reconnect at once, naming it (the `moved` error's worker)

/** The table's socket URL; with `worker` (a string, "" when none is known yet) the client follows `moved`. */
function socketUrl(tableId, worker = null) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const hint = worker === null ? "" : `?worker=${encodeURIComponent(worker)}`;
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${hint}`;
}

/** Milliseconds before reconnect attempt `attempt` (0, 1, …): 0.5 s doubling to 30 s, ±25 % jitter. */
export function backoff(attempt, random = Math.random) {
  const base = Math.min(500 * 2 ** attempt, 30000);
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * Whether a table exists, asked over its WebSocket as a spectator (a first visit, before a name is chosen):
 * resolves "found", "missing" or "unreachable". An HTTP 404 would be logged by the browser as an error.
 */
export function probeTable(tableId) {
  return new Promise((resolve) => {
    let ws;
    try {
      ws = new WebSocket(socketUrl(tableId));
    } catch {
      resolve("unreachable");
      return;
    }
    let answer = null;
    ws.addEventListener("message", (event) => {
      try {
        const msg = JSON.parse(event.data);
        answer = msg.type === "state" ? "found" : msg.code === "not-found" ? "missing" : answer;
      } catch {
        /* not JSON: keep waiting */
      }
      if (answer === "found") ws.close(1000);
    });
    ws.addEventListener("close", (event) => resolve(answer || (GONE.has(event.code) ? "missing" : "unreachable")));
  });
}

/**
 * One table's WebSocket. Handlers: onState(msg), onError(msg), onAck(msg), onStatus("open"|"closed"),
 * onGone(code) when the table does not exist (never reconnected). Otherwise reconnects with exponential
 * back-off (reset once a state arrives); every message carries a fresh id, actions the last seen seq.
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
    this.attempt = 0;
    this.queue = [];
    this.pingTimer = null;
    this.worker = ""; // the worker running the table, as the last `moved` named it (docs/deploy.md)
    this.moves = 0; // `moved` answers since the last state: the first is followed at once
  }

  connect() {
    const ws = new WebSocket(socketUrl(this.tableId, this.worker));
    this.ws = ws;
    ws.addEventListener("open", () => {
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
      if (msg.type === "error" && msg.code === "moved" && typeof msg.worker === "string") {
        this.worker = msg.worker; // the close (4307) that follows reconnects there
        return;
      }
      if (msg.type === "state") {
        this.attempt = 0; // a table that answers: the next drop starts the back-off afresh
        this.moves = 0;
        if (typeof msg.seq === "number") this.seq = msg.seq;
        this.handlers.onState?.(msg);
      } else if (msg.type === "error") {
        this.handlers.onError?.(msg);
      } else if (msg.type === "ack") {
        this.handlers.onAck?.(msg);
      } else if (msg.type === "hint") {
        this.handlers.onHint?.(msg);
      }
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.closed) return;
      if (GONE.has(event.code)) {
        this.closed = true;
        this.handlers.onGone?.(event.code);
        return;
      }
      if (event.code === MOVED && this.moves === 0) {
        this.moves += 1;
        this.connect();
        return;
      }
      this.handlers.onStatus?.("closed", event);
      setTimeout(() => this.connect(), backoff(this.attempt));
      this.attempt += 1;
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

// The replay viewer: "/replay/{table}" steps through a finished table's game, "/replay" through an uploaded
// rummy-record/1 file. The server replays the record with the engine and sends every step's frame (every hand
// face up, or one seat's view); this module only draws them, with the table's own renderers.

import { api, ApiError, request } from "./api.js";
import { renderPiles, renderSeats } from "./board.js";
import { cardElement, suitKey } from "./cards.js";
import { renderMelds } from "./melds.js";
import { renderScoreSheet } from "./scores.js";
import { renderRoundInfo } from "./status.js";
import { el, fill, plural, toast } from "./ui.js";

const STEP_ID = /^r(\d{1,4})\.a(\d{1,6})$/;

/** The viewer's stylesheet, added once (the table page does without it). */
function useStylesheet() {
  if (document.getElementById("replay-css")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/replay.css", id: "replay-css" }));
}

/** GET or POST a replay; the body of a POST is the record file itself (a File or a string), sent as it is. */
function fetchReplay(path, body) {
  return request(body === undefined ? "GET" : "POST", path, body, { raw: true });
}

/** Whole frames from the first frame and the differences the server sends after it. */
function wholeFrames(deltas) {
  const frames = [];
  for (const delta of deltas) frames.push({ ...(frames.length ? frames[frames.length - 1] : {}), ...delta });
  return frames;
}

/** "/replay/{table}": a finished table's game. */
export function showTableReplay(main, tableId) {
  useStylesheet();
  // "?game=N": an earlier game of a table played again (links from My games); the server checks N.
  const game = new URLSearchParams(location.search).get("game");
  const query = (seat) => [game === null ? null : `game=${encodeURIComponent(game)}`,
    seat === null ? null : `seat=${seat}`].filter((part) => part !== null).join("&");
  const path = (seat) => `/api/tables/${encodeURIComponent(tableId)}/replay` + (query(seat) ? `?${query(seat)}` : "");
  const viewer = new ReplayViewer(main, {
    load: (seat) => fetchReplay(path(seat)),
    source: el("span", {}, "Table ", el("a", { href: `/table/${encodeURIComponent(tableId)}` }, tableId)),
    recordUrl: `/api/tables/${encodeURIComponent(tableId)}/record`,
  });
  // The table's summary first: a game still being played is refused before its replay is asked for.
  api.table(tableId).then((summary) => {
    if (summary.status === "finished" || game !== null) return viewer.open();
    throw new ApiError(409, summary.status === "playing" ? "game-in-progress" : "not-started",
      "No game has finished at this table yet.");
  }).catch((err) => {
    const words = err.code === "game-in-progress"
      ? "This game is still being played: its replay opens once the game is over."
      : err.code === "not-found" ? `There is no table ${tableId}.` : err.message;
    main.replaceChildren(el("section", { class: "panel narrow replay-refused", role: "alert" },
      el("h1", {}, "No replay"), el("p", { id: "replay-error" }, words),
      el("p", {}, el("a", { href: `/table/${encodeURIComponent(tableId)}` }, "Go to the table"), " · ",
        el("a", { href: "/replay" }, "Open a record file"), " · ", el("a", { href: "/" }, "Lobby"))));
  });
}

/** "/replay": choose a rummy-record/1 file (or drop it here), then step through it. */
export function showUploadReplay(main) {
  useStylesheet();
  const input = el("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  const error = el("p", { class: "error", id: "replay-error", role: "alert" });
  const zone = el("section", { class: "panel narrow replay-upload", id: "replay-upload" },
    el("h1", {}, "Watch a game record"),
    el("p", {}, "Open a rummy-record/1 file — saved from a finished table, written by ", el("code", {}, "rummy sim --records"),
      " or by an agent — and step through it move by move."),
    el("label", { for: "record-file" }, "Record file"), input,
    el("p", { class: "muted drop-hint" }, "…or drop the file on this panel."),
    error,
    el("p", {}, el("a", { href: "/" }, "Back to the lobby")));
  main.replaceChildren(zone);
  const open = (file) => {
    if (!file) return;
    error.textContent = "";
    zone.setAttribute("aria-busy", "true");
    const viewer = new ReplayViewer(main, {
      load: (seat) => fetchReplay("/api/replays" + (seat === null ? "" : `?seat=${seat}`), file),
      source: el("span", {}, "File ", el("bdi", {}, file.name || "record")),
      onClose: () => showUploadReplay(main),
    });
    viewer.open().catch((err) => {
      zone.removeAttribute("aria-busy");
      main.replaceChildren(zone);
      error.textContent = `This record cannot be replayed: ${err.message}`;
      input.value = "";
      input.focus();
    });
  };
  input.addEventListener("change", () => open(input.files?.[0]));
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dropping");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dropping"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dropping");
    open(event.dataTransfer?.files?.[0]);
  });
}

class ReplayViewer {
  /** opts: {load(seat) → the replay JSON, source: a node naming where it comes from, recordUrl?, onClose?} */
  constructor(main, opts) {
    this.main = main;
    this.opts = opts;
    this.seat = null;
    this.index = 0;
    this.data = null;
    this.frames = [];
    this.logItems = [];
    this.drawn = {};
  }

  async open() {
    await this.load(null);
    this.build();
    this.go(this.stepFromHash() ?? 0, { focus: false });
  }

  async load(seat) {
    const data = await this.opts.load(seat);
    this.data = data;
    this.seat = seat;
    this.frames = wholeFrames(data.frames);
    this.logItems = [];
    this.logShown = undefined;
    this.current = null;
    this.drawn = {};
  }

  get last() {
    return this.frames.length - 1;
  }

  stepFromHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return null;
    const index = STEP_ID.test(id) ? this.data.steps.findIndex((s) => s.id === id) : -1;
    if (index < 0) {
      toast(`This game has no move “${id.slice(0, 20)}”: showing the start.`, "error", 6000);
      return null;
    }
    return index;
  }

  // -- the page ---------------------------------------------------------------------------

  build() {
    const data = this.data;
    const q = (sel) => this.root.querySelector(sel);
    const button = (id, label, text, onclick) => el("button", { type: "button", id, class: "step", "aria-label": label,
      title: label, onclick }, el("span", { "aria-hidden": "true" }, text));
    const seatChoice = el("select", { id: "replay-seat" },
      el("option", { value: "all" }, "Every hand face up"),
      data.players.map((name, seat) => el("option", { value: String(seat) }, `\u2068${name}\u2069’s view`)));
    seatChoice.addEventListener("change", () => this.changeSeat(seatChoice.value === "all" ? null : Number(seatChoice.value)));
    this.root = el("div", { class: "table-page replay-page" },
      el("header", { class: "status-bar" },
        el("h1", { class: "replay-title" }, "Replay · ", data.variant_name),
        el("div", { class: "round-info", id: "round-info" }),
        el("div", { class: "tools" },
          el("label", { class: "seat-choice", for: "replay-seat" }, "Show"), seatChoice,
          this.opts.recordUrl ? el("a", { class: "tool", href: this.opts.recordUrl, download: "", id: "record-link" }, "⤓ record") : null,
          this.opts.onClose ? el("button", { type: "button", class: "tool", id: "other-record", onclick: () => this.close() },
            "Open another record") : null,
          el("a", { class: "tool", href: "/" }, "lobby"))),
      el("section", { class: "replay-controls", "aria-label": "Step through the game" },
        el("div", { class: "step-buttons" },
          button("step-start", "Start of the game (Home)", "Start", () => this.go(0)),
          button("step-round-back", "Previous round (Page Up)", "◀◀", () => this.go(this.roundStart(-1))),
          button("step-back", "Previous move (←)", "◀", () => this.go(this.index - 1)),
          button("step-forward", "Next move (→)", "▶", () => this.go(this.index + 1)),
          button("step-round-forward", "Next round (Page Down)", "▶▶", () => this.go(this.roundStart(1))),
          button("step-end", "End of the record (End)", "End", () => this.go(this.last))),
        el("input", { type: "range", id: "replay-slider", min: "0", max: String(Math.max(this.last, 0)), value: "0",
          "aria-label": "Move", oninput: (e) => this.go(Number(e.target.value), { focus: false, slider: false }) }),
        el("p", { class: "step-label", id: "step-label", "aria-live": "polite" })),
      el("div", { class: "replay-stopped", id: "replay-stopped", role: "alert", hidden: true }),
      el("section", { class: "play-area", id: "play-area" },
        el("ul", { class: "seats", id: "seats", "aria-label": "Players" }),
        el("section", { class: "board-center" },
          el("div", { class: "piles", id: "piles" }),
          el("section", { class: "melds", id: "melds", "aria-label": "Melds on the table" })),
        el("section", { class: "replay-hands", id: "hands", "aria-label": "Hands" })),
      el("aside", { class: "side" },
        el("p", { class: "muted replay-source" }, this.opts.source, " · ", data.players.flatMap((n, i) => [i ? ", " : "", el("bdi", {}, n)])),
        el("details", { class: "panel", open: true }, el("summary", {}, "Scores"), el("div", { id: "sheet" })),
        el("details", { class: "panel", open: true }, el("summary", {}, "Moves"),
          el("ol", { id: "log", class: "log replay-log", "aria-label": "Moves so far" }))));
    this.main.replaceChildren(this.root);
    document.title = `Replay · ${data.variant_name} · Rummy`;
    this.els = {
      roundInfo: q("#round-info"), seats: q("#seats"), piles: q("#piles"), melds: q("#melds"), hands: q("#hands"),
      sheet: q("#sheet"), log: q("#log"), label: q("#step-label"), slider: q("#replay-slider"), stopped: q("#replay-stopped"),
      seat: seatChoice,
    };
    this.onKey = (event) => this.key(event);
    this.onHash = () => {
      const index = this.stepFromHash();
      if (index !== null && index !== this.index) this.go(index, { focus: false });
    };
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("hashchange", this.onHash);
    this.renderStopped();
    if (!this.frames.length) {
      this.els.label.textContent = "This record has no deal to show.";
      this.root.querySelector("#play-area").hidden = true;
    }
    // Read-only peek at what is shown, for the console and end-to-end tests.
    window.rummy = Object.freeze({
      replay: () => ({ index: this.index, steps: this.frames.length, step: this.data.steps[this.index],
        frame: this.frames[this.index], seat: this.seat, stopped: this.data.stopped, results: this.data.results }),
    });
  }

  close() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("hashchange", this.onHash);
    history.replaceState(null, "", location.pathname);
    this.opts.onClose?.();
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !this.root.isConnected) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea, [role=dialog]")) return;
    const moves = {
      ArrowRight: () => this.index + 1, ArrowLeft: () => this.index - 1, Home: () => 0, End: () => this.last,
      PageDown: () => this.roundStart(1), PageUp: () => this.roundStart(-1),
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.go(moves[event.key](), { focus: false });
  }

  /** The index of the deal of the next (+1) or the current / previous (-1) round. */
  roundStart(direction) {
    const steps = this.data.steps;
    if (direction > 0) {
      for (let i = this.index + 1; i < steps.length; i++) if (steps[i].move === 0) return i;
      return this.last;
    }
    for (let i = this.index - 1; i > 0; i--) if (steps[i].move === 0) return i;
    return 0;
  }

  async changeSeat(seat) {
    const index = this.index;
    this.els.seat.disabled = true;
    try {
      await this.load(seat);
      this.go(Math.min(index, this.last), { focus: false, force: true });
    } catch (err) {
      toast(`That view cannot be loaded: ${err.message}`, "error", 6000);
      this.els.seat.value = this.seat === null ? "all" : String(this.seat);
    } finally {
      this.els.seat.disabled = false;
    }
  }

  go(index, { focus = false, slider = true, force = false } = {}) {
    if (!this.frames.length) return;
    const target = Math.max(0, Math.min(this.last, index));
    if (target === this.index && !force && this.rendered) return;
    this.index = target;
    this.rendered = true;
    if (slider) this.els.slider.value = String(target);
    const step = this.data.steps[target];
    history.replaceState(null, "", `${location.pathname}${location.search}#${step.id}`);
    this.render();
    if (focus) this.root.querySelector("#step-forward")?.focus();
  }

  // -- drawing one step -------------------------------------------------------------------

  render() {
    const { data, index } = this;
    const frame = this.frames[index];
    const step = data.steps[index];
    const players = data.players;
    const view = { ...frame, players, seat: null }; // the table's renderers address no reader: "(you)" is nobody here
    renderRoundInfo(this.els.roundInfo, view, {});
    // A part is drawn again only when a field it shows changed: unchanged fields are the same objects from
    // one frame to the next (wholeFrames), so comparing them costs nothing.
    const f = frame;
    if (this.changed("seats", [f.hand_sizes, f.down, f.totals, f.claims_used, f.active, f.phase, f.to_act, f.dealer,
      f.purchase_cards, f.round, f.facts])) {
      renderSeats(this.els.seats, null, view, {});
      if (this.seat !== null) {
        const mine = this.els.seats.querySelector(`[data-seat="${this.seat}"]`);
        mine?.classList.add("mine");
        mine?.querySelector(".badges, .seat-info")?.append(el("span", { class: "badge pov" }, "point of view"));
      }
      quiet(this.els.seats);
    }
    if (this.changed("piles", [f.discard, f.discard_count, f.stock_count, f.kitty, f.facts])) {
      renderPiles(this.els.piles, view, { spread: !!f.facts?.discard_history || f.discard.length > 1 });
      quiet(this.els.piles);
    }
    if (this.changed("melds", [f.table, f.facts])) {
      renderMelds(this.els.melds, view, { facts: f.facts, name: (seat) => players[seat] });
      quiet(this.els.melds);
    }
    if (this.changed("hands", [f.hands, f.hand, f.revealed_hands, f.phase, f.active])) this.renderHands(frame);
    if (this.changed("sheet", [f.score_sheet, f.totals, f.kitty])) {
      renderScoreSheet(this.els.sheet, { score_sheet: f.score_sheet }, view);
    }
    this.renderLog();
    const roundMoves = this.roundMoves(index);
    const where = step.move === 0 ? `Round ${step.round} · the deal` : `Round ${step.round} · move ${step.move} of ${roundMoves}`;
    fill(this.els.label, el("strong", {}, where), step.action ? el("code", { class: "action" }, step.action) : null,
      el("span", {}, step.events.join(". ")));
    this.root.querySelector("#step-back").disabled = index === 0;
    this.root.querySelector("#step-start").disabled = index === 0;
    this.root.querySelector("#step-round-back").disabled = index === 0;
    this.root.querySelector("#step-forward").disabled = index === this.last;
    this.root.querySelector("#step-end").disabled = index === this.last;
    this.root.querySelector("#step-round-forward").disabled = index === this.last;
    this.els.stopped.classList.toggle("here", !!data.stopped && index === this.last);
    this.els.slider.setAttribute("aria-valuetext", where);
  }

  /** Whether any of `values` differs (by identity) from when part `name` was last drawn. */
  changed(name, values) {
    const before = this.drawn[name];
    this.drawn[name] = values;
    return !before || before.length !== values.length || values.some((value, i) => value !== before[i]);
  }

  /** How many moves the round of step `index` has in this record. */
  roundMoves(index) {
    const steps = this.data.steps;
    let end = index;
    while (end + 1 < steps.length && steps[end + 1].move !== 0) end++;
    return steps[end].move; // at most one round's moves: a few hundred comparisons
  }

  renderHands(frame) {
    const players = this.data.players;
    let hands;
    if (frame.hands) hands = frame.hands.map((cards, seat) => [seat, cards]);
    else if (frame.revealed_hands) hands = frame.revealed_hands.map((cards, seat) => [seat, cards]);
    else hands = [[this.seat, frame.hand]];
    fill(this.els.hands, hands.map(([seat, cards]) => {
      const sorted = [...cards].sort((a, b) => suitKey(a) - suitKey(b));
      const active = ["claim", "draw", "play"].includes(frame.phase) && frame.active === seat;
      return el("section", { class: "replay-hand" + (seat === this.seat ? " mine" : "") + (active ? " active" : ""),
        dataset: { seat: String(seat) }, "aria-label": `${players[seat]}’s hand` },
      el("h2", {}, el("bdi", {}, players[seat]), el("span", { class: "muted" }, ` · ${plural(cards.length, "card")}`)),
      el("div", { class: "mini-hand" }, sorted.length ? sorted.map((card) => cardElement(card, { small: true }))
        : el("span", { class: "muted" }, "no cards")));
    }));
  }

  /** The move log up to this step: lines are made once and added or taken away, never all redrawn. */
  renderLog() {
    const steps = this.data.steps;
    const log = this.els.log;
    for (let i = this.logItems.length; i <= this.index; i++) {
      const step = steps[i];
      this.logItems.push(el("li", { dataset: { step: step.id } },
        el("a", { href: `#${step.id}`, class: "step-link", "aria-label": `Go to ${step.id}` },
          step.move === 0 ? `R${step.round}` : `${step.move}.`),
        " ", step.events.join(". ")));
    }
    if (this.logShown === undefined || log.childElementCount !== this.logShown) {
      log.replaceChildren(...this.logItems.slice(0, this.index + 1));
    } else if (this.index + 1 > this.logShown) {
      log.append(...this.logItems.slice(this.logShown, this.index + 1));
    } else {
      while (log.childElementCount > this.index + 1) log.lastElementChild.remove();
    }
    this.logShown = this.index + 1;
    this.current?.classList.remove("current");
    this.current?.removeAttribute("aria-current");
    this.current = this.logItems[this.index];
    this.current.classList.add("current");
    this.current.setAttribute("aria-current", "step");
    // The newest line into view once per frame, not once per step: reading the list's height lays out the whole
    // page, and a run of steps (a key held down) would pay for it at every step.
    if (!this.scrollQueued) {
      this.scrollQueued = true;
      requestAnimationFrame(() => {
        this.scrollQueued = false;
        log.scrollTop = log.scrollHeight;
      });
    }
  }

  renderStopped() {
    const stopped = this.data.stopped;
    const box = this.els.stopped;
    box.hidden = !stopped;
    if (!stopped) return;
    fill(box, el("strong", {}, "The record stops here. "),
      `Round ${stopped.round}, move ${stopped.index + 1}: `, el("code", {}, stopped.action), " is illegal — ",
      el("span", { id: "stopped-message" }, stopped.message), ` (rule: ${stopped.rule}). `,
      el("button", { type: "button", class: "small", id: "go-to-stop", onclick: () => this.go(this.last) }, "Show the position"));
  }
}

/** The table's renderers make piles, melds and purchase cards answer taps; in a replay they only show. */
function quiet(container) {
  for (const node of container.querySelectorAll("[role=button]")) {
    node.removeAttribute("tabindex");
    node.setAttribute("role", "group");
  }
  for (const node of container.querySelectorAll("button")) {
    node.disabled = true;
    node.classList.add("shown-only");
  }
}

// The table page: connects the socket, keeps the latest state, renders every part and turns taps,
// drops and keys into actions in record notation.

import { api, TableSocket } from "./api.js";
import { HandView } from "./hand.js";
import { MeldBuilder } from "./builder.js";
import { renderMelds } from "./melds.js";
import { renderClaim, renderPiles, renderSeats, seatName } from "./board.js";
import { showHelp } from "./rules.js";
import { renderLog, renderScoreSheet, roundSummary } from "./scores.js";
import { renderWaiting, isFreeSeat, showMissingTable } from "./waiting.js";
import { prefs, savePrefs } from "./prefs.js";
import { beepClaim, beepYourTurn, toggleMute } from "./sound.js";
import { dropToast, el, fill, keyed, plural, toast } from "./ui.js";
import { renderRoundInfo, renderTurnInfo } from "./status.js";
import * as moves from "./play.js";
import * as motion from "./motion.js";

/** A tool's word, read by screen readers everywhere and shown beside its symbol where there is room. */
const toolWord = (word) => el("span", { class: "tool-word" }, " ", word);

export async function showTable(main, tableId, session) {
  const page = new TablePage(main, tableId, session);
  page.start();
  return page;
}

class TablePage {
  constructor(main, tableId, session) {
    this.main = main;
    this.tableId = tableId;
    this.session = session;
    this.table = null;
    this.view = null;
    this.log = [];
    this.deadline = null;
    this.pending = new Map(); // message id -> {kind}
    this.bodies = [];
    this.legal = new Set();
    this.wasMyTurn = false;
    this.couldBuy = false;
    this.summaryKey = null;
    this.dismissed = new Set();
    this.marked = new Set();
    this.round = null;
    this.seat = undefined;
    this.hintSeq = null; // the state a shown hint was made for
    this.joinSent = false;
    this.help = null; // how to play this table (GET /api/tables/{id}/help): the help panel and tooltips
    this.helpAsked = false;
  }

  get glossary() {
    return this.help?.glossary || {};
  }

  start() {
    const q = (sel) => this.root.querySelector(sel);
    this.root = el("div", { class: "table-page" },
      el("header", { class: "status-bar" },
        el("div", { class: "round-info", id: "round-info" }),
        el("div", { class: "timer", id: "turn-timer", "aria-live": "off" }),
        el("div", { class: "tools" },
          el("button", { type: "button", id: "four-color", class: "tool", "aria-pressed": String(prefs.fourColor),
            title: "Four-colour deck", onclick: (e) => this.toggleFourColor(e.currentTarget) }, "♣♦", toolWord("4-colour")),
          el("button", { type: "button", id: "mute", class: "tool", "aria-pressed": String(prefs.muted),
            title: "Mute the your-turn sound", onclick: (e) => this.toggleMute(e.currentTarget) }, "♪", toolWord("Mute")),
          el("button", { type: "button", id: "help-button", class: "tool", title: "How to play at this table",
            onclick: () => this.showHelp() }, "?", toolWord("How to play")),
          el("a", { class: "tool", href: api.recordUrl(this.tableId), download: "", id: "record-link" }, "⤓ record"),
          el("a", { class: "tool", href: `/replay/${encodeURIComponent(this.tableId)}`, id: "replay-link" }, "▶ replay"),
          el("button", { type: "button", id: "side-button", class: "tool side-toggle", "aria-expanded": "false",
            "aria-controls": "side", title: "Scores and moves", onclick: (e) => this.toggleSide(e.currentTarget) },
          "☰", toolWord("Scores")),
          el("a", { class: "tool", href: "/", title: "Back to the lobby" }, "⌂", toolWord("lobby")))),
      el("section", { class: "waiting panel", id: "waiting", hidden: true }),
      el("section", { class: "play-area", id: "play-area" },
        el("ul", { class: "seats", id: "seats", "aria-label": "Players" }),
        el("section", { class: "board-center" },
          el("div", { class: "piles", id: "piles" }),
          el("section", { class: "melds", id: "melds", "aria-label": "Melds on the table" })),
        // prompts (a claim window, hints, errors) sit between the table and the hand: they never cover either
        el("div", { class: "dock", id: "dock" },
          el("div", { class: "claim-banner", id: "claim", hidden: true, role: "region", "aria-label": "Buy the discard" })),
        el("section", { class: "me", id: "me", "aria-label": "Your hand" },
          el("div", { class: "hand-head" },
            el("h2", {}, el("span", { class: "hand-title" }, "Your hand"), " ", el("span", { id: "hand-count", class: "muted" })),
            el("div", { class: "selection", id: "selection" }),
            el("div", { class: "row sort" },
              el("span", { class: "muted sort-label" }, "Sort:"),
              el("button", { type: "button", class: "tool", id: "sort-suit", "aria-label": "Sort by suit",
                onclick: () => this.sort("suit") }, "suit"),
              el("button", { type: "button", class: "tool", id: "sort-rank", "aria-label": "Sort by rank",
                onclick: () => this.sort("rank") }, "rank"))),
          el("div", { class: "turn-info", id: "turn-info", "aria-live": "polite" }),
          el("div", { class: "action-bar", id: "actions" }),
          el("div", { id: "hand" }),
          el("div", { class: "builder panel", id: "builder", hidden: true }))),
      el("aside", { class: "side", id: "side" },
        el("details", { class: "panel", open: true }, el("summary", {}, "Scores"), el("div", { id: "sheet" })),
        el("details", { class: "panel", open: true }, el("summary", {}, "Moves"), el("ol", { id: "log", class: "log" }))),
      el("div", { id: "summary" }));
    this.main.replaceChildren(this.root);
    const toastBox = document.getElementById("toast");
    if (toastBox) q("#dock").append(toastBox); // messages take their place in the dock, not over the cards
    this.els = {
      roundInfo: q("#round-info"), turnInfo: q("#turn-info"), timer: q("#turn-timer"), waiting: q("#waiting"),
      playArea: q("#play-area"), seats: q("#seats"), piles: q("#piles"), melds: q("#melds"), actions: q("#actions"),
      hand: q("#hand"), builder: q("#builder"), sheet: q("#sheet"), log: q("#log"), claim: q("#claim"),
      summary: q("#summary"), handCount: q("#hand-count"), selection: q("#selection"),
    };
    this.hand = new HandView(this.els.hand, {
      onSelect: () => this.renderActions(),
      onDrop: (items, target) => this.onDrop(items, target),
      onReorder: () => this.rememberSort("manual"),
    });
    this.hand.mode = prefs.sort || "suit";
    this.builder = new MeldBuilder(this.els.builder, {
      hand: this.hand,
      send: (body) => this.send(body, "builder"),
      arrange: (meld) => api.arrange(this.tableId, meld), // the engine orders a picked meld (aces, wilds)
    });
    this.socket = new TableSocket(this.tableId, {
      onState: (msg) => this.onState(msg),
      onError: (msg) => this.onError(msg),
      onAck: (msg) => this.pending.delete(msg.id),
      onHint: (msg) => { this.pending.delete(msg.id); moves.showHint(this, msg); },
      onStatus: (status) => this.root.classList.toggle("offline", status !== "open"),
      onGone: () => this.gone(),
    });
    this.socket.connect();
    // Read-only peek at the latest state, for the console and end-to-end tests.
    window.rummy = Object.freeze({
      state: () => ({ seq: this.socket.seq, seat: this.mySeat(), view: this.view, table: this.table, log: [...this.log] }),
    });
    this.ticker = setInterval(() => this.tick(), 250);
    this.markSort();
    const fit = () => this.fit();
    window.addEventListener("resize", fit);
    const sizes = new ResizeObserver(fit);
    sizes.observe(this.root.querySelector(".status-bar"));
    const topbar = document.querySelector(".topbar");
    if (topbar) sizes.observe(topbar);
  }

  /** The play area fills the screen below the status bar (the board between shrinks or scrolls): the
   * hand, the builder and the prompts stay in view without the page scrolling. */
  fit() {
    const area = this.els.playArea;
    if (!area || area.hidden) return;
    const top = Math.ceil(area.getBoundingClientRect().top + window.scrollY);
    this.root.style.setProperty("--play-top", `${top}px`);
  }

  // -- server messages --------------------------------------------------------------------

  /** The table does not exist (a mistyped invite code): say so; the socket never reconnects. */
  gone() {
    clearInterval(this.ticker);
    const toastBox = document.getElementById("toast");
    if (toastBox) document.body.append(toastBox);
    showMissingTable(this.main, this.tableId);
  }

  showHelp() {
    if (this.help) showHelp(this.help, `How to play at this table: ${this.help.name}`);
    else api.help(this.tableId).then((help) => { this.help = help; showHelp(help); })
      .catch((err) => toast("The rules cannot be loaded: " + err.message, "error"));
  }

  onState(msg) {
    const before = msg.history ? null : motion.snapshot(this.root, this.view);
    if (!this.helpAsked) { // the table exists: fetch how to play it (the help panel, the tooltips)
      this.helpAsked = true;
      api.help(this.tableId).then((help) => {
        this.help = help;
        if (this.view) this.render();
      }).catch(() => { this.helpAsked = false; });
    }
    this.table = msg.table || this.table;
    this.view = msg.view || null;
    if (msg.seat !== undefined) this.seat = msg.seat;
    this.deadline = msg.deadline
      ? { ...msg.deadline, end: performance.now() + msg.deadline.seconds * 1000 } : null;
    if (this.hintSeq !== null && msg.seq !== this.hintSeq) { // the hint's decision is made: it goes with it
      this.hintSeq = null;
      dropToast("hint");
    }
    if (msg.history) this.log = [];
    if (Array.isArray(msg.events) && msg.events.length) this.log.push(...msg.events);
    const view = this.view;
    this.bodies = (view?.legal_actions || []).map((a) => a.slice(a.indexOf(" ") + 1));
    this.legal = new Set(this.bodies.map((b) => b.split(" ")[0]));
    const round = view ? `${this.table?.game ?? 0}-${view.round}` : null;
    if (view && round !== this.round) {
      if (this.round !== null) this.hand.reset();
      this.round = round;
      this.marked.clear();
    }
    this.render();
    motion.play(this.root, before, this.view);
    this.cues();
    if (msg.notice) toast(msg.notice, "info", 12000); // the server's words, e.g. what the computer played for you
  }

  onError(msg) {
    const pending = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    const text = msg.message || msg.code;
    if (pending?.kind === "builder") this.builder.refused(text);
    if (msg.code === "not-found") return; // the socket closes with 4404: gone() says it
    if (msg.code === "stale") {  // a buy that lost the race says who won it; anything else may be tried again
      toast(pending?.body === "buy" ? msg.message : "The table moved on — try again.", "error");
      return;
    }
    toast(text, "error", 6000);
  }

  send(body, kind = "action") {
    const seat = this.mySeat();
    if (seat === null) {
      toast("You are watching: take a seat to play.", "error");
      return;
    }
    const id = this.socket.action(`p${seat} ${body}`);
    this.pending.set(id, { kind, body });
  }

  sendMessage(type, fields = {}) {
    const id = this.socket.send(type, fields);
    this.pending.set(id, { kind: type });
  }

  // -- who am I ---------------------------------------------------------------------------

  mySeat() {
    if (this.view && this.view.seat !== null && this.view.seat !== undefined) return this.view.seat;
    return this.seat !== undefined ? this.seat : null;  // the state message's seat: players' ids are never sent
  }

  isHost() {
    const host = this.table?.host;
    if (host === undefined || host === null) return false;
    return host === this.mySeat();
  }

  isMyTurn() {
    const v = this.view;
    return !!v && v.seat !== null && ["draw", "play"].includes(v.phase) && v.active === v.seat;
  }

  // -- rendering --------------------------------------------------------------------------

  render() {
    const { table, view } = this;
    const status = table?.status || (view ? "playing" : "waiting");
    const waiting = status === "waiting" || !view;
    this.els.waiting.hidden = !waiting;
    this.root.querySelector("#record-link").hidden = status !== "finished"; // a record only once the game is over
    this.root.querySelector("#replay-link").hidden = status !== "finished";
    this.els.playArea.hidden = waiting;
    if (this.root.classList.contains("playing") === waiting) {
      this.root.classList.toggle("playing", !waiting);
      if (!waiting) window.scrollTo(0, 0); // the game fills the screen from its top (the lobby may have scrolled)
      this.fit();
    }
    this.root.classList.toggle("my-turn", this.isMyTurn());
    if (waiting) {
      const seated = this.mySeat() !== null;
      if (!seated && !this.joinSent && (table?.seats || []).some(isFreeSeat)) {
        this.joinSent = true;
        this.sendMessage("join");
      }
      renderWaiting(this.els.waiting, table, {
        tableId: this.tableId, inviteUrl: table?.invite_url, seated, isHost: this.isHost(),
        onJoin: (seat) => this.sendMessage("join", seat === null ? {} : { seat }),
        onStart: () => this.sendMessage("start"),
      });
      this.renderStatus();
      renderLog(this.els.log, this.log);
      return;
    }
    this.renderStatus();
    const glossary = this.glossary;
    keyed(this.els.seats, [table?.seats, view.hand_sizes, view.down, view.totals, view.claims_used, view.active,
      view.phase, view.to_act, view.dealer, view.purchase_cards, view.round, view.facts, !!this.help],
    () => renderSeats(this.els.seats, table, view, { glossary, onPurchaseCard: (seat) => this.onPurchaseCard(seat) }));
    const purchasable = this.bodies.filter((b) => b.startsWith("purchase ")).map((b) => b.split(" ")[1]);
    keyed(this.els.piles, [view.discard, view.discard_count, view.stock_count, view.discard_dead, view.kitty,
      this.legal.has("draw"), this.legal.has("take"), purchasable, !!this.help], () => renderPiles(this.els.piles, view, {
      glossary,
      canDraw: this.legal.has("draw"),
      canTake: this.legal.has("take"),
      spread: view.facts?.discard_history || view.discard.length > 1,
      purchasable: new Set(purchasable),
      onStock: () => this.onStock(),
      onDiscard: (card) => this.onDiscardPile(card),
    }));
    this.drawMelds();
    this.hand.setCards(view.hand, view.facts);
    this.els.handCount.textContent = view.seat === null ? "(watching)" : plural(view.hand.length, "card");
    const free = !!view.facts?.free_melding;
    const verb = this.legal.has("meld") || free ? "meld" : "down";
    const builderVisible = this.isMyTurn() && view.phase === "play"
      && (this.legal.has("down") || this.legal.has("meld") || (!view.down[view.seat] && view.contract.length > 0) || free);
    this.builder.update(view, verb, builderVisible);
    keyed(this.els.claim, [view.phase, view.round, view.claim_card, view.claim_from, view.discard_count, this.legal.has("buy"),
      this.legal.has("pass"), view.facts], () => renderClaim(this.els.claim, view, {
      legal: this.legal, onBuy: () => this.send("buy"), onPass: () => this.send("pass"),
      onSkip: (until) => this.skipClaims(until),
    }));
    keyed(this.els.sheet, [table?.score_sheet, view.totals, view.players, view.kitty],
      () => renderScoreSheet(this.els.sheet, table, view));
    renderLog(this.els.log, this.log);
    this.renderActions();
    this.renderSummary();
    this.tick();
  }

  drawMelds() {
    const view = this.view;
    keyed(this.els.melds, [view.table, [...this.marked], view.seat], () => renderMelds(this.els.melds, view, {
      facts: view.facts, marked: this.marked, name: (seat) => seatName(this.table, view, seat),
      onActivate: (id) => this.playOnMeld(id, this.hand.selected()),
    }));
  }

  renderStatus() {
    const { view, table } = this;
    if (!view) {
      this.els.roundInfo.textContent = table?.variant_name || table?.variant || "";
      this.els.turnInfo.textContent = "";
      return;
    }
    renderRoundInfo(this.els.roundInfo, view, this.glossary);
    renderTurnInfo(this.els.turnInfo, view, moves.turnHelp(view, this.legal, (s) => seatName(table, view, s)),
      table?.seats?.[view.seat]?.skip_claims, () => this.skipClaims("off"));
    document.title = (this.isMyTurn() ? "● Your turn · " : "") + "Rummy";
  }

  /** Pass on every claim until the player's turn ("turn"), for this hand ("hand"), or no more ("off");
   * the server answers an open window for the player at once. */
  skipClaims(until) {
    this.sendMessage("skip_claims", { until });
  }

  renderActions() {
    const view = this.view;
    const bar = this.els.actions;
    if (!view || view.seat === null) {
      keyed(bar, null, () => bar.replaceChildren());
      keyed(this.els.selection, null, () => this.els.selection.replaceChildren());
      return;
    }
    const selected = this.hand.selected();
    const buttons = moves.actionButtons(this, selected);
    keyed(bar, [buttons.map((b) => b.slice(0, 3))], () => {
      bar.replaceChildren(...buttons.map(([label, id, cls, onclick]) => el("button", { type: "button", id, class: cls, onclick }, label)));
    });
    // The selection count keeps its own place in the hand's head row: selecting a card moves nothing.
    const box = this.els.selection;
    keyed(box, selected.length, () => fill(box, selected.length ? [
      el("span", { class: "sel" }, `${selected.length} selected`),
      el("button", { type: "button", class: "ghost small", id: "clear-selection", title: "Clear the selection",
        "aria-label": "Clear the selection", onclick: () => this.hand.clearSelection() }, "✕"),
    ] : null));
  }

  renderSummary() {
    const view = this.view;
    const box = this.els.summary;
    const over = view && ["round_over", "game_over"].includes(view.phase);
    const key = over ? `${this.table?.game ?? 0}-${view.round}-${view.phase}` : null;
    if (!over || this.dismissed.has(key)) {
      keyed(box, null, () => box.replaceChildren());
      this.summaryKey = null;
      return;
    }
    const ready = !!this.table?.seats?.[view.seat]?.ready;
    keyed(box, [key, this.table?.seats, this.table?.score_sheet, this.table?.settlement, view.totals], () => {
      box.replaceChildren(el("div", { class: "backdrop soft" }, roundSummary(this.table, view, {
        isHost: this.isHost(),
        recordUrl: api.recordUrl(this.tableId),
        onPlayAgain: () => this.sendMessage("play_again"),
        canReady: view.seat !== null,
        ready,
        onReady: () => this.sendMessage("ready"),
        onClose: () => {
          this.dismissed.add(key);
          this.renderSummary();
        },
      })));
      if (this.summaryKey !== key) box.querySelector("button, a")?.focus();
      this.summaryKey = key;
    });
  }

  /** Sound and notices when it becomes the player's turn or a discard can be bought. */
  cues() {
    const mine = this.isMyTurn();
    if (mine && !this.wasMyTurn) {
      beepYourTurn();
      this.root.classList.add("flash");
      setTimeout(() => this.root.classList.remove("flash"), 900);
    }
    this.wasMyTurn = mine;
    const canBuy = this.legal.has("buy") && this.view?.phase === "claim";
    if (canBuy && !this.couldBuy) beepClaim();
    this.couldBuy = canBuy;
  }

  tick() {
    const d = this.deadline;
    const left = d ? Math.max(0, (d.end - performance.now()) / 1000) : null;
    const claimCountdown = this.root.querySelector("#claim-countdown");
    if (claimCountdown) claimCountdown.textContent = d && d.kind === "claim" ? ` ${Math.ceil(left)}s` : "";
    const bar = this.els.claim;
    if (d && d.kind === "claim" && !bar.hidden) bar.style.setProperty("--left", String(left));
    const clock = left === null ? "" : `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
    let timer = "";
    if (d && d.kind === "turn") {
      timer = d.seat === undefined || d.seat === this.mySeat() ? `Your time ${clock}`
        : `${seatName(this.table, this.view, d.seat)}: ${clock}`;
    }
    this.els.timer.textContent = timer;
    this.els.timer.classList.toggle("urgent", !!d && d.kind === "turn" && left < 10);
    const next = this.root.querySelector("#next-round-countdown");
    if (next && d && d.kind === "next_round") next.textContent = `Next round in ${Math.ceil(left)}s`;
  }

  // -- taps and drops ---------------------------------------------------------------------

  onDrop(items, target) {
    const kind = target.dataset.drop;
    if (kind === "discard") {
      if (items.length !== 1) toast("Discard one card at a time.", "error");
      else this.discard(items[0].card);
    } else if (kind === "meld") {
      this.playOnMeld(Number(target.dataset.meld), items);
    } else if (kind === "pc") {
      this.onPurchaseCard(Number(target.dataset.seat));
    }
  }

  onStock() {
    if (this.legal.has("draw")) this.send("draw");
    else toast(this.isMyTurn() ? "You have drawn already." : "It is not your turn to draw.");
  }

  onDiscardPile(card) {
    const selected = this.hand.selected();
    if (this.legal.has("discard") && selected.length === 1) return this.discard(selected[0].card);
    if (card) return this.purchase(card);
    if (this.legal.has("take")) return this.send("take");
    if (this.legal.has("discard")) return toast("Select one card in your hand to discard.");
    return null;
  }

  discardSelected() {
    const selected = this.hand.selected();
    if (selected.length !== 1) {
      toast("Select one card in your hand, then press Discard (or drag it onto the discard pile).");
      return;
    }
    this.discard(selected[0].card);
  }

  discard(card) {
    if (!this.legal.has("discard")) {
      toast("You cannot discard now.", "error");
      return;
    }
    this.send(`discard ${card}`);
    this.hand.clearSelection();
  }

  playOnMeld(meldId, items) {
    return moves.playOnMeld(this, meldId, items);
  }

  purchase(card) {
    return moves.purchase(this, card);
  }

  onPurchaseCard(seat) {
    return moves.tradeOrExchange(this, seat);
  }

  declareBook() {
    return moves.declareBook(this);
  }

  hint() {
    moves.hint(this);
  }

  // -- preferences ------------------------------------------------------------------------

  sort(mode) {
    this.hand.sortBy(mode);
    this.rememberSort(mode);
  }

  rememberSort(mode) {
    prefs.sort = mode;
    savePrefs();
    this.markSort();
  }

  markSort() {
    for (const mode of ["suit", "rank"]) {
      this.root.querySelector(`#sort-${mode}`)?.setAttribute("aria-pressed", String(prefs.sort === mode));
    }
  }

  toggleFourColor(button) {
    prefs.fourColor = !prefs.fourColor;
    savePrefs();
    button.setAttribute("aria-pressed", String(prefs.fourColor));
  }

  /** On a narrow screen the scores and the moves open over the table, out of the way of the game. */
  toggleSide(button) {
    const open = this.root.classList.toggle("side-open");
    button.setAttribute("aria-expanded", String(open));
  }

  toggleMute(button) {
    const muted = toggleMute();
    button.setAttribute("aria-pressed", String(muted));

  }
}

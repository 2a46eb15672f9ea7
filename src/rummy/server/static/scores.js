// Score sheet, move log, and the end-of-round / end-of-game panel.

import { cardElement, cardPoints } from "./cards.js";
import { seatName } from "./board.js";
import { el } from "./ui.js";

/**
 * Rows of the score sheet as [{round, scores: [..], wentOut}], from the table's sheet. Accepts a list of
 * rows that are arrays of scores or objects with `scores` (and `round`, `went_out`).
 */
export function sheetRows(table) {
  const sheet = table?.score_sheet ?? table?.scores ?? table?.rounds ?? [];
  if (!Array.isArray(sheet)) return [];
  return sheet.map((row, i) => {
    if (Array.isArray(row)) return { round: i + 1, scores: row, wentOut: null, end: null };
    return {
      round: row.round ?? i + 1,
      scores: row.scores ?? row.points ?? [],
      wentOut: row.went_out ?? null,
      end: row.end ?? null,
    };
  });
}

/** The "verify this deal" link of a finished round (the server revealed its seed and salt), else null. */
export function verifyLink(table, round, text = "Verify this deal", attrs = {}) {
  const entry = (table?.shuffles || []).find((s) => s.round === round && s.revealed);
  if (!entry || !table.id) return null;
  return el("a", { href: `/table/${encodeURIComponent(table.id)}/verify/${round}`, target: "_blank",
    rel: "noopener", class: "verify-link", title: "Check that this round's shuffle was committed before play",
    ...attrs }, text);
}

export function renderScoreSheet(container, table, view) {
  container.replaceChildren();
  const n = view?.players?.length || table?.seats?.length || 0;
  if (!n) return;
  const rows = sheetRows(table);
  const names = Array.from({ length: n }, (_, s) => seatName(table, view, s));
  const totals = view?.totals || Array.from({ length: n }, (_, s) => rows.reduce((a, r) => a + (r.scores[s] || 0), 0));
  const best = view?.facts?.higher_wins ? Math.max(...totals) : Math.min(...totals);
  const tableEl = el("table", { class: "sheet" },
    el("caption", {}, "Score sheet"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Rd"),
      names.map((name, s) => el("th", { scope: "col", class: view?.seat === s ? "mine" : "", title: name },
        name.replace(/ \(bot\)$/, ""))))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", {},
      el("th", { scope: "row" }, r.round, verifyLink(table, r.round, "✓", { "aria-label": `Verify the deal of round ${r.round}` })),
      Array.from({ length: n }, (_, s) => el("td", { class: r.wentOut === s ? "out" : "",
        title: r.wentOut === s ? "went out" : null }, r.scores[s] ?? "")))) :
      el("tr", {}, el("td", { colspan: n + 1, class: "muted" }, "No rounds finished yet."))),
    el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, "Total"),
      totals.map((t) => el("td", { class: rows.length && t === best ? "lead" : "" }, t)))));
  container.append(tableEl);
  if (view?.kitty) container.append(el("p", { class: "muted" }, `Kitty: ${view.kitty}¢`));
}

export function renderLog(container, lines) {
  const atBottom = container.scrollTop + container.clientHeight >= container.scrollHeight - 8;
  container.replaceChildren(...lines.slice(-200).map((line) => el("li", {}, line)));
  if (atBottom) container.scrollTop = container.scrollHeight;
}

/** Who the next round waits for, without the reader: "Sam and Bob" (null when nobody else). */
function othersNotReady(table, view) {
  const names = (table?.seats || []).filter((s) => s.kind === "human" && !s.ready && s.seat !== view.seat
    && s.connected !== false).map((s) => seatName(table, view, s.seat));
  if (!names.length) return null;
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The end-of-round / end-of-game panel: revealed hands, points, totals, winner, settlement.
 * opts: {isHost, onPlayAgain(), recordUrl, onClose(), canReady, ready, onReady()}
 */
export function roundSummary(table, view, opts) {
  const n = view.players.length;
  const rows = sheetRows(table);
  const last = rows.find((r) => r.round === view.round) || null;
  const over = view.phase === "game_over";
  const hands = view.revealed_hands || [];
  const wentOut = last?.wentOut ?? view.hand_sizes.findIndex((size) => size === 0);
  const title = over ? "Game over" : `Round ${view.round} over`;
  let headline = "";
  if (wentOut !== null && wentOut >= 0) headline = wentOut === view.seat ? "You went out!" : `${seatName(table, view, wentOut)} went out!`;
  else if (last?.end === "exhausted") headline = "The stock ran out.";
  else if (last?.end === "stalemate") headline = "Stalemate — nobody scores.";

  const body = el("table", { class: "summary" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { class: "num" }, "Round"),
      el("th", { class: "num" }, "Total"))),
    Array.from({ length: n }, (_, s) => {
      const hand = hands[s] || [];
      const points = last?.scores?.[s] ?? hand.reduce((a, c) => a + cardPoints(c, view.facts), 0);
      return el("tbody", { class: s === wentOut ? "out" : "" },
        el("tr", {},
          el("th", { scope: "row" }, seatName(table, view, s), s === view.seat ? " (you)" : ""),
          el("td", { class: "num" }, points),
          el("td", { class: "num" }, view.totals[s])),
        el("tr", { class: "cards-left" }, el("td", { colspan: "3" },
          el("div", { class: "mini-hand", "aria-label": `Cards left: ${hand.length}` },
            hand.length ? hand.map((c) => cardElement(c, { small: true }))
              : el("span", { class: "muted" }, s === wentOut ? "no cards left" : "—")))));
    }));

  const parts = [el("h2", {}, title), headline ? el("p", { class: "headline" }, headline) : null, body];
  if (over) {
    const winners = table?.winners ?? winnersFrom(view);
    const names = winners.map((s) => (s === view.seat ? "You" : seatName(table, view, s)));
    const you = winners.length === 1 && winners[0] === view.seat;
    parts.push(el("p", { class: "winner" }, "★ ", names.join(" & "), you || winners.length > 1 ? " win!" : " wins!"));
    const settlement = table?.settlement;
    if (Array.isArray(settlement) && settlement.length) {
      parts.push(el("table", { class: "summary settlement" },
        el("caption", {}, "Settlement (pennies)"),
        el("thead", {}, el("tr", {}, ["Player", "Place", "Payment", "Kitty", "Net"].map((h, i) =>
          el("th", { class: i > 1 ? "num" : "" }, h)))),
        el("tbody", {}, settlement.map((row) => el("tr", {},
          el("th", {}, seatName(table, view, row.seat)), el("td", {}, row.position),
          el("td", { class: "num" }, money(row.payment)), el("td", { class: "num" }, money(row.kitty)),
          el("td", { class: "num" }, money(row.net)))))));
    }
  } else {
    const others = othersNotReady(table, view);
    parts.push(el("p", { class: "next-round" },
      el("span", { id: "next-round-countdown", "aria-live": "off" }, "The next round starts soon"),
      " — or as soon as everyone is ready."));
    if (others && (opts.ready || !opts.canReady)) parts.push(el("p", { class: "muted", id: "waiting-for" }, `Waiting for ${others}.`));
  }
  parts.push(el("div", { class: "row" },
    !over && opts.canReady ? el("button", { type: "button", class: "primary", id: "ready-button", disabled: opts.ready,
      onclick: opts.onReady }, opts.ready ? "Ready ✓" : "Next round ▶") : null,
    over && opts.isHost ? el("button", { type: "button", class: "primary", id: "play-again", onclick: opts.onPlayAgain },
      "Play again") : null,
    over ? el("a", { class: "button", href: opts.recordUrl, download: "", id: "download-record" }, "Download record") : null,
    verifyLink(table, view.round, "Verify this deal", { id: "verify-deal" }),
    el("button", { type: "button", class: "ghost", id: "summary-close", onclick: opts.onClose }, "Close")));
  return el("div", { class: "round-summary", role: "dialog", "aria-label": title }, parts);
}

function winnersFrom(view) {
  const totals = view.totals;
  const best = view.facts?.higher_wins ? Math.max(...totals) : Math.min(...totals);
  return totals.map((t, s) => (t === best ? s : -1)).filter((s) => s >= 0);
}

/** "17", "-4", "20/3" → "6.67" */
function money(value) {
  const text = String(value);
  if (text.includes("/")) {
    const [a, b] = text.split("/").map(Number);
    return (a / b).toFixed(2);
  }
  return text;
}

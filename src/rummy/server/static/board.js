// The public parts of the table: players around it, the stock and discard pile, the claim banner.

import { cardBack, cardElement, cardText } from "./cards.js";
import { el, plural } from "./ui.js";

const CLAIM_LABELS = {
  "progressive-buy-it": "I'll Buy It!",
  "progressive-15": "Buy it (1¢)",
  "may-i": "May I?",
};

export function claimLabel(variant) {
  return CLAIM_LABELS[variant] || "Buy it";
}

/** Buys a seat has left this round, or null when unlimited / unknown. */
export function buysLeft(view, options = {}) {
  let limit = null;
  if (view.variant === "may-i") limit = options.claim_limit ?? options.may_i_limit ?? 3;
  if (view.variant === "progressive-15") {
    const schedule = options.buy_schedule;
    if (Array.isArray(schedule) && schedule[view.round - 1]) limit = schedule[view.round - 1][0];
    else limit = { 9: 1, 10: 1, 11: 1, 12: 2, 13: 2, 14: 1 }[view.round] ?? 0;
  }
  if (options.claim_limit !== undefined && view.variant === "progressive-buy-it") limit = options.claim_limit;
  return limit;
}

export function seatName(table, view, seat) {
  return view?.players?.[seat] ?? table?.seats?.[seat]?.name ?? `Seat ${seat + 1}`;
}

/**
 * Render everyone's seat: name, kind, hand size, down, buys, total, turn, purchase card.
 * opts: {onPurchaseCard(seat)}
 */
export function renderSeats(container, table, view, opts = {}) {
  container.replaceChildren();
  const seats = table?.seats || [];
  const n = view?.players?.length || seats.length;
  const options = table?.options ?? table?.config?.options ?? {};
  for (let seat = 0; seat < n; seat++) {
    const info = seats[seat] || {};
    const mine = view && view.seat === seat;
    const active = view && ["claim", "draw", "play"].includes(view.phase) && view.active === seat;
    const waiting = view && view.phase === "claim" && view.to_act.includes(seat) && seat !== view.active;
    const size = view?.hand_sizes?.[seat];
    const badges = [];
    if (info.kind === "bot") {
      badges.push(el("span", { class: "badge bot", title: `Computer player (${info.level || "bot"})` }, `bot: ${info.level || "?"}`));
    }
    if (info.kind === "human" && info.connected === false) badges.push(el("span", { class: "badge off" }, "away"));
    if (info.kind === "human" && info.bot_playing) badges.push(el("span", { class: "badge bot" }, "computer playing"));
    if (view?.down?.[seat]) badges.push(el("span", { class: "badge down" }, "down"));
    if (view && view.dealer === seat) badges.push(el("span", { class: "badge", title: "Dealer" }, "dealer"));
    const limit = view ? buysLeft(view, options) : null;
    const used = view?.claims_used?.[seat] ?? 0;
    const claimsText = view?.variant === "basic" || view?.variant === "purchase" ? null
      : limit === null ? (used ? `bought ${used}` : null) : `${Math.max(0, limit - used)} buys left`;
    const node = el("li", {
      class: "seat" + (mine ? " mine" : "") + (active ? " active" : "") + (waiting ? " deciding" : ""),
      dataset: { seat: String(seat) },
      "aria-current": active ? "true" : null,
    },
    el("div", { class: "seat-head" },
      el("span", { class: "seat-name" }, info.name || view?.players?.[seat] || "Open seat", mine ? " (you)" : ""),
      active ? el("span", { class: "turn-dot", "aria-label": "playing now" }) : null),
    el("div", { class: "seat-info" },
      size !== undefined ? el("span", { class: "hand-size", title: "Cards in hand" },
        cardBack(undefined, { small: true }), el("b", {}, size)) : null,
      view && view.variant !== "purchase"
        ? el("span", { class: "total", title: "Total score" }, `${view.totals?.[seat] ?? 0} pts`) : null,
      claimsText ? el("span", { class: "claims" }, claimsText) : null),
    el("div", { class: "badges" }, badges));
    const pc = view?.purchase_cards?.[seat];
    if (pc) {
      const card = cardElement(pc, { small: true, tag: "button" });
      card.type = "button";
      card.classList.add("pc");
      card.setAttribute("aria-label", `${mine ? "Your" : seatName(table, view, seat) + "’s"} purchase card ${cardText(pc)}`);
      card.dataset.drop = "pc";
      card.dataset.seat = String(seat);
      card.addEventListener("click", () => opts.onPurchaseCard?.(seat));
      node.append(el("div", { class: "pc-wrap" }, el("span", { class: "muted" }, "purchase card"), card));
    }
    container.append(node);
  }
}

/**
 * The stock and the discard pile. opts: {canDraw, canTake, spread, onStock(), onDiscard(card|null),
 * purchasable: Set of cards}
 */
export function renderPiles(container, view, opts = {}) {
  container.replaceChildren();
  if (!view) return;
  const stock = cardBack(view.stock_count, { tag: "button" });
  stock.type = "button";
  stock.id = "stock";
  stock.classList.toggle("can", !!opts.canDraw);
  stock.setAttribute("aria-label", `Stock, ${plural(view.stock_count, "card")}` + (opts.canDraw ? ". Draw a card" : ""));
  stock.addEventListener("click", () => opts.onStock?.());
  const discard = view.discard || [];
  const pile = el("div", {
    class: "discard-pile" + (opts.spread ? " spread" : "") + (view.discard_dead ? " dead" : "")
      + (opts.canTake ? " can" : ""),
    id: "discard", role: "button", tabindex: "0",
    dataset: { drop: "discard" },
    "aria-label": discard.length
      ? `Discard pile, top card ${cardText(discard[discard.length - 1])}${view.discard_dead ? ", dead" : ""}`
      : "Discard pile, empty",
  });
  if (!discard.length) pile.append(el("div", { class: "card empty-slot" }, "discard"));
  const discardCard = (card, small) => {
    const node = cardElement(card, { small });
    if (opts.purchasable?.has(card)) {
      node.classList.add("purchasable");
      node.addEventListener("click", (e) => {
        e.stopPropagation();
        opts.onDiscard?.(card);
      });
    }
    return node;
  };
  if (discard.length) pile.append(discardCard(discard[discard.length - 1], false));
  const history = opts.spread ? discard.slice(0, -1).reverse() : [];
  if (history.length) {
    pile.append(el("div", { class: "history", title: "Earlier discards, newest first" },
      history.map((card) => discardCard(card, true))));
  }
  pile.addEventListener("click", () => opts.onDiscard?.(null));
  pile.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      opts.onDiscard?.(null);
    }
  });
  container.append(
    el("div", { class: "pile" }, stock, el("span", { class: "pile-label" }, `Stock · ${view.stock_count}`)),
    el("div", { class: "pile grow" }, pile, el("span", { class: "pile-label" },
      `Discards · ${view.discard_count}` + (view.discard_dead ? " · dead" : ""))));
  if (view.kitty) container.append(el("div", { class: "kitty", title: "Pennies paid for buys" }, `Kitty ${view.kitty}¢`));
}

/** The out-of-turn claim banner ("I'll Buy It!", "May I?") with its countdown. */
export function renderClaim(container, view, opts) {
  container.replaceChildren();
  const legal = opts.legal;
  const canBuy = legal.has("buy") && view.phase === "claim";
  if (!canBuy) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const card = view.claim_card || view.discard?.[view.discard.length - 1];
  container.append(
    el("div", { class: "claim-card" }, card ? cardElement(card) : null),
    el("div", { class: "claim-body" },
      el("p", {}, card ? `Want the ${cardText(card)}?` : "Want the discard?",
        el("span", { class: "countdown", id: "claim-countdown", "aria-live": "off" })),
      el("div", { class: "row" },
        el("button", { type: "button", class: "buy big", id: "buy-button", onclick: () => opts.onBuy() }, claimLabel(view.variant)),
        legal.has("pass") ? el("button", { type: "button", class: "ghost", id: "pass-button", onclick: () => opts.onPass() }, "No thanks") : null)));
}

// The public parts of the table: players around it, the stock and discard pile, the claim window.
// Every rule shown comes from the view's resolved `facts`; every explanation from the help's glossary.

import { cardBack, cardElement, cardText } from "./cards.js";
import { el, plural, tip } from "./ui.js";

export function seatName(table, view, seat) {
  return view?.players?.[seat] ?? table?.seats?.[seat]?.name ?? `Seat ${seat + 1}`;
}

const SKIP_WORDS = { turn: "until their turn", hand: "for this hand" };

/** "2 buys left" / "bought 2" for a seat, or null where there is no buying. */
function claimsLabel(view, seat, glossary) {
  const facts = view.facts;
  if (!facts?.claim_words) return null;
  const words = facts.claim_words;
  const left = facts.claims_left?.[seat];
  const used = view.claims_used?.[seat] ?? 0;
  if (left === null || left === undefined) {
    return used ? tip(`${used} ${used === 1 ? words.name : words.plural}`, glossary.claimed, "claims") : null;
  }
  return tip(`${left} ${left === 1 ? words.name : words.plural} left`, glossary.claims_left, "claims");
}

/**
 * Render everyone's seat: name, kind, hand size, down, buys, total, turn, purchase card.
 * opts: {onPurchaseCard(seat), glossary}
 */
export function renderSeats(container, table, view, opts = {}) {
  container.replaceChildren();
  const glossary = opts.glossary || {};
  const seats = table?.seats || [];
  const n = view?.players?.length || seats.length;
  container.classList.toggle("many", n > 4);
  container.dataset.seats = String(n); // the phone's seat strip: one row up to four seats
  for (let seat = 0; seat < n; seat++) {
    const info = seats[seat] || {};
    const mine = view && view.seat === seat;
    const active = view && ["claim", "draw", "play"].includes(view.phase) && view.active === seat;
    const waiting = view && view.phase === "claim" && view.to_act.includes(seat) && seat !== view.active;
    const size = view?.hand_sizes?.[seat];
    const badges = [];
    if (info.kind === "bot") badges.push(tip(`bot: ${info.level || "?"}`, glossary.computer, "badge bot level"));
    if (info.kind === "human" && info.connected === false) badges.push(tip("away", glossary.away, "badge off"));
    if (info.kind === "human" && info.bot_playing) badges.push(tip("computer playing", glossary.computer, "badge bot"));
    if (view?.down?.[seat]) badges.push(tip("down", glossary.down, "badge down"));
    if (view && view.dealer === seat) badges.push(tip("dealer", glossary.dealer, "badge"));
    if (info.skip_claims) {
      const name = view?.facts?.claim_words?.plural || "buys";
      badges.push(tip("passing", `Passes on ${name} ${SKIP_WORDS[info.skip_claims] || ""}.`, "badge"));
    }
    const node = el("li", {
      class: "seat" + (mine ? " mine" : "") + (active ? " active" : "") + (waiting ? " deciding" : ""),
      dataset: { seat: String(seat) },
      "aria-current": active ? "true" : null,
    },
    el("div", { class: "seat-head" },
      el("span", { class: "seat-name", title: info.name || view?.players?.[seat] || "Open seat" },
        info.name || view?.players?.[seat] || "Open seat", mine ? " (you)" : ""),
      active ? el("span", { class: "turn-dot", "aria-label": "playing now" }) : null),
    el("div", { class: "seat-info" },
      size !== undefined ? el("span", { class: "hand-size", title: glossary.hand_size || "Cards in hand" },
        cardBack(undefined, { small: true }), el("b", {}, size)) : null,
      view && view.facts?.scoring !== "book"
        ? tip(`${view.totals?.[seat] ?? 0} pts`, glossary.total, "total") : null,
      view ? claimsLabel(view, seat, glossary) : null),
    badges.length ? el("div", { class: "badges" }, badges) : null);
    const pc = view?.purchase_cards?.[seat];
    if (pc) {
      const card = cardElement(pc, { small: true, tag: "button" });
      card.type = "button";
      card.classList.add("pc");
      card.setAttribute("aria-label", `${mine ? "Your" : seatName(table, view, seat) + "’s"} purchase card ${cardText(pc)}`);
      card.dataset.drop = "pc";
      card.dataset.seat = String(seat);
      card.addEventListener("click", () => opts.onPurchaseCard?.(seat));
      node.append(el("div", { class: "pc-wrap" }, tip("purchase card", glossary.purchase_card, "muted"), card));
    }
    container.append(node);
  }
}

/**
 * The stock and the discard pile. opts: {canDraw, canTake, spread, onStock(), onDiscard(card|null),
 * purchasable: Set of cards, glossary}
 */
export function renderPiles(container, view, opts = {}) {
  container.replaceChildren();
  if (!view) return;
  const glossary = opts.glossary || {};
  const stock = cardBack(view.stock_count, { tag: "button" });
  stock.type = "button";
  stock.id = "stock";
  stock.classList.toggle("can", !!opts.canDraw);
  stock.setAttribute("aria-label", `Stock, ${plural(view.stock_count, "card")}` + (opts.canDraw ? ". Draw a card" : ""));
  stock.addEventListener("click", () => opts.onStock?.());
  const discard = view.discard || [];
  const dead = !!view.facts?.discard_dead;
  const pile = el("div", {
    class: "discard-pile" + (opts.spread ? " spread" : "") + (dead ? " dead" : "") + (opts.canTake ? " can" : ""),
    id: "discard", role: "button", tabindex: "0",
    dataset: { drop: "discard" },
    "aria-label": discard.length
      ? `Discard pile, top card ${cardText(discard[discard.length - 1])}${dead ? ", dead" : ""}`
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
      `Discards · ${view.discard_count}`, dead ? " · " : "", dead ? tip("dead", glossary.dead, "dead-label") : null)));
  if (view.kitty) container.append(tip(`Kitty ${view.kitty}¢`, glossary.kitty, "kitty"));
}

/** What a claim costs and how many are left, in words: "You also take a penalty card from the stock.
 * 2 of 3 buys left this hand." */
export function claimTerms(view) {
  const facts = view.facts || {};
  const words = facts.claim_words || { name: "buy", plural: "buys" };
  const cost = facts.claim_cost || {};
  const parts = [];
  const extra = cost.penalty_cards || 0;
  if (facts.claim_when_down) parts.push(facts.claim_when_down); // the server's words: what a down hand can do with them
  else if (extra) parts.push(`You also take ${extra === 1 ? "a" : extra} ${cost.penalty_word}${extra === 1 ? "" : "s"} from the stock.`);
  if (cost.pennies) parts.push(`It costs ${cost.pennies}¢.`);
  const left = facts.claims_left?.[view.seat];
  if (facts.claim_limit === null || facts.claim_limit === undefined) parts.push(`No limit on ${words.plural}.`);
  else parts.push(`${left} of ${facts.claim_limit} ${facts.claim_limit === 1 ? words.name : words.plural} left this hand.`);
  return parts.join(" ");
}

/**
 * The out-of-turn claim window ("I'll Buy It!", "May I?"): what it costs, its countdown, and the
 * answers: claim, no thanks, pass until my turn, don't ask again this hand.
 * opts: {legal, onBuy(), onPass(), onSkip(until)}
 */
export function renderClaim(container, view, opts) {
  container.replaceChildren();
  const legal = opts.legal;
  const canBuy = legal.has("buy") && view.phase === "claim";
  if (!canBuy) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const words = view.facts?.claim_words || { call: "Buy it", ask: "Buy", plural: "buys" };
  const card = view.claim_card || view.discard?.[view.discard.length - 1];
  if (view.claim_from != null && view.claim_from === view.seat) { // the upcard (null) is nobody's
    renderOwnDiscard(container, view, card, words, opts);
    return;
  }
  container.classList.remove("own-discard");
  container.append(
    el("div", { class: "claim-card" }, card ? cardElement(card) : null),
    el("div", { class: "claim-body" },
      el("p", { class: "claim-question" }, `${words.ask} the ${card ? cardText(card) : "discard"}?`,
        el("span", { class: "countdown", id: "claim-countdown", "aria-live": "off" })),
      el("p", { class: "claim-terms", id: "claim-terms" }, claimTerms(view)),
      el("div", { class: "row" },
        el("button", { type: "button", class: "buy big", id: "buy-button", onclick: () => opts.onBuy() }, words.call),
        legal.has("pass") ? el("button", { type: "button", id: "pass-button", onclick: () => opts.onPass() }, "No thanks") : null),
      el("div", { class: "row skip-claims" },
        el("button", { type: "button", class: "small ghost", id: "skip-turn-button", onclick: () => opts.onSkip("turn") },
          `Pass on ${words.plural} until my turn`),
        el("button", { type: "button", class: "small ghost", id: "skip-hand-button", onclick: () => opts.onSkip("hand") },
          "Don't ask again this hand"))));
}

/**
 * The claim window on the player's own discard: never the big claim button. "No thanks" is the
 * obvious answer; taking the card back is a small, plainly priced control.
 */
function renderOwnDiscard(container, view, card, words, opts) {
  container.classList.add("own-discard");
  const cost = view.facts?.claim_cost;
  const price = [cost?.penalty_cards ? `costs ${cost.penalty_cards} ${cost.penalty_word || "penalty card"}` : null,
    cost?.pennies ? `${cost.pennies}¢` : null, `uses one of your ${words.plural}`].filter(Boolean).join(", ");
  container.append(
    el("div", { class: "claim-body" },
      el("p", { class: "claim-question" }, `Your own discard, the ${card ? cardText(card) : "card"}, is offered to the table.`,
        el("span", { class: "countdown", id: "claim-countdown", "aria-live": "off" })),
      el("div", { class: "row" },
        opts.legal.has("pass") ? el("button", { type: "button", class: "primary", id: "pass-button", onclick: () => opts.onPass() }, "No thanks") : null,
        el("button", { type: "button", class: "small ghost", id: "take-back-button", onclick: () => opts.onBuy() },
          `Take back my discard (${price})`))));
}

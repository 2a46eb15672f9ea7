// Turning the player's taps into actions, read from the legal actions: what a card can do on a meld,
// several lay-offs at once (in the order the server finds), purchases and trades, hints, and the one-line help for the status bar.

import { api } from "./api.js";
import { cardElement, cardText } from "./cards.js";
import { seatName } from "./board.js";
import { openRearrangeEditor } from "./builder.js";
import { specCards } from "./melds.js";
import { choose, toast } from "./ui.js";

/** Legal plays of `card` on meld `meldId` as [{value: body, label}]. */
export function layoffChoices(bodies, meldId, card) {
  const out = [];
  for (const body of bodies) {
    if (body.includes(";")) continue;
    const [verb, meld, c, end] = body.split(" ");
    if (!["layoff", "swap", "move"].includes(verb) || Number(meld) !== meldId || c !== card) continue;
    let label;
    if (verb === "layoff") label = end ? `Lay off at the ${end} end` : "Lay off";
    else if (verb === "swap") label = "Swap it for the joker (the joker comes to your hand)";
    else label = `Put it in place of the wild; move the wild to the ${end} end`;
    out.push({ value: body, label });
  }
  return out;
}

/** A finger is the main pointer: cards are tapped, then their meld (dragging is for a mouse). */
function touchScreen() {
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

/** One line for the status bar: whose turn and what the player can do. */
export function turnHelp(view, legal, name) {
  const me = view.seat;
  const top = view.discard?.[view.discard.length - 1];
  const active = name(view.active);
  switch (view.phase) {
    case "claim": {
      const beforeDraw = view.facts?.claim_timing === "pre_draw"; // others buy before the draw, not after a pass
      const card = cardText(view.claim_card || top);
      if (legal.has("buy")) return `Do you want the ${card}? ${active} ${beforeDraw ? "draws next" : "passed on it"}.`;
      if (view.active === me) return `Others may take the ${card} before you ${beforeDraw ? "draw" : "get your card"}…`;
      return `Waiting: others may take the ${card}…`;
    }
    case "draw":
      if (view.active !== me) return `${active} is drawing.`;
      if (legal.has("take") && top) return `Your turn: draw from the stock or take the ${cardText(top)}.`;
      return "Your turn: draw from the stock.";
    case "play":
      if (view.active !== me) return `${active} is playing.`;
      if (view.facts?.scoring === "book") return "Purchase, trade or exchange (optional), declare a book, or discard.";
      if (view.facts?.free_melding) return "Meld, lay off, or discard a card to end your turn.";
      if (!view.down[me] && view.contract.length) {
        return `Lay down ${view.contract.join(" + ")} if you can, then discard.`;
      }
      return `Lay off on any meld (${touchScreen() ? "tap a card, then the meld" : "drag a card onto it"}), or discard to end your turn.`;
    case "round_over":
      return "Round over.";
    case "game_over":
      return "Game over.";
    default:
      return "";
  }
}

/** Play the selected card(s) on meld `meldId`: lay off, swap or move; asks when several plays fit. */
export async function playOnMeld(page, meldId, items) {
  const view = page.view;
  if (!view) return;
  if (!items.length) {
    toast("Select a card in your hand first, then tap the meld.");
    return;
  }
  if (items.length === 1) {
    const card = items[0].card;
    const options = layoffChoices(page.bodies, meldId, card);
    let body = `layoff ${meldId} ${card}`;
    if (options.length === 1) body = options[0].value;
    else if (options.length > 1) {
      body = await choose(`${cardText(card)} on meld ${meldId}`, options);
      if (!body) return;
    }
    page.send(body);
  } else {
    let answer; // the server orders the lay-offs so that each fits the meld the one before left
    try {
      answer = await api.layoffs(page.tableId, meldId, items.map((i) => i.card));
    } catch (err) {
      answer = { refused: err };
    }
    if (answer.refused) {
      toast(answer.refused.message, "error", 6000);
      return;
    }
    page.send(answer.layoffs.join(" ; "));
  }
  page.hand.clearSelection();
}

/** `purchase` variant: buy `card` from the discard pile, choosing the new purchase card. */
export async function purchase(page, card) {
  const options = page.bodies.filter((b) => b.startsWith(`purchase ${card} `));
  if (!options.length) {
    toast(`You cannot purchase the ${cardText(card)} now.`, "error");
    return;
  }
  const body = await chooseNewPc(`Purchase the ${cardText(card)}: pick your new purchase card`, options);
  if (body) page.send(body);
}

/** `purchase` variant: own purchase card → exchange; another seat's → trade. */
export async function tradeOrExchange(page, seat) {
  const view = page.view;
  if (!view) return;
  const options = seat === view.seat
    ? page.bodies.filter((b) => b.startsWith("exchange "))
    : page.bodies.filter((b) => b.startsWith(`trade p${seat} `));
  if (!options.length) {
    toast(seat === view.seat ? "You cannot exchange your purchase card now." : "You cannot trade for that card now.");
    return;
  }
  const title = seat === view.seat ? "Exchange: pick your new purchase card"
    : `Trade with ${seatName(page.table, view, seat)}: pick your new purchase card`;
  const body = await chooseNewPc(title, options);
  if (body) page.send(body);
}

function chooseNewPc(title, bodies) {
  return choose(title, bodies.map((b) => {
    const newPc = b.split(" ").pop();
    return { value: b, label: cardText(newPc), node: cardElement(newPc, { small: true }) };
  }));
}

export async function declareBook(page) {
  const books = page.bodies.filter((b) => b.startsWith("book "));
  const body = books.length === 1 ? books[0] : await choose("Which book?", books.map((b) => ({
    value: b, label: specCards(b.split(" ")[1]).map(cardText).join(" "),
  })));
  if (body) page.send(body);
}

/**
 * A hint: a listed lay-down staged in the builder, a book, or a lay-off (its card selected and its
 * meld marked); with none of those the server is asked which card to discard (``hint``,
 * docs/protocol.md: the computer's choice from this seat's view, named in words).
 */
export function hint(page) {
  const lay = page.bodies.find((b) => b.startsWith("down ") || b.startsWith("meld "));
  if (lay) {
    const specs = lay.split(" ").slice(1);
    page.builder.stageSpecs(specs);
    hintToast(page, `you can ${lay.startsWith("down") ? "lay down" : "meld"} ${specs.map((s) =>
      specCards(s).map(cardText).join(" ")).join("  +  ")} — press ${lay.startsWith("down") ? "Lay down" : "Meld"}.`, 8000);
    return;
  }
  if (page.bodies.some((b) => b.startsWith("book "))) {
    hintToast(page, "you have a book — press Declare book!", 6000);
    return;
  }
  const layoff = page.bodies.find((b) => /^(layoff|swap|move) /.test(b) && !b.includes(";"));
  if (layoff) {
    const [verb, meld, card] = layoff.split(" ");
    const item = page.hand.available().find((i) => i.card === card);
    if (item) page.hand.select([item.key]);
    page.marked = new Set([Number(meld)]);
    page.drawMelds();
    const what = verb === "layoff" ? "lay off" : verb === "swap" ? "swap in" : "play";
    hintToast(page, `${what} the ${cardText(card)} on meld ${meld} — tap the highlighted meld.`, 8000);
    return;
  }
  page.sendMessage("hint");
}

/** The server's hint (which card to discard, and why no table move came first); it goes with the turn. */
export function showHint(page, msg) {
  if (!page.view || msg.seq !== page.socket.seq) return; // the game moved on while the server thought
  hintToast(page, msg.words, 12000);
}

/** A hint's words, shown until the state it was made for moves on (the table then drops it). */
function hintToast(page, words, ms) {
  page.hintSeq = page.socket.seq;
  toast(`Hint: ${words}`, "hint", ms);
}

/** The action buttons the legal actions allow now, as [label, id, class, onclick]. */
export function actionButtons(page, selected) {
  const { view, legal } = page;
  const top = view.discard[view.discard.length - 1];
  const buttons = [];
  if (legal.has("draw")) buttons.push(["Draw from stock", "draw-button", "primary", () => page.send("draw")]);
  if (legal.has("take") && top) buttons.push([`Take ${cardText(top)}`, "take-button", "", () => page.send("take")]);
  if (legal.has("buy") && view.phase === "draw" && top) {
    const pennies = view.facts?.claim_cost?.pennies;
    buttons.push([`Buy the ${cardText(top)}${pennies ? ` (${pennies}¢)` : ""}`, "own-buy-button", "buy", () => page.send("buy")]);
  }
  if (legal.has("discard")) {
    const one = selected.length === 1 ? selected[0].card : null;
    buttons.push([one ? `Discard ${cardText(one)}` : "Discard…", "discard-button", one ? "primary" : "",
      () => page.discardSelected()]);
  }
  if (legal.has("book")) buttons.push(["Declare book!", "book-button", "primary", () => page.declareBook()]);
  if (legal.has("exchange")) {
    buttons.push(["Exchange purchase card", "exchange-button", "", () => page.onPurchaseCard(view.seat)]);
  }
  if (legal.has("rearrange")) {
    buttons.push(["Rearrange…", "rearrange-button", "", () => openRearrangeEditor({
      view, handItems: page.hand.available(), preselectedKeys: page.hand.selected().map((i) => i.key),
      send: (b) => page.send(b), arrange: (meld) => api.arrange(page.tableId, meld),
    })]);
  }
  if (view.phase === "play" && page.isMyTurn()) buttons.push(["Hint", "hint-button", "ghost", () => page.hint()]);
  return buttons;
}

// Short card movements so a player sees what moved: a draw flies from the stock (or the discard pile) to
// the hand or the drawer's seat, a discard from the hand or seat to the pile, a lay-down and a lay-off
// from the player to the meld. Only what the server's states say moved is shown (two states compared);
// nothing moves under `prefers-reduced-motion`, on a hidden page, or across a new round.

import { cardBack, cardElement } from "./cards.js";

const MS = 220;
const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)");

function still() {
  return !!reduced?.matches || document.hidden;
}

const box = (node) => node?.getBoundingClientRect() || null;

/** Where things are before a new state is drawn: the piles, the seats, the hand's cards. */
export function snapshot(root, view) {
  if (!view || still()) return null;
  const hand = new Map(); // card -> [rect] (a card may be held twice)
  for (const node of root.querySelectorAll("#hand .card")) {
    const list = hand.get(node.dataset.card) || [];
    list.push(box(node));
    hand.set(node.dataset.card, list);
  }
  const seats = [];
  for (const node of root.querySelectorAll("#seats .seat")) seats[Number(node.dataset.seat)] = box(node);
  return {
    view,
    stock: box(root.querySelector("#stock")),
    discard: box(root.querySelector("#discard > .card")),
    hand,
    handBox: box(root.querySelector("#hand")),
    seats,
  };
}

/** Move `node` from `from` (a rect) to where it now stands: from a card's size when `from` is a card (the
 * stock, the pile, a card in the hand), else at its own size out of the middle of `from` (a seat, the hand). */
function fly(node, from, fromCard = true) {
  const to = box(node);
  if (!from || !to || !to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = fromCard ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1;
  node.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.7 },
    { transform: "none", opacity: 1 },
  ], { duration: MS, easing: "ease-out" });
}

/** A card that leaves the screen's drawn parts (into another player's hand): a copy flies and goes. */
function ghost(card, from, to) {
  if (!from || !to) return;
  const node = card ? cardElement(card, { small: true }) : cardBack(undefined, { small: true });
  node.classList.add("fly-ghost");
  node.setAttribute("aria-hidden", "true");
  node.style.left = `${from.left + from.width / 2}px`;
  node.style.top = `${from.top + from.height / 2}px`;
  document.body.append(node);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const animation = node.animate([
    { transform: "translate(-50%, -50%)", opacity: 1 },
    { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(0.5)`, opacity: 0.2 },
  ], { duration: MS, easing: "ease-in" });
  animation.onfinish = () => node.remove();
  animation.oncancel = () => node.remove();
}

/** Cards in `after` that `before` lacks (multisets). */
function added(before, after) {
  const rest = [...before];
  return after.filter((card) => {
    const i = rest.indexOf(card);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

/** Show what moved between the snapshot's state and `view`, now drawn under `root`. */
export function play(root, snap, view) {
  if (!snap || !view || still()) return;
  const old = snap.view;
  if (old === view || old.round !== view.round || old.seat !== view.seat) return;
  const me = view.seat;
  const from = (seat) => (seat === me && me !== null ? snap.handBox : snap.seats[seat]);
  const oldTop = old.discard?.[old.discard.length - 1];
  const tookTop = view.discard_count < old.discard_count;
  const drewStock = view.stock_count < old.stock_count;

  // a discard: from the hand (the card's own place) or the discarder's seat onto the pile
  if (view.discard_count > old.discard_count && view.discard?.length) {
    const top = view.discard[view.discard.length - 1];
    const actor = old.active;
    const card = actor === me ? snap.hand.get(top)?.[0] : null;
    fly(root.querySelector("#discard > .card"), card || from(actor), !!card);
  }

  // my new cards: the taken (or bought) discard from the pile, the others from the stock
  if (me !== null && view.hand.length > (old.hand?.length ?? 0)) {
    let topLeft = tookTop ? oldTop : null;
    const counts = new Map();
    for (const node of root.querySelectorAll("#hand .card")) {
      const card = node.dataset.card;
      const seen = (counts.get(card) || 0) + 1;
      counts.set(card, seen);
      if (seen <= (snap.hand.get(card)?.length || 0)) continue; // held before
      if (card === topLeft) {
        topLeft = null;
        fly(node, snap.discard);
      } else if (drewStock) {
        fly(node, snap.stock);
      }
    }
  }

  // other players' new cards: face up from the pile, face down from the stock
  let pileCards = tookTop ? old.discard_count - view.discard_count : 0;
  (view.hand_sizes || []).forEach((size, seat) => {
    const grown = size - (old.hand_sizes?.[seat] ?? size);
    if (seat === me || grown <= 0) return;
    const to = box(root.querySelector(`#seats .seat[data-seat="${seat}"]`));
    for (let i = 0; i < Math.min(grown, 3); i++) {
      if (pileCards > 0) {
        pileCards--;
        ghost(oldTop, snap.discard, to);
      } else if (drewStock) {
        ghost(null, snap.stock, to);
      }
    }
  });

  // a lay-down: new melds come from their owner; a lay-off: the new cards come from the player
  const oldMelds = new Map((old.table || []).map((m) => [m.id, m]));
  for (const meld of view.table || []) {
    const node = root.querySelector(`#melds .meld[data-meld="${meld.id}"]`);
    if (!node) continue;
    const was = oldMelds.get(meld.id);
    if (!was) {
      fly(node, from(meld.owner), false);
      continue;
    }
    if (meld.cards.length <= was.cards.length) continue;
    const actor = old.active;
    for (const card of added(was.cards, meld.cards)) {
      const nodes = node.querySelectorAll(`.card[data-card="${CSS.escape(card)}"]`);
      const held = actor === me ? snap.hand.get(card)?.[0] : null;
      if (nodes.length) fly(nodes[nodes.length - 1], held || from(actor), !!held);
    }
  }
}

// Cards in record notation ("7H", "TS", "JK") and their CSS-drawn elements.

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = "A23456789TJQK";
const RANK_NAMES = {
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
};

export function isJoker(card) {
  return card === "JK";
}

export function rankOf(card) {
  return isJoker(card) ? null : card.slice(0, -1);
}

export function suitOf(card) {
  return isJoker(card) ? null : card.slice(-1);
}

/** 1 (ace) … 13 (king); 0 for the joker. */
export function rankValue(card) {
  return isJoker(card) ? 0 : RANKS.indexOf(rankOf(card)) + 1;
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** "7♥", "10♠", "Joker"; a set's wild "7*" → "7". */
export function cardText(card) {
  if (!card) return "";
  if (isJoker(card)) return "Joker";
  const suit = suitOf(card);
  return rankLabel(rankOf(card)) + (SUITS[suit] || "");
}

export function cardSpeech(card) {
  if (isJoker(card)) return "joker";
  const rank = rankOf(card);
  const name = RANK_NAMES[rank] || rank;
  const suit = SUIT_NAMES[suitOf(card)];
  return suit ? `${name} of ${suit}` : `any ${name}`;
}

/** Is the card wild at this table? The server lists every wild card in the view's `facts.wild_cards`. */
export function isWild(card, facts) {
  return (facts?.wild_cards || []).includes(card);
}

/**
 * A card element. `opts`: {wild: show what it stands for, as: that card ("8D", "7*", null), small, tag}.
 */
export function cardElement(card, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  el.dataset.card = card;
  if (isJoker(card)) {
    el.classList.add("joker");
    el.innerHTML = '<span class="corner"><span class="rank">★</span></span>'
      + '<span class="center">★</span><span class="jk-word">JOKER</span>';
  } else {
    const suit = suitOf(card);
    el.classList.add("suit-" + suit);
    el.innerHTML = `<span class="corner"><span class="rank">${rankLabel(rankOf(card))}</span>`
      + `<span class="pip">${SUITS[suit]}</span></span><span class="center">${SUITS[suit]}</span>`;
  }
  let label = cardSpeech(card);
  if (opts.wild) {
    const as = document.createElement("span");
    as.className = "as";
    as.textContent = "=" + asText(opts.as);
    el.appendChild(as);
    el.classList.add("wild-as");
    label += `, standing for ${asSpeech(opts.as)}`;
  }
  el.setAttribute("aria-label", label);
  el.title = cardText(card) + (opts.wild ? ` (as ${asText(opts.as)})` : "");
  return el;
}

/** What a wild stands for: "8D" → "8♦", "7*" → "7", null → "wild". */
export function asText(as) {
  if (!as) return "wild";
  if (as.endsWith("*")) return rankLabel(as.slice(0, -1));
  return cardText(as);
}

function asSpeech(as) {
  if (!as) return "any card";
  if (as.endsWith("*")) return "a " + (RANK_NAMES[as.slice(0, -1)] || as.slice(0, -1));
  return cardSpeech(as);
}

export function cardBack(count, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card back" + (opts.small ? " small" : "");
  if (count !== undefined) {
    const c = document.createElement("span");
    c.className = "count";
    c.textContent = count;
    el.appendChild(c);
  }
  return el;
}

const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 }; // alternate colours: ♣ ♦ ♠ ♥

/** Sort key: by suit then rank (aces low), jokers last. */
export function suitKey(card) {
  if (isJoker(card)) return 1000;
  return SUIT_ORDER[suitOf(card)] * 20 + rankValue(card);
}

/** Sort key: by rank then suit, jokers last. */
export function rankKey(card) {
  if (isJoker(card)) return 1000;
  return rankValue(card) * 10 + SUIT_ORDER[suitOf(card)];
}

/** A card's points at this table (the view's `facts.card_points`; the server's score sheet is authoritative). */
export function cardPoints(card, facts) {
  return facts?.card_points?.[isJoker(card) ? "JOKER" : rankOf(card)] ?? 0;
}

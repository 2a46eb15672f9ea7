// Table melds (numbered, wilds showing what they stand for) and meld notation helpers.

import { asText, cardElement, rankOf } from "./cards.js";
import { ask, el } from "./ui.js";

/** "run 3♦–6♦", "set of 7s". */
export function describeMeld(meld) {
  const as = meld.as || meld.cards;
  if (meld.kind === "run" && as.length) return `run ${asText(as[0])}–${asText(as[as.length - 1])}`;
  const natural = as.find((c) => c && c !== "JK");
  if (!natural) return meld.kind === "book" ? "book" : "trio of wilds";
  const rank = natural.endsWith("*") ? natural.slice(0, -1) : rankOf(natural);
  const label = asText(rank + "*");
  return `${meld.kind === "pair" ? "pair" : meld.kind === "book" ? "book" : "set"} of ${label}s`;
}

/**
 * Render every table meld, grouped by the player who laid it.
 * opts: {onActivate(meldId, node), marked: Set of meld ids, facts: the view's facts, name(seat)}
 */
export function renderMelds(container, view, opts = {}) {
  container.replaceChildren();
  const melds = view?.table || [];
  if (!melds.length) {
    container.append(el("p", { class: "empty" }, "No melds on the table yet."));
    return;
  }
  const players = view.players || [];
  const owners = [...new Set(melds.map((m) => m.owner))].sort((a, b) => a - b);
  for (const owner of owners) {
    const count = melds.filter((m) => m.owner === owner).length;
    const who = owner === view.seat ? "Your melds" : (opts.name?.(owner) ?? players[owner] ?? `Seat ${owner + 1}`);
    const group = el("div", { class: "meld-group", dataset: { owner: String(owner) } },
      el("h3", {}, who, el("span", { class: "count" }, owner === view.seat ? "" : ` · ${count} meld${count === 1 ? "" : "s"}`)));
    const row = el("div", { class: "meld-row" });
    for (const meld of melds.filter((m) => m.owner === owner)) row.append(meldElement(meld, opts));
    group.append(row);
    container.append(group);
  }
}

export function meldElement(meld, opts = {}) {
  const label = `Meld ${meld.id}: ${describeMeld(meld)}`;
  const node = el("div", {
    class: "meld" + (opts.marked?.has(meld.id) ? " marked" : ""),
    role: "button", tabindex: "0", "aria-label": label, title: label,
    dataset: { drop: "meld", meld: String(meld.id) },
  }, el("span", { class: "meld-no", "aria-hidden": "true" }, meld.id));
  const cards = el("div", { class: "meld-cards" + (meld.cards.length > 8 ? " long" : "") });
  meld.cards.forEach((card, i) => {
    const as = meld.as ? meld.as[i] : null; // null: a trio of wilds, which stands for nothing in particular
    const wild = Boolean(meld.wild?.[i]); // the server's: a two in its own place may be natural
    cards.append(cardElement(card, { small: true, wild, as }));
  });
  node.append(cards);
  const activate = () => opts.onActivate?.(meld.id, node);
  node.addEventListener("click", activate);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate();
    }
  });
  return node;
}

/**
 * Meld notation for `cards` (picked in any order) as `kind`, in the engine's order: `arrange(text)` asks the
 * server (GET /api/tables/{id}/arrange), which places aces and wilds by the table's rules. For an all-wild
 * meld the player declares what it stands for. Throws an Error with the server's reason when the cards make no meld.
 */
export async function meldSpec(kind, cards, arrange) {
  if (!cards.length) throw new Error("Select some cards first.");
  const text = `${kind}:${cards.join("-")}`;
  let arranged = await arrange(text);
  if (arranged.refused?.rule === "declaration-required") {
    const run = kind === "run";
    const answer = await ask(run ? "All-wild run" : "All-wild set",
      run ? "Lowest card it stands for (e.g. 5H)" : "Rank it stands for (e.g. Q)");
    if (!answer) throw new Error(run ? "A run of wilds needs its lowest card declared." : "A set of wilds needs its rank declared.");
    arranged = await arrange(`${text}=${answer.toUpperCase()}`);
  }
  if (arranged.refused) throw new Error(arranged.refused.message);
  return arranged.spec;
}

/** The cards of a meld in notation ("run:3D-JK-5D=3D" → ["3D", "JK", "5D"]). */
export function specCards(spec) {
  return spec.split(":")[1].split("=")[0].split("-");
}

export function specKind(spec) {
  return spec.split(":")[0];
}

/** A meld written in notation as a row of small cards. */
export function specElement(spec) {
  const kind = specKind(spec);
  const cards = specCards(spec);
  const row = el("span", { class: "spec", title: spec },
    el("span", { class: "spec-kind" }, kind));
  for (const card of cards) row.append(cardElement(card, { small: true }));
  return row;
}

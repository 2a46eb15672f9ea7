// The round header (round, contract, target score) and the turn line above the hand (whose turn, what
// to do, and whether the player passes on claims), with the glossary's explanations as tooltips.

import { el, fill, keyed, tip } from "./ui.js";

/** "Round 3 of 8", the contract, and "to 150 points" where the game has a target. */
export function renderRoundInfo(container, view, glossary) {
  const facts = view.facts || {};
  keyed(container, [view.round, view.contract, facts.rounds, facts.target, Object.keys(glossary).length], () => {
    const contract = view.contract.length ? tip(view.contract.join(" + "), glossary.contract, "contract") : null;
    const target = facts.target ? tip(`to ${facts.target} points`, glossary.scoring, "target") : null;
    if (contract) contract.id = "contract";
    if (target) target.id = "target";
    fill(container, el("span", { class: "round" }, `Round ${view.round}${facts.rounds ? ` of ${facts.rounds}` : ""}`),
      contract, target);
  });
}

/** The turn line; `skip` is the player's skip_claims ("turn", "hand" or null), `onSkipOff` ends it. */
export function renderTurnInfo(container, view, text, skip, onSkipOff) {
  const words = view.facts?.claim_words;
  keyed(container, [text, skip], () => fill(container,
    el("span", {}, text),
    skip && words ? el("span", { class: "skipping" },
      ` You pass on ${words.plural} ${skip === "turn" ? "until your turn" : "this hand"}. `,
      el("button", { type: "button", class: "link", id: "skip-off-button", onclick: onSkipOff }, "Ask me again"))
      : null));
}

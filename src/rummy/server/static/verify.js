// "Verify this deal": shows the server's check of one round's shuffle (docs/fair-shuffle.md) and
// re-computes the SHA-256 of the revealed seed and salt in the browser (WebCrypto) as a second opinion.
// The deal itself is worked out by the engine on the server; no rule is copied here.

import { cardText } from "./cards.js";
import { el } from "./ui.js";

const WORDS = {
  verified: "Verified: the commitment matches the seed and salt, and the engine's deal from this seed is the deal that was played.",
  mismatched: "Mismatched: this deal does not match what was committed.",
  pending: "This round is still being played: only the commitment is public so far.",
  unverifiable: "Unverifiable: this round was not dealt from a commitment.",
};

/** Lower-case hex SHA-256 of `text`, or null where the browser offers no WebCrypto (plain http). */
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function field(label, value, id) {
  return el("div", { class: "verify-field" }, el("dt", {}, label), el("dd", {}, el("code", { id }, value ?? "—")));
}

async function show(main, tableId, round) {
  let data;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/shuffles/${encodeURIComponent(round)}`,
    { headers: { Accept: "application/json" }, credentials: "same-origin" });
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok || !data) {
    main.replaceChildren(el("h1", {}, `Round ${round}`),
      el("p", { class: "error", id: "verify-error" }, data?.error?.message || `The server answered ${response.status}.`));
    return;
  }
  const parts = [
    el("h1", {}, `Verify the deal of round ${data.round}`),
    el("p", { id: "verify-status", class: `verify-${data.status}`, dataset: { status: data.status } },
      WORDS[data.status] || data.status, data.reason && data.status !== "verified" ? ` (${data.reason})` : ""),
    el("dl", { class: "verify-fields" },
      field("Commitment (SHA-256, shown before anyone acted)", data.commitment, "verify-commitment"),
      field("Seed", data.seed, "verify-seed"),
      field("Salt", data.salt, "verify-salt"),
      field("Committed text", data.message, "verify-message")),
  ];
  if (data.message) {
    const browser = el("p", { id: "verify-browser" }, "Checking the hash in this browser…");
    parts.push(browser);
    const digest = await sha256Hex(data.message);
    if (digest === null) browser.textContent = "This browser cannot hash here (WebCrypto needs HTTPS); check by hand below.";
    else if (digest === data.commitment) browser.textContent = "This browser computed the same SHA-256: the commitment matches.";
    else browser.textContent = `This browser computed ${digest}: it does NOT match the commitment.`;
    browser.dataset.match = digest === null ? "unknown" : String(digest === data.commitment);
    parts.push(el("h2", {}, "Check it yourself"),
      el("pre", { class: "verify-howto" },
        `printf '%s' '${data.message}' | sha256sum\n`,
        `# download the game record when the game is over, then:\nrummy replay GAME.json --json`));
  }
  if (data.deal) {
    parts.push(el("h2", {}, "The deal from this seed"),
      el("ul", { id: "verify-hands" }, data.deal.hands.map((hand, seat) =>  // seats counted from 1, as at the table
        el("li", {}, `Seat ${seat + 1}${seat === data.deal.dealer ? " (dealer)" : ""}: ${cards(hand)}`))),
      data.deal.upcard ? el("p", {}, "Upcard: ", cardText(data.deal.upcard)) : null,
      el("p", {}, `Stock (top first): ${cards(data.deal.stock)}`));
  }
  parts.push(el("p", {}, el("a", { href: `/table/${encodeURIComponent(tableId)}` }, "Back to the table")));
  main.replaceChildren(...parts);
}

function cards(names) {
  return names.map(cardText).join(" ");
}

const match = location.pathname.match(/^\/table\/([^/]+)\/verify\/(\d+)\/?$/);
const main = document.getElementById("main");
if (match) show(main, decodeURIComponent(match[1]), match[2]).catch((err) => {
  main.replaceChildren(el("p", { class: "error", id: "verify-error" }, "Cannot reach the server: " + err.message));
});
else main.replaceChildren(el("p", { class: "error" }, "No round to verify in this address."));

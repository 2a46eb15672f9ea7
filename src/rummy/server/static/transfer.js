// "/transfer": use a one-time code (typed, or from a link's #code=…) to play as that identity in this
// browser (POST /api/identity/redeem). Nothing is used up until the button is pressed: a link preview
// that only loads the page leaves the code working.

import { api } from "./api.js";
import { el } from "./ui.js";

/** The code a link carries in its fragment (never sent to the server with the page request). */
function codeFromLink() {
  const match = location.hash.match(/code=([A-Za-z0-9-]+)/);
  if (!match) return "";
  history.replaceState(null, "", location.pathname); // keep the code out of the browser's history
  return match[1];
}

export function showTransfer(main, session, onSession) {
  const input = el("input", { id: "transfer-code-input", name: "code", autocomplete: "one-time-code",
    autocapitalize: "characters", spellcheck: "false", placeholder: "ABCD-EFGH-JKMN-PQRS", value: codeFromLink(),
    "aria-describedby": "transfer-help" });
  const error = el("p", { class: "error", role: "alert", id: "transfer-error" });
  const replaces = session
    ? el("p", { class: "warning" }, `This browser now plays as ${session.name}. Using a code replaces that: `,
      `${session.name}'s games stay with this name only on browsers that still have it.`)
    : null;
  const form = el("form", { class: "panel narrow", id: "transfer-form" },
    el("h1", {}, "Play as you on this browser"),
    el("p", { id: "transfer-help" }, "Type the one-time code made on your other browser (My games → Play as you on ",
      "another device), or open its link here."),
    replaces,
    el("label", { for: "transfer-code-input" }, "One-time code"), input,
    el("button", { type: "submit", class: "primary", id: "use-code" }, "Use this code"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const code = input.value.trim();
    if (!code) {
      error.textContent = "Type the code first.";
      return;
    }
    try {
      const identity = await api.redeemCode(code);
      onSession(identity);
      main.replaceChildren(el("section", { class: "panel narrow", id: "transfer-done", tabindex: "-1" },
        el("h1", {}, `You play as ${identity.name} here now`),
        el("p", {}, "Your games and tables are on this browser too."),
        el("div", { class: "row" }, el("a", { class: "button primary", href: "/history" }, "My games"),
          el("a", { class: "button", href: "/" }, "Lobby"))));
      main.querySelector("#transfer-done").focus();
    } catch (err) {
      error.textContent = err.message;
      input.focus();
    }
  });
  main.replaceChildren(form);
  input.focus();
}

// The waiting room of a table that has not started: invite link, seats, join and start.

import { el, fill, toast } from "./ui.js";

export function isFreeSeat(seat) {
  return !seat || seat.kind === "open";
}

/** opts: {tableId, inviteUrl, seated, isHost, onJoin(seat), onStart()} */
export function renderWaiting(container, table, opts) {
  const url = new URL(opts.inviteUrl || `/table/${encodeURIComponent(opts.tableId)}`, location.origin).href;
  const seats = table?.seats || [];
  const free = seats.filter(isFreeSeat).length;
  const linkInput = el("input", { type: "text", readonly: true, value: url, id: "invite-link", "aria-label": "Invite link",
    onfocus: (e) => e.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast("Invite link copied");
    } catch {
      linkInput.select();
      toast("Select and copy the link");
    }
  };
  const share = navigator.share
    ? el("button", { type: "button", onclick: () => navigator.share({ title: "Come and play rummy", url }).catch(() => {}) },
      "Share…")
    : null;
  fill(container,
    el("h2", {}, "Waiting for players"),
    el("p", {}, "Send this link to the people you want to play with:"),
    el("div", { class: "row invite" }, linkInput,
      el("button", { type: "button", id: "copy-invite", onclick: copy }, "Copy link"), share),
    el("ol", { class: "seat-list waiting-seats" }, seats.map((seat, i) => el("li", { class: isFreeSeat(seat) ? "free" : "" },
      el("span", { class: "seat-no" }, `Seat ${i + 1}`),
      isFreeSeat(seat) ? el("span", { class: "muted" }, "open")
        : el("span", {}, seat.name, seat.kind === "bot" ? ` · computer, ${seat.level || "bot"}` : "",
          seat.kind === "human" && seat.connected === false ? " · away" : ""),
      isFreeSeat(seat) && !opts.seated
        ? el("button", { type: "button", class: "small", onclick: () => opts.onJoin(i) }, "Sit here") : null))),
    el("div", { class: "row" },
      !opts.seated && free ? el("button", { type: "button", class: "primary", id: "join-button", onclick: () => opts.onJoin(null) },
        "Take a seat") : null,
      opts.isHost ? el("button", { type: "button", class: "primary big", id: "start-button", onclick: opts.onStart,
        disabled: free > 0 },
        "Start game") : el("p", { class: "muted" }, opts.seated ? "Waiting for the host to start the game…" : ""),
    ),
    free ? el("p", { class: "muted" }, `Every seat needs a player before the game starts (${free} open).`) : null,
  );
}

/** "No such table", with the way back to the lobby (a mistyped invite code or an old link). */
export function showMissingTable(main, tableId) {
  document.title = "No such table · Rummy";
  main.replaceChildren(el("section", { class: "panel narrow missing", id: "missing-table", role: "alert" },
    el("h1", {}, "No such table"),
    el("p", {}, "There is no table ", el("code", {}, tableId), ". Check the invite link — it may be mistyped or old."),
    el("a", { class: "button primary", href: "/", id: "back-to-lobby" }, "Back to the lobby")));
}

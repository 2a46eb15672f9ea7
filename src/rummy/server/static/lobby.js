// The lobby: name entry, creating a table (variant, seats, computer players, timers, house rules), joining.

import { api } from "./api.js";
import { houseRulesPanel, showHelp } from "./rules.js";
import { el, toast } from "./ui.js";

const LEVELS = ["easy", "medium", "hard", "expert"];

export function askName(main, title) {
  return new Promise((resolve) => {
    const input = el("input", { id: "name", name: "name", autocomplete: "nickname", maxlength: "24", required: true,
      placeholder: "e.g. Grandma Jo" });
    const error = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "panel narrow", id: "name-form" },
      el("h1", {}, title),
      el("label", { for: "name" }, "Your name"), input,
      el("button", { type: "submit", class: "primary" }, "Continue"), error);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        resolve(await api.login(name));
      } catch (err) {
        error.textContent = err.message;
      }
    });
    main.replaceChildren(form);
    input.focus();
  });
}

function seatRow(index, level) {
  const select = el("select", { "aria-label": `Seat ${index + 1}`, name: `seat-${index}`, class: "seat-kind" },
    el("option", { value: "" }, "Open seat (invite a person)"),
    LEVELS.map((l) => el("option", { value: l, selected: l === level }, `Computer — ${l}`)));
  return { row: el("li", {}, el("span", { class: "seat-no" }, `Seat ${index + 1}`), select), select };
}

function buildCreateForm(variants, onCreated) {
  const variantSelect = el("select", { id: "variant", name: "variant" },
    variants.map((v) => el("option", { value: v.id }, v.name)));
  const blurb = el("p", { class: "blurb" });
  const seatsInput = el("input", { id: "seats", name: "seats", type: "number", inputmode: "numeric" });
  const seatList = el("ol", { class: "seat-list" });
  const turnSelect = el("select", { id: "turn-seconds", name: "turn_seconds" },
    [[0, "No turn timer"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"]]
      .map(([v, t]) => el("option", { value: v }, t)));
  const claimSelect = el("select", { id: "claim-seconds", name: "claim_seconds" },
    [3, 5, 8, 10, 15].map((s) => el("option", { value: s, selected: s === 5 }, `${s} seconds`)));
  const takeover = el("input", { type: "checkbox", id: "bot-takeover", checked: true });
  const rulesBox = el("div", { class: "options" });
  const error = el("p", { class: "error", role: "alert" });
  let rules = null;
  let seatSelects = [];

  const variant = () => variants.find((v) => v.id === variantSelect.value);

  // The seat rows follow the count as it is typed, so nothing moves when the field loses focus: a
  // click on Create table right after typing lands on the button (issue #27). Only "change" (on
  // leaving the field) writes the clamped count back, so typing "10" is not cut to "2" at its "1".
  const renderSeats = ({ normalize = true } = {}) => {
    const v = variant();
    const [min, max] = v.players;
    let n = Number(seatsInput.value) || min;
    n = Math.max(min, Math.min(max, n));
    if (normalize) seatsInput.value = n;
    if (n === seatSelects.length + 1 && seatList.childElementCount === n) {
      rules?.setSeats(n);
      return;
    }
    const old = seatSelects.map((s) => s.value);
    seatList.replaceChildren(el("li", {}, el("span", { class: "seat-no" }, "Seat 1"), el("span", {}, "You (host)")));
    seatSelects = [];
    for (let i = 1; i < n; i++) {
      const { row, select } = seatRow(i, old[i - 1] ?? (i === n - 1 && n > 2 ? "easy" : ""));
      if (old[i - 1] === "") select.value = "";
      seatList.append(row);
      seatSelects.push(select);
    }
    rules?.setSeats(n);
  };

  const renderVariant = () => {
    const v = variant();
    blurb.textContent = v.blurb || "";
    seatsInput.min = v.players[0];
    seatsInput.max = v.players[1];
    if (!seatsInput.value || seatsInput.value < v.players[0] || seatsInput.value > v.players[1]) {
      seatsInput.value = Math.min(Math.max(4, v.players[0]), v.players[1]);
    }
    rules = null;
    renderSeats();
    rules = houseRulesPanel(v, Number(seatsInput.value));
    rulesBox.replaceChildren(rules.node);
  };

  variantSelect.addEventListener("change", renderVariant);
  seatsInput.addEventListener("input", () => renderSeats({ normalize: false }));
  seatsInput.addEventListener("change", () => renderSeats());

  const form = el("form", { class: "panel", id: "create-form" },
    el("h2", {}, "New table"),
    el("label", { for: "variant" }, "Game"), variantSelect,
    el("div", { class: "row blurb-row" }, blurb,
      el("button", { type: "button", class: "small", id: "lobby-help", onclick: () => showHelp(variant().help) },
        "How to play")),
    el("label", { for: "seats" }, "Seats"), seatsInput,
    seatList,
    el("div", { class: "grid2" },
      el("div", {}, el("label", { for: "turn-seconds" }, "Turn timer"), turnSelect),
      el("div", {}, el("label", { for: "claim-seconds" }, "Time to buy a discard"), claimSelect)),
    el("div", { class: "option switch" }, takeover,
      el("label", { for: "bot-takeover" }, "A computer plays for someone who drops out")),
    el("details", { class: "house-rules" }, el("summary", {}, "House rules"), rulesBox),
    el("button", { type: "submit", class: "primary big", id: "create-table" }, "Create table"),
    error);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const v = variant();
    let options;
    try {
      options = rules.changes();
    } catch (err) {
      error.textContent = "A house rule needs fixing: " + err.message;
      return;
    }
    const bots = {};
    seatSelects.forEach((s, i) => {
      if (s.value) bots[String(i + 1)] = s.value;
    });
    const body = {
      variant: v.id, seats: Number(seatsInput.value), options, bots,
      turn_seconds: Number(turnSelect.value), claim_seconds: Number(claimSelect.value), bot_takeover: takeover.checked,
    };
    try {
      onCreated(await api.createTable(body));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  renderVariant();
  return form;
}

function tableIdFrom(text) {
  const t = text.trim();
  const m = t.match(/\/table\/([^/?#\s]+)/);
  if (m) return decodeURIComponent(m[1]);
  return /^[\w-]+$/.test(t) ? t : null;
}

const ago = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "3 minutes ago", "yesterday": how long since `iso`. */
function since(iso) {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return ago.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** One entry of "Your tables" after its game's name: who else plays, when it last moved, whose turn
 * (the server's words; a table no server holds in memory has none: nothing moves there). */
function tableLine(t) {
  const others = (t.players || []).map((name, seat) => (seat === t.seat ? null : name ?? "an open seat"))
    .filter(Boolean);
  return [others.length ? `with ${others.join(", ")}` : null, t.last_move_at ? since(t.last_move_at) : null,
    t.turn || t.status].filter(Boolean).join(" · ");
}

function buildJoinForm(variants) {
  const input = el("input", { id: "invite", type: "text", placeholder: "Paste the invite link", autocomplete: "off" });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "panel", id: "join-form" },
    el("h2", {}, "Join a table"),
    el("label", { for: "invite" }, "Invite link or table code"), input,
    el("button", { type: "submit" }, "Join"), error);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const id = tableIdFrom(input.value);
    if (!id) {
      error.textContent = "That does not look like an invite link.";
      return;
    }
    location.assign(`/table/${encodeURIComponent(id)}`);
  });
  const names = Object.fromEntries(variants.map((v) => [v.id, v.name]));
  api.myTables().then((tables) => {
    const open = (tables || []).filter((t) => t.status !== "finished").slice(0, 8);
    if (!open.length) return;
    form.append(el("h3", {}, "Your tables"),
      el("ul", { class: "recent", id: "my-tables" }, open.map((t) => el("li", {},
        el("a", { href: `/table/${encodeURIComponent(t.table_id)}` }, names[t.variant] || t.variant),
        el("span", { class: "muted" }, ` · ${tableLine(t)}`)))));
  }).catch(() => {});
  return form;
}

export async function showLobby(main, session, onSession) {
  let variants;
  try {
    variants = await api.variants();
  } catch (err) {
    main.replaceChildren(el("p", { class: "error" }, "Cannot load the games: " + err.message));
    return;
  }
  const rename = el("button", { type: "button", class: "link", onclick: async () => {
    const s = await askName(main, "Change your name");
    onSession(s);
    showLobby(main, s, onSession);
  } }, "change name");
  const created = (result) => {
    toast("Table created — share the invite link");
    location.assign(`/table/${encodeURIComponent(result.table_id)}`);
  };
  main.replaceChildren(el("div", { class: "lobby" },
    el("section", { class: "hero" },
      el("h1", {}, `Hello, ${session.name}!`), rename,
      el("p", {}, "Create a table, send the invite link to family and friends, and fill empty seats with computer players."),
      el("p", {}, el("a", { href: "/replay", id: "replay-upload-link" }, "Watch a game record"), " — step through a saved game move by move.")),
    buildCreateForm(variants, created),
    buildJoinForm(variants)));
}

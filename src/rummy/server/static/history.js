// "My games": the player's finished games and statistics per variant (GET /api/history, /api/history/stats),
// and a one-time code that carries this identity to another browser (POST /api/identity/code).

import { api } from "./api.js";
import { el, fill, plural, toast } from "./ui.js";

const PAGE = 20;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function when(iso) {
  return el("time", { datetime: iso }, dateFormat.format(new Date(iso)));
}

function number(value) {
  return value === null || value === undefined ? "—" : String(value);
}

/** One variant's figures as a labelled list (reads well in a screen reader and on a phone). */
function variantStats(row) {
  const best = row.best_game;
  const figures = [
    ["Games played", row.games],
    ["Games won", row.won],
    ["Average final score", number(row.average_score)],
    ["Rounds gone out", row.rounds_out],
    ["Buys made", number(row.buys)],
  ];
  return el("section", { class: "stat-card", "aria-labelledby": `stats-${row.variant}` },
    el("h3", { id: `stats-${row.variant}` }, row.variant_name),
    el("p", { class: "muted score-meaning" }, `Score: ${row.score_meaning}`),
    el("dl", { class: "figures" }, figures.flatMap(([label, value]) => [el("dt", {}, label), el("dd", {}, String(value))])),
    best ? el("p", { class: "best" }, "Best game: ", el("strong", {}, String(best.score)), " on ", when(best.finished_at), " · ",
      el("a", { href: best.replay_url }, "watch the replay")) : null,
    row.computer_games ? el("p", { class: "muted computer-games" }, `Not counted: ${plural(row.computer_games, "game")} `,
      "the computer mostly played for you while you were away.") : null);
}

function playersTable(game) {
  const buys = game.players.some((p) => p.buys !== null);
  return el("table", { class: "sheet history-players" },
    el("caption", {}, `Players and final scores (${game.score_meaning})`),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Score"),
      el("th", { scope: "col" }, "Went out"), buys ? el("th", { scope: "col" }, "Buys") : null)),
    el("tbody", {}, game.players.map((p) => el("tr", { class: (p.won ? "won" : "") + (p.you ? " you" : "") },
      el("th", { scope: "row" }, p.name, p.you ? el("span", { class: "tag" }, "you") : null,
        p.won ? el("span", { class: "tag winner" }, "winner") : null,
        p.by_computer ? el("span", { class: "tag computer" }, "played by the computer") : null),
      el("td", {}, String(p.score)), el("td", {}, String(p.rounds_out)), buys ? el("td", {}, number(p.buys)) : null))));
}

function gameItem(game) {
  const me = game.players.find((p) => p.you);
  const outcome = me && me.won ? (me.by_computer ? "The computer won it for you" : "You won")
    : game.winners.length ? `Won by ${game.winners.join(" and ")}` : "Nobody won";
  const rules = game.house_rules.length
    ? el("ul", { class: "house-rule-list" }, game.house_rules.map((r) => el("li", {}, `${r.label}: ${r.value}`)))
    : el("p", { class: "muted" }, "The variant's own rules");
  return el("li", { class: "game-item" },
    el("article", { "aria-labelledby": `game-${game.table_id}-${game.game}` },
      el("h3", { id: `game-${game.table_id}-${game.game}` }, game.variant_name, " · ", when(game.finished_at)),
      el("p", { class: "outcome" }, el("strong", {}, outcome), ` · ${plural(game.rounds, "round")}`),
      me?.by_computer ? el("p", { class: "muted computer-played" },
        "The computer played most of this game for you while you were away: it is not in your statistics.") : null,
      playersTable(game),
      el("details", { class: "rules-used" }, el("summary", {}, `House rules (${game.house_rules.length})`), rules),
      el("p", {}, el("a", { class: "button replay-link", href: game.replay_url }, "Watch the replay"))));
}

function transferPanel() {
  const output = el("div", { class: "transfer-output", "aria-live": "polite" });
  const error = el("p", { class: "error", role: "alert" });
  const make = el("button", { type: "button", id: "make-code", class: "primary" }, "Make a one-time code");
  make.addEventListener("click", async () => {
    error.textContent = "";
    try {
      const code = await api.identityCode();
      const link = el("input", { type: "text", readonly: true, value: code.link, id: "transfer-link",
        "aria-label": "One-time link" });
      const copy = el("button", { type: "button", class: "small", onclick: async () => {
        try {
          await navigator.clipboard.writeText(code.link);
          toast("Link copied");
        } catch {
          link.select();
          toast("Select the link and copy it");
        }
      } }, "Copy link");
      fill(output,
        el("p", {}, "Code: ", el("strong", { class: "code", id: "transfer-code" }, code.code)),
        el("div", { class: "row" }, link, copy),
        el("p", { class: "muted" }, `Works once, for ${Math.round(code.expires_in / 60)} minutes. Open the link, or go to `,
          el("code", {}, `${location.origin}/transfer`), " and type the code, on the other browser. ",
          "Anyone with it can play as you, so share it only with yourself."));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return el("section", { class: "panel transfer", "aria-labelledby": "transfer-title" },
    el("h2", { id: "transfer-title" }, "Play as you on another device"),
    el("p", {}, "You have no account: this browser remembers you. A one-time code lets another browser (your phone, ",
      "another computer) play as you and see these games."),
    make, output, error);
}

export async function showHistory(main, session) {
  const statsBox = el("div", { class: "stat-grid", id: "stats" }, el("p", { class: "loading" }, "Loading…"));
  const list = el("ol", { class: "game-list", id: "games" });
  const more = el("button", { type: "button", id: "more-games", hidden: true }, "Show older games");
  const count = el("p", { class: "muted", id: "game-count" });
  const pending = el("p", { class: "pending", id: "history-pending", role: "status", hidden: true });
  const page = el("div", { class: "history" },
    el("h1", {}, session ? `${session.name}'s games` : "My games"),
    el("section", { class: "panel", "aria-labelledby": "stats-title" },
      el("h2", { id: "stats-title" }, "Statistics by game"), pending, statsBox),
    el("section", { class: "panel", "aria-labelledby": "games-title" },
      el("h2", { id: "games-title" }, "Finished games"), count, list, more),
    session ? transferPanel() : el("section", { class: "panel" },
      el("p", {}, "This browser has not played yet. Played on another device? ",
        el("a", { href: "/transfer" }, "Use a one-time code"), " to bring your games here.")));
  main.replaceChildren(page);
  if (!session) {
    fill(statsBox, el("p", { class: "muted" }, "No games yet."));
    count.textContent = "No finished games yet.";
    return;
  }
  let offset = 0;
  const loadGames = async () => {
    more.disabled = true;
    try {
      const data = await api.history(PAGE, offset);
      offset += data.games.length;
      list.append(...data.games.map(gameItem));
      count.textContent = data.total ? `${plural(data.total, "finished game")}` : "No finished games yet: they appear here once a game ends.";
      more.hidden = offset >= data.total;
    } catch (err) {
      count.textContent = "Cannot load your games: " + err.message;
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", loadGames);
  try {
    const stats = await api.historyStats();
    if (stats.pending) {
      // Older tables are still being counted (each request replays for a moment): show what is ready, look again.
      pending.hidden = false;
      pending.textContent = `Still counting ${plural(stats.pending, "older table")}…`;
      setTimeout(() => main.contains(page) && showHistory(main, session), 1500);
    }
    fill(statsBox, stats.variants.length ? stats.variants.map(variantStats) : el("p", { class: "muted" }, "No games yet."));
  } catch (err) {
    fill(statsBox, el("p", { class: "error" }, "Cannot load your statistics: " + err.message));
  }
  await loadGames();
}

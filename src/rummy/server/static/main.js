// Entry point: routes "/" to the lobby and "/table/{id}" to the table, after making sure of a session;
// "/replay" and "/replay/{id}" to the replay viewer, which needs none.

import { api, probeTable } from "./api.js";
import { applyPrefs } from "./prefs.js";
import { showLobby, askName } from "./lobby.js";
import { showTable } from "./table.js";
import { showHistory } from "./history.js";
import { showTransfer } from "./transfer.js";
import { showTableReplay, showUploadReplay } from "./replay.js";
import { showMissingTable } from "./waiting.js";
import { unlockAudioOnGesture } from "./sound.js";
import { el } from "./ui.js";

/** The session, or null on a first visit (the server answers with nulls, not an error). */
async function currentSession() {
  const session = await api.session();
  return session && session.player_id ? session : null;
}

function setWho(session) {
  const who = document.getElementById("who");
  who.replaceChildren();
  if (!session) return;
  who.append(el("span", { class: "who-name" }, "Playing as ", el("strong", {}, session.name)));
}

async function start() {
  applyPrefs();
  unlockAudioOnGesture();
  const main = document.getElementById("main");
  const replay = location.pathname.match(/^\/replay(?:\/([^/]+))?\/?$/); // no name needed to watch a replay
  if (replay) {
    if (replay[1]) showTableReplay(main, decodeURIComponent(replay[1]));
    else showUploadReplay(main);
    return;
  }
  const match = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  let session;
  try {
    session = await currentSession();
  } catch (err) {
    main.replaceChildren(el("p", { class: "error" }, "Cannot reach the server: " + err.message));
    return;
  }
  const tableId = match ? decodeURIComponent(match[1]) : null;
  setWho(session);
  if (location.pathname === "/transfer") {
    showTransfer(main, session, (s) => setWho(s));
    return;
  }
  if (location.pathname === "/history") {
    await showHistory(main, session);
    return;
  }
  if (!session) {
    // A first visit by an invite link: make sure of the table before asking for a name.
    if (tableId !== null && (await probeTable(tableId)) === "missing") {
      showMissingTable(main, tableId);
      return;
    }
    session = await askName(main, match ? "Pick a name to join the table" : "Pick a name to play");
  }
  setWho(session);
  if (tableId !== null) {
    await showTable(main, tableId, session);
  } else {
    await showLobby(main, session, (s) => setWho(s));
  }
}

start();

// Entry point: routes "/" to the lobby and "/table/{id}" to the table, after making sure of a session.

import { api, ApiError } from "./api.js";
import { applyPrefs } from "./prefs.js";
import { showLobby, askName } from "./lobby.js";
import { showTable } from "./table.js";
import { unlockAudioOnGesture } from "./sound.js";
import { el } from "./ui.js";

async function currentSession() {
  try {
    return await api.session();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
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
  const match = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  let session;
  try {
    session = await currentSession();
  } catch (err) {
    main.replaceChildren(el("p", { class: "error" }, "Cannot reach the server: " + err.message));
    return;
  }
  if (!session) {
    session = await askName(main, match ? "Pick a name to join the table" : "Pick a name to play");
  }
  setWho(session);
  if (match) {
    await showTable(main, decodeURIComponent(match[1]), session);
  } else {
    await showLobby(main, session, (s) => setWho(s));
  }
}

start();

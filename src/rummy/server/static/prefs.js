// Player preferences kept in localStorage: four-colour deck, mute, hand sorting.

const KEY = "rummy.prefs";
const defaults = { fourColor: false, muted: false, sort: "suit" };

function load() {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...defaults };
  }
}

export const prefs = load();

export function savePrefs() {
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    /* private mode: preferences last for this page only */
  }
  applyPrefs();
}

export function applyPrefs() {
  document.documentElement.classList.toggle("four-color", !!prefs.fourColor);
}

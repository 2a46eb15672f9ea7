// Short WebAudio cues ("your turn", "card bought"), silenced by the mute toggle.

import { prefs, savePrefs } from "./prefs.js";

let context = null;

function audio() {
  if (!context) {
    const Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Browsers allow audio only after a user gesture: unlock on the first one. */
export function unlockAudioOnGesture() {
  const unlock = () => {
    audio();
    window.removeEventListener("pointerdown", unlock);
    window.removeEventListener("keydown", unlock);
  };
  window.addEventListener("pointerdown", unlock);
  window.addEventListener("keydown", unlock);
}

function tone(frequency, start, duration, volume = 0.15) {
  const ctx = audio();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.value = frequency;
  const t0 = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + duration);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + duration + 0.05);
}

export function beepYourTurn() {
  if (prefs.muted) return;
  tone(660, 0, 0.18);
  tone(880, 0.16, 0.25);
}

export function beepClaim() {
  if (prefs.muted) return;
  tone(520, 0, 0.12, 0.1);
}

export function toggleMute() {
  prefs.muted = !prefs.muted;
  savePrefs();
  return prefs.muted;
}

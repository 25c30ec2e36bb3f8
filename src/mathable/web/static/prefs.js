// The page's preferences, kept in the browser: dark mode and sound.

import { state } from "./core.js";
import { t } from "./i18n.js";

// ---------------------------------------------------------------- preferences

// Dark mode follows the system's setting until the switch chooses; the choice is kept.
export const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
export function dark() {
  const chosen = localStorage.getItem("mathable:theme");
  return chosen ? chosen === "dark" : systemDark.matches;
}
export function applyTheme() {
  const chosen = localStorage.getItem("mathable:theme");
  if (chosen) document.documentElement.dataset.theme = chosen; else delete document.documentElement.dataset.theme;
  document.getElementById("theme").setAttribute("aria-pressed", String(dark()));
}
// The switches' words (index.html has them in English): toggle buttons, aria-pressed says
// whether each is on.
document.getElementById("theme").textContent = t("Dark mode");
document.getElementById("sound").textContent = t("Sound");
document.getElementById("theme").addEventListener("click", () => {
  localStorage.setItem("mathable:theme", dark() ? "light" : "dark");
  applyTheme();
});
systemDark.addEventListener("change", applyTheme);
applyTheme();

// Sound for your turn and for a move: off until the switch turns it on (kept), a short
// Web Audio beep, so nothing is downloaded.
export function soundOn() { return localStorage.getItem("mathable:sound") === "on"; }
export function applySound() { document.getElementById("sound").setAttribute("aria-pressed", String(soundOn())); }
document.getElementById("sound").addEventListener("click", () => {
  localStorage.setItem("mathable:sound", soundOn() ? "off" : "on");
  applySound();
  if (soundOn()) beep(660);
});
applySound();
export function beep(frequency, seconds = 0.12) {
  if (!soundOn() || !window.AudioContext) return;
  try {
    state.audio = state.audio || new AudioContext();
    const ctx = state.audio, osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + seconds);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + seconds);
  } catch { /* no sound where audio is refused */ }
}

// Confirm before it counts (issue 32, lichess's "confirm move"): a placement is shown on
// its square and sent by a Confirm button. Kept in the browser once chosen; until then on
// for a correspondence game (days a turn) on a touch screen, where a slip of the finger
// would otherwise be final, and off elsewhere.
export function touchScreen() { return window.matchMedia("(pointer: coarse)").matches; }
export function confirmOn(v) {
  const chosen = localStorage.getItem("mathable:confirm");
  if (chosen) return chosen === "on";
  return touchScreen() && Boolean(v && v.clock && v.clock.days);
}
export function chooseConfirm(on) { localStorage.setItem("mathable:confirm", on ? "on" : "off"); }

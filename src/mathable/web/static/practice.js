// Practice (issue 18): one learner against the gentle computer, with free help.
// /practice chooses a level (GET /api/practice/levels: the game each deals; ?seed=N: the
// same deal for everyone who opens it) and creates a normal game through POST /api/games (the learner, the gentle computer, hints on: O2);
// the game is played on the normal game page, /g/{id}?practice=LEVEL, which this module
// completes with a practice panel: the cells each token fits, a free hint, and after each
// of the learner's turns the best turn that was available, explained
// (GET /api/games/{id}/practice). The panel sits beside the page, which it never redraws.

import { announce, api, app, h, myTurn, say, setWhere, state, whoAmI } from "./core.js";
import { t } from "./i18n.js";
import { hint } from "./play.js";

const COMPUTER = "gentle";

export async function practicePage() {
  setWhere(t("Practice"), true);
  const [levels, bots] = await Promise.all([api("/api/practice/levels"), api("/api/bots")]);
  const bot = bots.find(b => b.name === COMPUTER) || { name: COMPUTER };
  const choices = levels.map((level, i) => h("div", { class: "level" },
    h("input", { type: "radio", name: "level", id: "level-" + level.name, value: level.name, checked: i === 0 }),
    h("label", { for: "level-" + level.name }, h("b", {}, level.title), " — " + level.summary)));
  const name = h("input", { id: "practice-name", maxlength: "40", autocomplete: "nickname", value: t("Learner") });
  const form = h("form", { id: "practice-form", onsubmit: e => { e.preventDefault(); start(bot); } },
    h("fieldset", {}, h("legend", {}, t("Level")), ...choices),
    h("p", {}, h("label", { for: "practice-name" }, t("Your name")), " ", name),
    h("button", { type: "submit", class: "primary", id: "practice-start" }, t("Start practising")));
  app.replaceChildren(h("h2", {}, t("Practice")),
    h("p", {}, t("You play against the gentle computer player. Your rack is shown with the cells each token fits, hints are free, and after each of your turns you see the best turn you had, explained.")),
    form, h("div", { id: "message" }));
}

async function start(bot) {
  const level = document.querySelector('input[name="level"]:checked').value;
  const levels = await api("/api/practice/levels");
  const chosen = levels.find(l => l.name === level);
  const learner = document.getElementById("practice-name").value.trim() || t("Learner");
  const spec = { variant: chosen.game, mode: "screen", house_rules: { hints: true },
    players: [{ name: learner, bot: null }, { name: bot.title || bot.name, bot: bot.name }] };
  const seed = new URLSearchParams(location.search).get("seed");  // the same deal for a class
  if (seed && /^\d{1,9}$/.test(seed)) spec.seed = Number(seed);
  try {
    await whoAmI().catch(() => {});  // the session cookie the learner's seat is bound to
    const made = await api("/api/games", { method: "POST", body: JSON.stringify(spec) });
    const tokens = {};
    made.seats.forEach(s => { if (s.token) tokens[s.seat] = s.token; });
    localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
    location.href = "/g/" + made.id + "?screen=1&practice=" + encodeURIComponent(level);
  } catch (e) { say(e.message, true); }
}

// The panel of a game page opened with ?practice=LEVEL: drawn again whenever the page
// draws a new view (the page's own drawing is watched, never changed).
export function practicePanel(id) {
  const level = new URLSearchParams(location.search).get("practice");
  const panel = h("aside", { id: "practice", class: "practice-panel", "aria-labelledby": "practice-title",
    style: "padding: 0 .75rem .75rem; max-width: 1200px; margin: auto" },  // as main's (style.css)
    h("h2", { id: "practice-title" }, t("Practice")), h("div", { id: "practice-body" }, t("Loading…")));
  app.after(panel);
  let shown = null;
  let asked = 0;
  const refresh = async () => {
    const v = state.view;
    if (!v || v.seq === shown) return;
    shown = v.seq;
    const token = state.tokens.link || Object.values(state.tokens)[0];
    const mine = ++asked;
    try {
      const data = await api("/api/games/" + id + "/practice?level=" + encodeURIComponent(level) + "&token=" + encodeURIComponent(token || ""));
      if (mine === asked) draw(data);
    } catch (e) {
      if (mine === asked) document.getElementById("practice-body").replaceChildren(h("p", { class: "error" }, e.message));
    }
  };
  new MutationObserver(refresh).observe(app, { childList: true });
  refresh();
}

let reviewed = null;

function draw(data) {
  document.getElementById("practice-title").textContent = t("Practice: {level}", { level: data.level.title });
  const parts = [];
  if (data.fits.length) {
    parts.push(h("h3", {}, t("Where your tokens fit")),
      h("ul", { id: "practice-fits" }, data.fits.map(fit => h("li", { "data-value": fit.value },
        fit.value + ": ", ...(fit.cells.length ? cellList(fit) : [t("nowhere yet")])))),
      h("p", { class: "note" }, t("In bold: the cells where the token practises this level's arithmetic.")));
  }
  if (myTurn()) parts.push(h("button", { type: "button", id: "practice-hint", onclick: hint }, t("Hint (free)")));
  if (data.review) {
    const lines = data.review.text.split("\n");
    parts.push(h("h3", {}, t("Your last turn")),
      h("div", { id: "practice-review", class: data.review.found_best ? "found" : "missed" }, lines.map(line => h("p", {}, line))));
    const key = data.turns + ":" + data.review.text;
    if (reviewed !== key) { reviewed = key; announce(data.review.text); }
  }
  document.getElementById("practice-body").replaceChildren(...parts);
}

function cellList(fit) {
  const out = [];
  fit.cells.forEach((cell, i) => {
    if (i) out.push(", ");
    out.push(fit.practised.includes(cell) ? h("strong", {}, cell) : cell);
  });
  return out;
}

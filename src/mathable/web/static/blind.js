// Blind mode (issue 32, as lichess's): a move box that takes whole turns and commands that
// read the game back, every event of the game spoken through one queue, and the focus
// never lost to the page's body. Also, on every page: the skip link, the blind mode
// switch beside it, and a language switch that a single arrow key does not fire.
//
// The move box (on while the "Blind mode" switch is pressed; kept in the browser) reads:
//   F7=2 F8=7 end   placements and actions in order, each sent once the one before is
//                   accepted; the first refusal stops the line and is said with its rule
//   f72, f7         the same placement with no "=", or the cell alone when exactly one of
//                   the seat's pieces fits there (fewer keys: "f72" and Enter is four)
//   board, row 8, column H, rack, scores, legal 12, unseen, last, clock   read back
//   hint, pass, exchange 3,5, resign                                      act
// Command words are accepted in English and in the reader's language (the terminal's words
// for the actions, i18n.COMMAND_WORDS; the page's own for the read-backs).

import { api, app, ask, byPiece, capsOf, count, h, listed, modalOpen, page, say, seatBody, shownAction, state, unitCount, unitName } from "./core.js";
import { chooseLanguage, lang, nt, pt, t } from "./i18n.js";
import { describe, shownTime } from "./panels.js";
import { coordinates, targetName } from "./surface.js";

// ---------------------------------------------------------------- the announcement queue

// Each text stays this long in the live region before the next replaces it, so a screen
// reader hears one's own turn before the computer's reply (the region used to be
// overwritten within ~100 ms). The first text of a quiet moment is written at once.
export const HOLD = 500;  // ms
const waiting = [];
let freeAt = 0, timer = null;

export function speak(text) {
  if (!text) return;
  waiting.push(String(text));
  drain();
}

function drain() {
  if (timer !== null || !waiting.length) return;
  const wait = freeAt - performance.now();
  if (wait > 0) { timer = setTimeout(() => { timer = null; drain(); }, wait); return; }
  const live = document.getElementById("live"), now = performance.now();
  if (live) { live.dataset.saidAt = String(now); live.textContent = waiting.shift(); }  // when, for tests
  freeAt = now + HOLD;
  drain();
}
state.speak = speak;  // core.announce queues through here

// What the page says on its message line in a turn (a pick and its lit places, a hint,
// "nothing to place", a confirmation asked) is spoken too; refusals are already (say).
// A redraw builds a new line (a record on its parent), which is not news.
new MutationObserver(records => {
  for (const r of records) {
    const line = r.target;
    if (line.id === "message" && !line.classList.contains("error") && line.textContent) speak(line.textContent);
  }
}).observe(app, { childList: true, subtree: true, characterData: true });

// ---------------------------------------------------------------- events of the game

// Called by play.js's receive with the view held and the new one, before it says the last
// finished turn: says the turns finished before that one (all of them are said), and,
// after it, this seat's placements with the turn's points so far, "Your turn", and the
// end of the game with the winner and the scores (however it ended: a stop, a resignation).
export function heard(prev, view) {
  if (!prev || prev.id !== view.id || view.seq === prev.seq) return;
  const c = capsOf(view.variant);
  const before = prev.summaries.length, after = view.summaries.length;
  view.summaries.slice(before, Math.max(before, after - 1)).forEach(s =>
    speak(t("{name}: {turn}", { name: view.players[s.seat], turn: describe(s, c, view) })));
  const later = [];
  const mine = view.seat !== null && view.seat === view.to_move && !view.over;
  const placed = (view.turn && (view.turn.placements || view.turn.plays)) || [];
  const sameTurn = prev.seat === view.seat && prev.to_move === view.to_move && before === after && !prev.over;
  const had = sameTurn && prev.turn ? (prev.turn.placements || prev.turn.plays || []).length : 0;
  if (mine && placed.length > had && c.score_unit === "points") {
    const placements = placed.slice(had).map(p => (p.cell !== undefined ? p.cell : p.pile) + "=" + p.value).join(" ");
    // TRANSLATORS: this seat's placements just accepted, and the points of its turn so far
    later.push(t("{placements} placed: {points} this turn", { placements, points: unitCount(view.turn.points, c) }));
  }
  if (mine && !sameTurn) later.push(t("Your turn"));
  if (view.over && !prev.over) later.push(ending(view));
  queueMicrotask(() => later.forEach(speak));  // after receive's own words
}

// The end in words: who won, why it ended, the scores.
export function ending(v) {
  const c = capsOf(v.variant);
  const winners = (v.winners || []).map(i => v.players[i]);
  const scores = v.players.map((p, i) => p + " " + v.scores[i]).join(", ");
  const why = c.score_unit === "points" ? t("{reason}. {scores}", { reason: v.end_reason, scores })
    : t("{reason}. {scores} ({unit})", { reason: v.end_reason, scores, unit: unitName(c) });
  return winners.length ? nt("Game over: {winners} won", "Game over: {winners} won", winners.length, { winners: listed(winners) }) + ". " + why : why;
}

// Called by play.js's render after each redraw: the rack's pressed states (the picked piece,
// those chosen for an exchange), and the focus put somewhere named when the redraw took
// away the element that held it (a typed turn-ending move, a resignation, a stop).
export function settled(hadFocus) {
  document.querySelectorAll("#rack button.tile").forEach(tile => {
    const i = Number(tile.dataset.index);
    tile.setAttribute("aria-pressed", String(state.picked === i || Boolean(state.exchange && state.exchange.has(i))));
  });
  if (blindOn() && state.view) mount();
  const at = document.activeElement;
  if (!hadFocus || modalOpen() || (at && at !== document.body && at.isConnected)) return;
  landing().focus();
}

// Where the focus goes when it would be lost: the move box, else the game's end, else
// the board where it is entered (the last move, or the centre), else the page.
function landing() {
  const box = document.getElementById("blind-move");
  if (box && box.isConnected) return box;
  const winner = document.getElementById("winner");
  if (winner) { winner.tabIndex = -1; return winner; }
  return document.querySelector('#board [tabindex="0"]') || document.querySelector("#app button:not([disabled]), #app input") || app;
}

// ---------------------------------------------------------------- the move box

export function blindOn() { return localStorage.getItem("mathable:blind") === "on"; }

let box = null;  // the section, made once and kept across redraws (what is typed stays)

function mount() {
  if (box && box.isConnected) return;
  const input = h("input", { id: "blind-move", autocomplete: "off", spellcheck: "false", "aria-describedby": "blind-help",
    onkeydown: e => { if (e.key === "Enter") { e.preventDefault(); const line = e.target.value; e.target.value = ""; run(line); } } });
  const example = "F7=2 F8=7";
  const words = [...Object.keys(READS), "hint", "pass", "exchange", "resign"].map(word);
  box = h("section", { id: "blind", class: "blind", "aria-labelledby": "blind-title" },
    // TRANSLATORS: the heading of blind mode's box where moves and commands are typed
    h("h2", { id: "blind-title" }, t("Move box")),
    h("label", { for: "blind-move" }, t("Move or command")), " ", input,
    // TRANSLATORS: {example} is placements in notation, {commands} the command words
    h("p", { id: "blind-help" }, t("Placements such as {example}, several in a row; or a command: {commands}.", { example, commands: words.join(", ") })),
    h("p", { id: "blind-reply" }));
  document.body.insertBefore(box, app);
}

function unmount() {
  if (box) box.remove();
  box = null;
}

// A read-back: on the box's reply line and spoken.
function reply(text) {
  const line = document.getElementById("blind-reply");
  if (line) line.textContent = text;
  speak(text);
}

// The page's own command words (read-backs), in the reader's language; the actions'
// words are the terminal's (the same catalogue entries).
const WORDS = {
  // TRANSLATORS: a word typed in blind mode's move box: read the whole board (one word, lower case)
  board: () => pt("command", "board"),
  // TRANSLATORS: a word typed in blind mode's move box before a row number: "row 8"
  row: () => pt("command", "row"),
  // TRANSLATORS: a word typed in blind mode's move box before a column letter: "column H"
  column: () => pt("command", "column"),
  // TRANSLATORS: a word typed in blind mode's move box: read the pieces in hand
  rack: () => pt("command", "rack"),
  // TRANSLATORS: a word typed in blind mode's move box: read the scores
  scores: () => pt("command", "scores"),
  // TRANSLATORS: a word typed in blind mode's move box, maybe with a number: where it fits
  legal: () => pt("command", "legal"),
  // TRANSLATORS: a word typed in blind mode's move box: the pieces not seen yet
  unseen: () => pt("command", "unseen"),
  // TRANSLATORS: a word typed in blind mode's move box: read the last turn
  last: () => pt("command", "last"),
  // TRANSLATORS: a word typed in blind mode's move box: read the clocks
  clock: () => pt("command", "clock"),
  hint: () => pt("command", "hint"), pass: () => pt("command", "pass"),
  exchange: () => pt("command", "exchange"), resign: () => pt("command", "resign"),
};
function word(keyword) { return WORDS[keyword] ? WORDS[keyword]() : keyword; }

// A typed word as compared: case and accents aside (as i18n.folded on the server).
function folded(text) { return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase(); }
function keywordOf(typed) {
  const f = folded(typed);
  return Object.keys(WORDS).find(k => folded(k) === f || folded(WORDS[k]()) === f) || null;
}

// Run a line of the move box: a read-back, a command, or placements and actions in order.
export async function run(line) {
  const text = line.trim();
  if (!text || !state.view) return;
  const [first, ...rest] = text.split(/\s+/);
  const keyword = keywordOf(first);
  if (keyword && READS[keyword]) { reply(READS[keyword](rest.join(" "), state.view)); return; }
  if (keyword === "hint") { page.hint(); return; }
  if (keyword === "resign") { resign(); return; }
  await play(text);
}

// Split a line into its actions: placements (F7=2, f72, f7) and words with their
// arguments ("exchange 3,5").
export function actions(text) {
  const out = [];
  for (const piece of text.split(/\s+/)) {
    if (piece.includes("=") || /^[A-Za-z]+\d+\+?$/.test(piece)) out.push({ placement: piece });
    else if (out.length && !out[out.length - 1].placement && !keywordOf(piece) && /^[\d,]+$/.test(piece)) out[out.length - 1].text += " " + piece;
    else out.push({ text: piece });
  }
  return out;
}

// A typed placement in notation, read against the seat's legal placements: "f72" is F7=2
// (or F72=… where no such cell exists), "f7" the one piece of the rack that fits at F7.
// Returns { action } or { error } (more than one reading, or none that fits).
export function resolve(typed, v) {
  const c = capsOf(v.variant);
  if (typed.includes("=")) return { action: typed.replace(/^[a-z]+/, m => m.toUpperCase()) };
  const m = /^([A-Za-z]+)(\d+)(\+?)$/.exec(typed);
  const letters = m[1].toUpperCase(), digits = m[2], plus = m[3];
  const names = new Set(c.targets.map(x => x.name));
  const legal = new Set(v.legal.map(a => a.replace(/\+$/, "")));
  const readings = new Set();
  let typedCell = null, sayable = null;
  for (let k = 1; k <= digits.length; k++) {
    const cell = letters + digits.slice(0, k), value = digits.slice(k);
    if (!names.has(cell)) continue;
    if (!value) {
      typedCell = cell;
      const fits = [...legal].filter(a => a.startsWith(cell + "="));
      if (fits.length === 1) readings.add(fits[0]);
    } else if (legal.has(cell + "=" + Number(value))) readings.add(cell + "=" + Number(value));
    else if (!sayable) sayable = cell + "=" + Number(value);
  }
  if (readings.size === 1) return { action: [...readings][0] + plus };
  if (readings.size > 1) {
    // TRANSLATORS: a placement typed without "=" that fits in more than one way ("f112")
    return { error: t("{typed} can be read more than one way: write it with = ({readings}).", { typed, readings: listed([...readings], "disjunction") }) };
  }
  if (typedCell && !sayable) {
    const fits = [...legal].filter(a => a.startsWith(typedCell + "=")).map(a => a.split("=")[1]);
    return { error: fits.length ? t("{cell}: {values} fit there: type the number too.", { cell: typedCell, values: listed(fits, "disjunction") })
      : t("{cell}: none of yours fits there.", { cell: typedCell }) };
  }
  return sayable ? { action: sayable + plus } : { error: t("Not a move or a command: {text}", { text: typed }) };
}

// The line's actions sent one after another (the server takes one at a time), each once
// the one before is accepted; the first refusal stops the line and is said.
async function play(text) {
  for (const part of actions(text)) {
    const v = state.view;
    const found = part.placement ? resolve(part.placement, v) : { action: part.text };
    if (found.error) { say(found.error, true); return; }
    try {
      page.receive(await api("/api/games/" + v.id + "/actions", { method: "POST", body: seatBody({ action: found.action, seq: v.seq }) }));
    } catch (e) {
      // TRANSLATORS: an action of a typed line the server refused, and its reason (with the rule)
      say(t("{action} refused: {reason}", { action: shownAction(found.action), reason: e.message }), true);
      return;
    }
  }
}

// Resign from the box: asked first, as the button does; the answer's view is the end.
async function resign() {
  const v = state.view;
  if (v.seat === null || v.seat === undefined || v.over || v.resign === false) { say(t("Not a move or a command: {text}", { text: word("resign") }), true); return; }
  if (!(await ask(v.players.length === 2 ? t("Resign this game? {name} wins.", { name: v.players[1 - v.seat] }) : t("Resign? You leave the game, your score as it stands; the others play on.")))) return;
  try {
    page.receive(await api("/api/games/" + v.id + "/resign", { method: "POST", body: seatBody() }));
  } catch (e) { say(e.message, true); }
}

// ---------------------------------------------------------------- read-backs

function targetsOf(v) {
  const c = capsOf(v.variant);
  return c.targets.map((target, i) => ({ target, i, value: v.surface[i] }));
}
function said(v, { target, i, value }) {
  return targetName(target, value, (v.target_notes || [])[i], false, false, "");
}

export const READS = {
  board: (_, v) => {
    const c = capsOf(v.variant), coords = coordinates(c);
    const filled = targetsOf(v).filter(x => x.value >= 0);
    if (!filled.length) return t("The board is empty.");
    if (!coords) return t("Board: {cells}.", { cells: filled.map(x => x.target.name + " " + x.value).join(", ") });
    const rows = coords.rows.map((row, r) => [row, filled.filter(x => Math.floor(x.i / c.columns) === r)]).filter(([, xs]) => xs.length);
    return t("Board: {cells}.", { cells: rows.map(([row, xs]) => row + ": " + xs.map(x => x.target.name + " " + x.value).join(", ")).join("; ") });
  },
  row: (arg, v) => line(v, arg, "row"),
  column: (arg, v) => line(v, arg, "column"),
  rack: (_, v) => {
    const c = capsOf(v.variant);
    if (v.seat === null || v.seat === undefined) {
      return byPiece({ token: () => t("Watching: the tokens in hand are private."), tile: () => t("Watching: the tiles in hand are private."), card: () => t("Watching: the cards in hand are private.") }, c);
    }
    const values = v.playable.map((value, i) => String(value) + (state.picked === i || (state.exchange && state.exchange.has(i)) ? "*" : "")).join(", ");
    return byPiece({ token: () => t("Your tokens: {values}.", { values }), tile: () => t("Your tiles: {values}.", { values }), card: () => t("Your cards: {values}.", { values }) }, c);
  },
  scores: (_, v) => {
    const c = capsOf(v.variant);
    const parts = [t("Scores: {scores}.", { scores: v.players.map((p, i) => p + " " + v.scores[i]).join(", ") })];
    if (!v.over) parts.push(t("{name} to move.", { name: v.players[v.to_move] }));
    parts.push(t("Left to draw: {pieces}", { pieces: count(v.bag_size, c) }));
    return parts.join(" ");
  },
  legal: (arg, v) => {
    const placements = v.legal.filter(a => a.includes("=") && !a.endsWith("+"));
    if (arg && /^\d+$/.test(arg)) {
      const cells = placements.filter(a => a.split("=")[1] === String(Number(arg))).map(a => a.split("=")[0]);
      return cells.length ? t("{value} fits at {cells}.", { value: Number(arg), cells: cells.join(", ") }) : t("{value} fits nowhere.", { value: Number(arg) });
    }
    return placements.length ? t("Legal placements: {placements}.", { placements: placements.join(", ") }) : t("No legal placement.");
  },
  unseen: (_, v) => t("Unseen: {pieces}.", { pieces: Object.entries(v.unseen || {}).filter(([, n]) => n).map(([value, n]) => value + "×" + n).join(", ") }),
  last: (_, v) => {
    const s = v.summaries[v.summaries.length - 1];
    if (!s) return t("No turn played yet.");
    const turn = t("{name}: {turn}", { name: v.players[s.seat], turn: describe(s, capsOf(v.variant), v) });
    return [turn, ...(s.explanations || [])].join(". ");
  },
  clock: (_, v) => {
    if (!v.clocks) return t("This game has no clock.");
    return v.players.map((p, i) => t("{name}: {time} left", { name: p, time: shownTime(v.clocks[i]) })).join("; ");
  },
};

// A row (by its number) or a column (by its letter), every square named as on the board.
function line(v, arg, kind) {
  const c = capsOf(v.variant), coords = coordinates(c);
  const name = String(arg || "").trim().toUpperCase();
  const at = coords ? (kind === "row" ? coords.rows : coords.columns).indexOf(name) : -1;
  if (at < 0) return t("No such row or column: {name}.", { name: arg || "" });
  const cells = targetsOf(v).filter(x => (kind === "row" ? Math.floor(x.i / c.columns) : x.i % c.columns) === at);
  const text = cells.map(x => said(v, x)).join("; ");
  return kind === "row" ? t("Row {row}: {cells}.", { row: name, cells: text }) : t("Column {column}: {cells}.", { column: name, cells: text });
}

// ---------------------------------------------------------------- every page

// The skip link and the blind mode switch (index.html, first in the tab order, shown
// when focused): the link goes to the move box, else the board, else the page.
const skip = document.getElementById("skip");
if (skip) {
  // TRANSLATORS: a link first on every page, for keyboards: past the header to the page itself
  skip.textContent = t("Skip to content");
  skip.addEventListener("click", e => {
    const to = document.getElementById("blind-move") || document.querySelector('#board [tabindex="0"]');
    if (to) { e.preventDefault(); to.focus(); }
  });
}
const toggle = document.getElementById("blind-toggle");
if (toggle) {
  // TRANSLATORS: a switch: a box to type moves and commands, every event read aloud
  toggle.textContent = t("Blind mode");
  toggle.setAttribute("aria-pressed", String(blindOn()));
  toggle.addEventListener("click", () => {
    localStorage.setItem("mathable:blind", blindOn() ? "off" : "on");
    toggle.setAttribute("aria-pressed", String(blindOn()));
    if (blindOn() && state.view) { mount(); document.getElementById("blind-move").focus(); } else if (!blindOn()) unmount();
  });
}

// The language switch: a closed select changes on a single arrow key, which would reload
// the page in another language at once. Keys only move the choice; Enter takes it (a
// choice made with the mouse, or from the open list, is taken at once); leaving the
// switch puts back the language in use. After the reload the focus is on the switch again.
const languages = document.getElementById("lang-switch");
if (languages) {
  let keyed = false;
  const MOVES = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);
  languages.addEventListener("keydown", e => {
    if (MOVES.has(e.key) && !e.altKey) keyed = true;  // the choice moved, the list closed
    else if (e.key.length === 1 && e.key !== " ") keyed = true;  // a language found by its letter
    else if (e.key === " " || e.altKey) keyed = false;  // the list opened: a choice in it is taken
    if (e.key === "Enter" && languages.value !== lang) { e.preventDefault(); sessionStorage.setItem("mathable:focus", "lang-switch"); chooseLanguage(languages.value); }
  });
  languages.addEventListener("pointerdown", () => { keyed = false; });
  document.addEventListener("change", e => {  // before app.js's own listener on the switch
    if (e.target !== languages) return;
    if (keyed) { e.stopImmediatePropagation(); return; }
    sessionStorage.setItem("mathable:focus", "lang-switch");
  }, true);
  languages.addEventListener("blur", () => { if (keyed && languages.value !== lang) languages.value = lang; keyed = false; });
  if (sessionStorage.getItem("mathable:focus") === "lang-switch") {
    sessionStorage.removeItem("mathable:focus");
    languages.focus();
    if (document.activeElement !== languages) { const menu = document.getElementById("menu"); if (menu) menu.focus(); }
  }
}

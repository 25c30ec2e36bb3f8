// Puzzles (issue 18): a position from a computer game where the best whole turn beats the
// obvious one. The player picks a token of the rack, then a square, for each placement;
// "Check" sends the turn (POST /api/puzzles/{id}/check): the server says whether it is
// legal, its points and whether it reaches the target, then gives the engine's answer.
// The board is drawn from the game's capabilities like the game page's (surface.js):
// the page never names a game. A streak of days whose daily puzzle was solved is kept
// in this browser (localStorage). "Next puzzle" draws another of the chosen band and
// theme (issue 32: the operations the answer's equations use, + − × ÷: ?theme=×).

import { SYMBOLS, announce, api, app, capsOf, h, setWhere, state } from "./core.js";
import { nt, pt, t } from "./i18n.js";
import { coordinates, targetName } from "./surface.js";

const BANDS = ["easy", "medium", "hard"];
const SOLVED_KEY = "mathable.puzzles.solved";
const LISTED = 50;

// A band's name in the reader's language.
function bandName(band) {
  // TRANSLATORS: a puzzle's difficulty band
  return { easy: pt("puzzle band", "easy"), medium: pt("puzzle band", "medium"), hard: pt("puzzle band", "hard") }[band] || band;
}

// The page's own state: the puzzle, the tokens placed so far (in order), the token picked.
// `band` and `theme` (issue 32: an operation the answer needs, + − × ÷) choose the next.
const puzzle = { data: null, placed: [], picked: null, checked: null, daily: false, cursor: null, band: null, theme: null };
const THEMES = ["+", "−", "×", "÷"];

export async function puzzlesPage() {
  setWhere(t("Puzzles"), true);
  state.variants = await api("/api/variants");
  const asked = new URLSearchParams(location.search);
  puzzle.band = BANDS.includes(asked.get("band")) ? asked.get("band") : null;
  puzzle.theme = THEMES.includes(asked.get("theme")) ? asked.get("theme") : null;
  if (asked.get("id")) await load(await api("/api/puzzles/" + encodeURIComponent(asked.get("id"))), false);
  else if (puzzle.band || puzzle.theme) await another();
  else await load(await api("/api/puzzles/daily"), true);
}

// A random puzzle of the chosen band and theme (any for null), not the one shown.
async function another() {
  const query = new URLSearchParams();
  if (puzzle.band) query.set("band", puzzle.band);
  if (puzzle.theme) query.set("theme", puzzle.theme);
  const first = await fetch("/api/puzzles?" + query + "&limit=1");
  const total = Number(first.headers.get("X-Total-Count") || "1");
  let offset = Math.floor(Math.random() * Math.max(1, total));
  let found = await api("/api/puzzles?" + query + "&limit=1&offset=" + offset);
  if (total > 1 && puzzle.data && found[0] && found[0].id === puzzle.data.id) {  // the same again: the next one
    offset = (offset + 1) % total;
    found = await api("/api/puzzles?" + query + "&limit=1&offset=" + offset);
  }
  if (!found.length) { announce(t("No puzzle of this kind")); return; }
  await load(await api("/api/puzzles/" + encodeURIComponent(found[0].id)), false);  // with its rating
  query.set("id", found[0].id);
  history.replaceState(null, "", "/puzzles?" + query);
}

async function load(data, daily) {
  Object.assign(puzzle, { data, placed: [], picked: null, checked: null, daily, cursor: null });
  draw();
  const heading = document.getElementById("puzzle-title");
  if (heading) heading.focus();
}

// What is left on the rack: the puzzle's rack less the tokens placed, by index.
function rackLeft() {
  const left = puzzle.data.rack.map((value, i) => ({ value, i }));
  const used = new Set(puzzle.placed.map(p => p.rackIndex));
  return left.filter(item => !used.has(item.i));
}

function draw() {
  const p = puzzle.data;
  const c = capsOf(p.game);
  const target = nt("Find a turn worth at least {count} point", "Find a turn worth at least {count} points", p.target);
  const choice = h("select", { id: "puzzle-band", onchange: e => { puzzle.band = e.target.value || null; another(); } },
    h("option", { value: "" }, t("any band")), BANDS.map(b => h("option", { value: b, selected: b === puzzle.band }, bandName(b))));
  const theme = h("select", { id: "puzzle-theme", onchange: e => { puzzle.theme = e.target.value || null; another(); } },
    // TRANSLATORS: the puzzles' theme chooser: any equation, or those with +, −, × or ÷
    h("option", { value: "" }, t("any operation")), THEMES.map(op => h("option", { value: op, selected: op === puzzle.theme }, op)));
  app.replaceChildren(
    h("section", { class: "puzzles", "aria-labelledby": "puzzle-title" },
      h("h2", { id: "puzzle-title", tabindex: "-1" },
        puzzle.daily ? t("Daily puzzle: {day}", { day: p.day }) : t("Puzzle {id}", { id: p.id })),
      // TRANSLATORS: a puzzle's game and difficulty band ("Mathable, hard")
      h("p", { class: "about", id: "puzzle-about" }, t("{game}, {band}", { game: titleOf(p.game), band: bandName(p.band) })),
      h("p", { id: "puzzle-target", class: "target" }, target),
      ratingPart(p),
      h("p", { id: "puzzle-streak" }, streakText()),
      drawBoard(p, c),
      h("h3", { id: "rack-title" }, t("Your rack")),
      drawRack(),
      h("p", { id: "puzzle-turn" }, turnText()),
      h("div", { class: "row" },
        h("button", { type: "button", id: "puzzle-check", onclick: check, disabled: !puzzle.placed.length || puzzle.checked !== null }, t("Check")),
        h("button", { type: "button", id: "puzzle-undo", onclick: undo, disabled: !puzzle.placed.length || puzzle.checked !== null }, t("Take back")),
        h("button", { type: "button", id: "puzzle-again", onclick: () => load(puzzle.data, puzzle.daily) }, t("Start again")),
        // issue 32: on to another of the chosen band and theme
        h("button", { type: "button", id: "puzzle-next", class: puzzle.checked ? "primary" : "", onclick: another }, t("Next puzzle"))),
      h("div", { id: "puzzle-result", role: "status", "aria-live": "polite" }, resultParts()),
      h("div", { class: "row" },
        h("a", { href: "/puzzles", id: "daily-link" }, t("Daily puzzle")),
        h("a", { href: "/puzzles/print?band=" + encodeURIComponent(p.band) + "&game=" + encodeURIComponent(p.game), id: "print-set-link" }, t("Printable set")),  // issue 18
        h("label", { for: "puzzle-band" }, t("Another puzzle:")), choice,
        // TRANSLATORS: before a choice of + − × ÷: puzzles whose answer needs that operation
        h("label", { for: "puzzle-theme" }, t("Equations with:")), theme),
      // issue 32: the class view and printing, reachable from the puzzles
      h("p", { class: "teachers", id: "teachers" }, t("For teachers:"), " ", h("a", { href: "/class", id: "class-link" }, t("the class view")), " · ", h("a", { href: "/puzzles/print", id: "print-link" }, t("printable puzzles")))));
}

function titleOf(game) {
  const found = state.variants.find(v => v.name === game);
  return found ? found.title : game;
}

// The board from the capabilities: a button per square (named for screen readers as on
// the game page); this turn's tokens are marked "current".
function drawBoard(p, c) {
  const coords = coordinates(c);
  const values = p.surface.slice();
  const current = new Set();
  puzzle.placed.forEach(pl => { values[pl.index] = pl.value; current.add(pl.index); });
  const grid = h("div", { class: "board", id: "board", role: "group", "aria-label": t("board"),
    style: "grid-template-columns: " + (coords ? "var(--coord) " : "") + "repeat(" + c.columns + ", var(--cell))" });
  if (coords) grid.append(h("span", { class: "coord", "aria-hidden": "true" }), ...coords.columns.map(l => h("span", { class: "coord", "aria-hidden": "true" }, l)));
  const open = puzzle.picked !== null && puzzle.checked === null;
  const focusAt = puzzle.cursor !== null ? puzzle.cursor : Math.floor(c.targets.length / 2);
  // one square in the tab order; the arrow keys move over the board (as on the game page)
  grid.addEventListener("keydown", e => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -c.columns, ArrowDown: c.columns };
    const now = Number(document.activeElement.dataset.index);
    if (!(e.key in moves) || Number.isNaN(now)) return;
    const next = now + moves[e.key];
    if (next < 0 || next >= c.targets.length) return;
    e.preventDefault();
    const cells = grid.querySelectorAll("button.cell");
    cells[now].tabIndex = -1;
    cells[next].tabIndex = 0;
    cells[next].focus();
    puzzle.cursor = next;
  });
  c.targets.forEach((target, i) => {
    if (coords && i % c.columns === 0) grid.append(h("span", { class: "coord", "aria-hidden": "true" }, coords.rows[i / c.columns]));
    const value = values[i];
    const classes = ["cell", target.kind];
    if (current.has(i)) classes.push("current");
    const empty = value < 0;
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": target.name, "data-index": i, title: target.name, tabindex: i === focusAt ? "0" : "-1",
      "aria-label": targetName(target, value, "", false, current.has(i), ""),
      "aria-disabled": empty && open ? false : "true",
      onclick: () => { puzzle.cursor = i; placeOn(i, target.name); } },
    empty ? SYMBOLS[target.label] || target.label : h("span", { class: "tok" }, value)));
  });
  return grid;
}

function drawRack() {
  const left = rackLeft();
  return h("div", { class: "rack", id: "rack", role: "group", "aria-labelledby": "rack-title" },
    left.map(item => h("button", { type: "button", class: "tile" + (puzzle.picked === item.i ? " picked" : ""),
      "aria-pressed": puzzle.picked === item.i ? "true" : "false", "data-value": item.value, disabled: puzzle.checked !== null,
      // TRANSLATORS: a rack token's accessible name: pick it, then choose a square
      "aria-label": t("{value}: pick it, then a square", { value: item.value }),
      onclick: () => { puzzle.picked = puzzle.picked === item.i ? null : item.i; draw(); focusRack(item.i); } }, String(item.value))),
    left.length ? "" : h("span", {}, t("Rack empty")));
}

function focusRack(i) {
  const el = document.querySelector("#rack button[aria-pressed=true]") || document.querySelector("#rack button");
  if (el) el.focus();
  return i;
}

function placeOn(index, name) {
  if (puzzle.checked !== null || puzzle.picked === null || puzzle.data.surface[index] >= 0) return;
  if (puzzle.placed.some(p => p.index === index)) return;
  const value = puzzle.data.rack[puzzle.picked];
  puzzle.placed.push({ index, name, value, rackIndex: puzzle.picked });
  puzzle.picked = null;
  draw();
  announce(t("Placed {placement}", { placement: name + "=" + value }));
  const cell = document.querySelector("#board button[data-cell='" + name + "']");
  if (cell) cell.focus();
}

function undo() {
  const gone = puzzle.placed.pop();
  draw();
  if (gone) announce(t("Took back {placement}", { placement: gone.name + "=" + gone.value }));
}

function turnText() {
  if (!puzzle.placed.length) return t("Pick a token of your rack, then a square.");
  return t("Your turn: {turn}", { turn: puzzle.placed.map(p => p.name + "=" + p.value).join(" ") });
}

async function check() {
  const placements = puzzle.placed.map(p => p.name + "=" + p.value);
  try {
    puzzle.checked = await api("/api/puzzles/" + encodeURIComponent(puzzle.data.id) + "/check",
      { method: "POST", body: JSON.stringify({ placements }) });
  } catch (e) {
    announce(t("Error: {message}", { message: e.message }));
    return;
  }
  if (puzzle.checked.solved && puzzle.daily) keepSolved(puzzle.data.day);
  draw();
  document.getElementById("puzzle-next").focus();  // the Check button is gone: on to the next
  announce(verdict(puzzle.checked));
  const result = document.getElementById("puzzle-result");
  if (result) result.scrollIntoView({ block: "nearest" });
}

function verdict(r) {
  if (!r.legal) return t("Not legal: {reason}", { reason: r.reason });
  if (r.solved) return nt("Solved: {count} point!", "Solved: {count} points!", r.points);
  return nt("{count} point: not yet the target, {target}.", "{count} points: not yet the target, {target}.", r.points, { target: r.target });
}

function resultParts() {
  const r = puzzle.checked;
  if (!r) return [];
  return [
    h("p", { id: "puzzle-verdict", class: r.solved ? "ok" : "error" }, verdict(r)),
    h("p", { id: "puzzle-answer" }, nt("The engine's answer: {turn}, {count} point", "The engine's answer: {turn}, {count} points", r.answer.points, { turn: r.answer.turn })),
    h("p", { id: "puzzle-obvious", class: "about" }, nt("The best single placement: {placement}, {count} point", "The best single placement: {placement}, {count} points", r.obvious.points, { placement: r.obvious.placement })),
    ...(r.rating ? [h("p", { id: "puzzle-my-rating" },
      // TRANSLATORS: after a rated puzzle; {change} is signed, e.g. "+12" or "-8"
      t("Your puzzle rating: {rating} ({change})", { rating: r.rating.shown, change: signed(r.rating.change) }))] : []),
  ];
}

// The puzzle's rating (issue 18): as loaded, or as the player's rated check left it.
function ratingPart(p) {
  const rated = puzzle.checked && puzzle.checked.rating;
  const shown = rated ? rated.puzzle.shown : p.rating ? p.rating.shown : null;
  return shown === null ? [] : h("p", { id: "puzzle-rating", class: "about" }, t("Puzzle rating: {rating}", { rating: shown }));
}

function signed(change) {
  return (change > 0 ? "+" : change < 0 ? "\u2212" : "\u00b1") + Math.abs(change);
}

// ---------------------------------------------------------------- the streak

function solvedDays() {
  try {
    const days = JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]");
    return Array.isArray(days) ? days.filter(d => typeof d === "string").slice(-400) : [];
  } catch { return []; }
}

function keepSolved(day) {
  if (!day) return;
  const days = solvedDays();
  if (!days.includes(day)) days.push(day);
  try { localStorage.setItem(SOLVED_KEY, JSON.stringify(days.sort().slice(-400))); } catch { /* storage off: no streak */ }
}

// Days in a row whose daily puzzle was solved, ending today or yesterday (UTC).
export function streak(days, today) {
  const set = new Set(days);
  const day = new Date(today + "T00:00:00Z");
  if (!set.has(today)) day.setUTCDate(day.getUTCDate() - 1);
  let run = 0;
  while (set.has(day.toISOString().slice(0, 10)) && run < LISTED * 10) { run += 1; day.setUTCDate(day.getUTCDate() - 1); }
  return run;
}

function streakText() {
  const today = new Date().toISOString().slice(0, 10);
  const run = streak(solvedDays(), today);
  return nt("Daily puzzles solved in a row: {count} day", "Daily puzzles solved in a row: {count} days", run);
}

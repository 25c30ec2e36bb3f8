// The board or the piles, drawn from the capabilities.

import { SYMBOLS, capsOf, h, listed, myTurn, page, state } from "./core.js";
import { t } from "./i18n.js";

// The surface, drawn from the capabilities: a grid of `columns` targets, row after row;
// on a board each target is a square, on piles a card pile with its note (its count).
// Each target is a button named for screen readers ("H8, 4", "I8, empty, times square");
// one of them (the cursor) is in the tab order and arrow keys move it (roving focus).
// A board whose targets are named column letter + row number gets its coordinates drawn.
// This turn's placements ("current") and each player's last turn ("last", with the
// player's marker class "by-s0".."by-s3", as in the score graph) are marked apart: by
// colour, by border style, and in the cell's name ("H8, 4, Bob's last turn").
export function drawSurface(v) {
  const c = capsOf(v.variant);
  const board = c.surface === "board";
  const legal = state.picked !== null ? legalTargetsFor(v.playable[state.picked]) : new Set();
  const turn = v.turn || {};
  const current = new Set([...(turn.placements || []).map(p => p.cell), ...(turn.plays || []).map(p => p.pile)]);
  const lastBy = lastTurns(v, current);
  const latest = new Set(v.recent || []);  // the last finished turn's (it pops in)
  const hinted = new Set(state.hinted);
  const explained = explanations(v);  // issue 18: a last turn's piece explained on hover and focus
  const notes = v.target_notes || [];
  const coords = board ? coordinates(c) : null;
  const track = board ? "var(--cell)" : "var(--pile)";
  const grid = h("div", { class: board ? "board" : "piles", id: "board", role: "group", "aria-label": board ? t("board") : t("piles"),
    style: "grid-template-columns: " + (coords ? "var(--coord) " : "") + "repeat(" + c.columns + ", " + track + ")" });
  if (coords) grid.append(h("span", { class: "coord", "aria-hidden": "true" }), ...coords.columns.map(l => h("span", { class: "coord", "aria-hidden": "true" }, l)));
  const focusAt = state.cursor !== null ? state.cursor : entryIndex(v);
  c.targets.forEach((target, i) => {
    if (coords && i % c.columns === 0) grid.append(h("span", { class: "coord", "aria-hidden": "true" }, coords.rows[i / c.columns]));
    const value = v.surface[i];
    const classes = [board ? "cell" : "pile", target.kind];
    if (legal.has(target.name)) classes.push("legal");
    if (current.has(target.name)) classes.push("current");
    const by = lastBy.get(target.name);
    if (by) classes.push("last", "by-s" + (by[by.length - 1] % 4), ...(latest.has(target.name) ? ["latest"] : []));
    if (hinted.has(target.name)) classes.push("hinted");
    if (state.cursor === i) classes.push("cursor");
    const said = by && value >= 0 ? explained.get(target.name) : undefined;
    // a placement shown before it is confirmed (issue 32): on its square, marked apart
    const pending = state.tentative && state.tentative.index === i && value < 0 ? state.tentative.value : null;
    if (pending !== null) classes.push("tentative");
    const content = board
      ? (value >= 0 ? h("span", { class: "tok" }, value) : pending !== null ? h("span", { class: "tok" }, pending) : SYMBOLS[target.label] || target.label)
      : [h("small", {}, target.label + (notes[i] ? " · " + notes[i] : "")), value >= 0 ? h("span", { class: "top" }, value) : ""];
    const described = said ? [h("span", { class: "sr-only", id: "explain-" + i }, said)] : [];
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": target.name, "data-index": i,
      title: said ? target.name + ": " + said : target.name, "aria-describedby": said ? "explain-" + i : null,
      // TRANSLATORS: {names} is one or more possessives ("Bob's", "Ann's and Bob's")
      "aria-label": targetName(target, value, notes[i], legal.has(target.name), current.has(target.name), by ? t("{names} last turn", { names: whose(v, by) }) : "")
        // TRANSLATORS: a square's piece shown before the player confirms it (in the square's name)
        + (pending !== null ? ", " + t("{value}, not confirmed yet", { value: pending }) : ""),
      tabindex: i === focusAt ? "0" : "-1", onclick: () => { state.cursor = i; page.place(i); },
      ondragover: e => { if (state.dragging !== null) { e.preventDefault(); e.dataTransfer.dropEffect = "move"; } },
      ondragenter: e => { if (state.dragging !== null) over(e.currentTarget); },
      ondragleave: e => e.currentTarget.classList.remove("drop-over"),
      ondrop: e => { e.preventDefault(); dropOn(i); } }, content, described));
  });
  return grid;
}

// Where the board is entered (issue 32): at the last turn's last placement, else at the
// centre (H8 on the classic board), not at the start of the middle row.
export function entryIndex(v) {
  const c = capsOf(v.variant);
  const recent = (v.recent || [])[(v.recent || []).length - 1];
  const at = recent ? c.targets.findIndex(target => target.name === recent) : -1;
  if (at >= 0) return at;
  const rows = Math.ceil(c.targets.length / c.columns);
  return Math.min(c.targets.length - 1, Math.floor(rows / 2) * c.columns + Math.floor(c.columns / 2));
}

// An operation's word (a pile's label), and a square's ("times square").
export const LABEL_WORDS = { x: t("times"), "/": t("divided by"), "+": t("plus"), "-": t("minus") };
const SQUARE_WORDS = { x: t("times square"), "/": t("divided by square"), "+": t("plus square"), "-": t("minus square") };

// A target's accessible name: its name, what is on it (or "empty") and what the square is.
export function targetName(target, value, note, legal, current, last) {
  // TRANSLATORS: a cell with no piece on it (in a board cell's name: "H8, empty")
  const parts = [target.name, value >= 0 ? String(value) : t("empty")];
  if (target.label && target.label !== target.name) {
    // TRANSLATORS: a square printed with a number or a multiplier ("12 square", "3× square")
    parts.push(target.kind === "pile" ? LABEL_WORDS[target.label] || target.label : SQUARE_WORDS[target.label] || t("{label} square", { label: target.label }));
  }
  if (note) parts.push(note);
  if (current) parts.push(t("placed this turn"));
  else if (last) parts.push(last === true ? t("last turn") : last);
  // TRANSLATORS: a cell where the chosen piece may be placed (in a board cell's name)
  if (legal) parts.push(t("legal"));
  return parts.join(", ");
}

// Target name -> the seats whose last finished turn placed there, the latest mover last
// (piles are shared: several players' last turns may have played on one); this turn's
// placements are "current", not a last turn. Without `last_turns`, the recent targets.
export function lastTurns(v, current) {
  const by = new Map();
  const put = (name, seat) => { if (!current.has(name)) by.set(name, [...(by.get(name) || []).filter(s => s !== seat), seat]); };
  if (!v.last_turns) {
    const mover = v.summaries.length ? v.summaries[v.summaries.length - 1].seat : 0;
    (v.recent || []).forEach(name => put(name, mover));
    return by;
  }
  const latest = seat => v.summaries.map(s => s.seat).lastIndexOf(seat);
  const seats = v.last_turns.map((_, seat) => seat).sort((a, b) => latest(a) - latest(b));
  seats.forEach(seat => v.last_turns[seat].forEach(name => put(name, seat)));
  return by;
}

// Target name -> the explanation (issue 18: its equations and points, in the reader's
// language, from the view's turns) of the piece the latest turn placing there put on it.
export function explanations(v) {
  const said = new Map();
  (v.turns || []).forEach(turn => (turn.placements || turn.plays || []).forEach((p, k) => {
    const text = (turn.explanations || [])[k];
    if (text) said.set(p.cell !== undefined ? p.cell : p.pile, text);
  }));
  return said;
}

// "Bob's", "Ann's and Bob's": the players named for a list of seats.
function whose(v, seats) {
  // TRANSLATORS: whose (a player's) last turn: "Bob's" in "Bob's last turn"
  return listed(seats.map(s => t("{name}'s", { name: v.players[s] })));
}

// The legend of the last-turn markers: each player's marker and name (text, not colour
// alone), shown once someone has finished a turn that placed something.
export function lastTurnsLegend(v) {
  if (!(v.last_turns || []).some(cells => cells.length)) return "";
  return h("p", { class: "last-legend", id: "last-legend" }, t("Last turns:"), " ",
    v.players.map((p, i) => h("span", { class: "legend-item", "data-seat": i },
      // TRANSLATORS: a player whose last turn placed nothing
      h("span", { class: "swatch by-s" + (i % 4), "aria-hidden": "true" }), v.last_turns[i] && v.last_turns[i].length ? p : t("{name} (none)", { name: p }),
      v.seats && v.seats[i] && v.seats[i].bot_account ? [" ", h("span", { class: "bot-badge" }, t("BOT"))] : "")));
}

// Column letters and row numbers, read off the targets' own names (letters then digits);
// null when the names are not of that form.
export function coordinates(c) {
  const parse = name => /^([A-Z]+)(\d+)$/.exec(name);
  const rows = Math.ceil(c.targets.length / c.columns);
  const columns = c.targets.slice(0, c.columns).map(target => parse(target.name));
  const starts = [...Array(rows).keys()].map(r => c.targets[r * c.columns] && parse(c.targets[r * c.columns].name));
  if (columns.some(m => !m) || starts.some(m => !m)) return null;
  return { columns: columns.map(m => m[1]), rows: starts.map(m => m[2]) };
}

export function legalTargetsFor(value) {
  return new Set(state.view.legal.map(a => a.match(/^([A-Z]\d*)=(\d+)\+?$/)).filter(m => m && Number(m[2]) === value).map(m => m[1]));
}

// ---------------------------------------------------------------- drag and drop

// Beside click and keys, a rack piece may be dragged onto a target: dropped there, it is
// placed as a click on the piece then on the target would (an illegal target gets the
// server's refusal, with its rule). While it is dragged its legal targets light. A mouse
// drags with HTML5 drag events; touch and pens (which do not fire them everywhere) with
// pointer events, a copy of the piece following the finger.
state.dragging = null;
let droppedAt = -Infinity;

export function dragStart(i, event) {
  state.dragging = i;
  state.picked = i;
  state.exchange = null;
  if (event && event.dataTransfer) {
    event.dataTransfer.setData("text/plain", String(state.view.playable[i]));
    event.dataTransfer.effectAllowed = "move";
  }
  const legal = legalTargetsFor(state.view.playable[i]);  // lit in place: a redraw would end the drag
  document.querySelectorAll("#board [data-cell]").forEach(cell => cell.classList.toggle("legal", legal.has(cell.dataset.cell)));
  document.querySelectorAll("#rack button.tile").forEach((tile, k) => tile.classList.toggle("picked", k === i));
}

export function dropOn(i) {
  const dragged = state.dragging;
  state.dragging = null;
  droppedAt = performance.now();
  document.querySelectorAll("#board .drop-over").forEach(cell => cell.classList.remove("drop-over"));
  if (dragged === null || !myTurn()) return;
  state.picked = dragged;
  state.cursor = i;
  page.place(i);
}

// Dropped anywhere else: the piece stays picked, as after a click on it.
export function dragEnd() {
  if (state.dragging === null) return;
  state.dragging = null;
  droppedAt = performance.now();
  page.render();
}

// A drag ends in a click on the piece in some browsers: that click is not a pick.
export function justDragged() { return performance.now() - droppedAt < 400; }

function over(cell) {
  document.querySelectorAll("#board .drop-over").forEach(other => { if (other !== cell) other.classList.remove("drop-over"); });
  if (cell) cell.classList.add("drop-over");
}

function targetAt(x, y) {
  const found = document.elementFromPoint(x, y);
  return found ? found.closest("#board [data-index]") : null;
}

export function pointerDrag(i, down) {
  if (down.pointerType === "mouse" || !down.isPrimary) return;  // a mouse: HTML5 drag events
  const tile = down.currentTarget;
  const start = [down.clientX, down.clientY];
  let ghost = null;
  try { tile.setPointerCapture(down.pointerId); } catch { /* a pointer already gone */ }
  const move = e => {
    if (e.pointerId !== down.pointerId) return;
    if (!ghost && Math.hypot(e.clientX - start[0], e.clientY - start[1]) < 8) return;  // a tap: a click
    if (!ghost) {
      dragStart(i, null);
      ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, tile.textContent);
      document.body.append(ghost);
    }
    e.preventDefault();
    ghost.style.left = e.clientX + "px";
    ghost.style.top = e.clientY + "px";
    over(targetAt(e.clientX, e.clientY));
  };
  const end = e => {
    if (e.pointerId !== down.pointerId) return;
    tile.removeEventListener("pointermove", move);
    tile.removeEventListener("pointerup", end);
    tile.removeEventListener("pointercancel", end);
    if (!ghost) return;
    ghost.remove();
    const target = e.type === "pointerup" ? targetAt(e.clientX, e.clientY) : null;
    if (target) dropOn(Number(target.dataset.index)); else dragEnd();
  };
  tile.addEventListener("pointermove", move);
  tile.addEventListener("pointerup", end);
  tile.addEventListener("pointercancel", end);
}

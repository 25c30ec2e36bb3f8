// The score keeper (/keep, issue 37): a game played on a real board, kept from a phone.
// The page judges nothing itself: each turn is sent in the sheet's notation (I8=12,
// J8=16+) to /api/keeper, whose rules check, score and explain it; a refusal is shown as
// the server words it and nothing is recorded. The racks are unknown (ruling R1): the
// keypad offers every value still unseen. Nothing is lost: the game lives on the server
// (a reload carries on from GET /api/keeper/{id}); its token is kept in this browser
// (localStorage) and in the link's fragment (#token, never sent to a server's log), which
// a second phone at the table opens; a turn entered without a connection is queued here
// and sent in order when it returns, each with its own id, so it is stored once.
// The games offered are those the keeper keeps (/api/keeper/games), each drawn from its
// capabilities: a board's cells, or piles of cards (Quattro: a pile, then the card's
// value; DIAGO, a stuck turn's draw and the rounds from its actions and capabilities).

import { SYMBOLS, announce, api, app, h, setWhere } from "./core.js";
import { nt, pt, t } from "./i18n.js";
import { coordinates, targetName } from "./surface.js";

const at = { id: null, token: null, game: null, caps: null, variants: [], pending: [], cell: null, cursor: null,
  result: null, error: null, where: null, exchange: 1, ending: false, flushing: null, diago: false };

// ---------------------------------------------------------------- storage

const tokenKey = id => "keeper-token-" + id;
const queueKey = id => "keeper-queue-" + id;
function stored(key, fallback) {
  try { const text = localStorage.getItem(key); return text ? JSON.parse(text) : fallback; } catch { return fallback; }
}
function store(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: kept in memory only */ }
}
export function queued() { return at.id ? stored(queueKey(at.id), []) : []; }
function setQueue(items) { store(queueKey(at.id), items.length ? items : null); }
// A client id of one entry: sent again after a lost answer, the server stores it once.
function entryId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return "k" + Date.now().toString(36) + "-" + random[0].toString(36) + random[1].toString(36);
}

// ---------------------------------------------------------------- the page

export async function keeperPage(id) {
  setWhere(t("Keep score"), true);
  const [variants, kept] = await Promise.all([api("/api/variants"), api("/api/keeper/games")]);
  at.variants = variants.filter(v => kept.includes(v.name));
  if (!id) { setup(); return; }
  at.id = id;
  const fragment = decodeURIComponent(location.hash.slice(1));
  if (fragment) store(tokenKey(id), fragment);
  at.token = fragment || stored(tokenKey(id), null);
  if (at.token && !fragment) history.replaceState(null, "", location.pathname + "#" + encodeURIComponent(at.token));
  window.addEventListener("online", () => flush());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  await refresh();
  setInterval(follow, FOLLOW_MS);
}

// Another phone at the table may enter turns: while this page is shown, idle (no
// placement of a turn being entered, nothing queued, the end's form closed, no field
// being typed in) it looks every few seconds and redraws only when the game has another
// number of entries than it shows.
const FOLLOW_MS = 4000;
async function follow() {
  const busy = () => at.pending.length || at.ending || at.flushing || queued().length
    || (document.activeElement && document.activeElement.tagName === "INPUT");
  if (document.hidden || !at.game || busy()) return;
  try {
    const now = await api("/api/keeper/" + encodeURIComponent(at.id));
    if (now.seq !== at.game.seq && !busy()) {
      at.game = now;
      draw();
      announce(t("The game moved on: another phone entered a turn."));
    }
  } catch { /* offline: looked at again later */ }
}

// The game as the server has it, then the queue sent (what was entered offline).
async function refresh() {
  try {
    at.game = await api("/api/keeper/" + encodeURIComponent(at.id));
  } catch (e) {
    if (!e.status && at.game) { draw(); return; }  // offline: the game as last seen
    if (!e.status) { app.replaceChildren(h("p", { class: "error", role: "alert" }, t("No connection: the kept game will show when it returns."))); setTimeout(refresh, 5000); return; }
    app.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
    return;
  }
  const found = at.variants.find(v => v.name === at.game.variant);
  at.caps = found ? found.capabilities : null;
  document.title = t("{title} — {brand}", { title: t("Keep score"), brand: document.querySelector("header .brand").textContent });
  draw();
  if (queued().length) flush();
}

// ---------------------------------------------------------------- setup

function setup() {
  const names = [0, 1, 2, 3].map(i => h("input", { type: "text", id: "keep-name-" + i, maxlength: "40", autocomplete: "off",
    required: i < 2, oninput: () => starters() }));
  const first = h("select", { id: "keep-first" });
  // Who starts: one of the names typed, or the rulebook's draw (the keeper draws, C10).
  function starters() {
    const kept = first.value;
    const typed = names.map(n => n.value.trim()).filter(Boolean);
    first.replaceChildren(...typed.map(name => h("option", { value: name }, name)),
      // TRANSLATORS: an option of who starts a kept game: the rulebook's draw (C10)
      h("option", { value: "draw" }, t("Draw (the rulebook's draw)")));
    if ([...first.options].some(o => o.value === kept)) first.value = kept;
  }
  starters();
  const rounds = h("input", { type: "number", id: "keep-rounds", min: "1", max: "99", value: "1", inputmode: "numeric" });
  const referee = h("input", { type: "checkbox", id: "keep-referee" });
  const roundsRow = h("p", { class: "row" }, h("label", { for: "keep-rounds" }, t("Rounds")), rounds);
  const refereeRow = h("p", {}, h("label", { class: "check", for: "keep-referee" }, referee, " ", t("Table referee: illegal placements stand until challenged (C12)")));
  // What the chosen game has: rounds agreed (Q5), a table referee where it has challenges.
  const offered = () => {
    const found = at.variants.find(v => v.name === variant.value);
    const c = found ? found.capabilities : {};
    roundsRow.hidden = !c.rounds;
    refereeRow.hidden = !(c.actions || []).includes("challenge");
    if (refereeRow.hidden) referee.checked = false;
  };
  const variant = h("select", { id: "keep-variant", onchange: offered }, at.variants.map(v => h("option", { value: v.name }, v.title)));
  offered();
  const form = h("form", { id: "keep-setup", class: "keep-setup", onsubmit: async e => {
    e.preventDefault();
    const players = names.map(n => n.value.trim()).filter(Boolean);
    try {
      const body = { variant: variant.value, players, first: first.value, referee: referee.checked };
      if (!roundsRow.hidden) body.rounds = Number(rounds.value) || 1;
      const made = await api("/api/keeper", { method: "POST", body: JSON.stringify(body) });
      store(tokenKey(made.id), made.token);
      location.assign("/keep/" + encodeURIComponent(made.id) + "#" + encodeURIComponent(made.token));
    } catch (err) { shout(err.message); }
  } },
    h("label", { for: "keep-variant" }, t("Game")), variant,
    h("fieldset", {}, h("legend", {}, t("Players, in seat order (2 to 4)")),
      names.flatMap((input, i) => [h("label", { for: input.id }, t("Player {number}", { number: i + 1 })), input])),
    h("label", { for: "keep-first" }, t("Who starts")), first,
    roundsRow, refereeRow,
    h("button", { type: "submit", class: "primary", id: "keep-start" }, t("Start keeping")));
  app.replaceChildren(h("article", { class: "keeper", id: "keeper" },
    h("h2", {}, t("Keep score")),
    h("p", { class: "about" }, t("A game on a real board: enter each turn here, the keeper checks it by the rules, scores it and keeps the score sheet.")),
    h("p", { id: "message", class: "error", role: "alert" }),
    form));
}

// ---------------------------------------------------------------- drawing

// The values the keypad offers: unseen, less those queued and pending here.
function available() {
  const left = { ...at.game.unseen };
  const spend = value => { left[value] = (left[value] || 0) - 1; };
  for (const item of queued()) for (const p of item.body.placements || []) spend(String(parseInt(p.split("=")[1], 10)));
  for (const p of at.pending) spend(String(p.value));
  return left;
}

// The board as the table sees it: placed, queued (not yet checked) and pending tokens.
function shownBoard() {
  const shown = {}, state = {};
  for (const [cell, value] of Object.entries(at.game.board)) { shown[cell] = value; state[cell] = "placed"; }
  for (const item of queued()) for (const p of item.body.placements || []) {
    const [cell, value] = p.replace("+", "").split("=");
    shown[cell] = value; state[cell] = "queued";
  }
  for (const p of at.pending) { shown[p.cell] = p.value; state[p.cell] = "pending"; }
  return { shown, state };
}

function draw() {
  const g = at.game;
  const mine = !!at.token;
  const onPiles = at.caps.surface !== "board";
  const parts = [
    h("h2", {}, t("Keep score")),
    scores(g),
    onPiles ? tableNote(g) : "",
    h("p", { id: "message", class: at.error ? "error" : "", role: at.error ? "alert" : "status" }, at.error || ""),
    queueNote(),
    result(),
    onPiles ? piles(g) : board(),
    g.over ? finalNote(g) : !mine ? h("p", {}, t("This link shows the game: the link with its token enters turns."))
      : onPiles ? pileControls(g) : turnControls(g),
    unseenCard(g),
    turnList(g),
    h("p", { class: "row" },
      h("a", { href: "/api/keeper/" + encodeURIComponent(at.id) + "/sheet", download: "kept-" + at.id + ".txt", id: "keep-sheet", class: "button-link" }, t("Download the score sheet")),
      h("button", { type: "button", id: "keep-refresh", onclick: () => refresh() }, t("Refresh"))),
    mine ? share() : "",
  ];
  app.replaceChildren(h("article", { class: "keeper", id: "keeper" }, parts));
}

function scores(g) {
  return h("ol", { class: "keep-scores", id: "keep-scores", "aria-label": t("Scores") }, g.players.map((name, seat) => {
    const moving = !g.over && seat === g.to_move;
    return h("li", { class: moving ? "to-move" : "", "aria-current": moving ? "true" : null, "data-seat": seat },
      h("span", { class: "name" }, moving ? t("{name} to move", { name }) : name), " ", h("strong", { class: "score" }, g.scores[seat]));
  }));
}

function queueNote() {
  const items = queued();
  if (!items.length) return "";
  return h("p", { class: "keep-queue", id: "keep-queue", role: "status" },
    // TRANSLATORS: turns entered without a connection, waiting to be checked and stored
    nt("{count} entry waiting for the connection: it will be sent and checked when it returns.",
      "{count} entries waiting for the connection: they will be sent and checked when it returns.", items.length));
}

// The last turn's points and why: each placement's explanation, then the bonus.
function result() {
  const r = at.result;
  if (!r) return "";
  return h("section", { class: "keep-result", id: "keep-result", "aria-live": "polite" },
    h("p", {}, h("strong", {}, resultLine(r))),
    r.explanations.length ? h("ul", {}, r.explanations.map(e => h("li", { class: e.mistake ? "error" : "" }, e.text))) : "");
}

// A turn's result in words: its points, or (a game scored in rounds) what was played.
function resultLine(r) {
  if (at.caps.score_unit === "rounds") return t("{name}: {turn}", { name: r.player, turn: r.notation });
  return t("{name}: {points} points", { name: r.player, points: r.points });
}

function board() {
  const c = at.caps;
  const { shown, state } = shownBoard();
  const coords = coordinates(c);
  const grid = h("div", { class: "board keep-board", id: "board", role: "group", "aria-label": t("board"),
    style: "--cols: " + c.columns + "; grid-template-columns: " + (coords ? "var(--coord) " : "") + "repeat(" + c.columns + ", var(--cell))" });
  if (coords) grid.append(h("span", { class: "coord", "aria-hidden": "true" }), ...coords.columns.map(l => h("span", { class: "coord", "aria-hidden": "true" }, l)));
  const focusAt = at.cursor !== null ? at.cursor : Math.floor(c.targets.length / 2 - c.columns / 2);
  c.targets.forEach((target, i) => {
    if (coords && i % c.columns === 0) grid.append(h("span", { class: "coord", "aria-hidden": "true" }, coords.rows[i / c.columns]));
    const value = shown[target.name];
    const has = value !== undefined;
    const classes = ["cell", target.kind];
    if (state[target.name] === "pending") classes.push("current");
    if (state[target.name] === "queued") classes.push("tentative");
    if (at.cell === target.name) classes.push("cursor", "picked");
    if (at.where === target.name) classes.push("hinted");
    const extra = state[target.name] === "pending" ? [t("entered this turn")] : state[target.name] === "queued" ? [t("waiting to be sent")] : [];
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": target.name, "data-index": i, title: target.name,
      "aria-label": [targetName(target, has ? Number(value) : -1, "", false, false, ""), ...extra].join(", "),
      "aria-pressed": at.cell === target.name ? "true" : "false", tabindex: i === focusAt ? "0" : "-1",
      onclick: () => tapCell(target, i, state[target.name]), onkeydown: e => moveCursor(e, i) },
    has ? h("span", { class: "tok" }, value) : SYMBOLS[target.label] || target.label));
  });
  return h("div", { class: "keep-board-wrap" }, grid);
}

// Arrow keys move along the board (one cell in the tab order: roving focus).
function moveCursor(e, i) {
  const c = at.caps;
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -c.columns, ArrowDown: c.columns }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  const next = i + step;
  if (next < 0 || next >= c.targets.length) return;
  at.cursor = next;
  for (const cell of document.querySelectorAll("#board [data-index]")) cell.tabIndex = Number(cell.dataset.index) === next ? 0 : -1;
  document.querySelector('#board [data-index="' + next + '"]').focus();
}

// A tap on an empty cell picks it for the keypad; on a pending token, takes it back.
function tapCell(target, i, state) {
  if (at.game.over || !at.token) return;
  at.cursor = i;
  if (state === "pending") {
    at.pending = at.pending.filter(p => p.cell !== target.name);
    at.cell = null;
    announce(t("{cell} cleared", { cell: target.name }));
  } else if (state) {
    return;
  } else {
    at.cell = at.cell === target.name ? null : target.name;
    if (at.cell) {
      announce(t("{cell} chosen: now its value on the keypad", { cell: target.name }));
      draw();
      const key = document.querySelector("#keypad .key");  // the keyboard goes on to the values
      if (key) { key.focus(); return; }
    }
  }
  drawKeeping(target.name);
}

// On the keypad, typed digits go to the value they spell (1, then 2: 12).
let typed = "";
function typeValue(e) {
  if (!/^[0-9]$/.test(e.key)) { typed = ""; return; }
  const keys = [...document.querySelectorAll("#keypad .key")];
  const starts = text => keys.find(k => k.dataset.value.startsWith(text));
  typed = starts(typed + e.key) ? typed + e.key : starts(e.key) ? e.key : "";
  const exact = keys.find(k => k.dataset.value === typed) || starts(typed);
  if (exact) { e.preventDefault(); exact.focus(); }
}

// Draw again and give the focus back where it was (the board's cell, a key).
function drawKeeping(cell) {
  draw();
  const back = cell ? document.querySelector('#board [data-cell="' + cell + '"]') : null;
  if (back) back.focus();
}

function place(value) {
  const target = at.caps.targets.find(x => x.name === at.cell);
  if (at.game.started === false) at.pending = at.pending.filter(p => p.cell !== at.cell);  // one card turned up a pile
  at.pending.push({ cell: at.cell, value, extra: false, restriction: target.kind === "restriction" });
  const cell = at.cell;
  at.cell = null;
  at.error = null;
  announce(t("{value} on {cell}", { value, cell }));
  drawKeeping(cell);
}

// The keypad of the values still unseen (R1), enabled once a cell or a pile is chosen.
function keypad(g) {
  const left = available();
  const values = Object.keys(g.unseen).map(Number).sort((a, b) => a - b);
  return h("div", { class: "keypad", id: "keypad", role: "group", onkeydown: typeValue,
    "aria-label": at.cell ? t("Value for {cell}", { cell: at.cell }) : t("Values still unseen: choose a cell first") },
  values.filter(v => left[v] > 0).map(v => h("button", { type: "button", class: "key", "data-value": v, disabled: !at.cell,
    "aria-label": nt("{value}: {count} unseen", "{value}: {count} unseen", left[v], { value: v }), onclick: () => place(v) }, v)));
}

// This turn's placements, each taken back by its ✕ (an extra token marked on a restriction square).
function pendingList() {
  return at.pending.length ? h("ul", { class: "keep-pending", id: "keep-pending", "aria-label": t("This turn") }, at.pending.map(p =>
    h("li", {}, h("span", {}, p.cell + "=" + p.value),
      p.restriction ? h("button", { type: "button", class: "switch", "aria-pressed": String(p.extra), "data-extra": p.cell,
        onclick: () => { p.extra = !p.extra; draw(); } }, t("Extra token taken")) : "",
      h("button", { type: "button", "data-remove": p.cell, "aria-label": t("Take back {placement}", { placement: p.cell + "=" + p.value }),
        onclick: () => { at.pending = at.pending.filter(q => q !== p); draw(); } }, "✕")))) : "";
}

function turnControls(g) {
  const keys = keypad(g);
  const pending = pendingList();
  const moving = g.players[g.to_move];
  const exchange = h("input", { type: "number", id: "keep-exchange-count", min: "1", max: "20", value: String(at.exchange), inputmode: "numeric",
    oninput: e => { at.exchange = Number(e.target.value) || 1; } });
  return h("section", { class: "keep-turn", id: "keep-turn", "aria-label": t("{name}'s turn", { name: moving }) },
    h("p", { id: "keep-prompt" }, at.cell ? t("{cell}: tap its value.", { cell: at.cell }) : t("{name}: tap a cell, then its value.", { name: moving })),
    keys, pending,
    h("div", { class: "row keep-actions" },
      h("button", { type: "button", class: "primary", id: "keep-end-turn", disabled: !at.pending.length, onclick: () => endTurn() }, t("End turn")),
      h("button", { type: "button", id: "keep-pass", onclick: () => send("turns", { pass: true }, "pass") }, pt("action", "Pass")),
      g.referee && g.turns.length ? h("button", { type: "button", id: "keep-challenge", onclick: () => send("turns", { challenge: true }, "challenge") }, t("Challenge the last turn")) : "",
      h("button", { type: "button", id: "keep-undo", disabled: !g.turns.length && !g.seq, onclick: () => send("undo", {}, "undo") }, t("Undo the last entry"))),
    h("div", { class: "row keep-exchange" },
      h("label", { for: "keep-exchange-count" }, t("Tokens exchanged")), exchange,
      h("button", { type: "button", id: "keep-exchange", onclick: () => send("turns", { exchange: at.exchange }, "exchange " + at.exchange) }, pt("action", "Exchange"))),
    ending(g));
}

// ---------------------------------------------------------------- piles (Quattro)

// The piles as the table sees them: each pile's top card (this turn's cards entered on
// top), its count; a tap chooses the pile for the keypad.
function piles(g) {
  const c = at.caps;
  const grid = h("div", { class: "piles keep-piles", id: "board", role: "group", "aria-label": t("piles"),
    style: "grid-template-columns: repeat(" + c.columns + ", var(--pile))" });
  const focusAt = at.cursor !== null ? at.cursor : 0;
  c.targets.forEach((target, i) => {
    const mine = at.pending.filter(p => p.cell === target.name);
    const top = mine.length ? mine[mine.length - 1].value : g.piles[i];
    const count = g.pile_sizes[i] + mine.length;
    const classes = ["pile", target.kind];
    if (mine.length) classes.push("current");
    if (at.cell === target.name) classes.push("cursor");
    if (at.where === "pile " + target.name) classes.push("hinted");
    // TRANSLATORS: a pile of cards in Quattro: its name, its top card and how many cards it holds
    const label = top === null ? t("pile {pile}, empty", { pile: target.name })
      : nt("pile {pile}: {top}, {count} card", "pile {pile}: {top}, {count} cards", count, { pile: target.name, top });
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": target.name, "data-index": i,
      "aria-label": label + (mine.length ? ", " + t("entered this turn") : ""), "aria-pressed": at.cell === target.name ? "true" : "false",
      tabindex: i === focusAt ? "0" : "-1", onclick: () => tapPile(target, i), onkeydown: e => moveCursor(e, i) },
    h("small", {}, target.label + " · " + nt("{count} card", "{count} cards", count)), top === null ? "" : h("span", { class: "top" }, top)));
  });
  return grid;
}

function tapPile(target, i) {
  if (at.game.over || !at.token) return;
  at.cursor = i;
  at.cell = at.cell === target.name ? null : target.name;
  if (at.cell) {
    announce(t("{cell} chosen: now its value on the keypad", { cell: target.name }));
    draw();
    const key = document.querySelector("#keypad .key");
    if (key) { key.focus(); return; }
  }
  drawKeeping(target.name);
}

// The round, the rounds agreed, the reserve and each hand's count (Q5), DIAGO (Q4).
function tableNote(g) {
  const hands = g.players.map((name, seat) => name + " " + g.racks[seat]).join(", ");
  return h("p", { class: "keep-table", id: "keep-table" },
    // TRANSLATORS: Quattro's table: the round of those agreed, the reserve's cards, each hand's cards
    t("Round {round} of {rounds} · reserve: {reserve} · hands: {hands}", { round: g.round, rounds: g.rounds, reserve: g.reserve, hands }),
    g.diagonals ? " · " + t("DIAGO: diagonals count") : "");
}

// A Quattro turn: the four cards turned up first; then the cards played (a pile, then
// the value), DIAGO announced first, or a stuck turn (the card drawn on a pile, then an
// exchange or a penalty card, Q3), or a pass.
function pileControls(g) {
  const moving = g.players[g.to_move];
  const has = kind => at.caps.actions.includes(kind);
  if (!g.started) return h("section", { class: "keep-turn", id: "keep-turn", "aria-label": t("The cards turned up") },
    h("p", { id: "keep-prompt" }, at.cell ? t("{cell}: tap its value.", { cell: at.cell }) : t("Turn up four cards: tap a pile, then its value.")),
    keypad(g), pendingList(),
    h("div", { class: "row keep-actions" },
      h("button", { type: "button", class: "primary", id: "keep-end-turn", disabled: at.pending.length !== at.caps.targets.length, onclick: () => endTurn() }, t("Start the match")),
      h("button", { type: "button", id: "keep-undo", disabled: !g.seq, onclick: () => send("undo", {}, "undo") }, t("Undo the last entry"))));
  const diago = has("diago") && !g.diagonals && !g.diago_used.includes(g.to_move) ? h("button", { type: "button", class: "switch", id: "keep-diago",
    "aria-pressed": String(at.diago), onclick: () => { at.diago = !at.diago; draw(); } }, t("DIAGO announced")) : "";
  const one = at.pending.length === 1;
  return h("section", { class: "keep-turn", id: "keep-turn", "aria-label": t("{name}'s turn", { name: moving }) },
    h("p", { id: "keep-prompt" }, at.cell ? t("Pile {pile}: tap the card's value.", { pile: at.cell }) : t("{name}: tap a pile, then the card played.", { name: moving })),
    keypad(g), pendingList(),
    h("div", { class: "row keep-actions" }, diago,
      h("button", { type: "button", class: "primary", id: "keep-end-turn", disabled: !at.pending.length, onclick: () => endTurn() }, t("End turn")),
      has("pass") ? h("button", { type: "button", id: "keep-pass", onclick: () => {
        const fields = at.diago ? { placements: ["diago", "pass"] } : { pass: true };
        at.diago = false;
        send("turns", fields, "pass");
      } }, pt("action", "Pass")) : "",
      h("button", { type: "button", id: "keep-undo", disabled: !g.seq, onclick: () => send("undo", {}, "undo") }, t("Undo the last entry"))),
    has("draw") ? h("div", { class: "row keep-stuck", id: "keep-stuck", role: "group", "aria-labelledby": "keep-stuck-note" },
      h("p", { id: "keep-stuck-note" }, t("No card fitted: enter the card drawn on its pile, then:")),
      h("button", { type: "button", id: "keep-stuck-exchange", disabled: !one, onclick: () => endTurn("exchange") }, t("Exchanged a card")),
      h("button", { type: "button", id: "keep-stuck-penalty", disabled: !one, onclick: () => endTurn("penalty") }, t("Took a penalty card"))) : "");
}

// The end (C11): each player's tokens left, deducted.
function ending(g) {
  const toggle = h("button", { type: "button", id: "keep-ending", "aria-expanded": String(at.ending), "aria-controls": "keep-end-form",
    onclick: () => { at.ending = !at.ending; draw(); } }, t("End of the game…"));
  if (!at.ending) return h("div", { class: "row" }, g.ending ? h("strong", {}, t("The bag is empty and a rack was emptied: enter the end.")) : "", toggle);
  const inputs = g.players.map((name, seat) => h("input", { type: "text", id: "keep-left-" + seat, inputmode: "numeric", autocomplete: "off", placeholder: "5, 7" }));
  const form = h("form", { id: "keep-end-form", class: "keep-end", onsubmit: e => {
    e.preventDefault();
    const left = inputs.map(input => input.value.split(/[^0-9]+/).filter(Boolean).map(Number));
    send("end", { left }, "end");
  } },
  h("p", {}, t("Each player's tokens left, by value (they are deducted):")),
  g.players.flatMap((name, seat) => [h("label", { for: inputs[seat].id }, name), inputs[seat]]),
  h("button", { type: "submit", class: "primary", id: "keep-end-game" }, t("End the game")));
  return h("div", {}, h("div", { class: "row" }, toggle), form);
}

function finalNote(g) {
  const best = Math.max(...g.scores);
  const winners = g.players.filter((_, seat) => g.scores[seat] === best);
  const rounds = at.caps.score_unit === "rounds";
  return h("section", { id: "keep-over", class: "keep-over" },
    rounds
      // TRANSLATORS: the end of a match played in rounds (Quattro): who won the most rounds
      ? h("p", {}, h("strong", {}, nt("Match over: {names} won {count} round.", "Match over: {names} won {count} rounds.", best, { names: winners.join(", ") })))
      : h("p", {}, h("strong", {}, t("Game over: {names} won with {points} points.", { names: winners.join(", "), points: best }))),
    rounds && g.end_text ? h("p", {}, g.end_text) : "",
    g.deductions && g.deductions.some(Boolean) ? h("p", {}, t("Deducted: {list}", { list: g.players.map((p, s) => p + " −" + g.deductions[s]).join(", ") })) : "",
    h("button", { type: "button", id: "keep-undo", onclick: () => send("undo", {}, "undo") }, t("Undo the last entry")),
    g.afterwards ? h("p", { class: "row" }, h("a", { href: "/api/keeper/" + encodeURIComponent(at.id) + "/record", download: "kept-" + at.id + ".json", id: "keep-record", class: "button-link", onclick: downloadRecord }, t("Download the game record"))) : "",
    g.afterwards ? keptAnalysis(g) : "");
}

// The record is asked first: a game the rules cannot replay as kept (the server's 422)
// shows its reason instead of downloading it as a file.
async function downloadRecord(e) {
  e.preventDefault();
  const link = e.currentTarget;
  try {
    const data = await api(link.getAttribute("href"));
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" }));
    h("a", { href: url, download: link.getAttribute("download") }).click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (err) { at.error = err.message; draw(); }
}

// After the game: per placement turn, the best turn the same tokens could have made on
// the board as it stood (the racks are unknown, R1); in Quattro, the longest chain of
// the turn's own cards on the piles as they stood (the hands are unknown). Asked once
// per entry count.
function keptAnalysis(g) {
  const title = at.caps.piece === "card" ? t("Analysis: the best turn of the same cards") : t("Analysis: the best turn of the same tokens");
  const box = h("section", { id: "keep-analysis", class: "keep-analysis", "aria-labelledby": "keep-analysis-title" },
    h("h3", { id: "keep-analysis-title" }, title),
    h("p", { role: "status" }, t("Working out the best turns…")));
  const key = at.id + ":" + g.seq;
  if (at.analysis && at.analysis.key === key) analysisTable(box, at.analysis.data);
  else api("/api/keeper/" + encodeURIComponent(at.id) + "/analysis").then(data => {
    at.analysis = { key, data };
    if (box.isConnected) analysisTable(box, data);
  }).catch(e => { box.lastChild.textContent = e.message; });
  return box;
}

function analysisTable(box, data) {
  const cards = data.unit === "cards";
  // TRANSLATORS: a column heading of a kept match's analysis: the cards a turn played
  const unit = cards ? t("cards") : t("pts");
  const headings = ["#", t("player"), t("played"), unit, t("best"), unit, t("loss")];
  const rows = data.turns.map(turn => h("tr", { class: turn.lost ? "lost" : "" },
    [turn.turn, turn.player, turn.played, turn.points, turn.best === turn.played ? "=" : turn.best, turn.best_points, turn.lost || ""].map(c => h("td", {}, c))));
  const totals = data.players.map(p => cards
    ? nt("{name}: {count} card played, {lost} lost", "{name}: {count} cards played, {lost} lost", p.points, { name: p.player, lost: p.lost })
    : t("{name}: {points} points, {lost} lost", { name: p.player, points: p.points, lost: p.lost }));
  box.replaceChildren(box.firstChild,
    h("div", { class: "analysis-rows", tabindex: "0", role: "region", "aria-label": t("the turns analysed") },
      h("table", { id: "keep-analysis-table" }, h("tr", {}, headings.map(c => h("th", { scope: "col" }, c))), rows)),
    h("ul", { class: "keep-analysis-totals" }, totals.map(line => h("li", {}, line))));
}

// The player card (C13): per value, how many tokens are still out.
function unseenCard(g) {
  const left = available();
  const values = Object.keys(g.unseen).map(Number).sort((a, b) => a - b);
  const title = at.caps.piece === "card" ? t("Player card: the cards still unseen") : t("Player card: the tokens still unseen");
  return h("details", { class: "keep-card", id: "keep-card" }, h("summary", {}, title),
    h("ul", {}, values.map(v => h("li", { class: left[v] > 0 ? "" : "gone" }, h("span", { class: "v" }, v), " ", h("span", { class: "n" }, "×" + Math.max(0, left[v]))))));
}

function turnList(g) {
  if (!g.turns.length) return "";
  return h("details", { class: "keep-history", id: "keep-history" }, h("summary", {}, t("Turns")),
    h("ol", {}, g.turns.map(turn => h("li", {}, t("{name}: {turn} ({points})", { name: turn.player, turn: turn.notation, points: turn.points })))));
}

function share() {
  const link = location.origin + "/keep/" + encodeURIComponent(at.id) + "#" + encodeURIComponent(at.token);
  const copy = async () => {
    try {
      if (navigator.share) await navigator.share({ title: t("Keep score"), url: link });
      else { await navigator.clipboard.writeText(link); announce(t("Link copied")); }
    } catch { /* cancelled: the link stays on the page to copy by hand */ }
  };
  return h("details", { class: "keep-share", id: "keep-share" },
    h("summary", {}, t("Share with a second phone")),
    h("p", {}, t("Anyone with this link enters turns in this game: send it only to the table.")),
    h("p", {}, h("input", { type: "text", readonly: true, id: "keep-link", value: link, "aria-label": t("The game's link") })),
    h("button", { type: "button", id: "keep-copy", onclick: copy }, t("Share the link")));
}

function shout(text) {
  const el = document.getElementById("message");
  if (el) { el.textContent = text; el.className = "error"; }
  announce(text);
}

// ---------------------------------------------------------------- sending

function endTurn(...after) {
  const placements = at.pending.map(p => p.cell + "=" + p.value + (p.extra ? "+" : ""));
  const words = [...(at.diago ? ["diago"] : []), ...(after.length ? ["draw"] : []), ...placements, ...after];
  at.diago = false;
  send("turns", { placements: words }, words.join(" "));
}

// One entry: given an id and the count of entries seen, queued first (so a lost
// connection keeps it), then sent with what was queued before it.
async function send(path, fields, notation) {
  const items = queued();
  const seq = at.game.seq + items.length;
  setQueue([...items, { path, body: { ...fields, id: entryId(), seq }, notation }]);
  at.error = null;
  at.where = null;
  if (path === "turns" && fields.placements) at.pending = [];
  at.cell = null;
  await flush();
}

// Send the queue in order; a network failure leaves it for the connection's return,
// a refusal drops the refused entry (and those entered after it, entered over it).
export async function flush() {
  if (at.flushing) return at.flushing;
  at.flushing = (async () => {
    let answer = null;
    try {
      for (let items = queued(); items.length; items = queued()) {
        const item = items[0];
        try {
          answer = await api("/api/keeper/" + encodeURIComponent(at.id) + "/" + item.path, { method: "POST", body: JSON.stringify({ ...item.body, token: at.token }) });
        } catch (e) {
          if (!e.status || e.status >= 500 || e.status === 429) { retryLater(); draw(); return; }
          setQueue([]);
          refused(e, item, items.length - 1);
          await refresh();
          return;
        }
        setQueue(items.slice(1));
        if (item.path === "turns" && answer.turn) {
          at.result = { player: answer.turn.player, points: answer.points, explanations: answer.explanations, notation: answer.turn.notation };
          announce(resultLine(at.result));
        } else at.result = null;
      }
      await refresh();
    } finally { at.flushing = null; }
  })();
  return at.flushing;
}

function refused(e, item, dropped) {
  const data = e.data || {};
  at.where = data.where || null;
  if (item.body.placements && !dropped) at.pending = item.body.placements.filter(p => p.includes("=")).map(p => {
    const [cell, value] = p.replace("+", "").split("=");
    const target = at.caps.targets.find(x => x.name === cell);
    return { cell, value: Number(value), extra: p.endsWith("+"), restriction: !!target && target.kind === "restriction" };
  });
  if (item.body.placements && !dropped) at.diago = item.body.placements[0] === "diago";
  at.error = e.status === 409 ? t("Another phone entered a turn first: the game is shown as it is now.") : e.message;
  if (dropped) at.error += " " + nt("({count} more entry was not sent.)", "({count} more entries were not sent.)", dropped);
  announce(at.error);
}

let retrying = null;
function retryLater() {
  if (retrying) return;
  retrying = setTimeout(() => { retrying = null; flush(); }, 5000);
}

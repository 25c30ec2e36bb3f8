// Mathable in the browser: no build step. Every rule is the server's; this page draws
// the view it receives and sends actions in notation (I8=12, end, pass, A=32...).
// It never asks which game it shows: a game's capabilities (/api/variants) say what to
// draw (surface, targets, columns), which actions exist and what a piece is called, and
// each view says what the seat may place (playable) and do now (available).
"use strict";

const app = document.getElementById("app");
const state = { variants: [], bots: [], view: null, tokens: {}, picked: null, cursor: null,
  exchange: null, hinted: [], socket: null, socketToken: null, covered: null, passAndPlay: false, note: "" };

// What each action keyword's button says, and its key, in the order they are offered.
// Placing is done on the surface. A stop is a proposal (J4) and a game-ending turn waits
// for a challenge (C12): the players asked answer with accept or decline.
const BUTTONS = {
  end: ["End turn", "e"], pass: ["Pass", "p"], exchange: ["Exchange", "x"], challenge: ["Challenge", null],
  stop: ["Propose to stop", null], accept: ["Accept", null], decline: ["Decline", null],
  draw: ["Draw", "d"], penalty: ["Penalty", null], diago: ["DIAGO", null],
};
const SYMBOLS = { x: "×", "/": "÷", "-": "−" };

// ---------------------------------------------------------------- preferences

// Dark mode follows the system's setting until the switch chooses; the choice is kept.
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
function dark() {
  const chosen = localStorage.getItem("mathable:theme");
  return chosen ? chosen === "dark" : systemDark.matches;
}
function applyTheme() {
  const chosen = localStorage.getItem("mathable:theme");
  if (chosen) document.documentElement.dataset.theme = chosen; else delete document.documentElement.dataset.theme;
  document.getElementById("theme").setAttribute("aria-pressed", String(dark()));
}
document.getElementById("theme").addEventListener("click", () => {
  localStorage.setItem("mathable:theme", dark() ? "light" : "dark");
  applyTheme();
});
systemDark.addEventListener("change", applyTheme);
applyTheme();

// Sound for your turn and for a move: off until the switch turns it on (kept), a short
// Web Audio beep, so nothing is downloaded.
function soundOn() { return localStorage.getItem("mathable:sound") === "on"; }
function applySound() { document.getElementById("sound").setAttribute("aria-pressed", String(soundOn())); }
document.getElementById("sound").addEventListener("click", () => {
  localStorage.setItem("mathable:sound", soundOn() ? "off" : "on");
  applySound();
  if (soundOn()) beep(660);
});
applySound();
function beep(frequency, seconds = 0.12) {
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

// The tab's title says when it is your turn, so a player in another tab sees it.
function setTitle(v) {
  const brand = document.querySelector("header .brand").textContent;
  document.title = v && myTurn() ? "● Your turn — " + brand : v && v.over ? "Game over — " + brand : brand;
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") el.style.cssText = v;  // through the CSSOM: the CSP forbids inline style attributes
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json" }, ...options });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!response.ok) throw Object.assign(new Error((data && data.error) || response.statusText), { status: response.status, data });
  return data;
}

function say(text, error = false) {
  const el = document.getElementById("message");
  if (el) { el.textContent = text; el.className = error ? "error" : ""; }
  if (error) announce(text);
}

// The polite live region (in index.html, outside the redrawn page): moves and refusals
// reach screen readers without moving their focus.
function announce(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

// One dialog at a time: role=dialog and aria-modal (index.html), focus kept inside,
// Esc, a click outside or its Close button (always in sight, at its top) closes it.
function modal(...content) {
  const box = document.getElementById("modal-box");
  box.replaceChildren(...content);
  const title = box.querySelector("h1, h2, h3, #modal-question");
  if (title) title.id = title.id || "modal-title";
  if (title) box.setAttribute("aria-labelledby", title.id); else box.removeAttribute("aria-labelledby");
  state.returnFocus = document.activeElement;
  document.getElementById("modal").hidden = false;
  const first = box.querySelector("button, a[href], input, select, [tabindex]");
  (first || box).focus();
}
function modalOpen() { return !document.getElementById("modal").hidden; }
function closeModal() {
  document.getElementById("modal").hidden = true;
  const cancel = state.onCancel;
  state.onCancel = null;
  if (cancel) cancel();
  if (state.returnFocus && state.returnFocus.isConnected) state.returnFocus.focus();
}
function onModalKey(e) {
  if (e.key === "Escape") { e.preventDefault(); closeModal(); return; }
  if (e.key !== "Tab") return;
  const items = [...document.querySelectorAll("#modal-box button, #modal-box a[href], #modal-box input, #modal-box select")];
  if (!items.length) { e.preventDefault(); return; }
  const [first, last] = [items[0], items[items.length - 1]];
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  else if (!document.getElementById("modal-box").contains(document.activeElement)) { e.preventDefault(); first.focus(); }
}
document.getElementById("modal").addEventListener("click", e => { if (e.target.id === "modal") closeModal(); });
document.addEventListener("keydown", e => { if (modalOpen()) { onModalKey(e); e.stopImmediatePropagation(); } }, true);

function ask(question) {
  return new Promise(resolve => {
    const answer = yes => { state.onCancel = null; closeModal(); resolve(yes); };
    modal(h("p", { id: "modal-question" }, question), h("div", { class: "row" },
      h("button", { class: "primary", id: "yes", onclick: () => answer(true) }, "Yes"),
      h("button", { id: "no", onclick: () => answer(false) }, "No")));
    state.onCancel = () => resolve(false);
  });
}

// ---------------------------------------------------------------- capabilities

function capsOf(name) {
  const found = state.variants.find(v => v.name === name);
  return found ? found.capabilities : null;
}
function caps() { return capsOf(state.view.variant); }
function pieces(c = caps()) { return c.piece + "s"; }
function count(n, c = caps()) { return n + " " + (n === 1 ? c.piece : pieces(c)); }
function offers(action, c = caps()) { return c.actions.includes(action); }

// ---------------------------------------------------------------- home page

// The header names the game beside the brand, unless its title is the brand itself.
function setWhere(title) {
  const brand = document.querySelector("header .brand").textContent;
  document.getElementById("where").textContent = title === brand ? "" : title;
}

async function home() {
  setWhere("");
  [state.variants, state.bots] = await Promise.all([api("/api/variants"), api("/api/bots")]);
  const variant = h("select", { id: "variant", "aria-label": "game", onchange: fitForm }, state.variants.map(v => h("option", { value: v.name }, v.title + " (" + v.name + ")")));
  const kinds = () => [h("option", { value: "" }, "person"), ...state.bots.map(b => h("option", { value: b.name }, "computer: " + b.name))];
  const most = Math.max(...state.variants.map(v => v.max_players));
  const seats = [...Array(most).keys()].map(i => {
    const kind = h("select", { id: "kind" + i, "aria-label": "player " + (i + 1) + " is" }, i >= 2 ? [h("option", { value: "none" }, "no player"), ...kinds()] : kinds());
    if (i === 1) kind.value = "greedy";
    return h("div", { class: "row seat", id: "seat" + i }, h("input", { id: "name" + i, value: ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"][i] || "Player " + (i + 1), "aria-label": "name " + (i + 1) }), kind);
  });
  const mode = h("select", { id: "mode", "aria-label": "play", onchange: fitMode }, h("option", { value: "screen" }, "everyone at this screen (pass and play)"),
    h("option", { value: "online" }, "online: a private link for each person"));
  const houseRules = [...new Set(state.variants.flatMap(v => v.capabilities.house_rules))];
  const rules = houseRules.map(r => h("label", { id: "rule-" + r }, h("input", { type: "checkbox", id: r, "data-rule": r }), " " + r.replaceAll("_", " ")));
  const form = h("fieldset", {}, h("legend", {}, "New game"),
    h("div", { class: "row" }, "Game ", variant), h("p", { id: "about", class: "about" }), ...seats,
    h("div", { class: "row" }, "Play ", mode),
    h("div", { class: "row", id: "rules" }, ...rules),
    h("div", { class: "row" }, h("input", { id: "seed", placeholder: "seed (optional)", inputmode: "numeric", "aria-label": "seed" }),
      h("span", { id: "rounds-row" }, h("input", { id: "rounds", value: "1", size: 3, inputmode: "numeric", "aria-label": "rounds" }), " rounds")),
    h("button", { class: "primary", id: "create", onclick: createGame }, "Start"));
  const list = h("div", { id: "games" }, "…");
  const upload = h("fieldset", {}, h("legend", {}, "Records and score sheets"),
    h("div", { class: "row" }, "Game record: ", h("input", { type: "file", id: "record-file", accept: ".json", "aria-label": "game record file", onchange: uploadRecord })),
    h("div", { class: "row" }, "Score sheet of ", h("select", { id: "sheet-variant", "aria-label": "the score sheet's game" },
      state.variants.filter(v => v.capabilities.score_sheets).map(v => h("option", { value: v.name }, v.title))), ": ",
      h("input", { type: "file", id: "sheet-file", accept: ".txt", "aria-label": "score sheet file", onchange: uploadSheet })),
    h("div", { id: "sheet" }));
  app.replaceChildren(h("div", { class: "layout" }, h("div", {}, form, upload), h("div", { class: "side" }, h("h3", {}, "Games"), list)),
    h("div", { id: "message" }));
  fitForm();
  document.querySelectorAll("[id^=kind]").forEach(select => select.addEventListener("change", fitMode));
  try {
    const games = await api("/api/games");
    const title = name => (state.variants.find(v => v.name === name) || { title: name }).title;
    list.replaceChildren(games.length ? h("table", {}, games.map(g => h("tr", {},
      h("td", {}, h("a", { href: "/g/" + g.id }, title(g.variant))),
      h("td", {}, g.players.join(" · ")), h("td", {}, g.scores.join(" – ")),
      h("td", {}, g.over ? "finished" : "playing"), h("td", {}, g.mode === "online" ? "online" : "one screen")))) : "No games yet.");
  } catch (e) { list.textContent = e.message; }
}

// The form offers what the chosen game has: its seats, house rules and rounds.
function fitForm() {
  const c = capsOf(document.getElementById("variant").value);
  document.getElementById("about").textContent = c.summary;
  document.querySelectorAll(".seat").forEach((row, i) => { row.hidden = i >= c.max_players; });
  document.querySelectorAll("[data-rule]").forEach(box => {
    const offered = c.house_rules.includes(box.dataset.rule);
    box.parentElement.hidden = !offered;
    if (!offered) box.checked = false;
  });
  document.getElementById("rounds-row").hidden = !c.rounds;
  fitMode();
}

// O1, O2: an online game (two people or more, each on a device) is dealt by the server,
// so it takes no seed, and hints are off unless chosen; at one screen they are on.
function onlineChosen() {
  const people = [...document.querySelectorAll(".seat")].filter((row, i) => !row.hidden && document.getElementById("kind" + i).value === "").length;
  return document.getElementById("mode").value === "online" && people > 1;
}
function fitMode() {
  const online = onlineChosen();
  const seed = document.getElementById("seed");
  seed.disabled = online;
  seed.placeholder = online ? "online: the server deals" : "seed (optional)";
  if (online) seed.value = "";
  const hints = document.getElementById("hints");
  if (hints) hints.checked = !online;
}

async function createGame() {
  const c = capsOf(document.getElementById("variant").value);
  const players = [];
  document.querySelectorAll(".seat").forEach((row, i) => {
    const kind = document.getElementById("kind" + i).value;
    if (row.hidden || kind === "none") return;
    players.push({ name: document.getElementById("name" + i).value, bot: kind || null });
  });
  const seedText = document.getElementById("seed").value.trim();
  const mode = document.getElementById("mode").value;
  const spec = { variant: c.name, players, mode,
    house_rules: Object.fromEntries(c.house_rules.map(r => [r, document.getElementById(r).checked])) };
  if (c.rounds) spec.rounds = Number(document.getElementById("rounds").value || 1);
  if (seedText) spec.seed = Number(seedText);
  try {
    const made = await api("/api/games", { method: "POST", body: JSON.stringify(spec) });
    const tokens = {};
    made.seats.forEach(s => { if (s.token) tokens[s.seat] = s.token; });
    if (made.mode === "screen") {
      localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
      location.href = "/g/" + made.id + "?screen=1";
    } else {
      showLinks(made);
    }
  } catch (e) { say(e.message, true); }
}

// Online: the creator's own private link, and one invitation per other person. An
// invitation works once: whoever follows it first gets that seat, and the page shows it.
function showLinks(made) {
  const base = location.origin + "/g/" + made.id;
  const mine = made.seats.find(s => s.token);
  app.replaceChildren(h("h2", {}, "Send each person their invitation"),
    h("div", { class: "links" }, made.seats.filter(s => s.invite).map(s =>
      h("p", {}, h("b", {}, s.name), h("input", { readonly: true, value: location.origin + s.invite, class: "invite-link", "data-seat": s.seat })))),
    h("p", {}, "Each invitation opens its seat once, for the first person who follows it; every player sees which seats are taken."),
    mine ? h("p", {}, h("b", {}, "Your own seat (" + mine.name + "): "), h("a", { href: base + "?t=" + mine.token, id: "my-link", class: "seat-link", "data-seat": mine.seat }, "play"), " — keep this link private.") : "",
    h("p", {}, "Spectators: ", h("a", { href: base }, base)));
}

async function uploadRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const made = await api("/api/records", { method: "POST", body: await file.text() });
    const tokens = {};
    made.seats.forEach(s => { tokens[s.seat] = s.token; });
    localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
    location.href = "/g/" + made.id + "?screen=1";
  } catch (e) { say(e.message, true); }
}

async function uploadSheet(event) {
  const file = event.target.files[0];
  if (!file) return;
  const body = { text: await file.text(), variant: document.getElementById("sheet-variant").value };
  try {
    const sheet = await api("/api/transcripts", { method: "POST", body: JSON.stringify(body) });
    document.getElementById("sheet").replaceChildren(h("table", {}, sheet.turns.map((t, i) => h("tr", {},
      h("td", {}, i + 1), h("td", {}, t.player), h("td", {}, t.placements.map(p => p.cell + "=" + p.value + " (" + p.points + ")").join(" ") || t.kind),
      h("td", {}, t.points + (t.bonus ? " incl. " + t.bonus + " bonus" : ""))))),
      h("p", { id: "totals" }, "Totals: " + Object.entries(sheet.totals).map(([p, t]) => p + " " + t).join(", ")));
  } catch (e) { say(e.message, true); }
}

// ---------------------------------------------------------------- game page

async function gamePage(id) {
  const params = new URLSearchParams(location.search);
  state.passAndPlay = params.has("screen");
  state.tokens = JSON.parse(localStorage.getItem("mathable:" + id) || "{}");
  const invite = params.get("invite");
  if (invite) return join(id, invite);
  const token = params.get("t");
  if (token) state.tokens = { link: token };
  state.variants = await api("/api/variants");
  if (params.has("replay")) return replayPage(id);
  connect(id);
  document.addEventListener("keydown", onKey);
}

// Follow an invitation: claim the seat (once), then play it from its private link.
async function join(id, invite) {
  try {
    const joined = await api("/api/games/" + id + "/join", { method: "POST", body: JSON.stringify({ invite }) });
    localStorage.setItem("mathable:" + id, JSON.stringify({ [joined.seat]: joined.token }));
    history.replaceState(null, "", "/g/" + id + "?t=" + encodeURIComponent(joined.token));
    state.note = "You play " + joined.name + ". This page's address is your private link: keep it to come back.";
    await gamePage(id);
  } catch (e) {
    app.replaceChildren(h("p", { id: "message", class: "error" }, e.message));
  }
}

function tokenFor(view) {
  if (state.tokens.link) return state.tokens.link;
  if (view && state.tokens[view.to_move] && !view.over) return state.tokens[view.to_move];
  return Object.values(state.tokens)[0] || null;
}

async function connect(id) {
  const first = await api("/api/games/" + id + (tokenFor(null) ? "?token=" + encodeURIComponent(tokenFor(null)) : "")).catch(e => { app.textContent = e.message; });
  if (!first) return;
  openSocket(id, tokenFor(first));
}

function openSocket(id, token) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); }
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/games/" + id + "/ws" + (token ? "?token=" + encodeURIComponent(token) : "");
  const socket = new WebSocket(url);
  state.socket = socket;
  state.socketToken = token;
  socket.onopen = () => connection(true);
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "view") receive(message.view);
    else if (message.type === "error") say(message.error, true);
  };
  socket.onclose = () => {
    if (state.socket !== socket) return;
    connection(false);
    setTimeout(() => { if (state.socket === socket) openSocket(id, token); }, 1000);
  };
}

// A banner while the socket is closed; reconnecting removes it (the server resends the view).
function connection(up) {
  let banner = document.getElementById("connection");
  if (up) { if (banner) { banner.remove(); announce("Connected again."); } return; }
  if (banner) return;
  banner = h("div", { id: "connection", class: "connection", role: "alert" }, "Connection lost: reconnecting…");
  document.body.prepend(banner);
}

function receive(view) {
  const moved = !state.view || view.seq !== state.view.seq;
  const before = state.view ? state.view.summaries.length : null;
  state.view = view;
  if (moved) { state.picked = null; state.exchange = null; state.hinted = []; }
  if (before !== null && view.summaries.length > before) {
    const s = view.summaries[view.summaries.length - 1];
    if (view.seat !== null && view.seat === view.to_move && !view.over) beep(880, 0.18); else beep(520);
    announce(view.players[s.seat] + ": " + describe(s, capsOf(view.variant)) + (view.over ? ". Game over." : ""));
  }
  // pass and play: follow the person to move, behind a cover
  const wanted = tokenFor(view);
  if (state.passAndPlay && wanted && wanted !== state.socketToken) {
    openSocket(view.id, wanted);
    return;
  }
  render();
}

function hintsOn(v) { return Boolean(v.house_rules && v.house_rules.hints); }

function myTurn() { const v = state.view; return v.seat !== null && v.seat === v.to_move && !v.over; }
function can(action) { return state.view.available.includes(action); }
function people() { return state.view.seats.filter(s => !s.bot).length; }

// Where the keyboard focus was, to put it back after a redraw: by id, rack place or target.
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !app.contains(el)) return null;
  if (el.dataset && el.dataset.index !== undefined) return '#board [data-index="' + (state.cursor ?? el.dataset.index) + '"]';
  if (el.classList.contains("tile")) return "#rack button.tile:nth-child(" + ([...el.parentElement.children].indexOf(el) + 1) + ")";
  return el.id ? "#" + el.id : null;
}

function render() {
  const focused = focusKey();
  drawPage();
  const again = focused && document.querySelector(focused);
  if (again && !again.disabled) again.focus();
}

function drawPage() {
  const v = state.view;
  setWhere(v.title);
  setTitle(v);
  const turn = v.summaries.length + ":" + v.seat;
  if (state.passAndPlay && myTurn() && state.covered !== turn && Object.keys(state.tokens).length > 1 && people() > 1) {
    state.coverUp = true;
    app.replaceChildren(h("div", { class: "cover" }, h("h2", {}, "Pass the screen to " + v.players[v.seat]),
      h("button", { class: "primary", id: "uncover", onclick: () => { state.covered = turn; render(); } }, "I am " + v.players[v.seat] + ": show my " + pieces())));
    return;
  }
  state.coverUp = false;
  const rack = h("div", { class: "rack", id: "rack", role: "group", "aria-label": "your " + pieces() }, v.playable.map((value, i) => {
    const classes = ["tile"];
    if (state.picked === i) classes.push("picked");
    if (state.exchange && state.exchange.has(i)) classes.push("chosen");
    return h("button", { class: classes.join(" "), "data-value": value, onclick: () => pick(i), disabled: !myTurn() }, value);
  }));
  const controls = h("div", { class: "row", id: "controls" }, actionButtons(v));
  app.replaceChildren(h("div", { class: "layout" },
    h("div", { class: "main" }, drawSurface(v), h("p", { id: "status" }, v.status),
      v.seat !== null ? rack : v.over ? "" : h("p", { id: "watching" }, "Watching: the " + pieces() + " in hand are private."), controls,
      h("div", { id: "message" }, v.notice)),
    h("div", { class: "side" }, scores(v), table(v), card(v), moves(v))));
  if (v.over) app.prepend(summary(v));
  const list = document.querySelector("#moves ol");
  list.scrollTop = list.scrollHeight;  // the latest turn in sight
}

// The surface, drawn from the capabilities: a grid of `columns` targets, row after row;
// on a board each target is a square, on piles a card pile with its note (its count).
// Each target is a button named for screen readers ("H8, 4", "I8, empty, times square");
// one of them (the cursor) is in the tab order and arrow keys move it (roving focus).
// A board whose targets are named column letter + row number gets its coordinates drawn.
// This turn's placements ("current") and the other placements of the last turns ("last")
// are marked apart: by colour and by a corner mark.
function drawSurface(v) {
  const c = capsOf(v.variant);
  const board = c.surface === "board";
  const legal = state.picked !== null ? legalTargetsFor(v.playable[state.picked]) : new Set();
  const turn = v.turn || {};
  const current = new Set([...(turn.placements || []).map(p => p.cell), ...(turn.plays || []).map(p => p.pile)]);
  const recent = new Set((v.recent || []).filter(name => !current.has(name)));
  const hinted = new Set(state.hinted);
  const notes = v.target_notes || [];
  const coords = board ? coordinates(c) : null;
  const track = board ? "var(--cell)" : "var(--pile)";
  const grid = h("div", { class: board ? "board" : "piles", id: "board", role: "group", "aria-label": board ? "board" : "piles",
    style: "grid-template-columns: " + (coords ? "var(--coord) " : "") + "repeat(" + c.columns + ", " + track + ")" });
  if (coords) grid.append(h("span", { class: "coord", "aria-hidden": "true" }), ...coords.columns.map(l => h("span", { class: "coord", "aria-hidden": "true" }, l)));
  const focusAt = state.cursor !== null ? state.cursor : Math.floor(c.targets.length / 2);
  c.targets.forEach((t, i) => {
    if (coords && i % c.columns === 0) grid.append(h("span", { class: "coord", "aria-hidden": "true" }, coords.rows[i / c.columns]));
    const value = v.surface[i];
    const classes = [board ? "cell" : "pile", t.kind];
    if (legal.has(t.name)) classes.push("legal");
    if (current.has(t.name)) classes.push("current");
    if (recent.has(t.name)) classes.push("last");
    if (hinted.has(t.name)) classes.push("hinted");
    if (state.cursor === i) classes.push("cursor");
    const content = board
      ? (value >= 0 ? h("span", { class: "tok" }, value) : SYMBOLS[t.label] || t.label)
      : [h("small", {}, t.label + (notes[i] ? " · " + notes[i] : "")), value >= 0 ? h("span", { class: "top" }, value) : ""];
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": t.name, "data-index": i, title: t.name,
      "aria-label": targetName(t, value, notes[i], legal.has(t.name), current.has(t.name), recent.has(t.name)),
      tabindex: i === focusAt ? "0" : "-1", onclick: () => { state.cursor = i; place(i); } }, content));
  });
  return grid;
}

const LABEL_WORDS = { x: "times", "/": "divided by", "+": "plus", "-": "minus" };

// A target's accessible name: its name, what is on it (or "empty") and what the square is.
function targetName(t, value, note, legal, current, last) {
  const parts = [t.name, value >= 0 ? String(value) : "empty"];
  if (t.label && t.label !== t.name) parts.push((LABEL_WORDS[t.label] || t.label) + (t.kind === "pile" ? "" : " square"));
  if (note) parts.push(note);
  if (current) parts.push("placed this turn");
  else if (last) parts.push("last turn");
  if (legal) parts.push("legal");
  return parts.join(", ");
}

// Column letters and row numbers, read off the targets' own names (letters then digits);
// null when the names are not of that form.
function coordinates(c) {
  const parse = name => /^([A-Z]+)(\d+)$/.exec(name);
  const rows = Math.ceil(c.targets.length / c.columns);
  const columns = c.targets.slice(0, c.columns).map(t => parse(t.name));
  const starts = [...Array(rows).keys()].map(r => c.targets[r * c.columns] && parse(c.targets[r * c.columns].name));
  if (columns.some(m => !m) || starts.some(m => !m)) return null;
  return { columns: columns.map(m => m[1]), rows: starts.map(m => m[2]) };
}

function legalTargetsFor(value) {
  return new Set(state.view.legal.map(a => a.match(/^([A-Z]\d*)=(\d+)\+?$/)).filter(m => m && Number(m[2]) === value).map(m => m[1]));
}

function actionButtons(v) {
  const c = capsOf(v.variant);
  const button = action => {
    const [label, key] = BUTTONS[action];
    let text = action === "penalty" ? label + " " + c.piece : label;
    if (action === "exchange" && state.exchange) text = "Exchange the chosen";
    else if (key) text += " (" + key + ")";
    return h("button", { id: action, onclick: () => (action === "exchange" ? exchange() : send(action)) }, text);
  };
  const offered = Object.keys(BUTTONS).filter(a => v.available.includes(a));
  if (!myTurn()) {
    const out = offered.map(button);
    const bot = !v.over && v.seats[v.to_move] && v.seats[v.to_move].bot;
    if (bot) out.push(h("span", { id: "thinking", class: "thinking", role: "status" }, v.players[v.to_move] + " is thinking…"));
    else if (!v.over) out.push(h("span", {}, v.seat === null ? "" : "Waiting for " + v.players[v.to_move] + "…"));
    return out;
  }
  return [...offered.map(button),
    hintsOn(v) ? h("button", { id: "hint", onclick: hint }, "Hint (h)") : "",
    h("label", { for: "notation", class: "notation-label" }, "Type a move"),
    h("input", { id: "notation", placeholder: "e.g. " + example(v, c), size: 10, onkeydown: e => { if (e.key === "Enter") { send(e.target.value); e.target.value = ""; } } })];
}

// An example of notation from this game's own targets and this seat's pieces.
function example(v, c) {
  const mine = v.legal.find(a => a.includes("="));
  if (mine) return mine.replace(/\+$/, "");
  return c.targets[0].name + "=" + (v.playable.length ? v.playable[0] : "…");
}

async function hint() {
  try {
    const data = await api("/api/games/" + state.view.id + "/hint?token=" + encodeURIComponent(state.socketToken));
    state.hinted = data.turns.length ? data.turns[0].cells : [];
    render();
    say("Hint: " + (data.turns.map(t => t.turn + (t.points !== null ? " (" + t.points + ")" : "")).join("; ") || "nothing to place: " + [...state.view.available].filter(a => BUTTONS[a]).join(" or ")));
  } catch (e) { say(e.message, true); }
}

function pick(i) {
  if (!myTurn() || i >= state.view.playable.length) return;  // a key beyond the rack does nothing
  const c = caps();
  if (state.exchange) {
    if (state.exchange.has(i)) state.exchange.delete(i);
    else if (c.exchange_exactly === 1) state.exchange = new Set([i]);
    else if (!c.exchange_exactly || state.exchange.size < c.exchange_exactly) state.exchange.add(i);
  } else {
    state.picked = state.picked === i ? null : i;
  }
  render();
  if (state.picked !== null) {
    const value = state.view.playable[state.picked];
    const n = legalTargetsFor(value).size;
    say(value + " chosen: " + (n ? n + " legal place" + (n > 1 ? "s" : "") + " lit" : "no legal place"));
  }
}

async function place(i) {
  if (!myTurn()) return;
  const v = state.view;
  const target = caps().targets[i];
  if (state.picked === null) { say("Pick one of your " + pieces() + " first."); return; }
  let text = target.name + "=" + v.playable[state.picked];
  if (v.legal.includes(text + "+")) {
    if (await ask(target.name + ": take an extra " + caps().piece + " now? (rule C7)")) text += "+";
  }
  send(text);
}

function exchange() {
  const v = state.view;
  const c = caps();
  if (!state.exchange) {
    state.exchange = new Set(); state.picked = null; render();
    const how = c.exchange_exactly ? c.exchange_exactly + " of your " + pieces() : "the " + pieces() + " to give back";
    say("Choose " + how + ", then press Exchange again.");
    return;
  }
  const values = [...state.exchange].map(i => v.playable[i]);
  state.exchange = null;
  if (!values.length) { render(); return; }
  send("exchange " + values.join(","));
}

function send(text) {
  if (!text || !state.socket) return;
  state.socket.send(JSON.stringify({ action: text.trim(), seq: state.view.seq }));
}

function onKey(e) {
  if (!state.view || !state.view.available || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (state.coverUp || e.ctrlKey || e.metaKey || e.altKey) return;  // nothing acts behind the pass-and-play cover
  if ((e.key === "Enter" || e.key === " ") && e.target.tagName === "BUTTON") return;  // the button's own click
  if (/^[1-9]$/.test(e.key)) { pick(Number(e.key) - 1); return; }
  const keyed = Object.keys(BUTTONS).find(a => BUTTONS[a][1] === e.key);
  if (keyed && can(keyed)) { keyed === "exchange" ? exchange() : send(keyed); return; }
  if (e.key === "h" && myTurn() && hintsOn(state.view)) { hint(); return; }
  const c = caps();
  const count = c.targets.length, columns = c.columns, rows = Math.ceil(count / columns);
  const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (d) {
    const at = state.cursor === null ? Math.floor(count / 2) : state.cursor;
    const r = Math.max(0, Math.min(rows - 1, Math.floor(at / columns) + d[0]));
    const col = Math.max(0, Math.min(columns - 1, at % columns + d[1]));
    state.cursor = Math.min(count - 1, r * columns + col);
    e.preventDefault();
    render();
  } else if (e.key === "Enter" && state.cursor !== null) {
    place(state.cursor);
  }
}

function scores(v) {
  const c = capsOf(v.variant);
  const open = v.open_racks || [];
  return h("table", { id: "scores" }, v.players.map((p, i) => h("tr", {},
    h("td", {}, !v.over && v.to_move === i ? "▶" : ""), h("td", {}, p + (v.seats[i].bot ? " (" + v.seats[i].bot + ")" : "")),
    h("td", { class: "score", title: c.score_unit }, v.scores[i]),
    h("td", { class: "held" }, open[i] ? open[i].join(" ") || "none left" : count(v.rack_sizes[i], c)))),
    h("tr", {}, h("td", {}), h("td", { colspan: 3 }, "Left to draw: " + count(v.bag_size, c))));
}

// What every seat knows about how this game is played: where (online or at one screen),
// its house rules (O2: "hints allowed" when on), and who has taken their seat.
function table(v) {
  const on = Object.entries(v.house_rules || {}).filter(([, value]) => value).map(([rule]) => rule === "hints" ? "hints allowed" : rule.replaceAll("_", " "));
  const where = v.mode === "online" ? "Online: dealt by the server, its seed shown at the end." : "Played at one screen.";
  const waiting = v.seats.map((s, i) => s.claimed ? null : v.players[i]).filter(Boolean);
  return h("div", { class: "table-rules", id: "table" },
    state.note ? h("p", { id: "joined" }, state.note) : "",
    h("p", { id: "mode-note" }, where),
    h("p", { id: "house-rules" }, h("b", {}, "House rules: "), on.length ? on.join(", ") : "none (no hints)"),
    waiting.length ? h("p", { id: "unclaimed" }, "Invited, not joined yet: " + waiting.join(", ")) : "",
    hintsOn(v) && v.seat !== null && !v.over ? h("button", { id: "my-analysis", onclick: () => analysis(v.id, state.socketToken) }, "Analysis of my turns") : "");
}

function card(v) {
  return h("p", { class: "card" }, h("b", {}, "Unseen: "), Object.entries(v.unseen).filter(([, n]) => n).map(([val, n]) => n > 1 ? val + "×" + n : val).join(" "));
}

// The move list: each turn with its points and every player's running total after it.
function moves(v) {
  const c = capsOf(v.variant);
  const points = c.score_unit === "points";
  const totals = v.players.map(() => 0);
  return h("div", { class: "moves", id: "moves" }, h("b", { id: "moves-title" }, "Moves"), h("ol", { tabindex: "0", "aria-labelledby": "moves-title" }, v.summaries.map(s => {
    totals[s.seat] += s.points;
    return h("li", {}, h("span", { class: "move" }, v.players[s.seat] + ": " + s.notation + (s.note ? " (" + s.note + ")" : "")),
      points ? [" ", h("span", { class: "pts" }, "+" + s.points), " ", h("span", { class: "totals" }, "→ " + v.players.map((p, i) => p + " " + totals[i]).join(" · "))] : "");
  })));
}

// Running totals per player after each turn, from the summaries: [[0, ...], ...] per player.
function runningTotals(v) {
  const lines = v.players.map(() => [0]);
  v.summaries.forEach(s => lines.forEach((line, i) => line.push(line[line.length - 1] + (s.seat === i ? s.points : 0))));
  return lines;
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children.flat(Infinity)) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// Game over: the score per turn, one labelled line per player, drawn here from the turns
// (and a last step to the final scores where the rules deduct what was left in hand),
// with the same numbers in words for those who do not see it.
function scoreGraph(v) {
  const c = capsOf(v.variant);
  if (c.score_unit !== "points" || !v.summaries.length) return "";
  const lines = runningTotals(v);
  const turns = v.summaries.length;
  const deducted = v.over && lines.some((line, i) => line[line.length - 1] !== v.scores[i]);
  if (deducted) lines.forEach((line, i) => line.push(v.scores[i]));
  const W = 600, H = 240, L = 44, R = 90, T = 12, B = 28;
  const top = Math.max(1, ...lines.flat()), bottom = Math.min(0, ...lines.flat());
  const x = t => L + (t * (W - L - R)) / (lines[0].length - 1);
  const y = p => T + (H - T - B) * (top - p) / (top - bottom);
  const words = v.players.map((p, i) => p + ": " + lines[i][turns] + " points after " + turns + " turns"
    + (deducted ? ", " + v.scores[i] + " at the end" : "")).join("; ");
  // labels at the lines' ends, kept 14 px apart
  const ends = lines.map((line, i) => ({ i, y: y(line[line.length - 1]) + 4 })).sort((a, b) => a.y - b.y);
  ends.forEach((e, k) => { if (k && e.y < ends[k - 1].y + 14) e.y = ends[k - 1].y + 14; });
  const labelY = Object.fromEntries(ends.map(e => [e.i, e.y]));
  return h("figure", { id: "score-graph", class: "graph" },
    svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "graph-title graph-desc" },
      svg("title", { id: "graph-title" }, "Score per turn"), svg("desc", { id: "graph-desc" }, words),
      svg("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }), svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: y(bottom) }),
      svg("text", { class: "tick", x: L - 4, y: y(top) + 4, "text-anchor": "end" }, top), svg("text", { class: "tick", x: L - 4, y: y(0) + 4, "text-anchor": "end" }, 0),
      bottom < 0 ? svg("text", { class: "tick", x: L - 4, y: y(bottom) + 4, "text-anchor": "end" }, bottom) : "",
      svg("text", { class: "tick", x: W - R, y: H - 8, "text-anchor": "end" }, "turn " + turns + (deducted ? ", then the end" : "")),
      lines.map((line, i) => [
        svg("polyline", { class: "series s" + (i % 4), "data-player": v.players[i], fill: "none", points: line.map((p, t) => x(t).toFixed(1) + "," + y(p).toFixed(1)).join(" ") }),
        svg("text", { class: "label s" + (i % 4), x: W - R + 6, y: labelY[i] }, v.players[i] + " " + line[line.length - 1])])),
    h("figcaption", {}, "Score per turn. " + words + "."));
}

function describe(s, c) {
  const extras = [];
  if (c.score_unit === "points" && s.points) extras.push(s.points);
  if (s.note) extras.push(s.note);
  return s.notation + (extras.length ? " (" + extras.join(", ") + ")" : "");
}

function summary(v) {
  const c = capsOf(v.variant);
  const winners = (v.winners || []).map(i => v.players[i]).join(" and ");
  return h("div", { class: "summary", id: "summary" }, h("h2", { id: "winner" }, "Game over: " + winners + " won"),
    h("p", {}, v.end_reason + ". " + v.players.map((p, i) => p + " " + v.scores[i]).join(", ") + (c.score_unit === "points" ? "" : " (" + c.score_unit + ")")),
    finalRacks(v, c),
    scoreGraph(v),
    v.seed !== undefined && v.seed !== null ? h("p", { id: "seed-shown" }, "The deal's seed: " + v.seed) : "",
    h("div", { class: "row" },
      h("a", { href: "/g/" + v.id + "?replay", id: "replay-link" }, "Replay"), " · ",
      h("a", { href: "/api/games/" + v.id + "/record", download: "mathable-" + v.id + ".json" }, "Download the record"),
      c.score_sheets ? [" · ", h("a", { href: "/api/games/" + v.id + "/transcript", download: "mathable-" + v.id + ".txt", id: "transcript-link" }, "the score sheet")] : "",
      h("button", { id: "analysis", onclick: () => analysis(v.id) }, "Analysis")));
}

// Game over: what each player still held, and what it cost them where the rules deduct it.
function finalRacks(v, c) {
  const open = v.open_racks || [];
  if (!open.length) return "";
  const deductions = v.deductions || [];
  return h("table", { id: "final-racks" }, h("caption", {}, "Final " + pieces(c)),
    v.players.map((p, i) => h("tr", {}, h("th", { scope: "row" }, p),
      h("td", {}, (open[i] || []).join(" ") || "none left"),
      h("td", {}, deductions[i] ? "−" + deductions[i] + " " + c.score_unit : ""))));
}

async function analysis(id, token = null) {
  try {
    const data = await api("/api/games/" + id + "/analysis" + (token ? "?token=" + encodeURIComponent(token) : ""));
    const cell = x => (x === null || x === undefined ? "" : x);
    modal(h("div", { class: "modal-head" }, h("h3", { id: "modal-title" }, "Analysis"), h("button", { id: "close", onclick: closeModal }, "Close (Esc)")),
      h("div", { class: "analysis", tabindex: "0", role: "region", "aria-label": "the turns analysed" }, h("table", {}, h("tr", {}, ["#", "player", "played", "pts", "best", "pts", "loss"].map(c => h("th", {}, c))),
      data.turns.map(t => h("tr", {}, [t.turn, t.player, t.played, cell(t.points), t.best, cell(t.best_points), t.loss || ""].map(c => h("td", {}, c)))))),
      h("p", {}, data.players.map(p => p.player + ": accuracy " + p.accuracy + "%").join("; ")));
  } catch (e) { say(e.message, true); }
}

async function replayPage(id) {
  let step = 0, total = 0;
  const go = to => { step = Math.max(0, Math.min(total, to)); show(); };
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  const show = async () => {
    const data = await api("/api/games/" + id + "/replay?step=" + step).catch(e => { app.textContent = e.message; });
    if (!data) return;
    step = data.step;
    total = data.total;
    state.view = Object.assign(data.view, { id, seq: step, legal: [], seats: data.view.players.map(() => ({})) });
    setWhere(capsOf(data.view.variant).title);
    app.replaceChildren(h("h2", {}, "Replay"), h("div", { class: "row" },
      h("button", { id: "first", onclick: () => go(0) }, "First (Home)"),
      h("button", { id: "back", onclick: () => go(step - 1) }, "← Back"),
      h("span", { id: "step", role: "status" }, "action " + data.step + " of " + data.total + (data.action ? ": " + data.action : "")),
      h("button", { id: "forward", onclick: () => go(step + 1) }, "Forward →"),
      h("button", { id: "last", onclick: () => go(total) }, "Last (End)"),
      h("a", { href: "/g/" + id }, "back to the game")),
      h("div", { class: "layout" }, h("div", { class: "main" }, drawSurface(data.view), h("p", { id: "status" }, data.view.status)),
        h("div", { class: "side" }, scores(data.view), moves(data.view))));
  };
  await show();
}

// ---------------------------------------------------------------- start

const match = location.pathname.match(/^\/g\/([\w-]+)/);
(match ? gamePage(match[1]) : home()).catch(e => { app.textContent = "Error: " + e.message; });

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
}

function modal(...content) {
  const box = document.getElementById("modal-box");
  box.replaceChildren(...content);
  document.getElementById("modal").hidden = false;
}
function closeModal() { document.getElementById("modal").hidden = true; }

function ask(question) {
  return new Promise(resolve => {
    modal(h("p", {}, question), h("div", { class: "row" },
      h("button", { class: "primary", id: "yes", onclick: () => { closeModal(); resolve(true); } }, "Yes"),
      h("button", { id: "no", onclick: () => { closeModal(); resolve(false); } }, "No")));
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

async function home() {
  document.getElementById("where").textContent = "";
  [state.variants, state.bots] = await Promise.all([api("/api/variants"), api("/api/bots")]);
  const variant = h("select", { id: "variant", onchange: fitForm }, state.variants.map(v => h("option", { value: v.name }, v.title + " (" + v.name + ")")));
  const kinds = () => [h("option", { value: "" }, "person"), ...state.bots.map(b => h("option", { value: b.name }, "computer: " + b.name))];
  const most = Math.max(...state.variants.map(v => v.max_players));
  const seats = [...Array(most).keys()].map(i => {
    const kind = h("select", { id: "kind" + i }, i >= 2 ? [h("option", { value: "none" }, "no player"), ...kinds()] : kinds());
    if (i === 1) kind.value = "greedy";
    return h("div", { class: "row seat", id: "seat" + i }, h("input", { id: "name" + i, value: ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"][i] || "Player " + (i + 1), "aria-label": "name " + (i + 1) }), kind);
  });
  const mode = h("select", { id: "mode", onchange: fitMode }, h("option", { value: "screen" }, "everyone at this screen (pass and play)"),
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
    h("div", { class: "row" }, "Game record: ", h("input", { type: "file", id: "record-file", accept: ".json", onchange: uploadRecord })),
    h("div", { class: "row" }, "Score sheet of ", h("select", { id: "sheet-variant", "aria-label": "the score sheet's game" },
      state.variants.filter(v => v.capabilities.score_sheets).map(v => h("option", { value: v.name }, v.title))), ": ",
      h("input", { type: "file", id: "sheet-file", accept: ".txt", onchange: uploadSheet })),
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
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "view") receive(message.view);
    else if (message.type === "error") say(message.error, true);
  };
  socket.onclose = () => setTimeout(() => { if (state.socket === socket) openSocket(id, token); }, 1000);
}

function receive(view) {
  const moved = !state.view || view.seq !== state.view.seq;
  state.view = view;
  if (moved) { state.picked = null; state.exchange = null; state.hinted = []; }
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

function render() {
  const v = state.view;
  document.getElementById("where").textContent = v.title;
  const turn = v.summaries.length + ":" + v.seat;
  if (state.passAndPlay && myTurn() && state.covered !== turn && Object.keys(state.tokens).length > 1 && people() > 1) {
    app.replaceChildren(h("div", { class: "cover" }, h("h2", {}, "Pass the screen to " + v.players[v.seat]),
      h("button", { class: "primary", id: "uncover", onclick: () => { state.covered = turn; render(); } }, "I am " + v.players[v.seat] + ": show my " + pieces())));
    return;
  }
  const rack = h("div", { class: "rack", id: "rack" }, v.playable.map((value, i) => {
    const classes = ["tile"];
    if (state.picked === i) classes.push("picked");
    if (state.exchange && state.exchange.has(i)) classes.push("chosen");
    return h("button", { class: classes.join(" "), "data-value": value, onclick: () => pick(i), disabled: !myTurn() }, value);
  }));
  const controls = h("div", { class: "row", id: "controls" }, actionButtons(v));
  app.replaceChildren(h("div", { class: "layout" },
    h("div", { class: "main" }, drawSurface(v), h("p", { id: "status" }, v.status),
      v.seat !== null ? rack : h("p", {}, "Watching: the " + pieces() + " in hand are private."), controls,
      h("div", { id: "message" }, v.notice)),
    h("div", { class: "side" }, scores(v), table(v), card(v), moves(v))));
  if (v.over) app.prepend(summary(v));
  const list = document.querySelector("#moves ol");
  list.scrollTop = list.scrollHeight;  // the latest turn in sight
}

// The surface, drawn from the capabilities: a grid of `columns` targets, row after row;
// on a board each target is a square, on piles a card pile with its note (its count).
function drawSurface(v) {
  const c = capsOf(v.variant);
  const board = c.surface === "board";
  const legal = state.picked !== null ? legalTargetsFor(v.playable[state.picked]) : new Set();
  const recent = new Set(v.recent || []);
  const hinted = new Set(state.hinted);
  const notes = v.target_notes || [];
  const grid = h("div", { class: board ? "board" : "piles", id: "board",
    style: "grid-template-columns: repeat(" + c.columns + ", " + (board ? "var(--cell)" : "var(--pile)") + ")" });
  c.targets.forEach((t, i) => {
    const value = v.surface[i];
    const classes = [board ? "cell" : "pile", t.kind];
    if (legal.has(t.name)) classes.push("legal");
    if (recent.has(t.name)) classes.push("last");
    if (hinted.has(t.name)) classes.push("hinted");
    if (state.cursor === i) classes.push("cursor");
    const content = board
      ? (value >= 0 ? h("span", { class: "tok" }, value) : SYMBOLS[t.label] || t.label)
      : [h("small", {}, t.label + (notes[i] ? " · " + notes[i] : "")), value >= 0 ? h("span", { class: "top" }, value) : ""];
    grid.append(h("div", { class: classes.join(" "), "data-cell": t.name, title: t.name, onclick: () => place(i) }, content));
  });
  return grid;
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
    if (!v.over) out.push(h("span", {}, v.seat === null ? "" : "Waiting for " + v.players[v.to_move] + "…"));
    return out;
  }
  return [...offered.map(button),
    hintsOn(v) ? h("button", { id: "hint", onclick: hint }, "Hint (h)") : "",
    h("input", { id: "notation", placeholder: "or type " + (v.legal.find(a => a.includes("=")) || c.targets[0].name + "=…"), size: 10,
      "aria-label": "an action in notation", onkeydown: e => { if (e.key === "Enter") { send(e.target.value); e.target.value = ""; } } })];
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
  if (!myTurn()) return;
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
  if (!state.view || !state.view.available || e.target.tagName === "INPUT") return;
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

function moves(v) {
  const c = capsOf(v.variant);
  return h("div", { class: "moves", id: "moves" }, h("b", {}, "Moves"), h("ol", {}, v.summaries.map(s => h("li", {},
    v.players[s.seat] + ": " + describe(s, c)))));
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
  return h("div", { class: "summary", id: "summary" }, h("h2", {}, "Game over: " + winners + " won"),
    h("p", {}, v.end_reason + ". " + v.players.map((p, i) => p + " " + v.scores[i]).join(", ") + (c.score_unit === "points" ? "" : " (" + c.score_unit + ")")),
    v.seed !== undefined && v.seed !== null ? h("p", { id: "seed-shown" }, "The deal's seed: " + v.seed) : "",
    h("div", { class: "row" },
      h("a", { href: "/g/" + v.id + "?replay", id: "replay-link" }, "Replay"), " · ",
      h("a", { href: "/api/games/" + v.id + "/record", download: "mathable-" + v.id + ".json" }, "Download the record"),
      c.score_sheets ? [" · ", h("a", { href: "/api/games/" + v.id + "/transcript", download: "mathable-" + v.id + ".txt", id: "transcript-link" }, "the score sheet")] : "",
      h("button", { id: "analysis", onclick: () => analysis(v.id) }, "Analysis")));
}

async function analysis(id, token = null) {
  try {
    const data = await api("/api/games/" + id + "/analysis" + (token ? "?token=" + encodeURIComponent(token) : ""));
    const cell = x => (x === null || x === undefined ? "" : x);
    modal(h("h3", {}, "Analysis"), h("div", { class: "analysis" }, h("table", {}, h("tr", {}, ["#", "player", "played", "pts", "best", "pts", "loss"].map(c => h("th", {}, c))),
      data.turns.map(t => h("tr", {}, [t.turn, t.player, t.played, cell(t.points), t.best, cell(t.best_points), t.loss || ""].map(c => h("td", {}, c)))))),
      h("p", {}, data.players.map(p => p.player + ": accuracy " + p.accuracy + "%").join("; ")),
      h("button", { onclick: closeModal }, "Close"));
  } catch (e) { say(e.message, true); }
}

async function replayPage(id) {
  let step = 0;
  const show = async () => {
    const data = await api("/api/games/" + id + "/replay?step=" + step).catch(e => { app.textContent = e.message; });
    if (!data) return;
    step = data.step;
    state.view = Object.assign(data.view, { id, seq: step, legal: [], seats: data.view.players.map(() => ({})) });
    document.getElementById("where").textContent = capsOf(data.view.variant).title;
    app.replaceChildren(h("h2", {}, "Replay"), h("div", { class: "row" },
      h("button", { id: "first", "aria-label": "first", onclick: () => { step = 0; show(); } }, "⇤"),
      h("button", { id: "back", onclick: () => { step = Math.max(0, step - 1); show(); } }, "◀"),
      h("span", { id: "step" }, "action " + data.step + " of " + data.total + (data.action ? ": " + data.action : "")),
      h("button", { id: "forward", onclick: () => { step = Math.min(data.total, step + 1); show(); } }, "▶"),
      h("button", { id: "last", "aria-label": "last", onclick: () => { step = data.total; show(); } }, "⇥"),
      h("a", { href: "/g/" + id }, "back to the game")),
      h("div", { class: "layout" }, h("div", { class: "main" }, drawSurface(data.view), h("p", { id: "status" }, data.view.status)),
        h("div", { class: "side" }, scores(data.view), moves(data.view))));
  };
  await show();
}

// ---------------------------------------------------------------- start

const match = location.pathname.match(/^\/g\/([\w-]+)/);
(match ? gamePage(match[1]) : home()).catch(e => { app.textContent = "Error: " + e.message; });

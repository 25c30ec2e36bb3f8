// Mathable in the browser: no build step. Every rule is the server's; this page draws
// the view it receives and sends actions in notation (I8=12, end, pass, A=32...).
"use strict";

const app = document.getElementById("app");
const state = { variants: [], bots: [], view: null, game: null, tokens: {}, seat: null,
  picked: null, cursor: null, exchange: null, socket: null, covered: null, passAndPlay: false };

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
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

// ---------------------------------------------------------------- home page

async function home() {
  document.getElementById("where").textContent = "";
  [state.variants, state.bots] = await Promise.all([api("/api/variants"), api("/api/bots")]);
  const variant = h("select", { id: "variant" }, state.variants.map(v => h("option", { value: v.name }, v.title + " (" + v.name + ")")));
  const kinds = () => [h("option", { value: "" }, "person"), ...state.bots.map(b => h("option", { value: b.name }, "computer: " + b.name))];
  const seats = [0, 1, 2, 3].map(i => {
    const kind = h("select", { id: "kind" + i }, i >= 2 ? [h("option", { value: "none" }, "no player"), ...kinds()] : kinds());
    if (i === 1) kind.value = "greedy";
    return h("div", { class: "row" }, h("input", { id: "name" + i, value: ["Ann", "Bob", "Cleo", "Dan"][i], "aria-label": "name " + (i + 1) }), kind);
  });
  const mode = h("select", { id: "mode" }, h("option", { value: "screen" }, "everyone at this screen (pass and play)"),
    h("option", { value: "online" }, "online: a private link for each person"));
  const rules = ["table_referee", "allow_undo", "strict"].map(r => h("label", {}, h("input", { type: "checkbox", id: r }), " " + r.replace("_", " ")));
  const form = h("fieldset", {}, h("legend", {}, "New game"),
    h("div", { class: "row" }, "Game ", variant), ...seats,
    h("div", { class: "row" }, "Play ", mode),
    h("div", { class: "row" }, ...rules),
    h("div", { class: "row" }, h("input", { id: "seed", placeholder: "seed (optional)", inputmode: "numeric" }),
      h("input", { id: "rounds", value: "1", size: 3, "aria-label": "rounds (Quattro)" }), " rounds (Quattro)"),
    h("button", { class: "primary", id: "create", onclick: createGame }, "Start"));
  const list = h("div", { id: "games" }, "…");
  const upload = h("fieldset", {}, h("legend", {}, "Records and score sheets"),
    h("div", { class: "row" }, "Game record: ", h("input", { type: "file", id: "record-file", accept: ".json", onchange: uploadRecord })),
    h("div", { class: "row" }, "Score sheet: ", h("input", { type: "file", id: "sheet-file", accept: ".txt", onchange: uploadSheet })),
    h("div", { id: "sheet" }));
  app.replaceChildren(h("div", { class: "layout" }, h("div", {}, form, upload), h("div", { class: "side" }, h("h3", {}, "Games"), list)),
    h("div", { id: "message" }));
  try {
    const games = await api("/api/games");
    list.replaceChildren(games.length ? h("table", {}, games.map(g => h("tr", {},
      h("td", {}, h("a", { href: "/g/" + g.id }, g.variant)),
      h("td", {}, g.players.join(" · ")), h("td", {}, g.scores.join(" – ")),
      h("td", {}, g.over ? "finished" : "playing")))) : "No games yet.");
  } catch (e) { list.textContent = e.message; }
}

async function createGame() {
  const players = [];
  for (let i = 0; i < 4; i++) {
    const kind = document.getElementById("kind" + i).value;
    if (kind === "none") continue;
    players.push({ name: document.getElementById("name" + i).value, bot: kind || null });
  }
  const seedText = document.getElementById("seed").value.trim();
  const spec = { variant: document.getElementById("variant").value, players,
    house_rules: Object.fromEntries(["table_referee", "allow_undo", "strict"].map(r => [r, document.getElementById(r).checked])),
    rounds: Number(document.getElementById("rounds").value || 1) };
  if (seedText) spec.seed = Number(seedText);
  try {
    const made = await api("/api/games", { method: "POST", body: JSON.stringify(spec) });
    const tokens = {};
    made.seats.forEach(s => { if (s.token) tokens[s.seat] = s.token; });
    if (document.getElementById("mode").value === "screen") {
      localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
      location.href = "/g/" + made.id + "?screen=1";
    } else {
      showLinks(made);
    }
  } catch (e) { say(e.message, true); }
}

function showLinks(made) {
  const base = location.origin + "/g/" + made.id;
  app.replaceChildren(h("h2", {}, "Send each person their private link"),
    h("div", { class: "links" }, made.seats.filter(s => s.token).map(s =>
      h("p", {}, h("b", {}, s.name), h("input", { readonly: true, value: base + "?t=" + s.token, class: "seat-link", "data-seat": s.seat })))),
    h("p", {}, "Whoever holds a link plays that seat. Spectators: ", h("a", { href: base }, base)));
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
  try {
    const sheet = await api("/api/transcripts", { method: "POST", body: JSON.stringify({ text: await file.text() }) });
    document.getElementById("sheet").replaceChildren(h("table", {}, sheet.turns.map((t, i) => h("tr", {},
      h("td", {}, i + 1), h("td", {}, t.player), h("td", {}, t.placements.map(p => p.cell + "=" + p.value + " (" + p.points + ")").join(" ")),
      h("td", {}, t.points + (t.bonus ? " incl. " + t.bonus + " bonus" : ""))))),
      h("p", { id: "totals" }, "Totals: " + Object.entries(sheet.totals).map(([p, t]) => p + " " + t).join(", ")));
  } catch (e) { say(e.message, true); }
}

// ---------------------------------------------------------------- game page

async function gamePage(id) {
  const params = new URLSearchParams(location.search);
  state.passAndPlay = params.has("screen");
  state.tokens = JSON.parse(localStorage.getItem("mathable:" + id) || "{}");
  const token = params.get("t");
  if (token) state.tokens = { link: token };
  state.variants = await api("/api/variants");
  if (params.has("replay")) return replayPage(id);
  connect(id);
  document.addEventListener("keydown", onKey);
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
  if (moved) { state.picked = null; state.exchange = null; }
  // pass and play: follow the person to move, behind a cover
  const wanted = tokenFor(view);
  if (state.passAndPlay && wanted && wanted !== state.socketToken) {
    openSocket(view.id, wanted);
    return;
  }
  render();
}

function variantInfo() { return state.variants.find(v => v.name === state.view.variant); }
function mySeat() { return state.view.seat; }
function myTurn() { const v = state.view; return v.seat !== null && v.seat === v.to_move && !v.over; }

function render() {
  const v = state.view;
  document.getElementById("where").textContent = v.title;
  if (state.passAndPlay && myTurn() && state.covered !== v.turns.length + ":" + v.seat && Object.keys(state.tokens).length > 1 && people() > 1) {
    app.replaceChildren(h("div", { class: "cover" }, h("h2", {}, "Pass the screen to " + v.players[v.seat]),
      h("button", { class: "primary", id: "uncover", onclick: () => { state.covered = v.turns.length + ":" + v.seat; render(); } }, "I am " + v.players[v.seat] + ": show my rack")));
    return;
  }
  const main = v.variant === "quattro" ? drawPiles(v) : drawBoard(v);
  const rack = h("div", { class: "rack", id: "rack" }, rackValues(v).map((value, i) => {
    const classes = ["tile"];
    if (state.picked === i) classes.push("picked");
    if (state.exchange && state.exchange.has(i)) classes.push("chosen");
    return h("button", { class: classes.join(" "), "data-value": value, onclick: () => pick(i), disabled: !myTurn() }, value);
  }));
  const controls = h("div", { class: "row", id: "controls" }, actionButtons(v));
  app.replaceChildren(h("div", { class: "layout" },
    h("div", {}, main, v.seat !== null ? rack : h("p", {}, "Watching: racks are private."), controls, h("div", { id: "message" })),
    h("div", { class: "side" }, scores(v), card(v), moves(v))));
  if (v.over) app.prepend(summary(v));
}

function people() { return state.view.seats.filter(s => !s.bot).length; }

function rackValues(v) { return v.variant === "quattro" && v.drawn !== null && v.drawn !== undefined ? [v.drawn] : v.rack; }

function legalCellsFor(value) {
  return new Set(state.view.legal.map(a => a.match(/^([A-Z]\d*)=(\d+)\+?$/)).filter(m => m && Number(m[2]) === value).map(m => m[1]));
}

function drawBoard(v) {
  const info = variantInfo();
  const size = info.board.size;
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const legal = state.picked !== null ? legalCellsFor(rackValues(v)[state.picked]) : new Set();
  const last = new Set((v.turns.length ? v.turns[v.turns.length - 1].placements : []).concat(v.turn.placements).map(p => p.cell));
  const board = h("div", { class: "board", id: "board", style: "grid-template-columns: repeat(" + size + ", var(--cell))" });
  for (let i = 0; i < size * size; i++) {
    const name = letters[i % size] + (Math.floor(i / size) + 1);
    const square = info.board.squares[i];
    const value = v.board[name];
    const classes = ["cell", square.kind];
    if (legal.has(name)) classes.push("legal");
    if (last.has(name)) classes.push("last");
    if (state.cursor === i) classes.push("cursor");
    const cell = h("div", { class: classes.join(" "), "data-cell": name, title: name, onclick: () => place(name, square) },
      value !== undefined ? h("span", { class: "tok" }, value) : ({ x: "×", "/": "÷", "-": "−" }[square.label] || square.label));
    board.append(cell);
  }
  return board;
}

function drawPiles(v) {
  const legal = state.picked !== null ? legalCellsFor(rackValues(v)[state.picked]) : new Set();
  const drawnPhase = v.phase === "drawn";
  return h("div", {}, h("div", { class: "piles", id: "board" }, ["A", "B", "C", "D"].map(p =>
    h("div", { class: "pile" + (legal.has(p) || (drawnPhase && state.picked !== null) ? " legal" : ""), "data-cell": p, onclick: () => place(p, null) },
      h("small", {}, p + " · " + v.pile_sizes[p]), v.piles[p]))),
    h("p", {}, (v.diagonals ? "Diagonals count. " : "") + "Reserve " + v.bag_size + ", trash " + v.trash_size + ". Round " + v.round + " of " + v.rounds + "."),
    v.phase === "after" && myTurn() ? h("p", {}, "Now exchange one card (pick it, then Exchange) or take a penalty card.") : "");
}

function actionButtons(v) {
  if (!myTurn()) {
    const buttons = [];
    if (v.legal.includes("challenge")) buttons.push(h("button", { id: "challenge", onclick: () => send("challenge") }, "Challenge"));
    if (!v.over) buttons.push(h("span", {}, v.seat === null ? "" : "Waiting for " + v.players[v.to_move] + "…"));
    return buttons;
  }
  const has = a => v.legal.includes(a);
  const out = [];
  if (has("end")) out.push(h("button", { id: "end", onclick: () => send("end") }, "End turn (e)"));
  if (has("pass")) out.push(h("button", { id: "pass", onclick: () => send("pass") }, "Pass (p)"));
  if (v.legal.some(a => a.startsWith("exchange"))) out.push(h("button", { id: "exchange", onclick: exchange }, state.exchange ? "Exchange the chosen" : "Exchange (x)"));
  if (has("draw")) out.push(h("button", { id: "draw", onclick: () => send("draw") }, "Draw"));
  if (has("penalty")) out.push(h("button", { id: "penalty", onclick: () => send("penalty") }, "Penalty card"));
  if (has("diago")) out.push(h("button", { id: "diago", onclick: () => send("diago") }, "DIAGO"));
  if (has("stop")) out.push(h("button", { id: "stop", onclick: () => send("stop") }, "Stop the game"));
  if (has("challenge")) out.push(h("button", { id: "challenge", onclick: () => send("challenge") }, "Challenge"));
  out.push(h("button", { id: "hint", onclick: hint }, "Hint (h)"));
  out.push(h("input", { id: "notation", placeholder: "or type I8=12", size: 10, onkeydown: e => { if (e.key === "Enter") { send(e.target.value); e.target.value = ""; } } }));
  return out;
}

async function hint() {
  try {
    const data = await api("/api/games/" + state.view.id + "/hint?token=" + encodeURIComponent(state.socketToken));
    say("Hint: " + (data.turns.map(t => t.turn + (t.points !== null ? " (" + t.points + ")" : "")).join("; ") || "nothing to place: pass or exchange"));
  } catch (e) { say(e.message, true); }
}

function pick(i) {
  if (!myTurn()) return;
  if (state.exchange) {
    state.exchange.has(i) ? state.exchange.delete(i) : state.exchange.add(i);
    if (state.view.variant === "quattro") state.exchange = new Set([i]);
  } else {
    state.picked = state.picked === i ? null : i;
  }
  render();
  if (state.picked !== null) {
    const value = rackValues(state.view)[state.picked];
    const n = state.view.phase === "drawn" ? 4 : legalCellsFor(value).size;
    say(value + " chosen: " + (n ? n + " legal place" + (n > 1 ? "s" : "") + " lit" : "no legal place"));
  }
}

async function place(name, square) {
  if (!myTurn()) return;
  if (state.picked === null) { say("Pick a token from your rack first."); return; }
  const value = rackValues(state.view)[state.picked];
  let text = name + "=" + value;
  if (square && square.kind === "restriction" && state.view.legal.includes(text + "+")) {
    if (await ask(name + " is a restriction square: take the extra token now? (rule C7)")) text += "+";
  }
  send(text);
}

function exchange() {
  const v = state.view;
  if (!state.exchange) { state.exchange = new Set(); state.picked = null; render(); say("Choose the tokens to give back, then press Exchange again."); return; }
  const values = [...state.exchange].map(i => v.rack[i]);
  state.exchange = null;
  if (!values.length) { render(); return; }
  send("exchange " + values.join(","));
}

function send(text) {
  if (!text || !state.socket) return;
  state.socket.send(JSON.stringify({ action: text.trim(), seq: state.view.seq }));
}

function onKey(e) {
  if (!state.view || e.target.tagName === "INPUT") return;
  const v = state.view;
  if (/^[1-9]$/.test(e.key)) { pick(Number(e.key) - 1); return; }
  if (e.key === "e") send("end");
  else if (e.key === "p") send("pass");
  else if (e.key === "x") exchange();
  else if (e.key === "h" && myTurn()) hint();
  else if (e.key.startsWith("Arrow") && v.variant !== "quattro") {
    const size = variantInfo().board.size;
    let c = state.cursor === null ? Math.floor(size * size / 2) : state.cursor;
    const r = Math.floor(c / size), col = c % size;
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    state.cursor = Math.max(0, Math.min(size - 1, r + d[0])) * size + Math.max(0, Math.min(size - 1, col + d[1]));
    e.preventDefault();
    render();
  } else if (e.key === "Enter" && state.cursor !== null && v.variant !== "quattro") {
    const size = variantInfo().board.size;
    place("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[state.cursor % size] + (Math.floor(state.cursor / size) + 1), variantInfo().board.squares[state.cursor]);
  }
}

function scores(v) {
  return h("table", { id: "scores" }, v.players.map((p, i) => h("tr", {},
    h("td", {}, !v.over && v.to_move === i ? "▶" : ""), h("td", {}, p + (v.seats[i].bot ? " (" + v.seats[i].bot + ")" : "")),
    h("td", { class: "score" }, v.scores[i]), h("td", {}, v.rack_sizes[i] + (v.variant === "quattro" ? " cards" : " tokens")))),
    h("tr", {}, h("td", {}), h("td", { colspan: 3 }, v.variant === "quattro" ? "" : "Bag: " + v.bag_size)));
}

function card(v) {
  return h("p", { class: "card" }, h("b", {}, "Unseen: "), Object.entries(v.unseen).filter(([, n]) => n).map(([val, n]) => n > 1 ? val + "×" + n : val).join(" "));
}

function moves(v) {
  return h("div", { class: "moves", id: "moves" }, h("b", {}, "Moves"), h("ol", {}, v.turns.map(t => h("li", {},
    v.players[t.seat] + ": " + describe(t)))));
}

function describe(t) {
  if (t.plays) return t.drawn_to ? "drew, " + t.drawn_to.pile + "=" + t.drawn_to.value + (t.exchanged ? ", exchange" : ", penalty") : t.plays.map(p => p.pile + "=" + p.value).join(" ") || t.kind;
  if (t.kind === "exchange") return "exchange " + t.exchanged;
  if (!t.placements.length) return t.kind;
  return t.placements.map(p => p.cell + "=" + p.value + (p.extra ? "+" : "")).join(" ") + " (" + t.points + (t.bonus ? ", bonus " + t.bonus : "") + ")";
}

function summary(v) {
  const winners = (v.winners || []).map(i => v.players[i]).join(" and ");
  return h("div", { class: "summary", id: "summary" }, h("h2", {}, "Game over: " + winners + " won"),
    h("p", {}, v.end_reason + ". " + v.players.map((p, i) => p + " " + v.scores[i]).join(", ")),
    h("div", { class: "row" },
      h("a", { href: "/g/" + v.id + "?replay", id: "replay-link" }, "Replay"), " · ",
      h("a", { href: "/api/games/" + v.id + "/record", download: "mathable-" + v.id + ".json" }, "Download the record"),
      v.variant !== "quattro" ? [" · ", h("a", { href: "/api/games/" + v.id + "/transcript", download: "mathable-" + v.id + ".txt" }, "the score sheet")] : "",
      v.variant !== "quattro" ? h("button", { id: "analysis", onclick: () => analysis(v.id) }, "Analysis") : ""));
}

async function analysis(id) {
  try {
    const data = await api("/api/games/" + id + "/analysis");
    modal(h("h3", {}, "Analysis"), h("table", {}, h("tr", {}, ["#", "player", "played", "pts", "best", "pts", "loss"].map(c => h("th", {}, c))),
      data.turns.map(t => h("tr", {}, [t.turn, t.player, t.played, t.points, t.best, t.best_points, t.loss || ""].map(c => h("td", {}, c))))),
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
    const main = data.view.variant === "quattro" ? drawPiles(data.view) : drawBoard(data.view);
    app.replaceChildren(h("h2", {}, "Replay"), h("div", { class: "row" },
      h("button", { id: "first", onclick: () => { step = 0; show(); } }, "⏮"),
      h("button", { id: "back", onclick: () => { step = Math.max(0, step - 1); show(); } }, "◀"),
      h("span", { id: "step" }, "action " + data.step + " of " + data.total + (data.action ? ": " + data.action : "")),
      h("button", { id: "forward", onclick: () => { step = Math.min(data.total, step + 1); show(); } }, "▶"),
      h("button", { id: "last", onclick: () => { step = data.total; show(); } }, "⏭"),
      h("a", { href: "/g/" + id }, "back to the game")), main, scores(data.view));
  };
  await show();
}

// ---------------------------------------------------------------- start

const match = location.pathname.match(/^\/g\/([\w-]+)/);
(match ? gamePage(match[1]) : home()).catch(e => { app.textContent = "Error: " + e.message; });

// The lobby (issue 15): my name, a form to offer a game (a seek), the open seeks with
// their Join buttons, and quick pairing. The lobby pushes (issue 29): one socket,
// /api/lobby/ws, sends the open seeks whenever they change, and each change of a seek I
// am in; when one starts, the page opens the game at /g/{id}, where my session cookie
// holds my seat (the seat is bound to me: no token in the address). Only while the
// socket is down (it reconnects) are the seeks polled (GET /api/seeks, and
// GET /api/seeks/{id} for mine). My games and the games being played are polled.

import { announce, api, app, capsOf, fitLevelChoice, h, levelsFor, say, setWhere, state, whoAmI } from "./core.js";
import { houseRuleName } from "./home.js";
import { lang, nt, pt, t } from "./i18n.js";

const FALLBACK = 5000;  // ms between polls of the seeks while the socket is down
const GAMES_POLL = 2500;  // ms between reads of my games and the games being played
const HEARD = 20;  // news of seeks of mine kept before the page follows them
// The clocks offered, as the server reads them (each named by clockText).
const CLOCKS = ["", '{"minutes":1,"increment":0}', '{"minutes":3,"increment":2}', '{"minutes":5,"increment":3}',
  '{"minutes":10,"increment":0}', '{"minutes":15,"increment":5}', '{"days":3}'];
const mine = new Map();  // the seeks I am in, still open: id -> the players seen so far
const heard = new Map();  // pushed news of seeks of mine not followed yet (a race): id -> seek
let me = null;
let socket = null;  // the lobby's socket
let live = false;  // it is open and has sent the list: no polling
let lost = false;  // it was down: what it missed is read once when it is back
let retry = 1000;  // ms before the next reconnection (doubling, 30 s at most)
let seekList = [];  // the open seeks as last received

// A clock in words: "no clock", "3 days a turn", "10 minutes"; "3 + 2" (minutes, then
// seconds added a move) is notation.
function clockText(clock) {
  if (!clock) return t("no clock");
  if (clock.days) return nt("{count} day a turn", "{count} days a turn", clock.days);
  return clock.increment ? clock.minutes + " + " + clock.increment : nt("{count} minute", "{count} minutes", clock.minutes);
}
function title(name) { return (state.variants.find(v => v.name === name) || { title: name }).title; }
// Names in a list, "Ann and Bob", as the reader's language writes one.
function andList(names) {
  return new Intl.ListFormat(lang === "qps" ? "en" : lang, { type: "conjunction" }).format(names);
}

export async function lobbyPage() {
  setWhere(t("Lobby"), true);
  [state.variants, state.bots, me] = await Promise.all([api("/api/variants"), api("/api/bots"), whoAmI()]);
  const field = (label, control) => h("div", { class: "row" }, h("label", { for: control.id }, label), control);
  const name = h("input", { id: "my-name", value: me.name, maxlength: 40, autocomplete: "nickname" });
  const who = h("form", { class: "row", id: "rename", onsubmit: rename }, h("label", { for: "my-name" }, t("Your name")), name,
    h("button", { type: "submit", id: "rename-button" }, t("Rename")), h("span", { id: "account", class: "about" }, accountWord(me)));
  const variant = h("select", { id: "seek-variant", onchange: fitSeek }, state.variants.map(v => h("option", { value: v.name }, v.title)));
  const seats = h("select", { id: "seek-seats", onchange: fitSeek });
  const computers = h("select", { id: "seek-computers" });
  const level = h("select", { id: "seek-level" });
  const clock = h("select", { id: "seek-clock", onchange: fitLevels }, CLOCKS.map(value => h("option", { value }, clockText(value ? JSON.parse(value) : null))));
  const rated = h("input", { type: "checkbox", id: "seek-rated" });
  const form = h("form", { id: "seek-form", onsubmit: offer }, h("fieldset", {}, h("legend", {}, t("Offer a game")),
    field(pt("kind of game", "Game"), variant), field(t("Seats"), seats), field(t("Computer seats"), computers), field(t("Computer level"), level),
    field(t("Clock"), clock), h("fieldset", { id: "seek-rules" }, h("legend", {}, t("House rules"))),
    h("div", { class: "row" }, rated, h("label", { for: "seek-rated" }, t("Rated (players with an account; no hints, no undo)"))),
    // TRANSLATORS: the button that offers the game described above to the lobby.
    h("button", { type: "submit", class: "primary", id: "offer" }, pt("offer a game", "Offer"))));
  const quick = h("fieldset", { id: "quick" }, h("legend", {}, t("Quick pairing")),
    h("div", { class: "row" }, state.variants.map(v => h("button", { type: "button", class: "quick-button", "data-variant": v.name,
      onclick: () => pair(v.name) }, t("Play anyone: {game}, {clock}", { game: v.title, clock: clockText({ minutes: 10, increment: 0 }) })))));
  const heads = names => h("thead", {}, h("tr", {}, names.map(name => h("th", { scope: "col" }, name))));
  const list = h("table", { id: "seeks", class: "seeks" }, h("caption", {}, t("Open seeks")),
    heads([pt("kind of game", "Game"), t("Offered by"), t("Players"), t("Computers"), t("Clock"), t("Rated, house rules"), ""]),
    h("tbody", { id: "seek-rows" }));
  app.replaceChildren(h("h2", {}, t("Lobby")), who,
    h("div", { class: "layout lobby" }, h("div", {}, form, quick), h("div", { class: "side" }, list, h("p", { id: "no-seeks", class: "about" }, t("No open seeks yet: offer one.")),
      h("table", { id: "challenges", class: "seeks", hidden: true }, h("caption", {}, t("Challenges to you")),
        heads([t("From"), pt("kind of game", "Game"), t("Clock"), t("Rated"), ""]), h("tbody", { id: "challenge-rows" })),
      h("table", { id: "my-games", class: "seeks" }, h("caption", {}, t("My games")),
        heads([pt("kind of game", "Game"), t("Players"), pt("whose turn", "Turn"), ""]),
        h("tbody", { id: "my-game-rows" })),
      h("p", { id: "no-my-games", class: "about" }, t("You sit at no game being played.")),
      h("table", { id: "watch", class: "seeks" }, h("caption", {}, t("Games being played")),
        heads([pt("kind of game", "Game"), t("Players"), t("To move"), ""]),
        h("tbody", { id: "watch-rows" })),
      h("p", { id: "no-games", class: "about" }, t("No game is being played online right now.")))),
    h("div", { id: "message" }));
  fitSeek();
  fitLevels();
  document.addEventListener("mathable:me", e => {  // signed up, logged in or out in the header
    me = e.detail;
    name.value = me.name;
    document.getElementById("account").textContent = accountWord(me);
  });
  connect();  // first: whatever changes after my seeks are read below is pushed
  const listed = await api("/api/me/games");
  for (const seek of listed) if (seek.kind !== "game" && seek.status === "open" && !mine.has(seek.id)) mine.set(seek.id, seek.players.length);
  for (const seek of listed) if (seek.kind !== "game" && heard.has(seek.id) && follow(seek)) return;
  draw(seekList);
  myGames(listed);
  setTimeout(fallback, fallbackPoll());
  setTimeout(games, GAMES_POLL);
}

// The poll's interval while the socket is down (a test may set a longer one).
function fallbackPoll() { return window.mathableLobbyFallback || FALLBACK; }

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/lobby/ws");
  socket = ws;
  ws.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "seeks") {
      retry = 1000;
      if (!live && lost) caughtUp();
      live = true;
      draw(seekList = message.seeks);
    } else if (message.type === "seek") pushed(message.seek);
    else if (message.type === "error") say(message.error, true);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    live = false;
    lost = true;
    refresh().catch(err => say(err.message, true));  // at once, then every FALLBACK ms
    setTimeout(connect, retry);
    retry = Math.min(2 * retry, 30000);
  };
}

// Back after a loss: my seeks as they are now (their news may have been missed).
async function caughtUp() {
  lost = false;
  try {
    for (const id of [...mine.keys()]) if (follow(await api("/api/seeks/" + encodeURIComponent(id)))) return;
  } catch (err) { say(err.message, true); }
}

// A seek of mine changed: followed if the page knows it, else kept for when it does
// (its news can come before the answer that made or joined it).
function pushed(seek) {
  if (mine.has(seek.id)) { follow(seek); return; }
  heard.delete(seek.id);
  heard.set(seek.id, seek);
  if (heard.size > HEARD) heard.delete(heard.keys().next().value);
}

// What the player is: an account, or a guest (no account yet).
function accountWord(player) {
  // TRANSLATORS: after my name in the lobby: I have an account (else "guest").
  return player.account ? pt("kind of player", "account") : pt("kind of player", "guest");
}

// The seats the chosen game takes, and computer seats leaving two people at least.
function fitSeek() {
  const c = capsOf(document.getElementById("seek-variant").value);
  const seats = document.getElementById("seek-seats");
  const chosen = Number(seats.value) || c.min_players;
  const counts = [];
  for (let n = Math.max(2, c.min_players); n <= c.max_players; n++) counts.push(n);
  seats.replaceChildren(...counts.map(n => h("option", { value: n }, String(n))));
  seats.value = String(counts.includes(chosen) ? chosen : counts[0]);
  const rules = document.getElementById("seek-rules");  // the chosen game's house rules
  const ticked = new Set([...rules.querySelectorAll("input:checked")].map(box => box.dataset.rule));
  rules.replaceChildren(h("legend", {}, t("House rules")), ...c.house_rules.map(r => h("label", { class: "rule" },
    h("input", { type: "checkbox", id: "seek-rule-" + r, "data-rule": r, checked: ticked.has(r) }), " " + houseRuleName(r))));
  const computers = document.getElementById("seek-computers");
  const most = Number(seats.value) - 2;
  computers.replaceChildren(...[...Array(most + 1).keys()].map(n => h("option", { value: n }, String(n))));
}

// The computer levels the chosen clock allows (levelsFor).
function fitLevels() {
  const clock = document.getElementById("seek-clock").value;
  fitLevelChoice(document.getElementById("seek-level"), levelsFor(state.bots, clock ? JSON.parse(clock) : null));
}

async function rename(e) {
  e.preventDefault();
  try {
    me = await api("/api/me", { method: "PATCH", body: JSON.stringify({ name: document.getElementById("my-name").value }) });
    document.dispatchEvent(new CustomEvent("mathable:me", { detail: me }));
    say(t("You are now {name}.", { name: me.name }));
  } catch (err) { say(err.message, true); }
}

async function offer(e) {
  e.preventDefault();
  const clock = document.getElementById("seek-clock").value;
  const level = document.getElementById("seek-level").value;
  const spec = { variant: document.getElementById("seek-variant").value, seats: Number(document.getElementById("seek-seats").value),
    computers: Array(Number(document.getElementById("seek-computers").value)).fill(level),
    house_rules: Object.fromEntries([...document.querySelectorAll("#seek-rules input:checked")].map(box => [box.dataset.rule, true])),
    clock: clock ? JSON.parse(clock) : null, rated: document.getElementById("seek-rated").checked };
  try {
    follow(await api("/api/seeks", { method: "POST", body: JSON.stringify(spec) }));
    say(t("Your seek is open: it starts when every seat is taken."));
    await refresh();
  } catch (err) { say(err.message, true); }
}

async function pair(variant) {
  try {
    const seek = await api("/api/seeks/quick", { method: "POST", body: JSON.stringify({ variant, clock: { minutes: 10, increment: 0 } }) });
    follow(seek);
    if (seek.status === "open") say(t("Waiting for someone to play {game} with you.", { game: title(variant) }));
    await refresh();
  } catch (err) { say(err.message, true); }
}

async function join(id) {
  try {
    follow(await api("/api/seeks/" + encodeURIComponent(id) + "/join", { method: "POST" }));
    await refresh();
  } catch (err) { say(err.message, true); }
}

async function cancel(id) {
  try {
    await api("/api/seeks/" + encodeURIComponent(id), { method: "DELETE" });
    mine.delete(id);
    say(t("Seek cancelled."));
    await refresh();
  } catch (err) { say(err.message, true); }
}

// A seek I am in: open, watched; started, my cookie opens the game at my seat. Newer
// news of it pushed before (started, cancelled or more players) is taken instead.
function follow(seek) {
  const news = heard.get(seek.id);
  heard.delete(seek.id);
  if (news && seek.status === "open" && (news.status !== "open" || news.players.length > seek.players.length)) seek = news;
  if (seek.status === "started" && seek.game_id) {
    mine.clear();
    announce(t("Your game starts."));
    location.assign("/g/" + seek.game_id);
    return true;
  }
  if (seek.status === "open") {
    const before = mine.get(seek.id);
    if (before !== undefined && seek.players.length > before) {
      const joined = andList(seek.players.slice(before).map(p => p.name));
      announce(t("{names} joined your seek", { names: joined }));
      say(t("{names} joined your seek.", { names: joined }));
    }
    mine.set(seek.id, seek.players.length);
  } else {
    mine.delete(seek.id);
    if (seek.status === "cancelled") say(t("A seek of yours was cancelled (it waited too long)."));
  }
  return false;
}

// The seeks polled, only while the socket is down.
async function fallback() {
  if (!live) try { await refresh(); } catch (err) { say(err.message, true); }
  setTimeout(fallback, fallbackPoll());
}

async function games() {
  try {
    watchList(await api("/api/games?live=true&limit=20"));
    myGames(await api("/api/me/games"));
    if (me && me.account) challenges((await api("/api/challenge")).in);
  } catch (err) { say(err.message, true); }
  setTimeout(games, GAMES_POLL);
}

// After my own change: drawn again (my seeks' buttons); read only if the socket is down.
async function refresh() {
  if (live) { draw(seekList); return; }
  for (const id of [...mine.keys()]) if (follow(await api("/api/seeks/" + encodeURIComponent(id)))) return;
  draw(seekList = await api("/api/seeks"));
}

// A player's name, marked BOT where a bot account plays for it (issue 36).
function named(p) {
  return p.bot_account ? [p.name, " ", h("span", { class: "bot-badge" }, t("BOT"))] : [p.name];
}

function namesOf(players) {
  return players.flatMap((p, i) => (i ? [", ", ...named(p)] : named(p)));
}

// A row's cell given its text or nodes, changed only where they differ (rows are kept, so
// a focused control in them survives a refresh).
function fill(cell, content) {
  const parts = Array.isArray(content) ? content : [content];
  const key = parts.map(part => (typeof part === "string" ? part : "\u0001" + part.textContent)).join("");
  if (cell.dataset.shown !== key) {
    cell.replaceChildren(...parts);
    cell.dataset.shown = key;
  }
}

// The games I sit at (GET /api/me/games, kind game), those where it is my turn first;
// each opens at /g/{id}, where my session cookie holds my seat.
function myGames(listed) {
  const body = document.getElementById("my-game-rows");
  if (!body) return;
  const games = listed.filter(g => g.kind === "game");
  const kept = new Map([...body.children].map(row => [row.dataset.game, row]));
  const rows = games.map(g => {
    const cells = [title(g.variant), namesOf(g.players), g.your_turn ? t("Your turn") : pt("not my turn", "waiting")];
    const row = kept.get(g.game_id) || h("tr", { "data-game": g.game_id }, cells.map(() => h("td")),
      h("td", {}, h("a", { href: "/g/" + encodeURIComponent(g.game_id), class: "my-game", "aria-label": t("Play {game} with {players}", { game: title(g.variant), players: g.players.map(p => p.name).join(", ") }) },
        pt("open a game to play", "Play"))));
    cells.forEach((content, i) => fill(row.children[i], content));
    row.classList.toggle("your-turn", Boolean(g.your_turn));
    return row;
  });
  rows.forEach((row, i) => { if (body.children[i] !== row) body.insertBefore(row, body.children[i] || null); });
  while (body.children.length > rows.length) body.lastElementChild.remove();
  document.getElementById("no-my-games").hidden = games.length > 0;
}

// The online games being played, each with a link to watch it (a spectator's page).
function watchList(games) {
  const body = document.getElementById("watch-rows");
  if (!body) return;
  const kept = new Map([...body.children].map(row => [row.dataset.game, row]));
  const rows = games.map(g => {
    const shown = name => name.toLowerCase().includes(t("(computer)").replace(/[()]/g, "").trim().toLowerCase());  // not said twice (issue 32)
    const players = g.players.map((name, i) => (g.bots[i] && !shown(name) ? t("{name} (computer)", { name }) : name) + " " + g.scores[i]).join(", ");
    const cells = [title(g.variant), players, g.to_move || ""];
    // TRANSLATORS: between players' names: "Ann vs Bob".
    const versus = g.players.join(" " + t("vs") + " ");
    const row = kept.get(g.id) || h("tr", { "data-game": g.id }, cells.map(() => h("td")),
      h("td", {}, h("a", { href: "/g/" + encodeURIComponent(g.id), class: "watch-game", "aria-label": t("Watch {players}", { players: versus }) }, t("Watch"))));
    cells.forEach((text, i) => { if (row.children[i].textContent !== text) row.children[i].textContent = text; });
    return row;
  });
  rows.forEach((row, i) => { if (body.children[i] !== row) body.insertBefore(row, body.children[i] || null); });
  while (body.children.length > rows.length) body.lastElementChild.remove();
  document.getElementById("no-games").hidden = games.length > 0;
}

// Rows are kept by seek and moved only when needed, so a focused button survives a refresh.
function draw(seeks) {
  const body = document.getElementById("seek-rows");
  if (!body) return;
  const kept = new Map([...body.children].map(row => [row.dataset.seek, row]));
  const rows = seeks.map(s => {
    const people = s.players.length + s.open_seats;
    const cells = [title(s.variant), named(s.owner), [...namesOf(s.players), " (" + s.players.length + "/" + people + ")"],
      s.computers.length ? s.computers.join(", ") : pt("no computers", "none"), clockText(s.clock),
      [s.rated ? t("rated") : t("casual"), ...Object.keys(s.house_rules).filter(r => s.house_rules[r]).map(houseRuleName)].join(", ")];
    const action = mine.has(s.id)
      ? (s.owner.id === me.id ? h("button", { type: "button", class: "cancel-seek", onclick: () => cancel(s.id), "aria-label": t("Cancel your {game} seek", { game: title(s.variant) }) }, t("Cancel"))
        : h("span", { class: "about" }, pt("for the seek to start", "waiting")))
      : h("button", { type: "button", class: "join-seek", onclick: () => join(s.id), "aria-label": t("Join {name}'s {game} seek", { name: s.owner.name, game: title(s.variant) }) }, t("Join"));
    const row = kept.get(s.id) || h("tr", { "data-seek": s.id }, cells.map(() => h("td")), h("td", { class: "seek-action" }));
    cells.forEach((content, i) => fill(row.children[i], content));
    const slot = row.children[cells.length];
    const kind = action.tagName + action.className;
    if (slot.dataset.kind !== kind) { slot.replaceChildren(action); slot.dataset.kind = kind; }
    return row;
  });
  rows.forEach((row, i) => { if (body.children[i] !== row) body.insertBefore(row, body.children[i] || null); });
  while (body.children.length > rows.length) body.lastElementChild.remove();
  document.getElementById("no-seeks").hidden = seeks.length > 0;
}

// The challenges to me (issue 36, GET /api/challenge), each with Accept and Decline; an
// accepted one opens its game. Rows are kept by challenge, so a focused button survives.
function challenges(found) {
  const body = document.getElementById("challenge-rows");
  if (!body) return;
  const kept = new Map([...body.children].map(row => [row.dataset.challenge, row]));
  const rows = found.map(c => kept.get(c.id) || h("tr", { "data-challenge": c.id },
    h("td", {}, c.challenger.name, c.challenger.bot_account ? [" ", h("span", { class: "bot-badge" }, t("BOT"))] : ""),
    h("td", {}, title(c.variant)), h("td", {}, clockText(c.clock)), h("td", {}, c.rated ? t("rated") : t("casual")),
    h("td", {}, h("button", { type: "button", class: "accept-challenge primary", onclick: () => answer(c, "accept"),
      "aria-label": t("Accept {name}'s challenge", { name: c.challenger.name }) }, t("Accept")), " ",
    h("button", { type: "button", class: "decline-challenge", onclick: () => answer(c, "decline"),
      "aria-label": t("Decline {name}'s challenge", { name: c.challenger.name }) }, t("Decline")))));
  body.replaceChildren(...rows);
  document.getElementById("challenges").hidden = rows.length === 0;
}

async function answer(challenge, verb) {
  try {
    const done = await api("/api/challenge/" + encodeURIComponent(challenge.id) + "/" + verb, { method: "POST" });
    if (done.game_id) { location.href = "/g/" + encodeURIComponent(done.game_id); return; }
    challenges((await api("/api/challenge")).in);
  } catch (err) { say(err.message, true); }
}

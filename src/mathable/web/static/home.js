// The home page: a new game, the list of games, records and score sheets.

import { announce, api, app, ask, capsOf, h, say, setWhere, state, whoAmI } from "./core.js";
import { pt, t } from "./i18n.js";

// A house rule's name, in words (its key is what the server takes).
export function houseRuleName(rule) {
  const names = {
    // TRANSLATORS: a house rule (C12): illegal placements stand until an opponent challenges them.
    table_referee: t("table referee"),
    // TRANSLATORS: a house rule: a player may take back their last action.
    allow_undo: t("allow undo"),
    // TRANSLATORS: a house rule (K2): a scoring square must be used when there is one.
    strict: t("strict"),
    // TRANSLATORS: a house rule (O2): the player to move may ask the computer for its best turns.
    hints: t("hints"),
  };
  return names[rule] || rule.replaceAll("_", " ");
}

// A translated text whose {placeholders} are elements (a control, a link, a bold name):
// the text around them stays text. An element the translation left out comes last.
function place(message, parts) {
  const used = new Set();
  const pieces = message.split(/\{([A-Za-z_]\w*)\}/).map((piece, i) => {
    if (i % 2 === 0 || !(piece in parts)) return i % 2 ? "{" + piece + "}" : piece;
    used.add(piece);
    return parts[piece];
  });
  return [...pieces, ...Object.keys(parts).filter(k => !used.has(k)).map(k => parts[k])].filter(piece => piece !== "");
}

export async function home() {
  setWhere("");
  document.getElementById("play-nav").setAttribute("aria-current", "page");  // Home is Play
  [state.variants, state.bots] = await Promise.all([api("/api/variants"), api("/api/bots")]);
  const variant = h("select", { id: "variant", "aria-label": pt("kind of game", "game"), onchange: fitForm }, state.variants.map(v => h("option", { value: v.name }, v.title)));
  // TRANSLATORS: who plays a seat: a person (not the computer).
  const kinds = () => [h("option", { value: "" }, t("person")), ...state.bots.map(b => h("option", { value: b.name },
    // TRANSLATORS: a seat's choice: the master computer level, whose turns take a few seconds.
    b.slow ? t("computer: {level}, a few seconds a turn", { level: b.title || b.name }) : t("computer: {level}", { level: b.title || b.name })))];
  const most = Math.max(...state.variants.map(v => v.max_players));
  const seats = [...Array(most).keys()].map(i => {
    const kind = h("select", { id: "kind" + i, "aria-label": t("player {number} is", { number: i + 1 }) }, i >= 2 ? [h("option", { value: "none" }, t("no player")), ...kinds()] : kinds());
    if (i === 1) kind.value = "greedy";
    return h("div", { class: "row seat", id: "seat" + i }, h("input", { id: "name" + i, value: ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"][i] || t("Player {number}", { number: i + 1 }),
      // TRANSLATORS: the label of the name field of player {number}.
      "aria-label": t("name {number}", { number: i + 1 }) }), kind);
  });
  const mode = h("select", { id: "mode", "aria-label": pt("how the game is played", "play"), onchange: fitMode },
    h("option", { value: "screen" }, t("everyone at this screen (pass and play)")),
    h("option", { value: "online" }, t("online: a private link for each person")));
  const houseRules = [...new Set(state.variants.flatMap(v => v.capabilities.house_rules))];
  const rules = houseRules.map(r => h("label", { id: "rule-" + r }, h("input", { type: "checkbox", id: r, "data-rule": r }), " " + houseRuleName(r)));
  const form = h("fieldset", {}, h("legend", {}, t("New game")),
    h("div", { class: "row" }, pt("kind of game", "Game"), " ", variant), h("p", { id: "about", class: "about" }),
    h("p", { id: "rules-links", class: "about" }, t("Rules:"), " ", state.variants.flatMap((v, i) => [i ? " · " : "",
      h("a", { href: "/rules/" + encodeURIComponent(v.name), class: "rules-link", "data-variant": v.name }, v.title)])), ...seats,
    h("div", { class: "row" }, pt("how the game is played", "Play"), " ", mode),
    h("div", { class: "row", id: "rules" }, ...rules),
    // TRANSLATORS: the number that deals a game's tokens (the same seed deals the same game).
    h("div", { class: "row" }, h("input", { id: "seed", placeholder: t("seed (optional)"), inputmode: "numeric", "aria-label": t("seed") }),
      h("span", { id: "rounds-row" }, h("input", { id: "rounds", value: "1", size: 3, inputmode: "numeric", "aria-label": t("rounds") }), " ", t("rounds"))),
    h("button", { class: "primary", id: "create", onclick: createGame }, t("Start")));
  const list = h("div", { id: "games" }, "…");
  const upload = h("fieldset", {}, h("legend", {}, t("Records and score sheets")),
    h("div", { class: "row" }, t("Game record:"), " ", h("input", { type: "file", id: "record-file", accept: ".json", "aria-label": t("game record file"), onchange: uploadRecord })),
    h("div", { class: "row" }, place(t("Score sheet of {game}: {file}"), {
      game: h("select", { id: "sheet-variant", "aria-label": t("the score sheet's game") },
        state.variants.filter(v => v.capabilities.score_sheets).map(v => h("option", { value: v.name }, v.title))),
      file: h("input", { type: "file", id: "sheet-file", accept: ".txt", "aria-label": t("score sheet file"), onchange: uploadSheet }) })),
    h("div", { id: "sheet" }));
  app.replaceChildren(h("div", { class: "layout" }, h("div", {}, form, upload), h("div", { class: "side" }, h("p", {}, h("a", { href: "/lobby", id: "lobby-link", class: "button-link" }, t("Play online: the lobby"))), h("h3", {}, t("Games")), list)),
    h("div", { id: "message" }));
  fitForm();
  document.querySelectorAll("[id^=kind]").forEach(select => select.addEventListener("change", fitMode));
  try {
    // Issue 30: this browser's own games (its session cookie's: one-screen games too),
    // then the online games anyone may watch; never another person's one-screen game.
    const [mine, watched] = await Promise.all([api("/api/games?mine=true"), api("/api/games?live=true")]);
    const ids = new Set(mine.map(g => g.id));
    const others = watched.filter(g => !ids.has(g.id));
    list.replaceChildren(
      h("h4", { id: "my-games-title" }, t("Your games")),
      gamesTable(mine, "my-games", t("No games yet.")),
      h("h4", { id: "live-games-title" }, t("Being played online")),
      gamesTable(others, "live-games", t("No online game is being played.")));
  } catch (e) { list.textContent = e.message; }
}

// A list of games (GET /api/games): each game's link, players, scores, state and mode.
function gamesTable(games, id, none) {
  const title = name => (state.variants.find(v => v.name === name) || { title: name }).title;
  if (!games.length) return h("p", { id, class: "about" }, none);
  return h("table", { id, "aria-labelledby": id + "-title" }, games.map(g => h("tr", { "data-game": g.id },
    h("td", {}, h("a", { href: "/g/" + g.id }, title(g.variant))),
    h("td", {}, g.players.join(" · ")), h("td", {}, g.scores.join(" – ")),
    h("td", {}, g.over ? t("finished") : t("playing")), h("td", {}, g.mode === "online" ? t("online") : t("one screen")))));
}

// The form offers what the chosen game has: its seats, house rules and rounds.
export function fitForm() {
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
export function onlineChosen() {
  const people = [...document.querySelectorAll(".seat")].filter((row, i) => !row.hidden && document.getElementById("kind" + i).value === "").length;
  return document.getElementById("mode").value === "online" && people > 1;
}
export function fitMode() {
  const online = onlineChosen();
  const seed = document.getElementById("seed");
  seed.disabled = online;
  seed.placeholder = online ? t("online: the server deals") : t("seed (optional)");
  if (online) seed.value = "";
  const hints = document.getElementById("hints");
  if (hints) hints.checked = !online;
}

export async function createGame() {
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
  if (seedText) spec.seed = exactSeed(seedText);
  try {
    await whoAmI().catch(() => {});  // the session cookie the creator's seat is bound to
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

// A typed seed, sent exactly (issue 29): a number where JavaScript holds it exactly (any
// seed below 2^53, as every seed the server deals and shows), else its text as typed, which
// the server reads exactly and checks ("seed: less than 9007199254740992", "seed: a whole
// number"), rather than a number rounded to another deal.
function exactSeed(text) {
  const n = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(n) ? n : text;
}

// Online: the creator's own private link, and one invitation per other person. An
// invitation works once: whoever follows it first gets that seat, and the page shows it.
// The page has its own address (/g/{id}?invitations; the creator's token stays in this
// browser's localStorage, never in the address): a reload asks the server for the
// invitations still unclaimed (only the creator's token gives them), so nothing is lost.
// Each link has a copy button; "Play as Ann" opens the seat at /g/{id}.
export function showLinks(made) {
  const base = location.origin + "/g/" + made.id;
  const mine = made.seats.find(s => s.token);
  if (mine && !new URLSearchParams(location.search).has("invitations")) {
    localStorage.setItem("mathable:" + made.id, JSON.stringify({ [mine.seat]: mine.token }));
    location.assign("/g/" + made.id + "?invitations");
    return;
  }
  const others = made.seats.filter(s => s.invite || (!s.bot && !s.token));
  app.replaceChildren(h("h2", {}, t("Send each person their invitation")),
    h("div", { class: "links" }, others.map(s => s.invite ? invitation(s, location.origin + s.invite)
      : h("p", { class: "joined", "data-seat": s.seat }, place(t("{name} has joined."), { name: h("b", {}, s.name) })))),
    h("p", {}, t("Each invitation opens its seat once, for the first person who follows it; every player sees which seats are taken. This page keeps them: come back to its address in this browser, which holds your seat.")),
    mine ? h("p", {}, place(t("{link} — your own seat, in this browser."), {
      link: h("a", { href: base, id: "my-link", class: "seat-link button-link", "data-seat": mine.seat }, t("Play as {name}", { name: mine.name })) })) : "",
    h("p", {}, t("Spectators:"), " ", h("a", { href: base }, base)),
    h("div", { id: "message" }));
}

// One invitation: its link, read-only, and a button that copies it.
function invitation(seat, link) {
  const input = h("input", { readonly: true, value: link, class: "invite-link", id: "invite-" + seat.seat, "data-seat": seat.seat });
  const label = h("label", { for: input.id }, place(t("{name}'s invitation"), { name: h("b", {}, seat.name) }));
  const button = h("button", { type: "button", class: "copy", id: "copy-" + seat.seat, "aria-label": t("Copy {name}'s invitation", { name: seat.name }),
    onclick: () => copyLink(link, input, seat.name) }, t("Copy"));
  return h("div", { class: "invite" }, label, h("div", { class: "row" }, input, button));
}

// The clipboard where the browser gives it; else the text is selected (for Ctrl+C) and
// copied the old way. Either way the live region says what happened.
async function copyLink(link, input, name) {
  let done = false;
  try {
    await navigator.clipboard.writeText(link);
    done = true;
  } catch {
    input.focus();
    input.select();
    try { done = document.execCommand("copy"); } catch { done = false; }
  }
  const text = done ? t("{name}'s invitation copied.", { name })
    : t("{name}'s invitation selected: press Ctrl+C (or ⌘C) to copy it.", { name });
  say(text);
  announce(text);
}

export async function uploadRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const text = await file.text();
    let made = await api("/api/records", { method: "POST", body: text });
    if (made.existing) {  // uploaded before: one game per record
      const held = JSON.parse(localStorage.getItem("mathable:" + made.id) || "{}");
      if (Object.keys(held).length) { location.href = "/g/" + made.id + "?screen=1"; return; }
      if (!(await ask(t("This record was uploaded before, from another browser: its game is open to watch. Start a new game from it instead?")))) {
        location.href = "/g/" + made.id;
        return;
      }
      made = await api("/api/records?again=true", { method: "POST", body: text });
    }
    const tokens = {};
    made.seats.forEach(s => { if (s.token) tokens[s.seat] = s.token; });  // the people's seats
    localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
    location.href = "/g/" + made.id + (Object.keys(tokens).length ? "?screen=1" : "");
  } catch (e) { say(e.message, true); }
}

export async function uploadSheet(event) {
  const file = event.target.files[0];
  if (!file) return;
  const body = { text: await file.text(), variant: document.getElementById("sheet-variant").value };
  try {
    const sheet = await api("/api/transcripts", { method: "POST", body: JSON.stringify(body) });
    document.getElementById("sheet").replaceChildren(h("table", {}, sheet.turns.map((turn, i) => h("tr", {},
      h("td", {}, i + 1), h("td", {}, turn.player), h("td", {}, turn.placements.map(p => p.cell + "=" + p.value + " (" + p.points + ")").join(" ") || turnKind(turn.kind)),
      h("td", {}, turn.bonus ? t("{points} incl. {bonus} bonus", { points: turn.points, bonus: turn.bonus }) : String(turn.points))))),
      h("p", { id: "totals" }, t("Totals: {totals}", { totals: Object.entries(sheet.totals).map(([p, total]) => p + " " + total).join(", ") })));
  } catch (e) { say(e.message, true); }
}

// A score sheet's turn without placements, in words (the sheet names it by a keyword).
function turnKind(kind) {
  const kinds = {
    pass: pt("score sheet turn", "pass"),
    exchange: pt("score sheet turn", "exchange"),
    // TRANSLATORS: the end-of-game deduction: the points of the tokens left on a rack.
    left: pt("score sheet turn", "left"),
  };
  return kinds[kind] || kind;
}

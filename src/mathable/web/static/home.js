// The home page: a new game, the list of games, records and score sheets.

import { announce, api, app, ask, capsOf, h, say, setWhere, state, whoAmI } from "./core.js";

export async function home() {
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
    h("div", { class: "row" }, "Game ", variant), h("p", { id: "about", class: "about" }),
    h("p", { id: "rules-links", class: "about" }, "Rules: ", state.variants.flatMap((v, i) => [i ? " · " : "",
      h("a", { href: "/rules/" + encodeURIComponent(v.name), class: "rules-link", "data-variant": v.name }, v.title)])), ...seats,
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
  app.replaceChildren(h("div", { class: "layout" }, h("div", {}, form, upload), h("div", { class: "side" }, h("p", {}, h("a", { href: "/lobby", id: "lobby-link", class: "button-link" }, "Play online: the lobby")), h("h3", {}, "Games"), list)),
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
  seed.placeholder = online ? "online: the server deals" : "seed (optional)";
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
  if (seedText) spec.seed = Number(seedText);
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
  app.replaceChildren(h("h2", {}, "Send each person their invitation"),
    h("div", { class: "links" }, others.map(s => s.invite ? invitation(s, location.origin + s.invite)
      : h("p", { class: "joined", "data-seat": s.seat }, h("b", {}, s.name), " has joined."))),
    h("p", {}, "Each invitation opens its seat once, for the first person who follows it; every player sees which seats are taken. "
      + "This page keeps them: come back to its address in this browser, which holds your seat."),
    mine ? h("p", {}, h("a", { href: base, id: "my-link", class: "seat-link button-link", "data-seat": mine.seat }, "Play as " + mine.name),
      " — your own seat, in this browser.") : "",
    h("p", {}, "Spectators: ", h("a", { href: base }, base)),
    h("div", { id: "message" }));
}

// One invitation: its link, read-only, and a button that copies it.
function invitation(seat, link) {
  const input = h("input", { readonly: true, value: link, class: "invite-link", id: "invite-" + seat.seat, "data-seat": seat.seat });
  const label = h("label", { for: input.id }, h("b", {}, seat.name), "'s invitation");
  const button = h("button", { type: "button", class: "copy", id: "copy-" + seat.seat, "aria-label": "Copy " + seat.name + "'s invitation",
    onclick: () => copyLink(link, input, seat.name + "'s invitation") }, "Copy");
  return h("div", { class: "invite" }, label, h("div", { class: "row" }, input, button));
}

// The clipboard where the browser gives it; else the text is selected (for Ctrl+C) and
// copied the old way. Either way the live region says what happened.
async function copyLink(link, input, what) {
  let done = false;
  try {
    await navigator.clipboard.writeText(link);
    done = true;
  } catch {
    input.focus();
    input.select();
    try { done = document.execCommand("copy"); } catch { done = false; }
  }
  const text = done ? what + " copied." : what + " selected: press Ctrl+C (or ⌘C) to copy it.";
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
      if (!(await ask("This record was uploaded before, from another browser: its game is open to watch. Start a new game from it instead?"))) {
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
    document.getElementById("sheet").replaceChildren(h("table", {}, sheet.turns.map((t, i) => h("tr", {},
      h("td", {}, i + 1), h("td", {}, t.player), h("td", {}, t.placements.map(p => p.cell + "=" + p.value + " (" + p.points + ")").join(" ") || t.kind),
      h("td", {}, t.points + (t.bonus ? " incl. " + t.bonus + " bonus" : ""))))),
      h("p", { id: "totals" }, "Totals: " + Object.entries(sheet.totals).map(([p, t]) => p + " " + t).join(", ")));
  } catch (e) { say(e.message, true); }
}

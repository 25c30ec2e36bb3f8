// The class view for teachers (issue 18): the games a set of pupils shares, with each
// player's accuracy from the game's analysis. The teacher pastes the game links; only
// each game's id is kept (never a seat's secret token), in this browser (localStorage)
// and in the page's address (/class?name=…&games=id1,id2), to bookmark or share.
// GET /api/class answers every game at once (web/classes.py); print.css prints the page.
// A tournament followed (?tournament=id, from its page) adds all its boards' games; "Make a
// tournament of this class" opens the tournaments' form prefilled with the players the
// games bind (issue 38). The two pages know each other only by their addresses.

import { api, app, h, listed, setWhere } from "./core.js";
import { lang, nt, t } from "./i18n.js";

const MOST = 60;  // the most games one class view holds (classes.py's MOST)
const KEPT = "mathable-class";  // the localStorage key of the list
const ID = /^[\w-]{1,80}$/;
const NAME_LENGTH = 80;

const number = new Intl.NumberFormat(lang === "qps" ? "en" : lang, { maximumFractionDigits: 1 });

// A percentage in the reader's language ("70.9%").
function percent(value) {
  // TRANSLATORS: an accuracy in percent, as in "70.9%"
  return t("{number}%", { number: number.format(value) });
}

// The game id of a pasted link (/g/{id}, any host, with or without ?t=…), or why not.
export function gameOf(text) {
  let url;
  try { url = new URL(text, location.origin); } catch { return { error: t("not an address") }; }
  const found = url.pathname.match(/^\/g\/([^/]+)(?:\/print)?\/?$/);
  if (!found) return { error: t("not a game's link: a game's address has /g/ and the game's id") };
  const id = decodeURIComponent(found[1]);
  return ID.test(id) ? { id } : { error: t("not a game's id") };
}

// The list as kept: the address's first (a shared link), else this browser's; then the
// tournaments the address adds (a tournament page's "Follow in the class view": ?tournament=id).
function loaded() {
  const query = new URLSearchParams(location.search);
  const ids = text => (text || "").split(",").filter(id => ID.test(id));
  let list = { name: "", games: [], tournaments: [] };
  if (query.has("games") || query.has("name") || query.has("tournaments")) {
    list = { name: (query.get("name") || "").slice(0, NAME_LENGTH), games: [...new Set(ids(query.get("games")))].slice(0, MOST),
      tournaments: [...new Set(ids(query.get("tournaments")))].slice(0, MOST) };
  } else {
    try {
      const kept = JSON.parse(localStorage.getItem(KEPT) || "null");
      if (kept && Array.isArray(kept.games)) {
        const mine = xs => (Array.isArray(xs) ? xs : []).filter(id => typeof id === "string" && ID.test(id)).slice(0, MOST);
        list = { name: String(kept.name || "").slice(0, NAME_LENGTH), games: mine(kept.games), tournaments: mine(kept.tournaments) };
      }
    } catch { /* nothing kept, or not ours */ }
  }
  for (const id of query.getAll("tournament").filter(id => ID.test(id))) {
    if (!list.tournaments.includes(id) && list.tournaments.length < MOST) list.tournaments.push(id);
  }
  return list;
}

// Keep the list in this browser and in the address (replaced: no step in the history).
function keep(list) {
  try { localStorage.setItem(KEPT, JSON.stringify(list)); } catch { /* private mode: the address keeps it */ }
  const query = new URLSearchParams();
  if (list.name) query.set("name", list.name);
  if (list.games.length) query.set("games", list.games.join(","));
  if (list.tournaments.length) query.set("tournaments", list.tournaments.join(","));
  const search = query.toString();
  history.replaceState(null, "", "/class" + (search ? "?" + search.replaceAll("%2C", ",") : ""));
}

// The tournaments' games (their boards' games, round by round), each tournament's name or
// why it could not be read: a class's tournament feeds the view as its games do.
async function tournamentsOf(list) {
  return Promise.all(list.tournaments.map(async id => {
    try {
      const found = await api("/api/tournaments/" + encodeURIComponent(id));
      const games = found.rounds.flatMap(r => r.pairings.map(p => p.game)).filter(Boolean);
      return { id, name: found.name, games };
    } catch (e) { return { id, error: e.message, games: [] }; }
  }));
}

// "Make a tournament of this class": the tournaments' form, prefilled with the players
// the games bind to an id (a round robin, private), in one click; Create is the second.
function tournamentLink(list, games) {
  const pupils = new Map();
  for (const g of games) {
    if (g.error || !g.player_ids) continue;
    g.players.forEach((name, i) => { const id = g.player_ids[i]; if (id && !pupils.has(id)) pupils.set(id, name); });
  }
  if (pupils.size < 2) return "";
  const query = new URLSearchParams();
  if (list.name) query.set("class", list.name);
  for (const [id, name] of [...pupils].slice(0, 16)) query.append("pupil", id + ":" + name);
  return h("p", { class: "print-only-screen" }, h("a", { id: "class-tournament", class: "button-link", href: "/tournaments?" + query.toString() }, t("Make a tournament of this class")));
}

export async function classPage() {
  if (!document.getElementById("print-style")) {  // the print media of the printable pages
    document.head.append(h("link", { id: "print-style", rel: "stylesheet", href: "/static/print.css" }));
  }
  setWhere(t("Class view"));
  const list = loaded();
  keep(list);
  const nameInput = h("input", { id: "class-name", type: "text", maxlength: NAME_LENGTH, autocomplete: "off", value: list.name });
  const links = h("textarea", { id: "class-links", rows: 5, cols: 60, maxlength: 20000, "aria-describedby": "class-links-help" });
  const message = h("p", { id: "class-message", role: "status" });
  const results = h("div", { id: "class-results", "aria-live": "polite" });

  function add(event) {
    event.preventDefault();
    list.name = nameInput.value.slice(0, NAME_LENGTH);  // as typed
    const refused = [];
    let added = 0;
    let full = 0;
    for (const line of links.value.split(/[\s,]+/).filter(Boolean)) {
      const found = gameOf(line);
      if (found.error) { refused.push(t("“{link}”: {reason}", { link: line.slice(0, 200), reason: found.error })); continue; }
      if (list.games.includes(found.id)) continue;
      if (list.games.length >= MOST) { full++; continue; }
      list.games.push(found.id);
      added++;
    }
    if (full) refused.push(nt("{count} game left out: a class view holds at most {most} games", "{count} games left out: a class view holds at most {most} games", full, { count: full, most: MOST }));
    message.className = refused.length ? "error" : "";
    message.replaceChildren(nt("{count} game added.", "{count} games added.", added, { count: added }),
      refused.length ? h("ul", { id: "class-refused" }, refused.map(r => h("li", {}, r))) : "");
    if (!refused.length) links.value = "";
    keep(list);
    draw();
  }

  function remove(id) {
    list.games = list.games.filter(g => g !== id);
    keep(list);
    draw();
  }

  async function draw() {
    document.getElementById("class-title").textContent = list.name ? t("Class view: {name}", { name: list.name }) : t("Class view");
    if (!list.games.length && !list.tournaments.length) {
      results.replaceChildren(h("p", { id: "class-empty" }, t("No games yet: paste the links your pupils share.")));
      return;
    }
    results.replaceChildren(h("p", { class: "print-only-screen" }, t("Loading the games… a finished game's analysis may take a moment.")));
    const followed = await tournamentsOf(list);
    const ids = [...new Set([...list.games, ...followed.flatMap(x => x.games)])].slice(0, MOST);
    let games = [];
    try {
      if (ids.length) games = await api("/api/class?games=" + ids.map(encodeURIComponent).join(","));
    } catch (e) {
      results.replaceChildren(h("p", { class: "error" }, t("Error: {message}", { message: e.message })));
      return;
    }
    results.replaceChildren(tournamentsList(followed, forget), tournamentLink(list, games), gamesTable(games, remove), pupilsTable(games));
  }

  function forget(id) {
    list.tournaments = list.tournaments.filter(x => x !== id);
    keep(list);
    draw();
  }

  app.replaceChildren(h("section", { class: "print-page class-page", "aria-labelledby": "class-title" },
    h("h2", { id: "class-title" }, t("Class view")),
    h("form", { id: "class-form", class: "print-only-screen", onsubmit: add },
      h("p", {}, h("label", { for: "class-name" }, t("Class name (optional)")), " ", nameInput),
      h("p", {}, h("label", { for: "class-links" }, t("Game links your pupils share, one a line")), h("br"), links),
      h("p", { id: "class-links-help" }, t("Only each game's id is kept, never a player's secret token: anyone may watch a game and see its analysis once it is over. The list stays in this browser and in this page's address (bookmark it or share it); at most {most} games.", { most: MOST })),
      h("p", { class: "row" },
        h("button", { type: "submit", class: "primary", id: "class-add" }, t("Add the games")), " ",
        h("button", { type: "button", id: "class-print", onclick: () => window.print() }, t("Print")), " ",
        h("button", { type: "button", id: "class-clear", onclick: () => { list.games = []; list.tournaments = []; keep(list); draw(); } }, t("Clear the list")))),
    message,
    results));
  await draw();
}

// Rows: the games; each player's accuracy from the analysis once the game is over.
function gamesTable(games, remove) {
  const rows = games.map(g => {
    if (g.error) {
      return h("tr", { "data-game": g.id, class: "class-refused" },
        h("th", { scope: "row" }, g.id), h("td", { colspan: 3 }, g.error), removeCell(g.id, remove));
    }
    const winners = new Set(g.winners || []);
    const result = !g.over ? t("not over yet")
      // TRANSLATORS: who won a game in the class view ("Ann won", "Ann and Bob won")
      : winners.size ? t("{names} won", { names: listed(g.players.filter((_, i) => winners.has(i))) }) : t("over");
    return h("tr", { "data-game": g.id },
      h("th", { scope: "row" }, h("a", { href: "/g/" + encodeURIComponent(g.id) }, t("{game} {id}", { game: g.title, id: g.id }))),
      h("td", {}, h("ul", { class: "class-players" }, g.players.map((name, i) =>
        h("li", {}, t("{name}: {score}", { name, score: g.scores ? g.scores[i] : "" }))))),
      h("td", { class: "class-result" }, result),
      h("td", {}, g.over ? h("ul", { class: "class-accuracy" }, g.players.map((name, i) => {
        const value = g.accuracy ? g.accuracy[i] : null;
        return h("li", { "data-player": name, "data-accuracy": value === null || value === undefined ? "" : String(value) },
          // TRANSLATORS: a player's accuracy in the class view ("Ann: 70.9%")
          t("{name}: {accuracy}", { name, accuracy: value === null || value === undefined ? t("no turn to judge") : percent(value) }));
      })) : t("not over yet")),
      removeCell(g.id, remove));
  });
  return h("table", { class: "print-list", id: "class-games" },
    h("caption", {}, nt("{count} game", "{count} games", games.length, { count: games.length })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Players and scores")),
      h("th", { scope: "col" }, t("Result")), h("th", { scope: "col" }, t("Accuracy")),
      h("th", { scope: "col", class: "print-only-screen" }, h("span", { class: "sr-only" }, t("Remove"))))),
    h("tbody", {}, rows));
}

// The tournaments the view follows: each one's page, and a button to stop following it.
function tournamentsList(followed, forget) {
  if (!followed.length) return "";
  return h("ul", { id: "class-tournaments" }, followed.map(x => h("li", { "data-tournament": x.id },
    x.error ? t("Tournament {id}: {reason}", { id: x.id, reason: x.error })
      : h("a", { href: "/t/" + encodeURIComponent(x.id) }, t("Tournament: {name}", { name: x.name })),
    " ", h("button", { type: "button", class: "print-only-screen", "aria-label": t("Stop following {name}", { name: x.name || x.id }), onclick: () => forget(x.id) }, t("Remove")))));
}

function removeCell(id, remove) {
  return h("td", { class: "print-only-screen" },
    h("button", { type: "button", class: "class-remove", "aria-label": t("Remove game {id}", { id }), onclick: () => remove(id) }, t("Remove")));
}

// One row per player (issue 32): by player id and name, so two pupils of one name are two
// rows (and a computer level under two names too); a seat bound to no player (one screen)
// by its name, all that tells it. The games played, those over, their average accuracy.
export function pupilsTable(games) {
  const pupils = new Map();
  for (const g of games) {
    if (g.error) continue;
    g.players.forEach((name, i) => {
      const player = (g.player_ids && g.player_ids[i]) || "";
      const id = player + "\n" + name;
      const p = pupils.get(id) || { name, player, played: 0, over: 0, figures: [] };
      p.played++;
      if (g.over) p.over++;
      const value = g.accuracy ? g.accuracy[i] : null;
      if (typeof value === "number") p.figures.push(value);
      pupils.set(id, p);
    });
  }
  const ids = [...pupils.keys()].sort((a, b) => pupils.get(a).name.localeCompare(pupils.get(b).name, lang === "qps" ? "en" : lang));
  return h("table", { class: "print-list", id: "class-pupils" },
    h("caption", {}, t("Each player")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Games")),
      h("th", { scope: "col" }, t("Games over")), h("th", { scope: "col" }, t("Average accuracy")))),
    h("tbody", {}, ids.map(id => {
      const p = pupils.get(id), name = p.name;
      const average = p.figures.length ? p.figures.reduce((a, b) => a + b, 0) / p.figures.length : null;
      return h("tr", { "data-player": name, "data-player-id": p.player },
        h("th", { scope: "row" }, name), h("td", {}, p.played), h("td", {}, p.over),
        h("td", { "data-average": average === null ? "" : String(Math.round(average * 10) / 10) }, average === null ? t("none") : percent(average)));
    })));
}

// A player's profile (issue 15, "Ratings" and "History"): their ratings per game and pace
// (GET /api/players/{id}) and their finished games, newest first, searchable by game,
// opponent and date (GET /api/players/{id}/games), a page at a time. Each game links to
// its page, where replay, analysis and the record are. Names are text, never markup.

import { announce, api, app, h, setWhere, state } from "./core.js";

const PACES = { live: "live", correspondence: "correspondence", untimed: "untimed" };
let who = null;
let next = null;

function title(name) { return (state.variants.find(v => v.name === name) || { title: name }).title; }
function when(seconds) { return new Date(seconds * 1000).toLocaleString(); }

export async function profilePage(id) {
  const [variants, player] = await Promise.all([api("/api/variants"), api("/api/players/" + encodeURIComponent(id))]);
  state.variants = variants;
  who = player;
  setWhere(player.name);
  const ratings = player.ratings.length
    ? h("table", { id: "ratings", class: "seeks" }, h("caption", {}, "Ratings"),
      h("thead", {}, h("tr", {}, ["Game", "Pace", "Rating", "Games"].map(t => h("th", { scope: "col" }, t)))),
      h("tbody", {}, player.ratings.map(r => h("tr", {}, h("th", { scope: "row" }, title(r.game)), h("td", {}, PACES[r.pace] || r.pace),
        h("td", {}, r.shown + (r.provisional ? " (provisional)" : "")), h("td", {}, String(r.games))))))
    : h("p", { id: "no-ratings", class: "about" }, "No rated games yet.");
  const field = (label, control) => h("div", { class: "row" }, h("label", { for: control.id }, label), control);
  const search = h("form", { id: "history-search", onsubmit: e => { e.preventDefault(); load(false); } },
    h("fieldset", {}, h("legend", {}, "Search the games"),
      field("Game", h("select", { id: "history-game" }, h("option", { value: "" }, "any game"),
        variants.map(v => h("option", { value: v.name }, v.title)))),
      field("Opponent", h("input", { id: "history-opponent", maxlength: 40, autocomplete: "off" })),
      field("From", h("input", { id: "history-since", type: "date" })),
      field("To", h("input", { id: "history-until", type: "date" })),
      h("button", { type: "submit", class: "primary", id: "history-go" }, "Search")));
  app.replaceChildren(
    h("h2", { id: "profile-name" }, player.name, player.kind === "bot" ? h("span", { class: "bot-mark" }, " (computer)") : ""),
    ratings, search,
    h("table", { id: "history", class: "seeks" }, h("caption", {}, "Finished games"),
      h("thead", {}, h("tr", {}, ["Ended", "Game", "Players and scores", "Result", "Rating", ""].map(t => h("th", { scope: "col" }, t)))),
      h("tbody", { id: "history-rows" })),
    h("p", { id: "no-games", class: "about", hidden: true }, "No finished games found."),
    h("button", { type: "button", id: "history-more", hidden: true, onclick: () => load(true) }, "Older games"));
  show(player.games, false);
}

// The games matching the search fields (more: the next page of the same search).
async function load(more) {
  const q = new URLSearchParams();
  const game = document.getElementById("history-game").value;
  const opponent = document.getElementById("history-opponent").value.trim();
  const since = document.getElementById("history-since").value;
  const until = document.getElementById("history-until").value;
  if (game) q.set("game", game);
  if (opponent) q.set("opponent", opponent);
  if (since) q.set("since", String(new Date(since + "T00:00").getTime() / 1000));
  if (until) q.set("until", String(new Date(until + "T00:00").getTime() / 1000 + 86400));
  if (more && next !== null) q.set("before", String(next));
  const found = await api("/api/players/" + encodeURIComponent(who.id) + "/games?" + q);
  show(found, more);
  if (!more) announce(found.games.length ? found.games.length + (found.next !== null ? " or more" : "") + " games found." : "No finished games found.");
}

function show(page, more) {
  next = page.next;
  const rows = page.games.map(g => {
    const change = g.rating_change;
    const players = g.players.map((p, i) => [
      i ? ", " : "", p.id && p.id !== who.id ? h("a", { href: "/players/" + encodeURIComponent(p.id) }, p.name) : p.name,
      p.bot ? " (computer)" : "", " " + g.scores[i]]);
    const place = g.reason === "aborted" ? "aborted" : g.ranks[g.seat] === 1 ? "won" : "place " + g.ranks[g.seat];
    return h("tr", { "data-game": g.id }, h("td", {}, when(g.finished)),
      h("td", {}, title(g.variant) + ", " + (PACES[g.pace] || g.pace) + (g.rated ? ", rated" : "")),
      h("td", {}, players.flat()), h("td", {}, place + " (" + g.reason + ")"),
      h("td", {}, change ? (change.change > 0 ? "+" : change.change < 0 ? "−" : "±") + Math.abs(change.change) + " → " + change.after : ""),
      h("td", {}, h("a", { href: g.links.game, "aria-label": "Open the game of " + when(g.finished) }, "Open")));
  });
  const body = document.getElementById("history-rows");
  if (more) body.append(...rows); else body.replaceChildren(...rows);
  document.getElementById("no-games").hidden = body.children.length > 0;
  document.getElementById("history-more").hidden = page.next === null;
}

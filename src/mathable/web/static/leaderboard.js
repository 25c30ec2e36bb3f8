// The leaderboard (issue 15, "Ratings"): a pool's players by rating, for the game and
// pace chosen (GET /api/leaderboard). Established ratings are ranked; provisional ones
// (too few games, shown with "?") are listed apart; computer players are marked. The
// games come from /api/variants: the page never names one.

import { announce, api, app, h, setWhere, state } from "./core.js";

const PACES = [["live", "Live"], ["correspondence", "Correspondence"]];

export async function leaderboardPage() {
  setWhere("Leaderboard", true);
  state.variants = await api("/api/variants");
  const asked = new URLSearchParams(location.search);
  const game = h("select", { id: "board-game", onchange: () => show(true) },
    state.variants.map(v => h("option", { value: v.name }, v.title)));
  const pace = h("select", { id: "board-pace", onchange: () => show(true) },
    PACES.map(([value, text]) => h("option", { value }, text)));
  if (state.variants.some(v => v.name === asked.get("game"))) game.value = asked.get("game");
  if (PACES.some(([value]) => value === asked.get("pace"))) pace.value = asked.get("pace");
  app.replaceChildren(h("h2", {}, "Leaderboard"),
    h("form", { class: "row", id: "board-choice", onsubmit: e => e.preventDefault() },
      h("label", { for: "board-game" }, "Game"), game, h("label", { for: "board-pace" }, "Pace"), pace),
    h("div", { id: "board" }));
  await show(false);
}

function table(id, caption, rows, ranked) {
  const head = [ranked ? "Rank" : "", "Player", "Rating", "Games"].filter(Boolean);
  return h("table", { id, class: "seeks" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, head.map(t => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map(p => h("tr", { "data-player": p.id },
      ...(ranked ? [h("td", {}, String(p.rank))] : []),
      h("th", { scope: "row" }, h("a", { href: "/players/" + encodeURIComponent(p.id) }, p.name),
        p.bot ? h("span", { class: "bot-mark" }, " (computer)") : ""),
      h("td", {}, p.shown), h("td", {}, String(p.games))))));
}

async function show(changed) {
  const game = document.getElementById("board-game").value;
  const pace = document.getElementById("board-pace").value;
  const query = "?game=" + encodeURIComponent(game) + "&pace=" + encodeURIComponent(pace);
  if (changed) history.replaceState(null, "", "/leaderboard" + query);
  const board = await api("/api/leaderboard" + query + "&limit=50");
  const out = document.getElementById("board");
  const parts = [];
  if (board.players.length) parts.push(table("ranked", "Rated players", board.players, true));
  if (board.provisional.length) {
    parts.push(table("provisional", "Provisional ratings (fewer games: shown with ?)", board.provisional, false));
  }
  if (!parts.length) parts.push(h("p", { id: "no-ratings", class: "about" }, "No rated games in this pool yet."));
  out.replaceChildren(...parts);
  if (changed) announce("Leaderboard: " + (board.players.length + board.provisional.length) + " players.");
}

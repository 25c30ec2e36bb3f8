// The leaderboard (issue 15, "Ratings"): a pool's players by rating, for the game and
// pace chosen (GET /api/leaderboard). Established ratings are ranked; provisional ones
// (too few games, shown with "?") are listed apart; computer players and bot accounts
// are marked. The games come from /api/variants: the page never names one.

import { announce, api, app, h, setWhere, state } from "./core.js";
import { nt, pt, t } from "./i18n.js";

const PACES = ["live", "correspondence"];
// A pace's name in the choice (the server names it by a keyword).
function paceName(pace) {
  // TRANSLATORS: a pace of play: a game played at once, on a clock (else "Correspondence", days a turn).
  return pace === "live" ? pt("pace", "Live") : pt("pace", "Correspondence");
}

export async function leaderboardPage() {
  setWhere(t("Leaderboard"), true);
  state.variants = await api("/api/variants");
  const asked = new URLSearchParams(location.search);
  const game = h("select", { id: "board-game", onchange: () => show(true) },
    state.variants.map(v => h("option", { value: v.name }, v.title)));
  const pace = h("select", { id: "board-pace", onchange: () => show(true) },
    PACES.map(value => h("option", { value }, paceName(value))));
  if (state.variants.some(v => v.name === asked.get("game"))) game.value = asked.get("game");
  if (PACES.includes(asked.get("pace"))) pace.value = asked.get("pace");
  app.replaceChildren(h("h2", {}, t("Leaderboard")),
    h("form", { class: "row", id: "board-choice", onsubmit: e => e.preventDefault() },
      h("label", { for: "board-game" }, pt("kind of game", "Game")), game, h("label", { for: "board-pace" }, t("Pace")), pace),
    h("div", { id: "board" }));
  await show(false);
}

function table(id, caption, rows, ranked) {
  const head = [ranked ? t("Rank") : "", t("Player"), t("Rating"), t("Games")].filter(Boolean);
  return h("table", { id, class: "seeks" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, head.map(text => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map(p => h("tr", { "data-player": p.id },
      ...(ranked ? [h("td", {}, String(p.rank))] : []),
      h("th", { scope: "row" }, h("a", { href: "/players/" + encodeURIComponent(p.id) }, p.name),
        p.bot_account ? [" ", h("span", { class: "bot-badge" }, t("BOT"))] : "",  // issue 36
        p.bot && !p.name.toLowerCase().includes(t("(computer)").replace(/[()]/g, "").trim().toLowerCase()) ? h("span", { class: "bot-mark" }, " " + t("(computer)")) : ""),  // not said twice (issue 32)
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
  if (board.players.length) parts.push(table("ranked", t("Rated players"), board.players, true));
  if (board.provisional.length) {
    parts.push(table("provisional", t("Provisional ratings (fewer games: shown with ?)"), board.provisional, false));
  }
  if (!parts.length) parts.push(h("p", { id: "no-ratings", class: "about" }, t("No rated games in this pool yet.")));
  out.replaceChildren(...parts);
  if (changed) announce(nt("Leaderboard: {count} player.", "Leaderboard: {count} players.", board.players.length + board.provisional.length));
}

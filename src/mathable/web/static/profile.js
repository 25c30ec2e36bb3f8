// A player's profile (issue 15, "Ratings" and "History"): their ratings per game and pace
// (GET /api/players/{id}) and their finished games, newest first, searchable by game,
// opponent and date (GET /api/players/{id}/games), a page at a time. Each game links to
// its page, where replay, analysis and the record are. Names are text, never markup. On
// my own account's profile, its settings follow (account.js: sessions, password).

import { accountSettings } from "./account.js";
import { announce, api, app, h, setWhere, state, whoAmI } from "./core.js";
import { lang, nt, pt, t } from "./i18n.js";

let who = null;
let next = null;

// A pace in words (the server names it by a keyword).
function pace(key) {
  const paces = {
    // TRANSLATORS: a pace of play: a game played at once, on a clock.
    live: pt("pace", "live"),
    // TRANSLATORS: a pace of play: days a turn.
    correspondence: pt("pace", "correspondence"),
    // TRANSLATORS: a pace of play: no clock.
    untimed: pt("pace", "untimed"),
  };
  return paces[key] || key;
}
function title(name) { return (state.variants.find(v => v.name === name) || { title: name }).title; }
function when(seconds) { return new Date(seconds * 1000).toLocaleString(lang === "qps" ? "en" : lang); }

export async function profilePage(id) {
  const [variants, player] = await Promise.all([api("/api/variants"), api("/api/players/" + encodeURIComponent(id))]);
  state.variants = variants;
  who = player;
  setWhere(player.name);
  const ratings = player.ratings.length
    ? h("table", { id: "ratings", class: "seeks" }, h("caption", {}, t("Ratings")),
      h("thead", {}, h("tr", {}, [pt("kind of game", "Game"), t("Pace"), t("Rating"), t("Games")].map(head => h("th", { scope: "col" }, head)))),
      h("tbody", {}, player.ratings.map(r => h("tr", {}, h("th", { scope: "row" }, title(r.game)), h("td", {}, pace(r.pace)),
        h("td", {}, r.provisional ? t("{rating} (provisional)", { rating: r.shown }) : r.shown), h("td", {}, String(r.games))))))
    : h("p", { id: "no-ratings", class: "about" }, t("No rated games yet."));
  const field = (label, control) => h("div", { class: "row" }, h("label", { for: control.id }, label), control);
  const search = h("form", { id: "history-search", onsubmit: e => { e.preventDefault(); load(false); } },
    h("fieldset", {}, h("legend", {}, t("Search the games")),
      field(pt("kind of game", "Game"), h("select", { id: "history-game" }, h("option", { value: "" }, t("any game")),
        variants.map(v => h("option", { value: v.name }, v.title)))),
      field(t("Opponent"), h("input", { id: "history-opponent", maxlength: 40, autocomplete: "off" })),
      // TRANSLATORS: the first day of the games searched.
      field(pt("date", "From"), h("input", { id: "history-since", type: "date" })),
      // TRANSLATORS: the last day of the games searched.
      field(pt("date", "To"), h("input", { id: "history-until", type: "date" })),
      h("button", { type: "submit", class: "primary", id: "history-go" }, t("Search"))));
  app.replaceChildren(
    h("h2", { id: "profile-name" }, player.name, player.kind === "bot" && !player.name.toLowerCase().includes(t("(computer)").replace(/[()]/g, "").trim().toLowerCase()) ? h("span", { class: "bot-mark" }, " " + t("(computer)")) : ""),  // not said twice (issue 32)
    player.bot_account ? h("p", { id: "bot-account", class: "about" }, h("span", { class: "bot-badge" }, t("BOT")), " ", t("A program plays for this account.")) : "",
    h("div", { id: "challenge-slot" }),
    ratings, search,
    h("table", { id: "history", class: "seeks" }, h("caption", {}, t("Finished games")),
      h("thead", {}, h("tr", {}, [t("Ended"), pt("kind of game", "Game"), t("Players and scores"), t("Result"), t("Rating"), ""].map(head => h("th", { scope: "col" }, head)))),
      h("tbody", { id: "history-rows" })),
    h("p", { id: "no-games", class: "about", hidden: true }, t("No finished games found.")),
    h("button", { type: "button", id: "history-more", hidden: true, onclick: () => load(true) }, t("Older games")));
  show(player.games, false);
  // my own account's profile: its settings too (sessions, password)
  const me = await whoAmI().catch(() => null);
  if (me && me.account && me.id === player.id) app.append(accountSettings(Boolean(player.bot_account)));
  if (me && me.account && me.id !== player.id && player.kind === "person") challengeForm(player);
}

// The clocks a challenge offers (as the lobby's seeks: the server reads them).
const CLOCKS = ["", '{"minutes":5,"increment":3}', '{"minutes":10,"increment":0}', '{"days":3}'];
function clockText(clock) {
  if (!clock) return t("no clock");
  if (clock.days) return nt("{count} day a turn", "{count} days a turn", clock.days);
  return clock.increment ? clock.minutes + " + " + clock.increment : nt("{count} minute", "{count} minutes", clock.minutes);
}

// Challenge this account (issue 36): POST /api/challenge/{name}; once accepted, its game.
function challengeForm(player) {
  const field = (label, control) => h("div", { class: "row" }, h("label", { for: control.id }, label), control);
  const form = h("form", { id: "challenge-form", onsubmit: e => { e.preventDefault(); send(player); } },
    h("fieldset", {}, h("legend", {}, t("Challenge {name}", { name: player.name })),
      field(pt("kind of game", "Game"), h("select", { id: "challenge-variant" }, state.variants.map(v => h("option", { value: v.name }, v.title)))),
      field(t("Clock"), h("select", { id: "challenge-clock" }, CLOCKS.map(value => h("option", { value }, clockText(value ? JSON.parse(value) : null))))),
      h("div", { class: "row" }, h("input", { type: "checkbox", id: "challenge-rated" }), h("label", { for: "challenge-rated" }, t("Rated"))),
      h("button", { type: "submit", class: "primary", id: "challenge-send" }, t("Challenge")),
      h("p", { id: "challenge-status", class: "about", role: "status" })));
  document.getElementById("challenge-slot").replaceChildren(form);
}

async function send(player) {
  const status = document.getElementById("challenge-status");
  const clock = document.getElementById("challenge-clock").value;
  try {
    const made = await api("/api/challenge/" + encodeURIComponent(player.name), { method: "POST", body: JSON.stringify({
      variant: document.getElementById("challenge-variant").value, clock: clock ? JSON.parse(clock) : null,
      rated: document.getElementById("challenge-rated").checked }) });
    status.textContent = t("Challenge sent to {name}: waiting for the answer.", { name: player.name });
    waitFor(made.id);
  } catch (err) { status.textContent = err.message; }
}

async function waitFor(id) {
  const status = document.getElementById("challenge-status");
  const found = await api("/api/challenge/" + encodeURIComponent(id) + "/show").catch(() => null);
  if (found && found.game_id) { location.href = "/g/" + encodeURIComponent(found.game_id); return; }
  if (found && found.status !== "created" && found.status !== "accepted") {
    status.textContent = found.status === "declined" ? t("Your challenge was declined.") : t("Your challenge was canceled.");
    return;
  }
  setTimeout(() => waitFor(id), 1000);
}

// Logged out (or in as someone else) on this page: the settings are not theirs.
document.addEventListener("mathable:me", e => {
  const settings = document.getElementById("account-settings");
  if (settings && !(e.detail && e.detail.account && who && e.detail.id === who.id)) settings.remove();
});

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
  if (!more) announce(found.games.length ? (found.next !== null ? nt("{count} or more game found.", "{count} or more games found.", found.games.length)
    : nt("{count} game found.", "{count} games found.", found.games.length)) : t("No finished games found."));
}

function show(page, more) {
  next = page.next;
  const rows = page.games.map(g => {
    const change = g.rating_change;
    const players = g.players.map((p, i) => [
      i ? ", " : "", p.id && p.id !== who.id ? h("a", { href: "/players/" + encodeURIComponent(p.id) }, p.name) : p.name,
      p.bot && !p.name.toLowerCase().includes(t("(computer)").replace(/[()]/g, "").trim().toLowerCase()) ? " " + t("(computer)") : "", " " + g.scores[i]]);  // not said twice (issue 32)
    const place = g.reason === "aborted" ? t("aborted") : g.ranks[g.seat] === 1 ? t("won") : t("place {rank}", { rank: g.ranks[g.seat] });
    return h("tr", { "data-game": g.id }, h("td", {}, when(g.finished)),
      h("td", {}, [title(g.variant), pace(g.pace), ...(g.rated ? [t("rated")] : [])].join(", ")),
      h("td", {}, players.flat()), h("td", {}, place + " (" + (g.reason === "aborted" ? t("aborted") : g.reason) + ")"),
      h("td", {}, change ? (change.change > 0 ? "+" : change.change < 0 ? "−" : "±") + Math.abs(change.change) + " → " + change.after : ""),
      h("td", {}, h("a", { href: g.links.game, "aria-label": t("Open the game of {date}", { date: when(g.finished) }) }, pt("open a game", "Open"))));
  });
  const body = document.getElementById("history-rows");
  if (more) body.append(...rows); else body.replaceChildren(...rows);
  document.getElementById("no-games").hidden = body.children.length > 0;
  document.getElementById("history-more").hidden = page.next === null;
}

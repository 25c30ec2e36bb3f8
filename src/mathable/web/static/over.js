// Game over: the winner, final racks and deductions, the score graph, the links.

import { analysis } from "./analysis.js";
import { api, byPiece, capsOf, h, listed, say, seatBody, seatQuery, state, svg, unitCount, unitName } from "./core.js";
import { lang, nt, t } from "./i18n.js";
import { runningTotals } from "./panels.js";

// Game over: the score per turn, one labelled line per player, drawn here from the turns
// (and a last step to the final scores where the rules deduct what was left in hand),
// with the same numbers in words for those who do not see it.
export function scoreGraph(v) {
  const c = capsOf(v.variant);
  if (c.score_unit !== "points" || !v.summaries.length) return "";
  const lines = runningTotals(v);
  const turns = v.summaries.length;
  const deducted = v.over && lines.some((line, i) => line[line.length - 1] !== v.scores[i]);
  if (deducted) lines.forEach((line, i) => line.push(v.scores[i]));
  const W = 600, H = 240, L = 44, R = 90, T = 12, B = 28;
  const top = Math.max(1, ...lines.flat()), bottom = Math.min(0, ...lines.flat());
  const x = k => L + (k * (W - L - R)) / (lines[0].length - 1);
  const y = p => T + (H - T - B) * (top - p) / (top - bottom);
  const words = v.players.map((p, i) => {
    const said = { name: p, points: nt("{count} point", "{count} points", lines[i][turns]), turns: nt("{count} turn", "{count} turns", turns) };
    // TRANSLATORS: a player's score after the turns, in the score graph's description
    return deducted ? t("{name}: {points} after {turns}, {score} at the end", { ...said, score: v.scores[i] }) : t("{name}: {points} after {turns}", said);
  }).join("; ");
  // labels at the lines' ends, kept 14 px apart
  const ends = lines.map((line, i) => ({ i, y: y(line[line.length - 1]) + 4 })).sort((a, b) => a.y - b.y);
  ends.forEach((e, k) => { if (k && e.y < ends[k - 1].y + 14) e.y = ends[k - 1].y + 14; });
  const labelY = Object.fromEntries(ends.map(e => [e.i, e.y]));
  return h("figure", { id: "score-graph", class: "graph" },
    svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "graph-title graph-desc" },
      svg("title", { id: "graph-title" }, t("Score per turn")), svg("desc", { id: "graph-desc" }, words),
      svg("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }), svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: y(bottom) }),
      svg("text", { class: "tick", x: L - 4, y: y(top) + 4, "text-anchor": "end" }, top), svg("text", { class: "tick", x: L - 4, y: y(0) + 4, "text-anchor": "end" }, 0),
      bottom < 0 ? svg("text", { class: "tick", x: L - 4, y: y(bottom) + 4, "text-anchor": "end" }, bottom) : "",
      // TRANSLATORS: the score graph's last mark: the last turn's number (then the deductions at the end)
      svg("text", { class: "tick", x: W - R, y: H - 8, "text-anchor": "end" }, deducted ? t("turn {number}, then the end", { number: turns }) : t("turn {number}", { number: turns })),
      lines.map((line, i) => [
        svg("polyline", { class: "series s" + (i % 4), "data-player": v.players[i], fill: "none", points: line.map((p, k) => x(k).toFixed(1) + "," + y(p).toFixed(1)).join(" ") }),
        svg("text", { class: "label s" + (i % 4), x: W - R + 6, y: labelY[i] }, v.players[i] + " " + line[line.length - 1])])),
    h("figcaption", {}, t("Score per turn. {details}.", { details: words })));
}

// The server's reason as a sentence: its first letter a capital, no full stop doubled.
export function sentence(text) {
  const s = String(text || "").replace(/\.\s*$/, "");
  return s ? s.charAt(0).toLocaleUpperCase(lang === "qps" ? "en" : lang) + s.slice(1) : s;
}

export function summary(v) {
  const c = capsOf(v.variant);
  const winners = (v.winners || []).map(i => v.players[i]);
  const scored = v.players.map((p, i) => p + " " + v.scores[i]).join(", ");
  return h("div", { class: "summary", id: "summary" },
    h("h2", { id: "winner" }, nt("Game over: {winners} won", "Game over: {winners} won", winners.length, { winners: listed(winners) })),
    // TRANSLATORS: why the game ended (a sentence from the server), then the final scores
    h("p", { id: "end-reason" }, c.score_unit === "points" ? t("{reason}. {scores}", { reason: sentence(v.end_reason), scores: scored })
      : t("{reason}. {scores} ({unit})", { reason: sentence(v.end_reason), scores: scored, unit: unitName(c) })),
    ratingChanges(v),
    finalRacks(v, c),
    scoreGraph(v),
    // the seed exactly as the server sent it (below 2^53, or an older game's as a string):
    // typed into the new game's form, it deals the same game
    v.seed !== undefined && v.seed !== null ? h("p", { id: "seed-shown", "data-seed": String(v.seed) }, t("The deal's seed: {seed}", { seed: String(v.seed) })) : "",
    h("div", { class: "row" },
      h("a", { href: "/g/" + v.id + "?replay", id: "replay-link" }, t("Replay and analysis")), " · ",
      h("a", { href: "/g/" + v.id + "/print", id: "print-link" }, t("Printable game")), " · ",  // issue 18
      h("a", { href: "/api/games/" + v.id + "/record", download: "mathable-" + v.id + ".json" }, t("Download the record")),
      c.score_sheets ? [" · ", h("a", { href: "/api/games/" + v.id + "/transcript", download: "mathable-" + v.id + ".txt", id: "transcript-link" }, t("the score sheet"))] : "",
      h("button", { id: "analysis", onclick: () => analysis(v.id) }, t("Analysis")), rematchOffer(v)));
}

// A rematch: the same seats, a new deal (the same clock, rated or casual, house rules). A
// player asks for it (or, once another has, takes their own seat in it, with their own
// token or session cookie); spectators may watch it.
export function rematchOffer(v) {
  if (v.seat === null || v.seat === undefined) {
    return v.rematch ? [" · ", h("a", { href: "/g/" + v.rematch, id: "watch-rematch" }, t("Watch the rematch"))] : "";
  }
  return h("button", { id: "rematch", class: v.rematch ? "primary" : "", onclick: () => rematch(v) }, v.rematch ? t("Rematch offered: join") : t("Rematch"));
}

export async function rematch(v) {
  const held = v.rematch && JSON.parse(localStorage.getItem("mathable:" + v.rematch) || "{}");
  if (held && Object.keys(held).length) { openGame(v.rematch, v.mode, held); return; }  // this browser's already
  try {
    const made = await api("/api/games/" + v.id + "/rematch", { method: "POST", body: seatBody() });
    const tokens = {};
    made.seats.forEach(s => { if (s.token) tokens[s.seat] = s.token; });
    if (Object.keys(tokens).length) localStorage.setItem("mathable:" + made.id, JSON.stringify(tokens));
    openGame(made.id, made.mode, tokens);
  } catch (e) { say(e.message, true); }
}

// A game this browser holds seats of: at one screen, every seat (pass and play); online,
// the seat's own private link for a page that came by one, else the game's plain address,
// where the session cookie opens the seat (bound to this player; its token kept here too).
function openGame(id, mode, tokens) {
  const mine = Object.values(tokens);
  if (mode === "screen" || !mine.length) location.href = "/g/" + id + (mine.length ? "?screen=1" : "");
  else if (state.socketToken) location.href = "/g/" + id + "?t=" + encodeURIComponent(mine[0]);
  else location.href = "/g/" + id;
}

// Save and continue: a seat of a game at one screen downloads its record during the
// game, to upload it later and play on (with its computer seats). Online, the record
// holds the secret deal (O1): it is saved at the end, from the summary.
export function saveLink(v) {
  if (v.over || v.mode !== "screen" || v.seat === null || v.seat === undefined) return "";
  return h("p", { id: "save" }, h("a", { id: "save-record", href: "/api/games/" + v.id + "/record" + seatQuery(), download: "mathable-" + v.id + ".json" }, t("Save the game")),
    " ", t("(a record file: upload it on the home page to play on)"));
}

// A seated player of a running game may replay it so far (their own rack at each step,
// O1): the replay opens to the seat's token, carried in the link as the private link does,
// or to the session cookie's seat (a link without a token).
export function replaySoFar(v) {
  if (v.over || v.seat === null || v.seat === undefined) return "";
  return h("p", { id: "replay-so-far" }, h("a", { id: "replay-so-far-link", href: "/g/" + v.id + "?replay" + seatQuery("&", "t") }, t("Replay so far")));
}

// Game over: what each player still held, and what it cost them where the rules deduct it.
export function finalRacks(v, c) {
  const open = v.open_racks || [];
  if (!open.length) return "";
  const deductions = v.deductions || [];
  const caption = byPiece({ token: () => t("Final tokens"), tile: () => t("Final tiles"), card: () => t("Final cards") }, c);
  return h("table", { id: "final-racks" }, h("caption", {}, caption),
    v.players.map((p, i) => h("tr", {}, h("th", { scope: "row" }, p),
      h("td", {}, (open[i] || []).join(" ") || t("none left")),
      h("td", {}, deductions[i] ? deduction(deductions[i], c) : ""))));
}

// What a player's last rack cost them: "−12 points".
function deduction(n, c) {
  // TRANSLATORS: what a player's last rack cost them at the end ("−12 points")
  return c.score_unit === "points" ? nt("−{count} point", "−{count} points", n) : "−" + unitCount(n, c);
}

// A rated game's end: each player's rating change ("+12"), new rating, and a link to
// their profile (issue 15, "Ratings"). A new rating still provisional is shown with "?".
export function ratingChanges(v) {
  const changes = v.rating_changes;
  if (!changes || !changes.length) return "";
  const signed = n => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);
  return h("table", { id: "rating-changes", class: "seeks" }, h("caption", {}, t("Rating changes")),
    h("thead", {}, h("tr", {}, [t("Player"), t("Change"), t("New rating")].map(head => h("th", { scope: "col" }, head)))),
    h("tbody", {}, changes.map(ch => h("tr", { "data-seat": ch.seat },
      h("th", { scope: "row" }, h("a", { href: "/players/" + encodeURIComponent(ch.player) }, v.players[ch.seat])),
      h("td", { class: ch.change > 0 ? "gain" : ch.change < 0 ? "loss" : "" }, signed(ch.change)),
      h("td", {}, ch.after + (ch.provisional ? "?" : ""))))));
}

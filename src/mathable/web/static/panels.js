// The side panels of a game: scores, the table's rules, the unseen pieces, the moves.

import { analysis } from "./analysis.js";
import { capsOf, count, h, hintsOn, state } from "./core.js";

export function scores(v) {
  const c = capsOf(v.variant);
  const open = v.open_racks || [];
  return h("table", { id: "scores" }, v.players.map((p, i) => h("tr", {},
    h("td", {}, !v.over && v.to_move === i ? "▶" : ""), h("td", {}, p + (v.seats[i].bot ? " (" + v.seats[i].bot + ")" : "")),
    h("td", { class: "score", title: c.score_unit }, v.scores[i]),
    h("td", { class: "held" }, open[i] ? open[i].join(" ") || "none left" : count(v.rack_sizes[i], c)))),
    h("tr", {}, h("td", {}), h("td", { colspan: 3 }, "Left to draw: " + count(v.bag_size, c))));
}

// What every seat knows about how this game is played: where (online or at one screen),
// its house rules (O2: "hints allowed" when on), and who has taken their seat.
export function table(v) {
  const on = Object.entries(v.house_rules || {}).filter(([, value]) => value).map(([rule]) => rule === "hints" ? "hints allowed" : rule.replaceAll("_", " "));
  const where = v.mode === "online" ? "Online: dealt by the server, its seed shown at the end." : "Played at one screen.";
  const waiting = v.seats.map((s, i) => s.claimed ? null : v.players[i]).filter(Boolean);
  return h("div", { class: "table-rules", id: "table" },
    state.note ? h("p", { id: "joined" }, state.note) : "",
    h("p", { id: "mode-note" }, where, " ", h("a", { href: "/rules/" + encodeURIComponent(v.variant), id: "rules-link" }, "Rules of " + capsOf(v.variant).title)),
    h("p", { id: "house-rules" }, h("b", {}, "House rules: "), on.length ? on.join(", ") : "none (no hints)"),
    waiting.length ? h("p", { id: "unclaimed" }, "Invited, not joined yet: " + waiting.join(", ")) : "",
    hintsOn(v) && v.seat !== null && !v.over ? h("button", { id: "my-analysis", onclick: () => analysis(v.id, state.socketToken) }, "Analysis of my turns") : "");
}

export function card(v) {
  return h("p", { class: "card" }, h("b", {}, "Unseen: "), Object.entries(v.unseen).filter(([, n]) => n).map(([val, n]) => n > 1 ? val + "×" + n : val).join(" "));
}

// The move list: each turn with its points and every player's running total after it.
export function moves(v) {
  const c = capsOf(v.variant);
  const points = c.score_unit === "points";
  const totals = v.players.map(() => 0);
  return h("div", { class: "moves", id: "moves" }, h("b", { id: "moves-title" }, "Moves"), h("ol", { tabindex: "0", "aria-labelledby": "moves-title" }, v.summaries.map(s => {
    totals[s.seat] += s.points;
    return h("li", {}, h("span", { class: "move" }, v.players[s.seat] + ": " + s.notation + (s.note ? " (" + s.note + ")" : "")),
      points ? [" ", h("span", { class: "pts" }, "+" + s.points), " ", h("span", { class: "totals" }, "→ " + v.players.map((p, i) => p + " " + totals[i]).join(" · "))] : "");
  })));
}

// Running totals per player after each turn, from the summaries: [[0, ...], ...] per player.
export function runningTotals(v) {
  const lines = v.players.map(() => [0]);
  v.summaries.forEach(s => lines.forEach((line, i) => line.push(line[line.length - 1] + (s.seat === i ? s.points : 0))));
  return lines;
}

export function describe(s, c) {
  const extras = [];
  if (c.score_unit === "points" && s.points) extras.push(s.points);
  if (s.note) extras.push(s.note);
  return s.notation + (extras.length ? " (" + extras.join(", ") + ")" : "");
}

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

// The clocks under the scores (none without a clock): time left per seat, the running one
// counted down on the page from the view's clocks and the time the view came (the server
// is the authority: the next view corrects it). Each line reads as text: "Ann: 4:58 left".
export function clocks(v) {
  if (!v.clocks) return "";
  const live = v.clock && v.clock.minutes !== undefined;
  const name = v.clock ? (live ? v.clock.minutes + "+" + (v.clock.increment || 0) : v.clock.days + " days a turn") : "";
  return h("div", { id: "clocks", role: "group", "aria-label": "Clocks, " + name + (v.rated ? ", rated" : ", casual") },
    h("p", { class: "clock-control" }, "Clock " + name + (v.rated ? " · rated" : " · casual")),
    h("ul", {}, v.players.map((p, i) => {
      const running = !v.over && v.running === i;
      return h("li", { class: "clock" + (running ? " running" : ""), "data-seat": i, "data-left": v.clocks[i], "data-running": running ? "1" : "" },
        p + ": " + shownTime(v.clocks[i]) + " left" + (running ? " (running)" : ""));
    })));
}

export function shownTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return Math.floor(s / 86400) + "d " + Math.floor((s % 86400) / 3600) + "h";
  if (s >= 3600) return Math.floor(s / 3600) + "h " + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + "m";
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// the running clock ticks down between views
setInterval(() => {
  const el = document.querySelector("#clocks li[data-running='1']");
  const v = state.view;
  if (!el || !v || !v.clocks) return;
  const left = Number(el.dataset.left) - (Date.now() - (state.viewAt || Date.now()));
  el.textContent = v.players[Number(el.dataset.seat)] + ": " + shownTime(left) + " left (running)";
}, 250);

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

// The side panels of a game: scores, the table's rules, the unseen pieces, the moves.

import { analysis } from "./analysis.js";
import { capsOf, count, h, hintsOn, state } from "./core.js";

export function scores(v) {
  const c = capsOf(v.variant);
  const open = v.open_racks || [];
  return h("table", { id: "scores" }, v.players.map((p, i) => h("tr", {},
    h("td", {}, !v.over && v.to_move === i ? "▶" : ""), h("td", {}, p + (v.seats[i].bot ? " (" + v.seats[i].bot + ")" : ""),
      gone(v, i) ? [" ", h("span", { class: "gone", "data-seat": i }, "(" + gone(v, i) + ")")]
        : away(v, i) ? [" ", h("span", { class: "away", "data-seat": i }, "(disconnected)")] : ""),
    h("td", { class: "score", title: c.score_unit }, v.scores[i]),
    h("td", { class: "held" }, open[i] ? open[i].join(" ") || "none left" : count(v.rack_sizes[i], c)))),
    h("tr", {}, h("td", {}), h("td", { colspan: 3 }, "Left to draw: " + count(v.bag_size, c))));
}

// A seat that has left the game (the view's "left", local ruling L1), in words; "" for a
// seat still in. Its score stays as it was when it left.
const GONE = { resign: "resigned", flag: "out of time", claim: "left the game" };
export function gone(v, i) {
  const why = v.left && v.left[i];
  return why ? GONE[why] || "left the game" : "";
}

// Presence (online): a seat whose player has the game open nowhere, said in words. A seat
// nobody has taken yet is "invited" (the table says so), not disconnected.
export function away(v, i) {
  const here = v.presence && v.presence[i];
  return Boolean(here && !here.connected && v.seats[i].claimed && !v.seats[i].bot && !v.over && !gone(v, i));
}

// What changed in who is there between two views of a game, in words for the live region
// ("Bob disconnected.", "Bob is back."), the viewer's own seat left out.
export function presenceNews(before, after) {
  if (!before || !after || before.id !== after.id || !before.presence || !after.presence) return "";
  return after.players.map((p, i) => {
    if (i === after.seat || !before.presence[i]) return "";
    if (away(after, i) && !away(before, i)) return p + " disconnected.";
    if (away(before, i) && !away(after, i) && after.presence[i].connected) return p + " is back.";
    return "";
  }).filter(Boolean).join(" ");
}

// The instant (ms, the server's) from which this seat may claim against the player to
// move, away since then (null: no claim to make: not online, over, their own turn...).
export function claimAt(v) {
  if (v.claim_after === null || v.claim_after === undefined || v.seat === null || v.over) return null;
  const here = v.presence && v.presence[v.to_move];
  if (v.to_move === v.seat || !here || here.since === null || !away(v, v.to_move)) return null;
  return here.since + v.claim_after * 1000;
}

// The claim button's words: the win (two players), else the seat's removal; a countdown
// until the server would accept.
export function claimText(v, now) {
  const name = v.players[v.to_move];
  const what = v.players.length === 2 ? "Claim the win" : "Remove " + name + " from the game";
  const wait = Math.ceil((claimAt(v) - now) / 1000);
  return wait > 0 ? what + " in " + wait + " s (" + name + " is away)" : what + " (" + name + " left)";
}

// the claim button counts down to the instant it opens
setInterval(() => {
  const el = document.getElementById("claim");
  const v = state.view;
  if (!el || !v || claimAt(v) === null) return;
  el.textContent = claimText(v, Date.now());
  el.disabled = claimAt(v) > Date.now();
}, 250);

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

// The analysis of a game's turns: a dialog (game over, a seat's own turns during a game
// with hints), and the panel beside the replay's board, where hovering or focusing a
// turn shows its position with the best alternative drawn on the board, and a graph of
// what each turn lost.

import { api, capsOf, closeModal, h, modal, pieces, say, state, svg } from "./core.js";

const path = (id, token) => "/api/games/" + id + "/analysis" + (token ? "?token=" + encodeURIComponent(token) : "");
const shown = x => (x === null || x === undefined ? "" : x);

export async function analysis(id, token = null) {
  try {
    const data = await api(path(id, token));
    modal(h("div", { class: "modal-head" }, h("h3", { id: "modal-title" }, "Analysis"), h("button", { id: "close", onclick: closeModal }, "Close (Esc)")),
      h("div", { class: "analysis", tabindex: "0", role: "region", "aria-label": "the turns analysed" }, h("table", {}, h("tr", {}, ["#", "player", "played", "pts", "best", "pts", "loss"].map(c => h("th", {}, c))),
      data.turns.map(t => h("tr", {}, [t.turn, t.player, t.played, shown(t.points), t.best, shown(t.best_points), t.loss || ""].map(c => h("td", {}, c)))))),
      h("p", {}, data.players.map(p => p.player + ": accuracy " + p.accuracy + "%").join("; ")));
  } catch (e) { say(e.message, true); }
}

// What a turn's loss counts: points on a board, the pieces that could have been played
// where a game counts rounds (a card game's analysis counts cards); `n` of them in words.
function unitOf(c) { return c.score_unit === "points" ? "points" : pieces(c); }
function amount(n, c) { return n + " " + (n === 1 ? (c.score_unit === "points" ? "point" : c.piece) : unitOf(c)); }

// The panel: the loss graph, each player's accuracy, and a scrolling table of the turns.
// `hooks.preview(turn, mark)` shows a turn's position and calls `mark(board)` on it;
// `hooks.restore()` shows the replay's step again; `hooks.go(step)` moves the replay.
export async function analysisPanel(panel, id, token, hooks) {
  const title = h("h3", { id: "analysis-title" }, "Analysis");
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-labelledby", "analysis-title");
  panel.replaceChildren(title, h("p", {}, "Analysing the turns…"));
  let data;
  try { data = await api(path(id, token)); } catch (e) { panel.replaceChildren(title, h("p", { class: "error" }, e.message)); return; }
  const c = capsOf(state.view.variant);
  const unit = unitOf(c);
  const short = c.score_unit === "points" ? "pts" : unit;
  const seatOf = name => Math.max(0, state.view.players.indexOf(name));
  const preview = document.getElementById("preview");
  let shownTurn = null;
  const enter = (turn, row) => {
    if (shownTurn === turn) return;
    shownTurn = turn;
    panel.querySelectorAll("tr.showing, .bar.showing").forEach(el => el.classList.remove("showing"));
    row.classList.add("showing");
    const bar = panel.querySelector('.bar[data-turn="' + turn.turn + '"]');
    if (bar) bar.classList.add("showing");
    if (preview) preview.textContent = describeTurn(turn, c);
    hooks.preview(turn, board => markBest(board, turn.best_placements || []));
  };
  const leave = row => {
    row.classList.remove("showing");
    shownTurn = null;
    panel.querySelectorAll(".bar.showing").forEach(el => el.classList.remove("showing"));
    if (preview) preview.textContent = "";
    hooks.restore();
  };
  const rows = data.turns.map(turn => {
    const row = h("tr", { "data-turn": turn.turn, class: turn.loss ? "lost" : "" },
      h("td", {}, h("button", { type: "button", class: "turn-button", "aria-label": "turn " + turn.turn + ", " + turn.player + ": show it with its best alternative, go to it",
        onclick: async () => { await hooks.go(turn.step); hooks.preview(turn, board => markBest(board, turn.best_placements || [])); } }, turn.turn)),
      [turn.player, turn.played, shown(turn.points), turn.best, shown(turn.best_points), turn.loss || ""].map(x => h("td", {}, x)));
    row.addEventListener("mouseenter", () => enter(turn, row));
    row.addEventListener("focusin", () => enter(turn, row));
    row.addEventListener("mouseleave", () => { if (!row.contains(document.activeElement)) leave(row); });
    row.addEventListener("focusout", e => { if (!row.contains(e.relatedTarget)) leave(row); });
    return row;
  });
  panel.replaceChildren(title,
    lossGraph(data, c, seatOf),
    h("p", { id: "accuracy" }, data.players.map(p => p.player + ": accuracy " + p.accuracy + "%").join("; ")),
    h("p", { class: "hint-text" }, "Hover or focus a turn: the board shows its position and the best turn, dotted."),
    h("div", { class: "analysis analysis-rows", id: "analysis-rows", tabindex: "0", role: "region", "aria-label": "the turns analysed" },
      h("table", {}, h("caption", { class: "sr-only" }, "Each turn: what was played, the best turn available, and the " + unit + " lost"),
        h("tr", {}, ["#", "player", "played", short, "best", short, "loss"].map(x => h("th", { scope: "col" }, x))), rows)));
}

// A turn in words, for the text beside the board while it is shown.
export function describeTurn(turn, c) {
  return "Turn " + turn.turn + ", " + turn.player + ", before it was played. Played: " + turn.played + " (" + shown(turn.points) + "). "
    + "Best, drawn dotted on the board: " + turn.best + " (" + shown(turn.best_points) + ")"
    + (turn.loss ? ", " + amount(turn.loss, c) + " lost." : ": the turn played was as good.");
}

// The best turn's placements drawn on the board: a dotted piece with its value on each
// cell or pile, and the cell's name says it.
export function markBest(board, placements) {
  const values = new Map();
  placements.forEach(p => values.set(p.cell, [...(values.get(p.cell) || []), p.value]));
  board.setAttribute("aria-describedby", "preview");
  values.forEach((list, cell) => {
    const el = [...board.querySelectorAll("[data-cell]")].find(x => x.dataset.cell === cell);
    if (!el) return;
    el.classList.add("best");
    el.append(h("span", { class: "best-tok", "aria-hidden": "true" }, list.join(" ")));
    el.setAttribute("aria-label", el.getAttribute("aria-label") + ", best alternative: " + list.join(", "));
  });
}

// The loss per turn as bars (one colour per player), drawn here, with the same in words.
export function lossGraph(data, c, seatOf) {
  const unit = unitOf(c);
  const turns = data.turns;
  if (!turns.length) return "";
  const W = 600, H = 150, L = 36, R = 8, T = 10, B = 24;
  const top = Math.max(1, ...turns.map(t => t.loss || 0));
  const bw = (W - L - R) / turns.length;
  const y = loss => T + (H - T - B) * (1 - loss / top);
  const words = data.players.map(p => {
    const mine = turns.filter(t => t.player === p.player);
    const worst = mine.reduce((a, t) => (t.loss || 0) > (a ? a.loss || 0 : 0) ? t : a, null);
    return p.player + " lost " + amount(mine.reduce((s, t) => s + (t.loss || 0), 0), c) + " over " + mine.length + (mine.length === 1 ? " turn" : " turns")
      + (worst ? ", the most on turn " + worst.turn + " (" + worst.loss + ")" : "");
  }).join("; ");
  return h("figure", { id: "loss-graph", class: "graph loss-graph" },
    svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "loss-title loss-desc" },
      svg("title", { id: "loss-title" }, "Loss per turn"), svg("desc", { id: "loss-desc" }, words),
      svg("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }), svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: y(0) }),
      svg("text", { class: "tick", x: L - 4, y: y(top) + 4, "text-anchor": "end" }, top),
      svg("text", { class: "tick", x: L - 4, y: y(0) + 4, "text-anchor": "end" }, 0),
      svg("text", { class: "tick", x: L, y: H - 6 }, "turn " + turns[0].turn),
      svg("text", { class: "tick", x: W - R, y: H - 6, "text-anchor": "end" }, "turn " + turns[turns.length - 1].turn),
      turns.map((t, i) => svg("rect", { class: "bar s" + (seatOf(t.player) % 4), "data-turn": t.turn,
        x: (L + i * bw + bw * 0.1).toFixed(1), width: Math.max(1, bw * 0.8).toFixed(1),
        y: y(t.loss || 0).toFixed(1), height: (y(0) - y(t.loss || 0)).toFixed(1) }))),
    h("figcaption", {}, "Loss per turn (" + unit + " the best turn would have added). " + words + "."));
}

// The analysis of a game's turns: a dialog (game over, a seat's own turns during a game
// with hints), and the panel beside the replay's board, where hovering or focusing a
// turn shows its position with the best alternative drawn on the board, and a graph of
// what each turn lost.

import { announce, api, capsOf, closeModal, count, h, modal, modalOpen, pieces, say, shownAction, state, svg } from "./core.js";
import { nt, t } from "./i18n.js";

// The depths an analysis judges at (the server's `?depth=`): the expert's by default.
const EXPERT = "expert", MASTER = "master";
const path = (id, token, depth = EXPERT) => {
  const query = new URLSearchParams();
  if (token) query.set("token", token);
  if (depth !== EXPERT) query.set("depth", depth);
  const text = query.toString();
  return "/api/games/" + id + "/analysis" + (text ? "?" + text : "");
};
const shown = x => (x === null || x === undefined ? "" : x);

// The dialog; `depth` the one asked (the report says the one it was judged at), and
// `again` true when the reader switched depths in it (the focus goes back to the switch).
export async function analysis(id, token = null, depth = EXPERT, again = false) {
  try {
    const data = await api(path(id, token, depth));
    const back = again && modalOpen() ? state.returnFocus : null;
    modal(h("div", { class: "modal-head" }, h("h3", { id: "modal-title" }, t("Analysis")), h("button", { id: "close", onclick: closeModal }, t("Close (Esc)"))),
      h("div", { class: "analysis", tabindex: "0", role: "region", "aria-label": t("the turns analysed") }, h("table", {}, h("tr", {}, headings(t("pts")).map(c => h("th", {}, c))),
      data.turns.map(turn => h("tr", {}, [turn.turn, turn.player, shownAction(turn.played), shown(turn.points), shownAction(turn.best), shown(turn.best_points), turn.loss || "", chances(turn)].map(c => h("td", {}, c)))))),
      h("p", {}, accuracy(data)), depthLine(data, other => analysis(id, token, other, true)), whyList(data));
    if (back) { state.returnFocus = back; focusDepth(document.getElementById("modal-box"), data); }
  } catch (e) {
    if (again) restoreSwitch(document.getElementById("modal-box"), e.message);
    else say(e.message, true);
  }
}

// The depth a board game's report was judged at, and a button to judge it at the other:
// the master's (its budgets: ~10 times as long) or back to the expert's. Nothing for a
// report without a method (Quattro's cards, or one kept from before the chances).
// `choose(depth)` shows the report at that depth; meanwhile the button says it works.
function depthLine(data, choose) {
  if (!data.method) return "";
  const master = data.method.depth === MASTER;
  const said = { samples: data.method.samples };
  const words = master
    // TRANSLATORS: how deep the analysis judged each turn; {samples} counts the racks and replies simulated
    ? t("Judged at the master's depth: {samples} samples a turn.", said)
    : t("Judged at the expert's depth: {samples} samples a turn.", said);
  const button = h("button", { type: "button", class: "depth-switch", "aria-describedby": "analysis-depth-words" },
    master ? t("Back to the expert's judgement") : t("Judge like the master"));
  button.onclick = () => {
    button.dataset.label = button.textContent;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    // TRANSLATORS: said while the master's analysis is worked out (several seconds)
    const working = master ? t("Analysing the turns…") : t("Judging like the master… (about ten times as long)");
    button.textContent = working;
    announce(working);
    choose(master ? EXPERT : MASTER);
  };
  return h("p", { class: "analysis-depth" }, h("span", { id: "analysis-depth-words" }, words), " ", button);
}

// A switch of depth refused (too many at the master's depth, say): the report shown stays,
// its switch as it was, the reason said beside it (as text) and announced.
function restoreSwitch(box, reason) {
  const button = box && box.querySelector(".depth-switch");
  if (!button || !button.dataset.label) return;
  button.textContent = button.dataset.label;
  button.disabled = false;
  button.removeAttribute("aria-busy");
  const line = button.closest(".analysis-depth");
  line.querySelector(".depth-refused")?.remove();
  line.append(h("span", { class: "error depth-refused", role: "alert" }, " " + reason));
  button.focus();
}

// After a switch of depth: the focus on the new switch, its words said.
function focusDepth(box, data) {
  const button = box.querySelector(".depth-switch");
  if (button) button.focus();
  const words = box.querySelector("#analysis-depth-words");
  if (words && data.method) announce(words.textContent);
}

// What a turn's loss counts: points on a board, the pieces that could have been played
// where a game counts rounds (a card game's analysis counts cards); `n` of them in words.
function unitOf(c) { return c.score_unit === "points" ? t("points") : pieces(c); }
function amount(n, c) { return c.score_unit === "points" ? nt("{count} point", "{count} points", n) : count(n, c); }

// The analysis table's column headings ("#": the turn's number); `short` heads the
// columns of what a turn scored ("pts").
function headings(short) {
  // TRANSLATORS: the analysis table's column headings (lower case, short); "win %" is
  // the chance of winning before and after the turn
  return ["#", t("player"), t("played"), short, t("best"), short, t("loss"), t("win %")];
}

// A turn's chance of winning before (with the best turn) and after the turn played,
// "62→55" (empty in a report without chances: Quattro, or one kept from before them).
function chances(turn) {
  return turn.win_before === null || turn.win_before === undefined ? "" : Math.round(turn.win_before) + "→" + Math.round(turn.win_after);
}

// Why the better turns were better (and why a computer exchanged), a list under the table.
function whyList(data) {
  const said = data.turns.filter(turn => turn.why);
  if (!said.length) return "";
  return h("ul", { class: "analysis-why" }, said.map(turn => h("li", {}, t("turn {number}: {why}", { number: turn.turn, why: turn.why }))));
}

// Each player's accuracy: "Ann: accuracy 92%; Bob: accuracy 80%".
function accuracy(data) {
  return data.players.map(p => t("{name}: accuracy {accuracy}%", { name: p.player, accuracy: p.accuracy })).join("; ");
}

// The panel: the loss graph, each player's accuracy, and a scrolling table of the turns.
// `hooks.preview(turn, mark)` shows a turn's position and calls `mark(board)` on it;
// `hooks.restore()` shows the replay's step again; `hooks.go(step)` moves the replay.
// `depth` the one asked; `again` true when the reader switched depths in the panel.
export async function analysisPanel(panel, id, token, hooks, depth = EXPERT, again = false) {
  const title = h("h3", { id: "analysis-title" }, t("Analysis"));
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-labelledby", "analysis-title");
  if (!again) panel.replaceChildren(title, h("p", {}, t("Analysing the turns…")));
  let data;
  try { data = await api(path(id, token, depth)); } catch (e) {
    if (again) { restoreSwitch(panel, e.message); return; }
    panel.replaceChildren(title, h("p", { class: "error" }, e.message));
    return;
  }
  const c = capsOf(state.view.variant);
  const unit = unitOf(c);
  // TRANSLATORS: short for points (a column heading)
  const short = c.score_unit === "points" ? t("pts") : unit;
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
      h("td", {}, h("button", { type: "button", class: "turn-button", "aria-label": t("turn {number}, {name}: show it with its best alternative, go to it", { number: turn.turn, name: turn.player }),
        onclick: async () => { await hooks.go(turn.step); hooks.preview(turn, board => markBest(board, turn.best_placements || [])); } }, turn.turn)),
      [turn.player, shownAction(turn.played), shown(turn.points), shownAction(turn.best), shown(turn.best_points), turn.loss || "", chances(turn)].map(x => h("td", {}, x)));
    row.addEventListener("mouseenter", () => enter(turn, row));
    row.addEventListener("focusin", () => enter(turn, row));
    row.addEventListener("mouseleave", () => { if (!row.contains(document.activeElement)) leave(row); });
    row.addEventListener("focusout", e => { if (!row.contains(e.relatedTarget)) leave(row); });
    return row;
  });
  panel.replaceChildren(title,
    h("div", { class: "graphs" }, lossGraph(data, c, seatOf), winGraph(data, seatOf)),
    h("p", { id: "accuracy" }, accuracy(data)),
    depthLine(data, other => analysisPanel(panel, id, token, hooks, other, true)),
    whyList(data),
    h("p", { class: "hint-text" }, t("Hover or focus a turn: the board shows its position and the best turn, dotted.")),
    h("div", { class: "analysis analysis-rows", id: "analysis-rows", tabindex: "0", role: "region", "aria-label": t("the turns analysed") },
      // TRANSLATORS: {unit} is "points", or the pieces ("cards") a card game's analysis counts
      h("table", {}, h("caption", { class: "sr-only" }, t("Each turn: what was played, the best turn available, the {unit} lost, and the chance of winning before and after", { unit })),
        h("tr", {}, headings(short).map(x => h("th", { scope: "col" }, x))), rows)));
  if (again) focusDepth(panel, data);
}

// A turn in words, for the text beside the board while it is shown.
export function describeTurn(turn, c) {
  const words = { number: turn.turn, name: turn.player, played: shownAction(turn.played), points: shown(turn.points), best: shownAction(turn.best), best_points: shown(turn.best_points) };
  const why = turn.why ? " " + turn.why + "." : "";
  return (turn.loss
    ? t("Turn {number}, {name}, before it was played. Played: {played} ({points}). Best, drawn dotted on the board: {best} ({best_points}), {loss} lost.",
      { ...words, loss: amount(turn.loss, c) })
    : t("Turn {number}, {name}, before it was played. Played: {played} ({points}). Best, drawn dotted on the board: {best} ({best_points}): the turn played was as good.", words)) + why;
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
    // TRANSLATORS: a board cell's name ("H8, empty"), then the values the best turn placed there
    el.setAttribute("aria-label", t("{name}, best alternative: {values}", { name: el.getAttribute("aria-label"), values: list.join(", ") }));
  });
}

// Each player's chance of winning after each of its turns, as a line per player (the
// colours of the loss graph), drawn here with the same in words; nothing for a report
// without chances (Quattro, or one kept from before them).
const SEAT_COLOURS = ["#2f5fb3", "#c0392b", "#2e9d4f", "#a85400"];  // the graphs' seat colours (style.css)

export function winGraph(data, seatOf) {
  const turns = data.turns.filter(turn => turn.win_after !== null && turn.win_after !== undefined);
  if (!turns.length) return "";
  const W = 600, H = 150, L = 46, R = 8, T = 10, B = 24;
  const first = turns[0].turn, last = turns[turns.length - 1].turn;
  const x = n => L + (W - L - R) * (last === first ? 0.5 : (n - first) / (last - first));
  const y = p => T + (H - T - B) * (1 - p / 100);
  const lines = data.players.map(p => {
    const mine = turns.filter(turn => turn.player === p.player);
    return { player: p.player, seat: seatOf(p.player), mine };
  }).filter(line => line.mine.length);
  const words = lines.map(line => t("{name}: from {first}% to {last}% (most {most}%, least {least}%)", {
    name: line.player, first: Math.round(line.mine[0].win_after), last: Math.round(line.mine[line.mine.length - 1].win_after),
    most: Math.round(Math.max(...line.mine.map(turn => turn.win_after))), least: Math.round(Math.min(...line.mine.map(turn => turn.win_after))),
  })).join("; ");
  return h("figure", { id: "win-graph", class: "graph win-graph" },
    svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "win-title win-desc" },
      svg("title", { id: "win-title" }, t("Chance of winning after each turn")), svg("desc", { id: "win-desc" }, words),
      svg("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }), svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: y(0) }),
      svg("line", { class: "axis half", x1: L, y1: y(50), x2: W - R, y2: y(50), "stroke-dasharray": "4 4" }),
      [100, 50, 0].map(p => svg("text", { class: "tick", x: L - 4, y: y(p) + 4, "text-anchor": "end" }, p + "%")),
      svg("text", { class: "tick", x: L, y: H - 6 }, t("turn {number}", { number: first })),
      svg("text", { class: "tick", x: W - R, y: H - 6, "text-anchor": "end" }, t("turn {number}", { number: last })),
      lines.map(line => svg("polyline", { class: "series s" + (line.seat % 4), fill: "none",
        points: line.mine.map(turn => x(turn.turn).toFixed(1) + "," + y(turn.win_after).toFixed(1)).join(" ") })),
      lines.map(line => line.mine.map(turn => svg("circle", { class: "dot", fill: SEAT_COLOURS[line.seat % 4], "data-turn": turn.turn, r: 3,
        cx: x(turn.turn).toFixed(1), cy: y(turn.win_after).toFixed(1) })))),
    // TRANSLATORS: {details} is each player's chance of winning, from the first turn to the last
    h("figcaption", {}, t("Chance of winning after each turn, from a model of the margin and the tokens left. {details}.", { details: words })));
}

// The loss per turn as bars (one colour per player), drawn here, with the same in words.
export function lossGraph(data, c, seatOf) {
  const unit = unitOf(c);
  const turns = data.turns;
  if (!turns.length) return "";
  const W = 600, H = 150, L = 36, R = 8, T = 10, B = 24;
  const top = Math.max(1, ...turns.map(turn => turn.loss || 0));
  const bw = (W - L - R) / turns.length;
  const y = loss => T + (H - T - B) * (1 - loss / top);
  const words = data.players.map(p => {
    const mine = turns.filter(turn => turn.player === p.player);
    const worst = mine.reduce((a, turn) => (turn.loss || 0) > (a ? a.loss || 0 : 0) ? turn : a, null);
    const said = { name: p.player, amount: amount(mine.reduce((s, turn) => s + (turn.loss || 0), 0), c), turns: nt("{count} turn", "{count} turns", mine.length) };
    return worst ? t("{name} lost {amount} over {turns}, the most on turn {number} ({loss})", { ...said, number: worst.turn, loss: worst.loss })
      : t("{name} lost {amount} over {turns}", said);
  }).join("; ");
  return h("figure", { id: "loss-graph", class: "graph loss-graph" },
    svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "loss-title loss-desc" },
      svg("title", { id: "loss-title" }, t("Loss per turn")), svg("desc", { id: "loss-desc" }, words),
      svg("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }), svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: y(0) }),
      svg("text", { class: "tick", x: L - 4, y: y(top) + 4, "text-anchor": "end" }, top),
      svg("text", { class: "tick", x: L - 4, y: y(0) + 4, "text-anchor": "end" }, 0),
      svg("text", { class: "tick", x: L, y: H - 6 }, t("turn {number}", { number: turns[0].turn })),
      svg("text", { class: "tick", x: W - R, y: H - 6, "text-anchor": "end" }, t("turn {number}", { number: turns[turns.length - 1].turn })),
      turns.map((turn, i) => svg("rect", { class: "bar s" + (seatOf(turn.player) % 4), "data-turn": turn.turn,
        x: (L + i * bw + bw * 0.1).toFixed(1), width: Math.max(1, bw * 0.8).toFixed(1),
        y: y(turn.loss || 0).toFixed(1), height: (y(0) - y(turn.loss || 0)).toFixed(1) }))),
    // TRANSLATORS: {unit} is "points", or the pieces ("cards") a card game's analysis counts
    h("figcaption", {}, t("Loss per turn ({unit} the best turn would have added). {details}.", { unit, details: words })));
}

// Replay of a game, action by action: buttons, arrows and Home/End, a move list that
// jumps to a turn, the racks at each step (every rack once the game is over; in a game
// still played a seat sees only its own, O1), and the analysis panel beside the board.

import { analysisPanel } from "./analysis.js";
import { api, app, capsOf, count, h, setWhere, shownAction, shownTurn, state } from "./core.js";
import { t } from "./i18n.js";
import { scores } from "./panels.js";
import { drawSurface } from "./surface.js";

// The seat's token of this page (its private link, or the first one kept at this
// screen): during a game the replay opens to a seat only, with its own rack.
function seatToken() {
  return state.tokens.link || Object.values(state.tokens)[0] || null;
}

export async function replayPage(id) {
  const seat = seatToken();
  const cache = new Map();
  const fetchStep = to => {
    if (!cache.has(to)) cache.set(to, api("/api/games/" + id + "/replay?step=" + to + (seat ? "&token=" + encodeURIComponent(seat) : "")));
    return cache.get(to);
  };
  let step = 0, total = 0, data = null, previewing = 0;
  const go = to => { step = Math.max(0, Math.min(total, to)); return show(); };
  const stepText = h("span", { id: "step", role: "status" }, "…");
  const holder = h("div", { id: "board-holder" });
  const status = h("p", { id: "status" });
  const racks = h("div", { id: "racks-at-step" });
  const scoreBox = h("div", {});
  const list = h("ol", { id: "replay-moves", class: "replay-moves", "aria-labelledby": "replay-moves-title" });
  const panel = h("div", { id: "analysis-panel", class: "analysis-panel" });
  const view = d => Object.assign(d.view, { id, seq: d.step, legal: [], seats: d.view.players.map(() => ({})) });

  // The board and racks of a step; `mark` draws a turn's best alternative on the board
  // (the analysis shows the position a turn started from, and what the player held).
  const draw = (d, mark = null) => {
    const v = view(d);
    state.view = v;
    const board = drawSurface(v);
    if (mark) mark(board);
    holder.replaceChildren(board);
    racks.replaceChildren(racksTable(v, d.racks || [], d.step));
  };
  const show = async () => {
    const wanted = step;
    const got = await fetchStep(wanted).catch(e => { app.textContent = e.message; });
    if (!got || wanted !== step) return;  // a later step was asked for meanwhile
    data = got;
    previewing++;
    step = data.step;
    total = data.total;
    draw(data);
    const v = state.view;
    status.textContent = v.status;
    // TRANSLATORS: where the replay is: an action (a placement, a pass...) of all the game's
    stepText.textContent = data.action ? t("action {step} of {total}: {action}", { step: data.step, total: data.total, action: shownAction(data.action) })
      : t("action {step} of {total}", { step: data.step, total: data.total });
    scoreBox.replaceChildren(scores(v));
    list.querySelectorAll("li").forEach(li => {
      const now = Number(li.dataset.start) < step && step <= Number(li.dataset.step);
      li.classList.toggle("now", now);
      if (now) { li.setAttribute("aria-current", "step"); scrollWithin(list, li); }
      else li.removeAttribute("aria-current");
    });
  };

  document.addEventListener("keydown", e => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  const first = await fetchStep(0).catch(e => { app.textContent = e.message; });
  if (!first) return;
  const v0 = first.view;
  const c = capsOf(v0.variant);
  setWhere(c.title);
  const points = c.score_unit === "points";
  list.replaceChildren(...(first.turns || []).map((turn, i) => h("li", { "data-start": turn.start, "data-step": turn.step },
    h("button", { type: "button", class: "jump", onclick: () => go(turn.step) },
      (i + 1) + ". " + v0.players[turn.seat] + ": " + shownTurn(turn.notation, capsOf(v0.variant)) + (turn.note ? " (" + turn.note + ")" : "") + (points ? " +" + turn.points : "")))));
  app.replaceChildren(h("h2", {}, t("Replay")), h("div", { class: "row", id: "controls" },
    // TRANSLATORS: a button and its key (Home, End: the keyboard's keys)
    h("button", { id: "first", onclick: () => go(0) }, t("First (Home)")),
    h("button", { id: "back", onclick: () => go(step - 1) }, t("← Back")),
    stepText,
    h("button", { id: "forward", onclick: () => go(step + 1) }, t("Forward →")),
    h("button", { id: "last", onclick: () => go(total) }, t("Last (End)")),
    h("a", { href: "/g/" + id + (state.tokens.link ? "?t=" + encodeURIComponent(state.tokens.link) : "") }, t("back to the game")),
    h("a", { href: "/rules/" + encodeURIComponent(v0.variant), id: "rules-link" }, t("Rules of {game}", { game: c.title }))),
  h("div", { class: "layout replay-layout" },
    h("div", { class: "main" }, holder, status, h("p", { id: "preview", class: "preview" }), racks, scoreBox),
    h("div", { class: "side replay-side" },
      h("div", { class: "moves" }, h("b", { id: "replay-moves-title" }, t("Moves (choose one to go to it)")), list),
      panel)));
  await show();
  // The analysis beside the board: open once the game is over, and during it to a seat
  // with the house rule hints (O2), for its own turns.
  const over = first.total > 0 && (await fetchStep(first.total).catch(() => null))?.view.over;
  if (over || (seat && v0.house_rules && v0.house_rules.hints)) {
    analysisPanel(panel, id, over ? null : seat, {
      preview: async (turn, mark) => {
        const mine = ++previewing;
        const at = await fetchStep(turn.step).catch(() => null);
        if (at && mine === previewing) draw(at, mark);
      },
      restore: () => { previewing++; if (data) draw(data); },
      go,
    });
  }
}

// The racks after this step: every seat's once the game is over; during it only the
// viewer's own (and racks that lie face up); the others are hidden (O1).
function racksTable(v, racks, step) {
  if (!racks.some(r => r)) return "";
  const c = capsOf(v.variant);
  return h("table", { id: "replay-racks" }, h("caption", {}, t("Racks after action {step}", { step })),
    v.players.map((p, i) => h("tr", { "data-seat": i }, h("th", { scope: "row" }, p),
      // TRANSLATORS: a rack not shown during the game, and how many pieces it holds
      h("td", {}, racks[i] ? racks[i].join(" ") || t("none left") : t("hidden ({pieces})", { pieces: count(v.rack_sizes[i], c) })))));
}

// Scroll a list so that its item is in sight, without moving the page.
export function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

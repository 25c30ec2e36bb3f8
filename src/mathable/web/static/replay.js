// Replay of a finished or running game, action by action.

import { api, app, capsOf, h, setWhere, state } from "./core.js";
import { moves, scores } from "./panels.js";
import { drawSurface } from "./surface.js";

export async function replayPage(id) {
  let step = 0, total = 0;
  const go = to => { step = Math.max(0, Math.min(total, to)); show(); };
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  const show = async () => {
    const data = await api("/api/games/" + id + "/replay?step=" + step).catch(e => { app.textContent = e.message; });
    if (!data) return;
    step = data.step;
    total = data.total;
    state.view = Object.assign(data.view, { id, seq: step, legal: [], seats: data.view.players.map(() => ({})) });
    setWhere(capsOf(data.view.variant).title);
    app.replaceChildren(h("h2", {}, "Replay"), h("div", { class: "row" },
      h("button", { id: "first", onclick: () => go(0) }, "First (Home)"),
      h("button", { id: "back", onclick: () => go(step - 1) }, "← Back"),
      h("span", { id: "step", role: "status" }, "action " + data.step + " of " + data.total + (data.action ? ": " + data.action : "")),
      h("button", { id: "forward", onclick: () => go(step + 1) }, "Forward →"),
      h("button", { id: "last", onclick: () => go(total) }, "Last (End)"),
      h("a", { href: "/g/" + id }, "back to the game")),
      h("div", { class: "layout" }, h("div", { class: "main" }, drawSurface(data.view), h("p", { id: "status" }, data.view.status)),
        h("div", { class: "side" }, scores(data.view), moves(data.view))));
  };
  await show();
}

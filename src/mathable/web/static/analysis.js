// The analysis of a game's turns.

import { api, closeModal, h, modal, say } from "./core.js";

export async function analysis(id, token = null) {
  try {
    const data = await api("/api/games/" + id + "/analysis" + (token ? "?token=" + encodeURIComponent(token) : ""));
    const cell = x => (x === null || x === undefined ? "" : x);
    modal(h("div", { class: "modal-head" }, h("h3", { id: "modal-title" }, "Analysis"), h("button", { id: "close", onclick: closeModal }, "Close (Esc)")),
      h("div", { class: "analysis", tabindex: "0", role: "region", "aria-label": "the turns analysed" }, h("table", {}, h("tr", {}, ["#", "player", "played", "pts", "best", "pts", "loss"].map(c => h("th", {}, c))),
      data.turns.map(t => h("tr", {}, [t.turn, t.player, t.played, cell(t.points), t.best, cell(t.best_points), t.loss || ""].map(c => h("td", {}, c)))))),
      h("p", {}, data.players.map(p => p.player + ": accuracy " + p.accuracy + "%").join("; ")));
  } catch (e) { say(e.message, true); }
}

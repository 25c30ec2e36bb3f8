// The rules page of a game (/rules/{variant}): its title, summary and rules, from the
// capabilities (/api/variants), as text only; links to the other games' rules.

import { api, app, count, h, setWhere, state } from "./core.js";
import { nt, t } from "./i18n.js";

// The rules text in paragraphs: the lines of the text are wrapped for a terminal, so
// they are joined again, and a new paragraph starts after a blank line or where a line
// that ends a sentence is followed by one that begins with a capital (in any language).
export function paragraphs(text) {
  const out = [];
  let open = false;
  for (const line of text.split("\n").map(l => l.trim())) {
    if (!line) { open = false; continue; }
    const last = out.length ? out[out.length - 1] : "";
    if (open && !(/[.\]:]$/.test(last) && /^[\p{Lu}(¿¡]/u.test(line))) out[out.length - 1] = last + " " + line;
    else out.push(line);
    open = true;
  }
  return out;
}

export async function rulesPage(name) {
  state.variants = await api("/api/variants");
  const found = state.variants.find(v => v.name === name);
  const others = h("nav", { "aria-label": t("the rules of every game") }, t("Rules of:"), " ",
    state.variants.flatMap((v, i) => [i ? " · " : "",
      v.name === name ? h("span", { "aria-current": "page" }, v.title) : h("a", { href: "/rules/" + encodeURIComponent(v.name) }, v.title)]));
  // Back to the page that opened this one (the game), or home for a page opened by itself.
  const back = history.length > 1
    ? h("a", { href: "/", id: "back-link", onclick: e => { e.preventDefault(); history.back(); } }, t("← back"))
    : h("a", { href: "/", id: "back-link" }, t("← home"));
  if (!found) {
    setWhere("");
    app.replaceChildren(h("h2", {}, t("No such game")), h("p", { id: "message", class: "error" }, t("There is no game called {name}.", { name })), others, back);
    return;
  }
  const c = found.capabilities;
  setWhere(c.title);
  document.title = t("Rules of {game} — {brand}", { game: c.title, brand: document.querySelector("header .brand").textContent });
  const players = c.min_players === c.max_players ? nt("{count} player", "{count} players", c.min_players)
    : t("{min} to {max} players", { min: c.min_players, max: c.max_players });
  app.replaceChildren(h("article", { class: "rules-page", id: "rules-page" },
    h("h2", {}, t("Rules of {game}", { game: c.title })),
    h("p", { class: "about" }, c.summary),
    // TRANSLATORS: how many play and how many pieces each holds ("2 to 4 players, 7 tokens each.")
    h("p", {}, t("{players}, {pieces} each.", { players, pieces: count(c.rack_size, c) })),
    (c.rules_paragraphs || paragraphs(c.rules || "")).map(p => h("p", { class: "rule" }, p)),
    h("div", { class: "row" }, back, " · ", h("a", { href: "/" }, t("start a game"))), others));
}

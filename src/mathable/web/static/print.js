// Printable pages for teachers (issue 18): a puzzle set for paper (/puzzles/print, its
// answers on a last page) and a finished game with every turn explained (/g/{id}/print).
// Boards are compact tables drawn from the game's capabilities (as surface.js draws them:
// the page never names a game), readable in black and white: a value in bold, an empty
// square's mark (×, ÷, a number…) in small type. The print style hides the site's header
// and keeps each puzzle whole on its page.

import { SYMBOLS, api, app, capsOf, h, setWhere, shownAction, state } from "./core.js";
import { nt, pt, t } from "./i18n.js";
import { coordinates, targetName } from "./surface.js";


// Print media (print.css, a file: the page's CSP forbids inline styles): no header or
// switches, black on white, a puzzle never cut by a page break, the answers on their own page.
function printStyle() {
  if (document.getElementById("print-style")) return;
  document.head.append(h("link", { id: "print-style", rel: "stylesheet", href: "/static/print.css" }));
}

// A band's name in the reader's language.
function bandName(band) {
  // TRANSLATORS: a puzzle's difficulty band
  return { easy: pt("puzzle band", "easy"), medium: pt("puzzle band", "medium"), hard: pt("puzzle band", "hard") }[band] || band;
}

function titleOf(game) {
  const found = state.variants.find(v => v.name === game);
  return found ? found.title : game;
}

// The "Print" button and a way back, shown on screen only.
function printBar(back, backText) {
  return h("p", { class: "row print-only-screen" },
    h("button", { type: "button", id: "print-button", class: "primary", onclick: () => window.print() }, t("Print")), " ",
    h("a", { href: back }, backText));
}

// A board as a table: coordinates as headers, each square's value in bold or, when
// empty, its mark; every cell named as on the game page ("H8, 4", "D4, empty, times square").
export function boardTable(variant, surface, caption, id) {
  const c = capsOf(variant);
  const coords = coordinates(c);
  const rows = [];
  for (let r = 0; r * c.columns < c.targets.length; r++) {
    const cells = c.targets.slice(r * c.columns, (r + 1) * c.columns).map((target, k) => {
      const value = surface[r * c.columns + k];
      const mark = target.label && target.label !== target.name ? SYMBOLS[target.label] || target.label : "";
      return h("td", { class: "sq " + target.kind, "data-cell": target.name, "aria-label": targetName(target, value, "", false, false, "") },
        value >= 0 ? h("b", {}, value) : h("small", {}, mark));
    });
    rows.push(h("tr", {}, coords ? h("th", { scope: "row" }, coords.rows[r]) : "", cells));
  }
  return h("table", { class: "print-board", id },
    h("caption", { class: "sr-only" }, caption),
    coords ? h("thead", {}, h("tr", {}, h("td", {}), coords.columns.map(l => h("th", { scope: "col" }, l)))) : "",
    h("tbody", {}, rows));
}

// ---------------------------------------------------------------- the puzzle set

export async function puzzleSetPage() {
  printStyle();
  setWhere(t("Printable puzzles"));
  const asked = new URLSearchParams(location.search);
  const query = new URLSearchParams();
  for (const key of ["band", "game", "count"]) if (asked.has(key)) query.set(key, asked.get(key));
  state.variants = await api("/api/variants");
  let found;
  try {
    found = await api("/api/puzzles/print?" + query.toString());
  } catch (e) {
    app.replaceChildren(h("section", { class: "print-page" },
      h("h2", {}, t("Printable puzzles")),
      h("p", { id: "print-error", role: "alert" }, t("These puzzles cannot be printed: {reason}", { reason: e.message })),
      printBar("/puzzles", t("Back to the puzzles"))));
    return;
  }
  const band = asked.get("band");
  app.replaceChildren(h("section", { class: "print-page", "aria-labelledby": "print-title" },
    h("h2", { id: "print-title" }, band ? t("Puzzles: {band}", { band: bandName(band) }) : t("Puzzles")),
    printBar("/puzzles", t("Back to the puzzles")),
    h("p", { class: "print-only-screen" }, nt("{count} puzzle, then the answers on a page of their own.", "{count} puzzles, then the answers on a page of their own.", found.length)),
    found.map((p, i) => puzzleBlock(p, i + 1)),
    h("section", { class: "print-answers", id: "answers", "aria-labelledby": "answers-title" },
      h("h2", { id: "answers-title" }, t("Answers")),
      h("ol", {}, found.map((p, i) => h("li", { "data-puzzle": p.id, value: i + 1 },
        t("Puzzle {number}: {turn}, {points}", { number: i + 1, turn: shownAction(p.answer), points: nt("{count} point", "{count} points", p.points) }), " ",
        // TRANSLATORS: after a puzzle's answer: the best single placement it beats
        h("small", {}, t("(the obvious {placement} makes {points})", { placement: p.obvious, points: nt("{count} point", "{count} points", p.obvious_points) }))))))));
}

function puzzleBlock(p, number) {
  const heading = "puzzle-" + number;
  return h("article", { class: "print-puzzle", "data-puzzle": p.id, "aria-labelledby": heading },
    h("h3", { id: heading }, t("Puzzle {number}", { number }), " ",
      // TRANSLATORS: a puzzle's game and difficulty band ("Mathable, hard")
      h("small", {}, t("({game}, {band}; {id})", { game: titleOf(p.game), band: bandName(p.band), id: p.id }))),
    boardTable(p.game, p.surface, t("Board of puzzle {number}", { number }), null),
    h("p", { class: "print-rack" }, t("Rack:"), " ", p.rack.map(v => h("span", {}, v))),
    h("p", { class: "target" }, nt("Find a turn worth at least {count} point", "Find a turn worth at least {count} points", p.target)));
}

// ---------------------------------------------------------------- a finished game

export async function gamePrintPage(id) {
  printStyle();
  setWhere(t("Printable game"));
  let v;
  try {
    state.variants = await api("/api/variants");
    v = await api("/api/games/" + encodeURIComponent(id));
  } catch (e) {
    refused(id, e.message);
    return;
  }
  if (!v.over) {
    refused(id, t("this game is not over yet: only a finished game can be printed"));
    return;
  }
  const c = capsOf(v.variant);
  const winners = new Set(v.winners || []);
  app.replaceChildren(h("section", { class: "print-page", "aria-labelledby": "print-title" },
    h("h2", { id: "print-title" }, t("Game {id}: {game}", { id: v.id, game: titleOf(v.variant) })),
    printBar("/g/" + v.id, t("Back to the game")),
    h("p", { id: "print-end" }, v.end_reason),
    h("table", { class: "print-list", id: "print-scores" },
      h("caption", {}, t("Final scores")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, t("Result")))),
      h("tbody", {}, v.players.map((name, i) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, v.scores[i]),
        // TRANSLATORS: a player's result in the printed score table
        h("td", {}, winners.has(i) ? t("won") : ""))))),
    c.surface === "board" ? [h("h3", { id: "final-board-title" }, t("The final board")), boardTable(v.variant, v.surface, t("The final board"), "print-final-board")] : "",
    h("table", { class: "print-list", id: "print-turns" },
      h("caption", {}, t("Every turn, explained")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Turn")), h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Move")),
        h("th", { scope: "col" }, t("Points")), h("th", { scope: "col" }, t("Explanations")))),
      h("tbody", {}, v.summaries.map((s, k) => h("tr", { class: "print-turn", "data-turn": k + 1 },
        h("th", { scope: "row" }, k + 1), h("td", {}, v.players[s.seat]), h("td", { class: "notation" }, shownAction(s.notation), s.note ? [" ", h("small", {}, s.note)] : ""),
        h("td", {}, s.points),
        h("td", { class: "explained" }, (s.explanations || []).length ? h("ul", {}, s.explanations.map(e => h("li", {}, e))) : "")))))));
}

function refused(id, reason) {
  app.replaceChildren(h("section", { class: "print-page" },
    h("h2", {}, t("Printable game")),
    h("p", { id: "print-error", role: "alert" }, t("This game cannot be printed: {reason}", { reason })),
    printBar("/g/" + encodeURIComponent(id), t("Back to the game"))));
}

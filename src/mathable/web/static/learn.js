// The guided first game (/learn, issue 18): each step of a lesson (/api/lessons/{name})
// with the board before it, the rack and the rule it shows. The learner picks a token and
// a square (or types the move); the server checks it with the engine and explains a wrong
// attempt, which is said in the live region. The page never judges a move itself: the
// cells a picked number may go on light from the step's `legal` (the engine's), and the
// scores shown count the open turn's points (issue 32).

import { SYMBOLS, announce, api, app, h, setWhere, shownAction } from "./core.js";
import { t } from "./i18n.js";

const at = { lesson: null, lessons: [], step: 0, picked: null, after: new Map() };

export async function learnPage() {
  setWhere(t("Learn"), true);
  at.lessons = await api("/api/lessons");
  // the lesson asked for, else the server's first (the classic game's worked example)
  const name = new URLSearchParams(location.search).get("lesson") || at.lessons[0].name;
  at.lesson = await api("/api/lessons/" + encodeURIComponent(name));
  document.title = t("{title} — {brand}", { title: at.lesson.title, brand: document.querySelector("header .brand").textContent });
  draw();
}

// Column letters and row numbers from the targets' names (letters then digits).
function coordinates(L) {
  const parse = name => /^([A-Z]+)(\d+)$/.exec(name);
  const rows = Math.ceil(L.targets.length / L.columns);
  const columns = L.targets.slice(0, L.columns).map(x => parse(x.name));
  const starts = [...Array(rows).keys()].map(r => parse(L.targets[r * L.columns].name));
  if (columns.some(m => !m) || starts.some(m => !m)) return null;
  return { columns: columns.map(m => m[1]), rows: starts.map(m => m[2]) };
}

function board(L, shown, where) {
  const onBoard = L.surface === "board";
  const coords = onBoard ? coordinates(L) : null;
  const grid = h("div", { class: onBoard ? "board" : "piles", id: "board", role: "group", "aria-label": onBoard ? t("board") : t("piles"),
    style: "grid-template-columns: " + (coords ? "var(--coord) " : "") + "repeat(" + L.columns + ", " + (onBoard ? "var(--cell)" : "var(--pile)") + ")" });
  if (coords) grid.append(h("span", { class: "coord", "aria-hidden": "true" }), ...coords.columns.map(l => h("span", { class: "coord", "aria-hidden": "true" }, l)));
  L.targets.forEach((target, i) => {
    if (coords && i % L.columns === 0) grid.append(h("span", { class: "coord", "aria-hidden": "true" }, coords.rows[i / L.columns]));
    const value = shown.board[target.name];
    const classes = [onBoard ? "cell" : "pile", target.kind];
    if (target.name === where) classes.push("hinted");
    // the picked number's legal places light as in the game (issue 32), from the step's data
    const lit = at.picked !== null && (shown.legal?.[at.picked] || []).includes(target.name);
    if (lit) classes.push("legal");
    const content = !onBoard ? [h("small", {}, target.label), value !== undefined ? h("span", { class: "top" }, value) : ""]
      : value !== undefined ? h("span", { class: "tok" }, value) : SYMBOLS[target.label] || target.label;
    // TRANSLATORS: a square's accessible name: its name and the token on it, or "empty"
    const label = (value !== undefined ? t("{cell}, {value}", { cell: target.name, value }) : t("{cell}, empty", { cell: target.name })) + (lit ? ", " + t("legal") : "");
    grid.append(h("button", { type: "button", class: classes.join(" "), "data-cell": target.name, title: target.name, "aria-label": label,
      onclick: () => { if (at.picked !== null) attempt(target.name + "=" + at.picked); } }, content));
  });
  return grid;
}

// `tone`: "ok" (a right move), "error" (a wrong one) or "hint" (asked for: not an error).
function draw(message = "", tone = "", where = "") {
  const L = at.lesson, index = at.step, s = L.steps[index];
  const shown = at.after.get(index) || s;
  const done = at.after.has(index);
  const players = shown.players.map((p, i) => (i === shown.to_move && !done ? "▶ " : "") + p + " " + shown.scores[i]).join(" · ");
  const rack = h("div", { class: "rack", id: "rack", role: "group", "aria-label": t("{name}'s rack", { name: s.players[s.to_move] }) },
    (done ? [] : s.rack).map(value => h("button", { type: "button", class: "tile" + (at.picked === value ? " picked" : ""), "aria-pressed": String(at.picked === value),
      onclick: () => { at.picked = at.picked === value ? null : value; draw(); } }, value)));
  const typed = h("input", { id: "learn-move", type: "text", maxlength: "64", autocomplete: "off", spellcheck: "false", "aria-label": t("your move") });
  const form = h("form", { id: "learn-form", onsubmit: e => { e.preventDefault(); attempt(typed.value); } },
    h("label", { for: "learn-move" }, t("Type the move ({example}):", { example: shownAction(L.steps[0].move) })), " ", typed, " ", h("button", { type: "submit" }, t("Try")));
  const nav = h("div", { class: "row" },
    h("button", { type: "button", id: "learn-back", disabled: index === 0, onclick: () => go(index - 1) }, t("← back")),
    " ", h("button", { type: "button", id: "learn-hint", onclick: () => draw(t("Type {move}: {why}.", { move: shownAction(s.move), why: s.why }), "hint") }, t("Hint")),
    " ", h("button", { type: "button", id: "learn-next", disabled: index + 1 >= L.steps.length, onclick: () => go(index + 1) }, t("next →")));
  app.replaceChildren(h("article", { class: "learn-page", id: "learn-page" },
    h("h2", {}, L.title),
    index === 0 ? h("p", { class: "about" }, L.intro) : "",
    // TRANSLATORS: a lesson's progress
    h("p", { id: "learn-progress" }, t("Step {number} of {count}", { number: index + 1, count: L.steps.length })),
    h("h3", { id: "learn-title", tabindex: "-1" }, s.title),
    h("p", { id: "learn-text" }, s.text),
    board(L, shown, where),
    h("p", { id: "learn-scores" }, players),
    done ? "" : h("p", {}, t("Pick a number, then where it goes:")), rack,
    done ? "" : form,
    h("p", { id: "message", class: message ? tone || "error" : "" }, message),
    done && index + 1 >= L.steps.length ? h("p", { id: "learn-end" }, L.end) : "",
    nav,
    h("nav", { "aria-label": t("lessons"), id: "learn-lessons" }, t("Lessons:"), " ",
      at.lessons.flatMap((x, i) => [i ? " · " : "", x.name === L.name ? h("span", { "aria-current": "page" }, x.title)
        : h("a", { href: "/learn?lesson=" + encodeURIComponent(x.name) }, x.title)])),
    // issue 32: the class view and printing, reachable from the lessons
    h("p", { class: "teachers", id: "teachers" }, t("For teachers:"), " ", h("a", { href: "/class", id: "class-link" }, t("the class view")), " · ", h("a", { href: "/puzzles/print", id: "print-link" }, t("printable puzzles")))));
  if (message) announce(message);
}

function go(index) {
  at.step = index;
  at.picked = null;
  draw();
  document.getElementById("learn-title").focus?.();
}

async function attempt(move) {
  const L = at.lesson, index = at.step;
  try {
    const answer = await api("/api/lessons/" + encodeURIComponent(L.name) + "/steps/" + index, { method: "POST", body: JSON.stringify({ move: move.slice(0, 64) }) });
    at.picked = null;
    if (answer.correct) at.after.set(index, answer.after);
    draw(answer.text, answer.correct ? "ok" : "error", answer.where);
    if (answer.correct) document.getElementById("learn-next").focus();
  } catch (e) {
    draw(t("Error: {message}", { message: e.message }), "error");
  }
}

// What every part of the page shares: the state, drawing helpers, the server's API,
// messages, the one dialog, and what a game's capabilities say.

import { lang, nt, pt, t } from "./i18n.js";

export const app = document.getElementById("app");

// What the game page does (issue 34: no import circle): play.js fills these in when it
// loads, and the modules it draws with (net.js, surface.js, blind.js) call them here
// instead of importing play.js, which imports them.
export const page = {
  receive: (view) => {},  // a new view of the game (from the socket or an answer)
  place: (index) => {},   // the picked token placed on the cell or pile at index
  render: () => {},       // draw the game page again from state
  hint: () => {},         // ask for and show the hint
};
export const state = { variants: [], bots: [], view: null, tokens: {}, picked: null, cursor: null,
  exchange: null, hinted: [], socket: null, socketToken: null, covered: null, passAndPlay: false, note: "" };

// One identity for seats (issue 29): a seat is bound to a player, and a token is one way
// to prove it. This page's requests for its seat carry the token it holds (a private
// link's, or pass and play's), else none: the session cookie then opens the seat bound to
// this browser's player (a lobby game, an invitation followed, a rematch). Either way the
// view's `seat` says which seat the page is for, and every control follows it.
export function seatBody(fields = {}) {
  return JSON.stringify(state.socketToken ? { ...fields, token: state.socketToken } : fields);
}
// The same as a query: "?token=…" (or "&token=…" after `joint`), or "" for the cookie.
export function seatQuery(joint = "?", name = "token") {
  return state.socketToken ? joint + name + "=" + encodeURIComponent(state.socketToken) : "";
}

// What each action keyword's button says, and its key, in the order they are offered.
// Placing is done on the surface. A stop is a proposal (J4) and a game-ending turn waits
// for a challenge (C12): the players asked answer with accept or decline.
// (The labels are in the reader's language; the keys stay the same in every language.)
export const BUTTONS = {
  end: [t("End turn"), "e"],
  // TRANSLATORS: a button: pass this turn (play nothing)
  pass: [pt("action", "Pass"), "p"],
  // TRANSLATORS: a button: give pieces back to the bag and draw new ones
  exchange: [pt("action", "Exchange"), "x"],
  // TRANSLATORS: a button: dispute the turn just played (a wrong placement)
  challenge: [pt("action", "Challenge"), null],
  stop: [t("Propose to stop"), null],
  // TRANSLATORS: a button: agree to the proposal or turn in question
  accept: [pt("action", "Accept"), null],
  // TRANSLATORS: a button: refuse the proposal
  decline: [pt("action", "Decline"), null],
  // TRANSLATORS: a button: take a card from the reserve
  draw: [pt("action", "Draw"), "d"],
  // TRANSLATORS: a button: take a penalty piece (the full label names the piece)
  penalty: [pt("action", "Penalty"), null],
  // TRANSLATORS: the call of Mathable Quattro (on a button), usually kept as it is
  diago: [pt("action", "DIAGO"), null],
};

// The words a player may type for each action keyword (the same words as the terminal's).
export const COMMANDS = {
  end: () => pt("command", "end"), pass: () => pt("command", "pass"), exchange: () => pt("command", "exchange"),
  challenge: () => pt("command", "challenge"), stop: () => pt("command", "stop"), accept: () => pt("command", "accept"),
  decline: () => pt("command", "decline"), draw: () => pt("command", "draw"), penalty: () => pt("command", "penalty"),
  resign: () => pt("command", "resign"), abort: () => pt("command", "abort"),
};
export function commandName(action) { return COMMANDS[action] ? COMMANDS[action]() : action; }
// An action in notation as the reader reads it: its keyword in their language ("passer",
// "échanger (3)"), cells and values as they are (I8=12).
export function shownAction(text) {
  return String(text || "").replace(/\b[a-z]+\b/g, word => (COMMANDS[word] ? COMMANDS[word]() : word));
}
// A turn of the move list as the reader reads it: a board game's exchange in words, how many
// pieces ("exchanged 6 tokens"), never "exchange 6", which reads as the token 6 (issue 33);
// anything else as shownAction says it.
const EXCHANGED = {
  token: n => nt("exchanged {count} token", "exchanged {count} tokens", n),
  tile: n => nt("exchanged {count} tile", "exchanged {count} tiles", n),
  card: n => nt("exchanged {count} card", "exchanged {count} cards", n),
};
export function shownTurn(notation, c = caps()) {
  const exchanged = /^exchange (\d{1,3})$/.exec(notation || "");
  return exchanged && EXCHANGED[c.piece] ? EXCHANGED[c.piece](Number(exchanged[1])) : shownAction(notation);
}
export const SYMBOLS = { x: "×", "/": "÷", "-": "−" };

// The tab's title says when it is your turn, so a player in another tab sees it.
export function setTitle(v) {
  const brand = document.querySelector("header .brand").textContent;
  document.title = v && myTurn() ? t("● Your turn — {brand}", { brand }) : v && v.over ? t("Game over — {brand}", { brand }) : brand;
}

// A list in words, in the reader's language: "Ann and Bob", "end or pass".
export function listed(items, type = "conjunction") {
  return new Intl.ListFormat(lang === "qps" ? "en" : lang, { style: "long", type }).format(items.map(String));
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") el.style.cssText = v;  // through the CSSOM: the CSP forbids inline style attributes
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// Every call says it is the page's own script (JSON and X-Requested-With): a change made
// with the session cookie needs one of the two, which no other origin's page can send
// without asking first (issue 30; the server checks Origin too).
export async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", "X-Requested-With": "mathable", ...options.headers };
  const response = await fetch(path, { ...options, headers });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!response.ok) throw Object.assign(new Error((data && data.error) || response.statusText), { status: response.status, data });
  return data;
}

// The session's player (GET /api/me), asked once per page: on a first visit the answer
// makes the guest and sets its cookie, so two requests at once would make two guests.
let meAsked = null;
export function whoAmI() { return meAsked || (meAsked = api("/api/me").catch(e => { meAsked = null; throw e; })); }
export function iAmNow(me) { meAsked = Promise.resolve(me); state.me = me; }

export function say(text, error = false) {
  const el = document.getElementById("message");
  if (el) { el.textContent = text; el.className = error ? "error" : ""; }
  if (error) announce(text);
}

// The polite live region (in index.html, outside the redrawn page): moves and refusals
// reach screen readers without moving their focus.
export function announce(text) {
  if (state.speak) { state.speak(text); return; }  // blind.js's queue: each text heard (issue 32)
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

// One dialog at a time: role=dialog and aria-modal (index.html), focus kept inside,
// Esc, a click outside or its Close button (always in sight, at its top) closes it.
export function modal(...content) {
  const box = document.getElementById("modal-box");
  box.replaceChildren(...content);
  const title = box.querySelector("h1, h2, h3, #modal-question");
  if (title) title.id = title.id || "modal-title";
  if (title) box.setAttribute("aria-labelledby", title.id); else box.removeAttribute("aria-labelledby");
  state.returnFocus = document.activeElement;
  document.getElementById("modal").hidden = false;
  const first = box.querySelector("button, a[href], input, select, [tabindex]");
  (first || box).focus();
}
export function modalOpen() { return !document.getElementById("modal").hidden; }
export function closeModal() {
  document.getElementById("modal").hidden = true;
  const cancel = state.onCancel;
  state.onCancel = null;
  if (cancel) cancel();
  if (state.returnFocus && state.returnFocus.isConnected) state.returnFocus.focus();
}
export function onModalKey(e) {
  if (e.key === "Escape") { e.preventDefault(); closeModal(); return; }
  if (e.key !== "Tab") return;
  const items = [...document.querySelectorAll("#modal-box button, #modal-box a[href], #modal-box input, #modal-box select")];
  if (!items.length) { e.preventDefault(); return; }
  const [first, last] = [items[0], items[items.length - 1]];
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  else if (!document.getElementById("modal-box").contains(document.activeElement)) { e.preventDefault(); first.focus(); }
}
document.getElementById("modal").addEventListener("click", e => { if (e.target.id === "modal") closeModal(); });
document.addEventListener("keydown", e => { if (modalOpen()) { onModalKey(e); e.stopImmediatePropagation(); } }, true);

export function ask(question) {
  return new Promise(resolve => {
    const answer = yes => { state.onCancel = null; closeModal(); resolve(yes); };
    modal(h("p", { id: "modal-question" }, question), h("div", { class: "row" },
      h("button", { class: "primary", id: "yes", onclick: () => answer(true) }, t("Yes")),
      h("button", { id: "no", onclick: () => answer(false) }, t("No"))));
    state.onCancel = () => resolve(false);
  });
}

// ---------------------------------------------------------------- capabilities

// The computer levels a game with ``clock`` (null: none) may seat: the slow ones (the
// master, seconds a turn) only without a clock or by correspondence, where no clock
// runs on their thought.
export function levelsFor(bots, clock) { return bots.filter(b => !b.slow || !clock || Boolean(clock.days)); }
// A choice of computer levels offering ``offered``: the level chosen stays if still
// offered, else the strongest offered (none chosen yet: the first, or ``none``'s empty one).
export function fitLevelChoice(select, offered, none) {
  const chosen = select.value;
  select.replaceChildren(...(none ? [h("option", { value: "" }, none)] : []), ...offered.map(levelOption));
  if (offered.some(b => b.name === chosen)) select.value = chosen;
  else if (chosen && offered.length) select.value = offered[offered.length - 1].name;
}
// A computer level as a choice among levels: a slow one says its turns take seconds.
export function levelOption(b) {
  // TRANSLATORS: a computer level in a choice of one, a slow one (the master): "master, a few seconds a turn".
  return h("option", { value: b.name }, b.slow ? t("{level}, a few seconds a turn", { level: b.title || b.name }) : b.title || b.name);
}

export function capsOf(name) {
  const found = state.variants.find(v => v.name === name);
  return found ? found.capabilities : null;
}
export function caps() { return capsOf(state.view.variant); }

// What a game calls its pieces ("token", "tile" or "card", the capabilities' `piece`), in
// words: each form written out, since languages give the three words their own genders.
const PIECE = { token: () => pt("piece", "token"), tile: () => pt("piece", "tile"), card: () => pt("piece", "card") };
const PIECES = { token: () => pt("piece", "tokens"), tile: () => pt("piece", "tiles"), card: () => pt("piece", "cards") };
const COUNTS = {
  token: n => nt("{count} token", "{count} tokens", n),
  tile: n => nt("{count} tile", "{count} tiles", n),
  card: n => nt("{count} card", "{count} cards", n),
};
export function piece(c = caps()) { return PIECE[c.piece] ? PIECE[c.piece]() : c.piece; }
export function pieces(c = caps()) { return PIECES[c.piece] ? PIECES[c.piece]() : c.piece + "s"; }
export function count(n, c = caps()) { return COUNTS[c.piece] ? COUNTS[c.piece](n) : n + " " + (n === 1 ? c.piece : c.piece + "s"); }
// A sentence about the pieces, one message per piece: byPiece({ token: () => t("your tokens"),
// tile: () => t("your tiles"), card: () => t("your cards") }) (the token's for another piece).
export function byPiece(messages, c = caps()) { return (messages[c.piece] || messages.token)(); }

// What a game's scores count (the capabilities' `score_unit`), in words, and `n` of them.
const UNITS = { points: () => t("points"), rounds: () => t("rounds") };
const UNIT_COUNTS = {
  points: n => nt("{count} point", "{count} points", n),
  rounds: n => nt("{count} round", "{count} rounds", n),
};
export function unitName(c = caps()) { return UNITS[c.score_unit] ? UNITS[c.score_unit]() : c.score_unit; }
export function unitCount(n, c = caps()) { return UNIT_COUNTS[c.score_unit] ? UNIT_COUNTS[c.score_unit](n) : n + " " + c.score_unit; }
export function offers(action, c = caps()) { return c.actions.includes(action); }

// ---------------------------------------------------------------- home page

// The header names the game beside the brand, unless its title is the brand itself.
// A page the site's navigation links to is marked there (aria-current) rather than named twice.
export function setWhere(title, inNavigation = false) {
  const brand = document.querySelector("header .brand").textContent;
  let linked = false;
  for (const link of document.querySelectorAll("header nav.site a")) {
    const here = inNavigation && link.textContent === title;
    if (here) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
    linked = linked || here;
  }
  document.getElementById("where").textContent = title === brand || linked ? "" : title;
  const heading = document.getElementById("page-title");  // the page's h1 (issue 32)
  if (heading) heading.textContent = title || brand;
}
export function hintsOn(v) { return Boolean(v.house_rules && v.house_rules.hints); }

export function myTurn() { const v = state.view; return v.seat !== null && v.seat === v.to_move && !v.over; }
export function can(action) { return state.view.available.includes(action); }
export function people() { return state.view.seats.filter(s => !s.bot).length; }

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children.flat(Infinity)) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

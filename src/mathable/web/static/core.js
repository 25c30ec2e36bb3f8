// What every part of the page shares: the state, drawing helpers, the server's API,
// messages, the one dialog, and what a game's capabilities say.

export const app = document.getElementById("app");
export const state = { variants: [], bots: [], view: null, tokens: {}, picked: null, cursor: null,
  exchange: null, hinted: [], socket: null, socketToken: null, covered: null, passAndPlay: false, note: "" };

// What each action keyword's button says, and its key, in the order they are offered.
// Placing is done on the surface. A stop is a proposal (J4) and a game-ending turn waits
// for a challenge (C12): the players asked answer with accept or decline.
export const BUTTONS = {
  end: ["End turn", "e"], pass: ["Pass", "p"], exchange: ["Exchange", "x"], challenge: ["Challenge", null],
  stop: ["Propose to stop", null], accept: ["Accept", null], decline: ["Decline", null],
  draw: ["Draw", "d"], penalty: ["Penalty", null], diago: ["DIAGO", null],
};
export const SYMBOLS = { x: "×", "/": "÷", "-": "−" };

// The tab's title says when it is your turn, so a player in another tab sees it.
export function setTitle(v) {
  const brand = document.querySelector("header .brand").textContent;
  document.title = v && myTurn() ? "● Your turn — " + brand : v && v.over ? "Game over — " + brand : brand;
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

export async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json" }, ...options });
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
      h("button", { class: "primary", id: "yes", onclick: () => answer(true) }, "Yes"),
      h("button", { id: "no", onclick: () => answer(false) }, "No")));
    state.onCancel = () => resolve(false);
  });
}

// ---------------------------------------------------------------- capabilities

export function capsOf(name) {
  const found = state.variants.find(v => v.name === name);
  return found ? found.capabilities : null;
}
export function caps() { return capsOf(state.view.variant); }
export function pieces(c = caps()) { return c.piece + "s"; }
export function count(n, c = caps()) { return n + " " + (n === 1 ? c.piece : pieces(c)); }
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

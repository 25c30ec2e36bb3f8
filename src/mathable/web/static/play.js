// The game page (its connection is net.js): the cover of pass and play, the rack, the actions
// and the keys.

import { BUTTONS, SYMBOLS, announce, api, app, ask, byPiece, can, caps, capsOf, commandName, h, hintsOn, listed, myTurn, people, say, seatBody, seatQuery, setTitle, shownTurn, setWhere, state, whoAmI, closeModal, modalOpen, page } from "./core.js";
import { nt, t } from "./i18n.js";
import { chatPanel } from "./chat.js";
import { openSocket } from "./net.js";
import { replaySoFar, saveLink, summary } from "./over.js";
import { card, claimAt, claimText, clocks, describe, moves, presenceNews, scores, table } from "./panels.js";
import { beep, chooseConfirm, confirmOn } from "./prefs.js";
import { replayPage } from "./replay.js";
import { showLinks } from "./home.js";
import { drawSurface, dragEnd, dragStart, entryIndex, justDragged, lastTurnsLegend, legalTargetsFor, pointerDrag } from "./surface.js";
import { heard, settled } from "./blind.js";  // issue 32: blind mode, every event said, the focus kept

// The modules this page draws with call it through core.js's page (issue 34).
Object.assign(page, { receive, place, render, hint });

// ---------------------------------------------------------------- game page

export async function gamePage(id) {
  const params = new URLSearchParams(location.search);
  state.passAndPlay = params.has("screen");
  state.tokens = JSON.parse(localStorage.getItem("mathable:" + id) || "{}");
  const invite = params.get("invite");
  if (invite) return join(id, invite);
  const token = params.get("t");
  if (params.has("invitations")) return invitationsPage(id, token);
  if (token) state.tokens = { link: token };
  // the capabilities and the socket asked for at once (issue 32): its view waits for them
  state.ready = api("/api/variants").then(found => { state.variants = found; });
  if (!params.has("replay")) connect(id);
  await state.ready;
  if (params.has("replay")) return replayPage(id);
  document.addEventListener("keydown", onKey);
  addEventListener("resize", fit);
}

// Follow an invitation: claim the seat (once; bound to this browser's session cookie,
// made first), then play it at /g/{id}: the address bar, the history and a screenshot
// hold no credential. The seat's token stays in localStorage as the page keeps any seat's.
export async function join(id, invite) {
  try {
    await whoAmI().catch(() => {});  // the session cookie the seat is bound to
    const joined = await api("/api/games/" + id + "/join", { method: "POST", body: JSON.stringify({ invite }) });
    localStorage.setItem("mathable:" + id, JSON.stringify({ [joined.seat]: joined.token }));
    history.replaceState(null, "", "/g/" + id);
    state.note = t("You play {name}. Come back to this game's address: this browser holds your seat.", { name: joined.name });
    await gamePage(id);
  } catch (e) {
    app.replaceChildren(h("p", { id: "message", class: "error" }, e.message));
  }
}

// The online invitations again, on their own address (/g/{id}?invitations): the
// creator's token, kept by this browser (or an old link's ?t=), fetches them.
export async function invitationsPage(id, token) {
  try {
    const mine = token || Object.values(state.tokens)[0] || "";
    showLinks(await api("/api/games/" + id + "/invitations?token=" + encodeURIComponent(mine)));
  } catch (e) {
    app.replaceChildren(h("p", { id: "message", class: "error" }, e.message));
  }
}

// The token to watch with: a private link's, else (pass and play) the person's to move;
// while a computer player moves, the screen stays with the person who was on it.
export function tokenFor(view) {
  if (state.tokens.link) return state.tokens.link;
  if (view && state.tokens[view.to_move] && !view.over) return state.tokens[view.to_move];
  return state.socketToken || Object.values(state.tokens)[0] || null;
}

// The view arrives once: as the socket's first message (issue 32), not by a GET as well.
export function connect(id) {
  openSocket(id, tokenFor(null));
}

export function receive(view) {
  const shownBefore = Boolean(state.view) && state.view.seat === view.seat;
  const moved = !state.view || view.seq !== state.view.seq;
  const before = state.view ? state.view.summaries.length : null;
  const news = presenceNews(state.view, view);  // "Bob disconnected."
  if (news) announce(news);
  heard(state.view, view);  // blind.js: the turns, placements and end said (issue 32)
  state.view = view;
  state.viewAt = Date.now();  // the clocks count down from here
  if (moved) { state.picked = null; state.exchange = null; state.hinted = []; state.tentative = null; }
  // the extra-token question (C7) belongs to the position it was asked in: it closes
  // when the game moves on under it (place() then sends nothing)
  if (moved && state.asking && modalOpen()) closeModal();
  if (before !== null && view.summaries.length > before) {
    const s = view.summaries[view.summaries.length - 1];
    if (view.seat !== null && view.seat === view.to_move && !view.over) beep(880, 0.18); else beep(520);
    const words = { name: view.players[s.seat], turn: describe(s, capsOf(view.variant), view) };
    // a turn that ended by itself is said so, on the message line as well
    state.turnNotice = view.summaries.slice(before).filter(x => x.no_fit).map(x => noFit(view, x.seat)).join(" ");
    // TRANSLATORS: a player's name and their turn in notation ("Ann: I8=12 (12)")
    const said = view.over ? t("{name}: {turn}. Game over.", words) : t("{name}: {turn}", words);
    announce(state.turnNotice && !s.no_fit ? said + " " + state.turnNotice : said);
  }
  // pass and play: follow the person to move, behind a cover; when the turn passes from
  // the person on the screen to another, first their turn's result ("Ann scored 48"),
  // and the screen is passed by a button (a turn that ended by itself is seen too)
  const wanted = tokenFor(view);
  state.handover = null;
  if (state.passAndPlay && wanted && wanted !== state.socketToken) {
    if (!shownBefore || view.seat === null || !view.summaries.some(s => s.seat === view.seat)) {
      openSocket(view.id, wanted);
      return;
    }
    state.handover = wanted;
  }
  render();
  if (moved && state.undoing !== undefined && state.undoing !== null) {  // the undo's own view: the next event
    if (view.seq === state.undoing + 1) { say(t("Taken back.")); announce(t("Taken back.")); }
    state.undoing = null;
  }
}

// At one screen, the turn's result before the cover: the board with its placements, what
// each turn since this person's scored, an Undo if the house rule lets them take it back,
// and the button that passes the screen (then the next person's cover).
export function handover(v) {
  const c = capsOf(v.variant);
  let from = v.summaries.length - 1;  // this person's last turn, and the computers' after it
  while (from > 0 && v.summaries[from].seat !== v.seat) from--;
  const lines = v.summaries.slice(from).map(s => h("li", {}, c.score_unit === "points"
    ? (s.note ? t("{name} scored {points} ({notation}, {note})", { name: v.players[s.seat], points: s.points, notation: shownTurn(s.notation), note: s.note })
      : t("{name} scored {points} ({notation})", { name: v.players[s.seat], points: s.points, notation: shownTurn(s.notation) }))
    : t("{name}: {turn}", { name: v.players[s.seat], turn: describe(s, c, v) })));
  const next = v.players[v.to_move];
  return h("div", { class: "layout" },
    h("div", { class: "main" }, drawSurface(v), lastTurnsLegend(v),
      h("div", { class: "handover", id: "result", role: "region", "aria-labelledby": "result-title" }, h("h2", { id: "result-title" }, t("{name}'s turn is over", { name: v.players[v.seat] })), h("ul", {}, lines),
        h("div", { class: "row" },
          v.undo ? h("button", { id: "undo", onclick: undo }, t("Undo (u)")) : "",
          h("button", { class: "primary", id: "pass-screen", onclick: passScreen }, t("Pass the screen to {name}", { name: next })))),
      h("div", { id: "message" }, "")),
    h("div", { class: "side" }, scores(v), moves(v)));
}

export function passScreen() {
  const next = state.handover;
  if (!next) return;
  state.handover = null;
  openSocket(state.view.id, next);
}

// House rule allow_undo: take back this person's last action (and the computer players'
// replies after it); the server says in the view (undo) when this seat may.
export function undo() {
  if (!state.view || !state.view.undo) return;
  state.undoing = state.view.seq;
  send("undo");
}


// Where the keyboard focus was, to put it back after a redraw: by id, rack place or target.
export function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body || !app.contains(el)) return null;
  if (el.dataset && el.dataset.index !== undefined) return '#board [data-index="' + (state.cursor ?? el.dataset.index) + '"]';
  if (el.classList.contains("tile")) return "#rack button.tile:nth-child(" + ([...el.parentElement.children].indexOf(el) + 1) + ")";
  return el.id ? "#" + el.id : null;
}

export function render() {
  const focused = focusKey();
  drawPage();
  const again = focused && document.querySelector(focused);
  if (again && !again.disabled) again.focus();
  settled(focused);  // blind.js: pressed rack pieces; a lost focus put somewhere named
}

// A turn that ended by itself (the summary's no_fit): its player held pieces and none
// fitted, so the turn went on to the next player (issue 32: it no longer ends silently).
export function noFit(v, seat) {
  const name = v.players[seat];
  return byPiece({
    token: () => t("{name} had no token that fits: turn passed.", { name }),
    tile: () => t("{name} had no tile that fits: turn passed.", { name }),
    card: () => t("{name} had no card that fits: turn passed.", { name }) }, capsOf(v.variant));
}

// ---------------------------------------------------------------- the board that fits

// The page lays out from the window (issue 32): where the window is wide enough, the
// board stands beside the panel (scores, rack, the turn's buttons, the message line) and
// is sized from the height; otherwise the scores are a strip above the board, the panel
// below it, and the board is sized from the width and from the height the rest leaves.
// Either way the board, rack, buttons, message and scores are in view without scrolling.
// The same query as style.css's: the board beside the panel.
export const BESIDE = "(min-width: 900px) and (min-aspect-ratio: 1/1)";
const CELL = { least: 14, most: 64 };  // px: a square no smaller, nor larger
const SIDE = 288;  // px: the least width of the panel beside the board (18rem)

export function fit() {
  const game = document.getElementById("game");
  const board = game && game.querySelector(".board");
  const message = document.getElementById("message");
  if (!board || !message) return;
  const c = caps();
  const coords = board.querySelector(".coord") ? 0.6 : 0;
  const across = c.columns + coords, down = Math.ceil(c.targets.length / c.columns) + coords;
  const lines = n => Math.ceil(n) + 2;  // the 1 px gaps and padding between squares
  // (at the end the summary stands above the game: the board keeps the size it had)
  const over = state.view.over ? game.getBoundingClientRect().top - app.getBoundingClientRect().top : 0;
  const at = board.getBoundingClientRect().top + scrollY, top = at - over;
  const beside = matchMedia(BESIDE).matches;
  let below;  // what must stand under the board, in px
  if (beside) {
    const legend = document.getElementById("last-legend");
    below = (legend ? legend.offsetHeight : 0) + 12;
  } else {
    below = message.getBoundingClientRect().bottom + scrollY - at - board.offsetHeight + 8;
  }
  const width = game.clientWidth - (beside ? SIDE + 16 : 0);
  const high = document.documentElement.clientHeight;  // the window less any scroll bar
  const cell = Math.floor(Math.min(CELL.most, (high - top - below - lines(down)) / down, (width - lines(across)) / across));
  state.cell = Math.max(CELL.least, cell);
  game.style.setProperty("--cell", state.cell + "px");
}

export function drawPage() {
  const v = state.view;
  setWhere(v.title);
  setTitle(v);
  const turn = v.summaries.length + ":" + v.seat;
  if (state.handover) {
    state.coverUp = true;  // keys wait for the next person (but u takes back)
    app.replaceChildren(handover(v));
    return;
  }
  if (state.passAndPlay && myTurn() && state.covered !== turn && Object.keys(state.tokens).length > 1 && people() > 1) {
    state.coverUp = true;
    const name = v.players[v.seat];
    app.replaceChildren(h("div", { class: "cover" }, h("h2", {}, t("Pass the screen to {name}", { name })),
      h("button", { class: "primary", id: "uncover", onclick: () => { state.covered = turn; render(); } }, byPiece({
        token: () => t("I am {name}: show my tokens", { name }),
        tile: () => t("I am {name}: show my tiles", { name }),
        card: () => t("I am {name}: show my cards", { name }) }))));
    return;
  }
  state.coverUp = false;
  const yours = byPiece({ token: () => t("your tokens"), tile: () => t("your tiles"), card: () => t("your cards") });
  const rack = h("div", { class: "rack", id: "rack", role: "group", "aria-label": yours }, v.playable.map((value, i) => {
    const classes = ["tile"];
    if (state.picked === i) classes.push("picked");
    if (state.exchange && state.exchange.has(i)) classes.push("chosen");
    const drag = myTurn() && !state.exchange;  // dragged onto a target, as well as clicked
    return h("button", { class: classes.join(" "), "data-value": value, "data-index": i, onclick: () => { if (!justDragged()) pick(i); }, disabled: !myTurn(),
      draggable: drag ? "true" : false, ondragstart: e => { if (drag) dragStart(i, e); else e.preventDefault(); }, ondragend: dragEnd,
      onpointerdown: e => { if (drag) pointerDrag(i, e); } }, value);
  }));
  const controls = h("div", { class: "row", id: "controls" }, actionButtons(v));
  const ending = endButtons(v);
  // the game's grid (style.css places its parts by the window's shape; fit() sizes the board)
  const game = h("div", { class: "game", id: "game", style: state.cell ? "--cell: " + state.cell + "px" : "" },
    h("div", { class: "game-scores" }, scores(v)),
    h("div", { class: "game-board" }, drawSurface(v), lastTurnsLegend(v)),
    h("div", { class: "game-turn" }, h("p", { id: "status" }, v.status),
      v.seat !== null ? rack : v.over ? "" : h("p", { id: "watching" }, byPiece({
        token: () => t("Watching: the tokens in hand are private."),
        tile: () => t("Watching: the tiles in hand are private."),
        card: () => t("Watching: the cards in hand are private.") })), controls,
      h("div", { id: "message" }, v.notice || state.turnNotice || "")),
    h("div", { class: "game-more" }, ending.some(Boolean) ? h("div", { class: "row", id: "ending" }, ending) : "",
      confirmSwitch(v), clocks(v), table(v), card(v), moves(v), chatPanel(v), saveLink(v), replaySoFar(v)));
  app.replaceChildren(game);
  if (v.over) app.prepend(summary(v));
  fit();  // (first: the board's size changes how the lists wrap)
  const list = document.querySelector("#moves ol");
  list.scrollTop = list.scrollHeight;  // the latest turn in sight
}

// Confirm before it counts (issue 32, as lichess's "confirm move"): a switch kept in the
// browser (prefs.js); on, a placement is shown on the board first and sent by Confirm.
function confirmSwitch(v) {
  if (v.seat === null || v.seat === undefined || v.over || caps().surface !== "board") return "";
  return h("p", { class: "pref" }, h("label", { for: "confirm-pref" },
    h("input", { type: "checkbox", id: "confirm-pref", checked: confirmOn(v), onchange: e => { chooseConfirm(e.target.checked); state.tentative = null; render(); } }),
    " ", t("Confirm each placement before it counts")));
}

export function actionButtons(v) {
  const c = capsOf(v.variant);
  const button = action => {
    const [label, key] = BUTTONS[action];
    let text = action === "penalty"
      ? byPiece({ token: () => t("Penalty token"), tile: () => t("Penalty tile"), card: () => t("Penalty card") }, c) : label;
    if (action === "exchange" && state.exchange) text = t("Exchange the chosen");
    // TRANSLATORS: a button's label and its keyboard key ("End turn (e)")
    else if (key) text = t("{action} ({key})", { action: text, key });
    return h("button", { id: action, onclick: () => (action === "exchange" ? exchange() : send(action)) }, text);
  };
  const offered = Object.keys(BUTTONS).filter(a => v.available.includes(a));
  const undoing = v.undo ? h("button", { id: "undo", onclick: undo, title: t("Take back your last action (and the computer's replies)") }, t("Undo (u)")) : "";
  if (!myTurn()) {
    const out = [...offered.map(button), undoing];
    const bot = !v.over && v.seats[v.to_move] && v.seats[v.to_move].bot;
    if (bot) out.push(h("span", { id: "thinking", class: "thinking", role: "status" }, t("{name} is thinking…", { name: v.players[v.to_move] })));
    else if (!v.over) out.push(h("span", {}, v.seat === null ? "" : t("Waiting for {name}…", { name: v.players[v.to_move] })));
    return out;
  }
  const pending = state.tentative;  // a placement shown, not sent yet
  return [pending ? h("button", { id: "confirm", class: "primary", onclick: confirmPlacement }, t("Confirm {placement}", { placement: pending.text })) : "",
    pending ? h("button", { id: "cancel", onclick: cancelPlacement }, t("Cancel")) : "",
    ...offered.map(button), undoing,
    hintsOn(v) ? h("button", { id: "hint", onclick: hint }, t("Hint (h)")) : "",
    h("label", { for: "notation", class: "notation-label" }, t("Type a move")),
    h("input", { id: "notation", placeholder: t("e.g. {example}", { example: example(v, c) }), size: 10, onkeydown: e => { if (e.key === "Enter") { send(e.target.value); e.target.value = ""; } } })];
}

// The tentative placement sent (Confirm), or dropped (Cancel); the focus goes back to
// its square, so it is never lost when the controls are drawn again.
export function confirmPlacement() {
  const pending = state.tentative;
  if (!pending) return;
  state.tentative = null;
  const cell = document.querySelector('#board [data-index="' + pending.index + '"]');
  if (cell) cell.focus();
  send(pending.text);
}
export function cancelPlacement() {
  const pending = state.tentative;
  state.tentative = null;
  render();
  const cell = pending && document.querySelector('#board [data-index="' + pending.index + '"]');
  if (cell) cell.focus();
  say(t("Cancelled: nothing was placed."));
}

// Resign (a seat still in the game, before the end, confirmed: with two players the other
// wins, with more the seat leaves and play goes on) and abort (while the view says the
// seat may: before each player has moved). For the view's seat, held by a token or by the
// session cookie alike (seatBody).
function endButtons(v) {
  if (v.seat === null || v.seat === undefined || v.over || (v.left && v.left[v.seat])) return [];
  const end = async (kind, question) => {
    if (!(await ask(question))) return;
    try {
      receive(await api("/api/games/" + v.id + "/" + kind, { method: "POST", body: seatBody() }));
    } catch (e) { say(e.message, true); }
  };
  const claim = async () => {  // the player to move is away too long (the server judges)
    try {
      receive(await api("/api/games/" + v.id + "/claim", { method: "POST", body: seatBody() }));
    } catch (e) { say(e.message, true); }
  };
  const opens = claimAt(v);
  // O4: before every seat has made a first move, abort only (the view's "resign")
  return [v.resign === false ? "" : h("button", { id: "resign", onclick: () => end("resign", v.players.length === 2 ? t("Resign this game? {name} wins.", { name: v.players[1 - v.seat] }) : t("Resign? You leave the game, your score as it stands; the others play on.")) }, t("Resign")),
    v.abort ? h("button", { id: "abort", onclick: () => end("abort", t("Abort this game? Nobody wins, and it is not rated.")) }, t("Abort")) : "",
    opens !== null ? h("button", { id: "claim", onclick: claim, disabled: opens > Date.now() }, claimText(v, Date.now())) : ""];
}

// An example of notation from this game's own targets and this seat's pieces.
export function example(v, c) {
  const mine = v.legal.find(a => a.includes("="));
  if (mine) return mine.replace(/\+$/, "");
  return c.targets[0].name + "=" + (v.playable.length ? v.playable[0] : "…");
}

export async function hint() {
  try {
    const data = await api("/api/games/" + state.view.id + "/hint" + seatQuery());
    state.hinted = data.turns.length ? data.turns[0].cells : [];
    render();
    say(data.turns.length
      ? t("Hint: {turns}", { turns: data.turns.map(turn => turn.turn + (turn.points !== null ? " (" + turn.points + ")" : "")).join("; ") })
      : t("Hint: nothing to place: {actions}", { actions: listed([...state.view.available].filter(a => BUTTONS[a]).map(commandName), "disjunction") }));
  } catch (e) { say(e.message, true); }
}

export function pick(i) {
  if (!myTurn() || i >= state.view.playable.length) return;  // a key beyond the rack does nothing
  const c = caps();
  if (state.exchange) {
    if (state.exchange.has(i)) state.exchange.delete(i);
    else if (c.exchange_exactly === 1) state.exchange = new Set([i]);
    else if (!c.exchange_exactly || state.exchange.size < c.exchange_exactly) state.exchange.add(i);
  } else {
    state.picked = state.picked === i ? null : i;
  }
  state.tentative = null;
  render();
  if (state.picked !== null) {
    const value = state.view.playable[state.picked];
    const n = legalTargetsFor(value).size;
    say(n ? nt("{value} chosen: {count} legal place lit", "{value} chosen: {count} legal places lit", n, { value })
      : t("{value} chosen: no legal place", { value }));
  }
}

export async function place(i) {
  if (!myTurn()) return;
  const v = state.view;
  const target = caps().targets[i];
  if (state.picked === null) {
    say(byPiece({ token: () => t("Pick one of your tokens first."), tile: () => t("Pick one of your tiles first."), card: () => t("Pick one of your cards first.") }));
    return;
  }
  let text = target.name + "=" + v.playable[state.picked];
  if (v.legal.includes(text + "+")) {
    // rule C7, said in words: what the square allows and what it offers
    const words = { cell: target.name, operation: SYMBOLS[target.label] || target.label };
    state.asking = true;
    const yes = await ask(byPiece({
      token: () => t("{cell}: this square allows only {operation}: you may draw one more token. Draw it now?", words),
      tile: () => t("{cell}: this square allows only {operation}: you may draw one more tile. Draw it now?", words),
      card: () => t("{cell}: this square allows only {operation}: you may draw one more card. Draw it now?", words) }));
    state.asking = false;
    if (!state.view || state.view.seq !== v.seq || !myTurn()) return;  // the game moved on under the question
    if (yes) text += "+";
  }
  if (confirmOn(v) && caps().surface === "board") {  // shown on its square first, sent by Confirm
    state.tentative = { index: i, text, value: v.playable[state.picked] };
    render();
    say(t("{placement}: press Confirm to place it, or Cancel.", { placement: text }));
    const button = document.getElementById("confirm");
    if (button) button.focus();
    return;
  }
  send(text);
}

export function exchange() {
  const v = state.view;
  const c = caps();
  if (!state.exchange) {
    state.exchange = new Set(); state.picked = null; render();
    const n = c.exchange_exactly, button = BUTTONS.exchange[0];
    say(n ? byPiece({
      // TRANSLATORS: {button} is the Exchange button's label
      token: () => nt("Choose {count} of your tokens, then press {button} again.", "Choose {count} of your tokens, then press {button} again.", n, { button }),
      tile: () => nt("Choose {count} of your tiles, then press {button} again.", "Choose {count} of your tiles, then press {button} again.", n, { button }),
      card: () => nt("Choose {count} of your cards, then press {button} again.", "Choose {count} of your cards, then press {button} again.", n, { button }) }, c)
      : byPiece({
        token: () => t("Choose the tokens to give back, then press {button} again.", { button }),
        tile: () => t("Choose the tiles to give back, then press {button} again.", { button }),
        card: () => t("Choose the cards to give back, then press {button} again.", { button }) }, c));
    return;
  }
  const values = [...state.exchange].map(i => v.playable[i]);
  state.exchange = null;
  if (!values.length) { render(); return; }
  send("exchange " + values.join(","));
}

export function send(text) {
  if (!text || !state.socket) return;
  state.socket.send(JSON.stringify({ action: text.trim(), seq: state.view.seq }));
}

export function onKey(e) {
  if (!state.view || !state.view.available || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "u" && state.view.undo && (!state.coverUp || state.handover)) { undo(); return; }
  if (state.coverUp) return;  // nothing acts behind the pass-and-play cover
  if ((e.key === "Enter" || e.key === " ") && e.target.tagName === "BUTTON") return;  // the button's own click
  if (/^[1-9]$/.test(e.key)) { pick(Number(e.key) - 1); return; }
  const keyed = Object.keys(BUTTONS).find(a => BUTTONS[a][1] === e.key);
  if (keyed && can(keyed)) { keyed === "exchange" ? exchange() : send(keyed); return; }
  if (e.key === "h" && myTurn() && hintsOn(state.view)) { hint(); return; }
  const c = caps();
  const size = c.targets.length, columns = c.columns, rows = Math.ceil(size / columns);
  const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (d) {
    const at = state.cursor === null ? entryIndex(state.view) : state.cursor;
    const r = Math.max(0, Math.min(rows - 1, Math.floor(at / columns) + d[0]));
    const col = Math.max(0, Math.min(columns - 1, at % columns + d[1]));
    state.cursor = Math.min(size - 1, r * columns + col);
    e.preventDefault();
    render();
  } else if (e.key === "Enter" && state.cursor !== null) {
    place(state.cursor);
  }
}

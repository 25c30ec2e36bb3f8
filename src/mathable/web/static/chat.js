// The chat of an online game (issue 15): a panel in the side column. Seated players talk in
// the players' room, everyone else in the spectators' room; once the game is over both rooms
// can be read (each still writes in their own). Messages are text: always set with
// textContent, never as markup. New ones come on the game's socket ({"type": "chat"}) and,
// for messages written through another server process, from polling GET …/chat?after= every
// few seconds. Mute is this browser's own choice (kept in localStorage, as lichess does): a
// muted author's messages are hidden here. Report stores a report for a moderator.

import { announce, api, ask, h, say, state, whoAmI } from "./core.js";
import { pt, t } from "./i18n.js";

const POLL_MS = 4000;
const MUTED = "mathable:muted";
const ROOMS = ["players", "spectators"];
// A chat room's name, on the button that shows it after the game.
function roomName(room) {
  return room === "players" ? pt("chat room", "Players") : pt("chat room", "Spectators");
}

// One chat per page: kept across redraws (the page is redrawn on every view; the panel is
// the same element, so what is being typed and the focus survive).
const chat = { key: null, panel: null, me: null, rooms: {}, showing: null, own: null, token: null, over: false, timer: null, hooked: new WeakSet() };

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]")); } catch { return new Set(); }
}
function setMuted(set) { localStorage.setItem(MUTED, JSON.stringify([...set])); }
function authorKey(m) { return m.player || "name:" + m.name; }

// The chat panel of the view `v` (nothing at one screen: everyone is in the same room).
export function chatPanel(v) {
  if (v.mode !== "online") return "";
  const token = v.seat !== null ? state.socketToken : null;
  const key = v.id + ":" + (token || "");
  if (chat.key !== key) start(v, token, key);
  hookSocket();
  if (v.over && !chat.over) { chat.over = true; drawRooms(); }
  return chat.panel;
}

function start(v, token, key) {
  if (chat.timer) clearInterval(chat.timer);
  Object.assign(chat, { key, id: v.id, token, own: v.seat === null ? "spectators" : "players", over: Boolean(v.over),
    rooms: { players: { messages: [], last: 0, loaded: false }, spectators: { messages: [], last: 0, loaded: false } } });
  chat.showing = chat.own;
  const input = h("input", { id: "chat-text", type: "text", maxlength: "500", autocomplete: "off" });
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: e => { e.preventDefault(); post(input); } },
    h("label", { for: "chat-text" }, t("Message")), input, h("button", { type: "submit", id: "chat-send" }, t("Send")));
  chat.panel = h("section", { class: "chat", id: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("Chat")),
    h("div", { class: "chat-rooms row", id: "chat-rooms" }),
    h("ol", { class: "chat-list", id: "chat-list", tabindex: "0", "aria-label": t("messages") }),
    h("div", { class: "chat-muted", id: "chat-muted" }),
    form);
  chat.form = form;
  whoAmI().then(me => { chat.me = me; drawList(); }).catch(() => {});
  drawRooms();
  fetchNew();
  chat.timer = setInterval(fetchNew, POLL_MS);
}

// The socket of the page: its chat messages join the room they are for.
function hookSocket() {
  const socket = state.socket;
  if (!socket || chat.hooked.has(socket)) return;
  chat.hooked.add(socket);
  socket.addEventListener("message", event => {
    const message = JSON.parse(event.data);
    if (message.type === "chat") add(message.message, true);
  });
}

function query(room) {
  const r = chat.rooms[room];
  return "/api/games/" + chat.id + "/chat?room=" + room + "&after=" + r.last + (chat.token ? "&token=" + encodeURIComponent(chat.token) : "");
}

async function fetchNew() {
  if (!chat.panel || !chat.panel.isConnected) return;  // the page shows something else
  const room = chat.showing;
  try {
    const found = await api(query(room));
    for (const m of found.messages) add(m, chat.rooms[room].loaded);
    chat.rooms[room].loaded = true;  // from now on, new messages are announced
  } catch { /* the room is closed to this viewer, or the network is down: try again later */ }
}

// A message, once (the socket and the polling may both bring it); announced politely to
// screen readers when it is new (not one of those the room held when the page opened).
function add(m, announced) {
  const r = chat.rooms[m.room];
  if (!r || r.messages.some(x => x.id === m.id)) return;
  r.messages.push(m);
  r.messages.sort((a, b) => a.id - b.id);
  r.last = Math.max(r.last, m.id);
  if (m.room !== chat.showing) return;
  drawList();
  const mine = chat.me && m.player === chat.me.id;
  if (announced && !mine && !muted().has(authorKey(m))) announce(t("{name} says: {text}", { name: m.name, text: m.text }));
}

async function post(input) {
  const text = input.value;
  if (!text.trim()) return;
  try {
    const m = await api("/api/games/" + chat.id + "/chat", { method: "POST", body: JSON.stringify({ token: chat.token, room: chat.own, text }) });
    input.value = "";
    add(m, false);
  } catch (e) {
    say(e.message, true);
  }
}

// After the game, a choice of room to read.
function drawRooms() {
  const box = chat.panel && chat.panel.querySelector("#chat-rooms");
  if (!box) return;
  box.replaceChildren(...(chat.over ? ROOMS.map(room => h("button", {
    type: "button", class: "chat-room", "aria-pressed": String(room === chat.showing),
    onclick: () => { chat.showing = room; drawRooms(); drawList(); fetchNew(); } }, roomName(room))) : [
    h("span", { class: "chat-where" }, chat.own === "players" ? t("Players' room: only the players read it.") : t("Spectators' room: the players read it after the game."))]));
  chat.form.hidden = chat.showing !== chat.own;
}

function drawList() {
  const list = chat.panel && chat.panel.querySelector("#chat-list");
  if (!list) return;
  const hidden = muted();
  const shown = chat.rooms[chat.showing].messages.filter(m => !hidden.has(authorKey(m)));
  list.replaceChildren(...shown.map(m => {
    const mine = chat.me && m.player === chat.me.id;
    const name = h("b", { class: "chat-name" });
    name.textContent = m.name;
    const text = h("span", { class: "chat-text" });
    text.textContent = m.text;  // text, never markup
    return h("li", { "data-id": String(m.id) }, name, ": ", text, mine ? "" : h("span", { class: "chat-tools" },
      h("button", { type: "button", class: "chat-mute", "aria-label": t("Mute {name}", { name: m.name }), onclick: () => mute(m) }, t("Mute")),
      h("button", { type: "button", class: "chat-report", "aria-label": t("Report {name}'s message", { name: m.name }), onclick: () => report(m) }, t("Report"))));
  }));
  list.scrollTop = list.scrollHeight;
  const names = [...new Map(Object.values(chat.rooms).flatMap(r => r.messages).filter(m => hidden.has(authorKey(m))).map(m => [authorKey(m), m])).values()];
  chat.panel.querySelector("#chat-muted").replaceChildren(...names.map(m => h("span", { class: "chat-unmute" }, t("Muted:"), " ", m.name, " ",
    h("button", { type: "button", "aria-label": t("Unmute {name}", { name: m.name }), onclick: () => unmute(m) }, t("Unmute")))));
}

function mute(m) {
  const set = muted();
  set.add(authorKey(m));
  setMuted(set);
  drawList();
  say(t("{name} is muted on this device.", { name: m.name }));
  document.getElementById("chat-text")?.focus();
}

function unmute(m) {
  const set = muted();
  set.delete(authorKey(m));
  setMuted(set);
  drawList();
  say(t("{name} is no longer muted.", { name: m.name }));
}

async function report(m) {
  if (!(await ask(t("Report {name}'s message to the moderators?", { name: m.name })))) return;
  try {
    await api("/api/games/" + chat.id + "/chat/" + m.id + "/report", { method: "POST", body: JSON.stringify({ reason: "reported from the game page" }) });
    say(t("Reported: thank you. A moderator will read it."));
  } catch (e) {
    say(e.message, true);
  }
}

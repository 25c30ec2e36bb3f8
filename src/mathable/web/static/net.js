// The live connection of the game page: one WebSocket, the "connection lost" banner, and
// the patches. The page's first view is the socket's first message (no GET before it);
// a refusal (no such game, a wrong token) is shown instead of the page. The server sends
// the first view whole, then only what changed since
// (a patch, asked for with ?patches=1); a patch that does not follow the view we hold
// (a gap) asks for the whole view again with {"type": "sync"}.

import { announce, app, h, page, say, state } from "./core.js";
import { t } from "./i18n.js";

export function openSocket(id, token) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); }
  const query = "?patches=1" + (token ? "&token=" + encodeURIComponent(token) : "");
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/games/" + id + "/ws" + query;
  const socket = new WebSocket(url);
  state.socket = socket;
  state.socketToken = token;
  socket.onopen = () => connection(true);
  // in order, once the games' capabilities are in (asked for with the socket, issue 32)
  let handled = Promise.resolve(state.ready);
  socket.onmessage = event => { handled = handled.then(() => handle(socket, event.data)).catch(reportError); };
  socket.onclose = event => {
    if (state.socket !== socket) return;
    if (event.code >= 4000 && event.code < 5000 && !state.view) return;  // refused (4000 + status): final
    connection(false);
    setTimeout(() => { if (state.socket === socket) openSocket(id, token); }, 1000);
  };
}

function handle(socket, data) {
  const message = JSON.parse(data);
  if (message.type === "view") { socket.syncing = false; page.receive(message.view); }
  else if (message.type === "patch") patched(socket, message);
  else if (message.type === "error" && !state.view) app.textContent = message.error;  // no such game, a wrong token
  else if (message.type === "error") say(message.error, true);
}

// A patch from this socket applies to the view it follows; after a gap, the whole view
// is asked for once and the patches are let go until it comes.
function patched(socket, message) {
  if (state.socket !== socket || socket.syncing) return;
  if (!state.view || state.view.seq !== message.from) {
    socket.syncing = true;
    socket.send(JSON.stringify({ type: "sync" }));
    return;
  }
  page.receive(applyPatch(state.view, message));
}

// The view a patch makes of `view` (a new object: `view` is left as it was), as
// mathable.web.patches.apply_patch does: keys dropped, set, lists appended to or changed
// at some places, objects merged; `seq` from the patch.
export function applyPatch(view, patch) {
  const next = { ...view };
  for (const key of patch.drop || []) delete next[key];
  Object.assign(next, patch.set || {});
  for (const [key, items] of Object.entries(patch.append || {})) next[key] = next[key].concat(items);
  for (const [key, changes] of Object.entries(patch.at || {})) {
    const values = next[key].slice();
    for (const [index, item] of changes) values[index] = item;
    next[key] = values;
  }
  for (const [key, changes] of Object.entries(patch.merge || {})) next[key] = { ...next[key], ...changes };
  next.seq = patch.seq;
  return next;
}

// A banner while the socket is closed; reconnecting removes it (the server resends the view).
export function connection(up) {
  let banner = document.getElementById("connection");
  if (up) { if (banner) { banner.remove(); announce(t("Connected again.")); } return; }
  if (banner) return;
  banner = h("div", { id: "connection", class: "connection", role: "alert" }, t("Connection lost: reconnecting…"));
  document.body.prepend(banner);
}

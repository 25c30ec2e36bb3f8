// Tournaments (/tournaments and /t/{id}, issue 38): the lists (yours first) with a form
// to organize one, and a tournament's page: live standings with their tie-breaks, the
// crosstable, each round's pairings with a link to watch each game, your game highlighted
// and a "your game is ready" notice (with a sound, if sound is on), the players' and the
// organizer's buttons, and printable standings. The page judges nothing: every rule is
// the server's (/api/tournaments), whose refusals are shown as it words them. Names are
// printed as typed (text, never markup).

import { announce, api, app, fitLevelChoice, h, levelsFor, setWhere, whoAmI } from "./core.js";
import { lang, nt, t } from "./i18n.js";
import { beep } from "./prefs.js";

const FOLLOW_MS = 3000;  // ms between polls of the tournament while its socket is down
const at = { id: null, data: null, shown: "", ready: null, timer: null, bots: [], chosen: {},
  socket: null, live: false, seq: null, retry: 1000 };

const SYSTEMS = () => ({ swiss: t("Swiss"), "round-robin": t("Round robin"), arena: t("Arena") });
const STATUSES = () => ({
  // TRANSLATORS: a tournament's status: not started yet
  upcoming: t("Upcoming"),
  // TRANSLATORS: a tournament's status: under way
  running: t("Running"),
  // TRANSLATORS: a tournament's status: the organizer paused it
  paused: t("Paused"),
  // TRANSLATORS: a tournament's status: over
  finished: t("Finished"),
});
const HOWS = () => ({ played: "", forfeit: t("forfeit"), decided: t("decided"), "no-show": t("no-show") });

function shout(text) {
  const el = document.getElementById("tourn-message");
  if (el) { el.textContent = text; el.className = "error"; el.setAttribute("role", "alert"); }
  announce(text);
}
function points(value) { return value === null || value === undefined ? "" : value === 0.5 ? "½" : String(value).replace(".5", "½"); }
function clockText(clock) {
  if (!clock) return t("untimed");
  if (clock.days) return nt("{count} day a move", "{count} days a move", clock.days);
  return t("{minutes} min + {increment} s", { minutes: clock.minutes, increment: clock.increment || 0 });
}

// ---------------------------------------------------------------- the lists

export async function tournamentsPage() {
  setWhere(t("Tournaments"), true);
  const [me, variants, found, bots] = await Promise.all([whoAmI(), api("/api/variants"), api("/api/tournaments"), api("/api/bots")]);
  const section = (status, title) => {
    const items = found.filter(x => status.includes(x.status));
    return h("section", { class: "tourn-list", "aria-labelledby": "tourn-" + status[0] },
      h("h2", { id: "tourn-" + status[0] }, title),
      items.length ? h("ul", {}, items.map(x => h("li", { class: x.mine ? "mine" : "" },
        h("a", { href: "/t/" + encodeURIComponent(x.id) }, x.name), " ",
        h("span", { class: "tourn-meta" }, [SYSTEMS()[x.system], variantTitle(variants, x.variant), clockText(x.clock), x.rated ? t("rated") : t("casual"), x.mine ? t("yours") : ""].filter(Boolean).join(" · ")))))
        : h("p", { class: "muted" }, t("None for now.")));
  };
  app.replaceChildren(h("div", { class: "tournaments" },
    h("h2", {}, t("Tournaments")),
    h("p", { id: "tourn-message", role: "status" }),
    section(["running", "paused"], t("Running")),
    section(["upcoming"], t("Upcoming")),
    section(["finished"], t("Finished")),
    createForm(me, variants, bots, pupilsAsked())));
  if (pupilsAsked()) document.getElementById("tourn-create")?.scrollIntoView();
}

// The pupils the class view sends (/tournaments?class=Name&pupil=id:name…): the form
// comes prefilled for them (round robin, private, each pupil ticked), or null.
function pupilsAsked() {
  const query = new URLSearchParams(location.search);
  const pupils = query.getAll("pupil").map(text => {
    const at = text.indexOf(":");
    return at > 0 ? { player: text.slice(0, at), name: text.slice(at + 1, at + 81) } : null;
  }).filter(Boolean).slice(0, 16);
  return pupils.length ? { name: (query.get("class") || "").slice(0, 60), pupils } : null;
}

function variantTitle(variants, name) { const v = variants.find(x => x.name === name); return v ? v.title : name; }

// A choice of the computer levels a tournament with ``clock`` may seat (levelsFor: the
// master only untimed or by correspondence), ``none`` an empty first choice.
function levelSelect(id, bots, clock, none) {
  const select = h("select", { id });
  fitLevelChoice(select, levelsFor(bots, clock), none);
  return select;
}

// The clock of the form's choice ("live-5-3", "days-3", "" untimed), as the server reads it.
function formClock(value) {
  const [kind, a, b] = value.split("-");
  return kind === "live" ? { minutes: Number(a), increment: Number(b) } : kind === "days" ? { days: Number(a) } : null;
}

function createForm(me, variants, bots, asked) {
  if (!me.account) return h("p", { class: "muted" }, t("Log in to your account to organize a tournament."));
  const two = variants.filter(v => v.min_players <= 2 && v.max_players >= 2);
  const field = (id, label, input) => [h("label", { for: id }, label), input];
  const name = h("input", { id: "tourn-name", type: "text", maxlength: "60", required: true, autocomplete: "off" });
  const variant = h("select", { id: "tourn-variant" }, two.map(v => h("option", { value: v.name }, v.title)));
  const system = h("select", { id: "tourn-system", onchange: () => shape() }, Object.entries(SYSTEMS()).map(([k, v]) => h("option", { value: k }, v)));
  const rounds = h("input", { id: "tourn-rounds", type: "number", min: "1", max: "30", value: "3" });
  const minutes = h("input", { id: "tourn-minutes", type: "number", min: "1", max: "1440", value: "30" });
  // TRANSLATORS: the option of a tournament's form: an odd field's bye goes to no computer
  const noBye = t("No: a bye point");
  const clock = h("select", { id: "tourn-clock", onchange: () => fitLevelChoice(fill, levelsFor(bots, formClock(clock.value)), noBye) },
    h("option", { value: "" }, t("untimed")),
    h("option", { value: "live-5-3" }, clockText({ minutes: 5, increment: 3 })),
    h("option", { value: "live-10-5" }, clockText({ minutes: 10, increment: 5 })),
    h("option", { value: "days-3" }, clockText({ days: 3 })));
  const rated = h("input", { id: "tourn-rated", type: "checkbox" });
  const hidden = h("input", { id: "tourn-private", type: "checkbox" });
  const fill = levelSelect("tourn-fill", bots, formClock(clock.value), noBye);
  const fillRow = h("div", { class: "tourn-field" }, field("tourn-fill", t("A computer player fills an odd field"), fill));
  const pupils = asked ? asked.pupils.map((p, i) => h("label", { class: "check", for: "tourn-pupil-" + i },
    h("input", { id: "tourn-pupil-" + i, type: "checkbox", checked: true, value: p.player, class: "tourn-pupil" }), " ", p.name)) : [];
  if (asked) {
    // TRANSLATORS: the prefilled name of a class's tournament ("Class 5B: tournament")
    name.value = asked.name ? t("{name}: tournament", { name: asked.name }).slice(0, 60) : t("Class tournament");
    system.value = "round-robin";
    hidden.checked = true;
    fill.value = bots.length ? bots[0].name : "";
  }
  const roundsRow = h("div", { class: "tourn-field" }, field("tourn-rounds", t("Rounds"), rounds));
  const minutesRow = h("div", { class: "tourn-field" }, field("tourn-minutes", t("Minutes"), minutes));
  function shape() {
    roundsRow.hidden = system.value !== "swiss";
    minutesRow.hidden = system.value !== "arena";
    fillRow.hidden = system.value === "arena";
  }
  shape();
  const form = h("form", { id: "tourn-create", class: "tourn-create", onsubmit: async e => {
    e.preventDefault();
    const body = { name: name.value, variant: variant.value, system: system.value,
      rounds: system.value === "swiss" ? Number(rounds.value) : 0,
      minutes: system.value === "arena" ? Number(minutes.value) : 0,
      clock: formClock(clock.value),
      rated: rated.checked, private: hidden.checked,
      fill_bye: system.value !== "arena" && fill.value ? fill.value : null,
      players: [...form.querySelectorAll(".tourn-pupil:checked")].map(box => box.value) };
    try {
      const made = await api("/api/tournaments", { method: "POST", body: JSON.stringify(body) });
      location.assign("/t/" + encodeURIComponent(made.id));
    } catch (err) { shout(err.message); }
  } },
    h("h2", { id: "tourn-create-title" }, asked ? t("A tournament of this class") : t("Organize a tournament")),
    asked ? h("fieldset", { id: "tourn-pupils" }, h("legend", {}, t("The pupils who play")), pupils) : "",
    h("div", { class: "tourn-field" }, field("tourn-name", t("Name"), name)),
    h("div", { class: "tourn-field" }, field("tourn-variant", t("Game"), variant)),
    h("div", { class: "tourn-field" }, field("tourn-system", t("Format"), system)),
    roundsRow, minutesRow,
    h("div", { class: "tourn-field" }, field("tourn-clock", t("Clock"), clock)),
    fillRow,
    h("label", { class: "check", for: "tourn-rated" }, rated, " ", t("Rated")),
    h("label", { class: "check", for: "tourn-private" }, hidden, " ", t("Private: joined by its link only")),
    h("button", { type: "submit", id: "tourn-submit", class: "primary" }, t("Create")));
  return form;
}

// ---------------------------------------------------------------- one tournament

export async function tournamentPage(id) {
  at.id = id;
  setWhere(t("Tournaments"), true);
  try { at.bots = await api("/api/bots"); } catch { at.bots = []; }
  await refresh();
  follow();
  at.timer = setInterval(() => {
    if (!at.live && !document.hidden && at.data && at.data.status !== "finished") refresh();
  }, fallbackPoll());
}

function fallbackPoll() { return window.mathableTournamentFallback || FOLLOW_MS; }

// The tournament's socket: told its log's length whenever it changes, the page reads it
// then; polled only while the socket is down (reconnected, at most every 30 s).
function follow() {
  if (at.data && at.data.status === "finished") return;
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host
    + "/api/tournaments/" + encodeURIComponent(at.id) + "/ws");
  at.socket = ws;
  ws.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type !== "tournament") return;
    at.retry = 1000;
    at.live = true;
    document.body.dataset.tournLive = "1";
    if (message.seq !== at.seq) { at.seq = message.seq; refresh(); }
  };
  ws.onclose = () => {
    if (at.socket !== ws) return;
    at.socket = null;
    at.live = false;
    delete document.body.dataset.tournLive;
    if (at.data && at.data.status === "finished") return;
    refresh();  // at once, then by the poll until the socket is back
    setTimeout(follow, at.retry || 1000);
    at.retry = Math.min(2 * (at.retry || 1000), 30000);
  };
}

async function refresh() {
  let data;
  try { data = await api("/api/tournaments/" + encodeURIComponent(at.id)); } catch (e) {
    if (!at.data) app.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
    return;
  }
  const text = JSON.stringify(data);
  if (text === at.shown) return;
  at.data = data;
  at.shown = text;
  draw();
  const ready = data.me.next_game;
  if (ready && ready !== at.ready) { beep(880, 0.25); announce(t("Your game is ready.")); }
  at.ready = ready;
}

async function act(path, body) {
  try {
    await api("/api/tournaments/" + encodeURIComponent(at.id) + "/" + path, { method: "POST", body: JSON.stringify(body || {}) });
    await refresh();
  } catch (err) { shout(err.message); }
}

function nameOf(player) {
  const found = at.data.players.find(p => p.player === player);
  return found ? found.name : player;
}

function draw() {
  const d = at.data, me = d.me;
  document.title = t("{title} — {brand}", { title: d.name, brand: document.querySelector("header .brand").textContent });
  const buttons = [];
  if (d.joinable) buttons.push(h("button", { type: "button", id: "tourn-join", class: "primary", onclick: () => act("join") }, t("Join")));
  if (me.joined && d.status !== "finished") buttons.push(h("button", { type: "button", id: "tourn-withdraw", onclick: () => act("withdraw") }, t("Withdraw")));
  if (me.organizer && d.status === "upcoming") buttons.push(h("button", { type: "button", id: "tourn-start", class: "primary", onclick: () => act("start") }, t("Start")));
  if (me.organizer && d.status === "running") buttons.push(h("button", { type: "button", id: "tourn-pause", onclick: () => act("pause") }, t("Pause")));
  if (me.organizer && d.status === "paused") buttons.push(h("button", { type: "button", id: "tourn-resume", onclick: () => act("resume") }, t("Resume")));
  if (me.organizer && d.status === "upcoming" && at.bots.length) {
    const level = levelSelect("tourn-level", at.bots, d.spec.clock);
    level.addEventListener("change", () => { at.chosen.level = level.value; });
    if (at.chosen.level) level.value = at.chosen.level;
    buttons.push(h("span", { class: "tourn-add" }, h("label", { for: "tourn-level" }, t("Computer level")), level,
      h("button", { type: "button", id: "tourn-computer", onclick: () => act("join", { computer: level.value }) }, t("Add a computer player"))));
  }
  buttons.push(h("button", { type: "button", id: "tourn-print", onclick: () => window.print() }, t("Print the standings")));
  // the class view follows this tournament's games (its page, by its address)
  if (me.organizer) buttons.push(h("a", { id: "tourn-class", class: "button-link", href: "/class?tournament=" + encodeURIComponent(d.id) }, t("Follow in the class view")));
  const spec = d.spec;
  const facts = [SYSTEMS()[spec.system], spec.system === "swiss" ? nt("{count} round", "{count} rounds", spec.rounds) : "",
    spec.system === "arena" ? nt("{count} minute", "{count} minutes", spec.minutes) : "", clockText(spec.clock),
    spec.rated ? t("rated") : t("casual"), spec.private ? t("private") : ""].filter(Boolean);
  app.replaceChildren(h("div", { class: "tournament", id: "tournament" },
    h("h2", { id: "tourn-title" }, d.name),
    h("p", { class: "tourn-meta" }, facts.join(" · ")),
    h("p", { id: "tourn-status", class: "tourn-status" }, STATUSES()[d.status],
      d.round ? " · " + t("round {number}", { number: d.round }) : "",
      d.organizer.name ? " · " + t("organized by {name}", { name: d.organizer.name }) : ""),
    d.deadline ? h("p", { id: "tourn-deadline" }, t("This round ends {when}: a player who has not moved by then loses the game.", { when: new Date(d.deadline * 1000).toLocaleString(lang === "qps" ? "en" : lang) })) : "",
    me.next_game ? h("p", { id: "tourn-ready", class: "tourn-ready", role: "status" },
      t("Your game is ready."), " ", h("a", { href: "/g/" + encodeURIComponent(me.next_game) }, t("Play it"))) : "",
    h("div", { class: "tourn-actions" }, buttons),
    h("p", { id: "tourn-message", role: "status" }),
    standingsTable(d),
    crosstableTable(d),
    roundsList(d),
    playersList(d)));
}

function standingsTable(d) {
  const me = d.me.player;
  const title = d.status === "finished" ? t("Final standings") : t("Standings");
  const heads = [[t("Rank"), ""], [t("Player"), ""], [t("Points"), ""], [t("Buchholz"), "tb"], [t("Sonneborn-Berger"), "tb"], [t("Spread"), "tb"], [t("Games"), ""]];
  // the tie-breaks as one line under the name, shown where their columns are not (a phone)
  const stacked = s => t("Buchholz {buchholz} · Sonneborn-Berger {sb} · spread {spread}",
    { buchholz: points(s.tiebreaks.buchholz), sb: points(s.tiebreaks.sonneborn_berger), spread: s.tiebreaks.spread });
  return h("table", { id: "tourn-standings", class: "seeks tourn-table tourn-standings" },
    h("caption", {}, title),
    h("thead", {}, h("tr", {}, heads.map(([x, kind]) => h("th", { scope: "col", class: kind }, x)))),
    h("tbody", {}, d.standings.map(s => h("tr", { class: s.player === me ? "me" : "" },
      h("td", {}, s.rank), h("th", { scope: "row" }, s.name, h("span", { class: "tb-line" }, stacked(s))), h("td", { class: "points" }, points(s.points)),
      h("td", { class: "tb" }, points(s.tiebreaks.buchholz)), h("td", { class: "tb" }, points(s.tiebreaks.sonneborn_berger)), h("td", { class: "tb" }, s.tiebreaks.spread), h("td", {}, s.games)))));
}

function crosstableTable(d) {
  if (!d.rounds.length) return "";
  const rank = Object.fromEntries(d.standings.map(s => [s.player, s.rank]));
  const rows = [...d.crosstable].sort((a, b) => (rank[a.player] || 99) - (rank[b.player] || 99));
  return h("div", { class: "tourn-scroll", tabindex: "0", role: "region", "aria-label": t("Crosstable") }, h("table", { id: "tourn-crosstable", class: "seeks tourn-table" },
    h("caption", {}, t("Crosstable")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), d.rounds.map(r => h("th", { scope: "col" }, t("R{number}", { number: r.number }))))),
    h("tbody", {}, rows.map(row => h("tr", {}, h("th", { scope: "row" }, nameOf(row.player)),
      row.rounds.map(cell => h("td", {}, cell.bye ? t("bye") : cell.opponent
        ? [points(cell.points) || "…", " ", h("span", { class: "muted" }, t("vs {name}", { name: nameOf(cell.opponent) }))] : "–")))))));
}

function roundsList(d) {
  const me = d.me.player;
  return h("section", { class: "tourn-rounds", "aria-labelledby": "tourn-rounds-title" },
    h("h2", { id: "tourn-rounds-title" }, t("Rounds")),
    [...d.rounds].reverse().map(r => h("div", { class: "tourn-round" },
      h("h3", {}, t("Round {number}", { number: r.number })),
      h("ol", {}, r.pairings.map(p => {
        const mine = p.players.includes(me);
        const result = p.result ? [points(p.result.points[0]), "–", points(p.result.points[1]), HOWS()[p.result.how] ? " (" + HOWS()[p.result.how] + ")" : ""].join("") : "";
        return h("li", { class: mine ? "mine" : "", "data-board": p.board },
          nameOf(p.players[0]), " – ", nameOf(p.players[1]), " ",
          result ? h("span", { class: "tourn-result" }, result) : "",
          p.game ? [" ", h("a", { href: "/g/" + encodeURIComponent(p.game) }, mine && !p.result ? t("Play") : t("Watch"))] : "",
          d.me.organizer && !p.result && d.status !== "finished" ? decideControl(r.number, p) : "");
      })),
      r.bye ? h("p", {}, t("Bye: {name}", { name: nameOf(r.bye) })) : "")));
}

// The organizer's decision of a board without a result: its points, then Decide.
function decideControl(round, p) {
  const id = "tourn-decide-" + round + "-" + p.board;
  const first = nameOf(p.players[0]), second = nameOf(p.players[1]);
  const choice = h("select", { id, class: "tourn-decide", onchange: () => { at.chosen[id] = choice.value; } },
    h("option", { value: "1,0" }, t("{name} wins", { name: first })),
    h("option", { value: "0.5,0.5" }, t("a draw")),
    h("option", { value: "0,1" }, t("{name} wins", { name: second })),
    // TRANSLATORS: the organizer's decision: both players lose the board
    h("option", { value: "0,0" }, t("both lose")));
  if (at.chosen[id]) choice.value = at.chosen[id];  // a choice outlives the page's redraws
  return h("span", { class: "tourn-decide-row" },
    h("label", { for: id, class: "sr-only" }, t("The result of {first} – {second}", { first, second })), choice,
    h("button", { type: "button", class: "tourn-decide-button", "aria-label": t("Decide {first} – {second}", { first, second }),
      onclick: () => act("decide", { round, board: p.board, points: choice.value.split(",").map(Number) }) }, t("Decide")));
}

function playersList(d) {
  return h("section", { class: "tourn-players", "aria-labelledby": "tourn-players-title" },
    h("h2", { id: "tourn-players-title" }, nt("{count} player", "{count} players", d.players.filter(p => p.active).length)),
    h("ul", {}, d.players.map(p => h("li", { class: p.active ? "" : "muted" }, p.name, " (", p.rating, ")",
      p.active ? "" : " — " + t("withdrawn"),
      d.me.organizer && p.active && d.status !== "finished" && p.player !== d.me.player
        ? [" ", h("button", { type: "button", class: "tourn-remove", "aria-label": t("Remove {name}", { name: p.name }), onclick: () => act("remove", { player: p.player }) }, t("Remove"))] : ""))));
}

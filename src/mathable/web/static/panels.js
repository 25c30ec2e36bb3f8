// The side panels of a game: scores, the table's rules, the unseen pieces, the moves.

import { analysis } from "./analysis.js";
import { byPiece, capsOf, count, h, hintsOn, shownTurn, state, unitName } from "./core.js";
import { nt, t } from "./i18n.js";

export function scores(v) {
  const c = capsOf(v.variant);
  const open = v.open_racks || [];
  return h("table", { id: "scores" }, v.players.map((p, i) => h("tr", {},
    h("td", {}, !v.over && v.to_move === i ? "▶" : ""), h("td", {}, v.seats[i].bot ? botLabel(p, v.seats[i].bot_name || v.seats[i].bot) : p, botBadge(v, i),
      gone(v, i) ? [" ", h("span", { class: "gone", "data-seat": i }, "(" + gone(v, i) + ")")]
        : away(v, i) ? [" ", h("span", { class: "away", "data-seat": i }, t("(disconnected)"))] : ""),
    h("td", { class: "score", title: unitName(c) }, v.scores[i]),
    // TRANSLATORS: a rack (or hand) with no piece left in it
    h("td", { class: "held" }, open[i] ? open[i].join(" ") || t("none left") : count(v.rack_sizes[i], c)))),
    h("tr", {}, h("td", {}), h("td", { colspan: 3 }, t("Left to draw: {pieces}", { pieces: count(v.bag_size, c) }))));
}

// A computer player's name with its level, the level said once: "Robo (gentle)", but
// "gentle" and "Computer (gentle)" as they are (issue 32: no "gentle (gentle)").
export function botLabel(name, level) {
  return !level || name === level || name.includes("(" + level + ")") ? name : t("{name} ({level})", { name, level });
}

// A bot account's seat (issue 36): its name marked BOT, read out as the word it shows.
export function botBadge(v, i) {
  return v.seats[i] && v.seats[i].bot_account ? [" ", h("span", { class: "bot-badge", "data-seat": i, title: t("A program plays for this account.") }, t("BOT"))] : "";
}

// A seat that has left the game (the view's "left", local ruling L1), in words; "" for a
// seat still in. Its score stays as it was when it left.
const GONE = { resign: () => t("resigned"), flag: () => t("out of time"), claim: () => t("left the game") };
export function gone(v, i) {
  const why = v.left && v.left[i];
  return why ? (GONE[why] || GONE.claim)() : "";
}

// Presence (online): a seat whose player has the game open nowhere, said in words. A seat
// nobody has taken yet is "invited" (the table says so), not disconnected.
export function away(v, i) {
  const here = v.presence && v.presence[i];
  return Boolean(here && !here.connected && v.seats[i].claimed && !v.seats[i].bot && !v.over && !gone(v, i));
}

// What changed in who is there between two views of a game, in words for the live region
// ("Bob disconnected.", "Bob is back."), the viewer's own seat left out.
export function presenceNews(before, after) {
  if (!before || !after || before.id !== after.id || !before.presence || !after.presence) return "";
  return after.players.map((p, i) => {
    if (i === after.seat || !before.presence[i]) return "";
    if (away(after, i) && !away(before, i)) return t("{name} disconnected.", { name: p });
    if (away(before, i) && !away(after, i) && after.presence[i].connected) return t("{name} is back.", { name: p });
    return "";
  }).filter(Boolean).join(" ");
}

// The instant (ms, the server's) from which this seat may claim against the player to
// move, away since then (null: no claim to make: not online, over, their own turn...).
export function claimAt(v) {
  if (v.claim_after === null || v.claim_after === undefined || v.seat === null || v.over) return null;
  const here = v.presence && v.presence[v.to_move];
  if (v.to_move === v.seat || !here || here.since === null || !away(v, v.to_move)) return null;
  return here.since + v.claim_after * 1000;
}

// The claim button's words: the win (two players), else the seat's removal; a countdown
// until the server would accept.
export function claimText(v, now) {
  const name = v.players[v.to_move];
  const wait = Math.ceil((claimAt(v) - now) / 1000);
  if (v.players.length === 2) {
    return wait > 0 ? t("Claim the win in {seconds} s ({name} is away)", { seconds: wait, name }) : t("Claim the win ({name} left)", { name });
  }
  return wait > 0 ? t("Remove {name} from the game in {seconds} s ({name} is away)", { seconds: wait, name })
    : t("Remove {name} from the game ({name} left)", { name });
}

// the claim button counts down to the instant it opens
setInterval(() => {
  const el = document.getElementById("claim");
  const v = state.view;
  if (!el || !v || claimAt(v) === null) return;
  el.textContent = claimText(v, Date.now());
  el.disabled = claimAt(v) > Date.now();
}, 250);

// The clocks under the scores (none without a clock): time left per seat, the running one
// counted down on the page from the view's clocks and the time the view came (the server
// is the authority: the next view corrects it). Each line reads as text: "Ann: 4:58 left".
export function clocks(v) {
  if (!v.clocks) return "";
  const live = v.clock && v.clock.minutes !== undefined;
  const control = v.clock ? (live ? v.clock.minutes + "+" + (v.clock.increment || 0) : nt("{count} day a turn", "{count} days a turn", v.clock.days)) : "";
  return h("div", { id: "clocks", role: "group", "aria-label": v.rated ? t("Clocks, {control}, rated", { control }) : t("Clocks, {control}, casual", { control }) },
    h("p", { class: "clock-control" }, v.rated ? t("Clock {control} · rated", { control }) : t("Clock {control} · casual", { control })),
    h("ul", {}, v.players.map((p, i) => {
      const running = !v.over && v.running === i;
      return h("li", { class: "clock" + (running ? " running" : ""), "data-seat": i, "data-left": v.clocks[i], "data-running": running ? "1" : "" },
        running ? t("{name}: {time} left (running)", { name: p, time: shownTime(v.clocks[i]) }) : t("{name}: {time} left", { name: p, time: shownTime(v.clocks[i]) }));
    })),
    firstMove(v));
}

// Ruling O4: no clock runs before its seat's first move; the seat to move has the
// first-move time instead (30 s live), else the game is aborted, unrated.
function firstMove(v) {
  const f = v.first_move;
  if (!f || v.over) return "";
  if (f.left === null || f.left === undefined) {
    return h("p", { id: "first-move", class: "first-move" }, t("The clocks start with each player's first move, once every seat is taken."));
  }
  return h("p", { id: "first-move", class: "first-move", "data-left": f.left, "data-seat": f.seat }, firstMoveText(v, f.seat, f.left));
}

function firstMoveText(v, seat, left) {
  return t("{name} to make a first move: {time} left, else the game is aborted (not rated).", { name: v.players[seat], time: shownTime(left) });
}

export function shownTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  // TRANSLATORS: time left on a clock: days and hours ("2d 5h")
  if (s >= 86400) return t("{days}d {hours}h", { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
  // TRANSLATORS: time left on a clock: hours and minutes ("1h 05m")
  if (s >= 3600) return t("{hours}h {minutes}m", { hours: Math.floor(s / 3600), minutes: String(Math.floor((s % 3600) / 60)).padStart(2, "0") });
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// the running clock ticks down between views
setInterval(() => {
  const el = document.querySelector("#clocks li[data-running='1']");
  const v = state.view;
  if (!el || !v || !v.clocks) return;
  const left = Number(el.dataset.left) - (Date.now() - (state.viewAt || Date.now()));
  el.textContent = t("{name}: {time} left (running)", { name: v.players[Number(el.dataset.seat)], time: shownTime(left) });
}, 250);

// the first-move countdown ticks down the same way
setInterval(() => {
  const el = document.querySelector("#first-move[data-left]");
  const v = state.view;
  if (!el || !v) return;
  const left = Number(el.dataset.left) - (Date.now() - (state.viewAt || Date.now()));
  el.textContent = firstMoveText(v, Number(el.dataset.seat), left);
}, 250);

// What every seat knows about how this game is played: where (online or at one screen),
// its house rules (O2: "hints allowed" when on), and who has taken their seat.
export function table(v) {
  const on = Object.entries(v.house_rules || {}).filter(([, value]) => value).map(([rule]) => HOUSE_RULES[rule] ? HOUSE_RULES[rule]() : rule.replaceAll("_", " "));
  const where = v.mode === "online" ? t("Online: dealt by the server, its seed shown at the end.") : t("Played at one screen.");
  const waiting = v.seats.map((s, i) => s.claimed ? null : v.players[i]).filter(Boolean);
  return h("div", { class: "table-rules", id: "table" },
    state.note ? h("p", { id: "joined" }, state.note) : "",
    h("p", { id: "mode-note" }, where, " ", h("a", { href: "/rules/" + encodeURIComponent(v.variant), id: "rules-link" }, t("Rules of {game}", { game: capsOf(v.variant).title }))),
    h("p", { id: "house-rules" }, h("b", {}, t("House rules:")), " ", on.length ? on.join(", ") : t("none (no hints)")),
    waiting.length ? h("p", { id: "unclaimed" }, t("Invited, not joined yet: {names}", { names: waiting.join(", ") })) : "",
    hintsOn(v) && v.seat !== null && !v.over ? h("button", { id: "my-analysis", onclick: () => analysis(v.id, state.socketToken) }, t("Analysis of my turns")) : "");
}

// The house rules on, in words (the lobby's words for them).
const HOUSE_RULES = {
  hints: () => t("hints allowed"), allow_undo: () => t("allow undo"), strict: () => t("strict"), table_referee: () => t("table referee"),
};

export function card(v) {
  // TRANSLATORS: the player card (C13): the values this player has not seen yet
  return h("p", { class: "card" }, h("b", {}, t("Unseen:")), " ", Object.entries(v.unseen).filter(([, n]) => n).map(([val, n]) => n > 1 ? val + "×" + n : val).join(" "));
}

// The move list: each turn with its points and every player's running total after it.
export function moves(v) {
  const c = capsOf(v.variant);
  const points = c.score_unit === "points";
  const totals = v.players.map(() => 0);
  return h("div", { class: "moves", id: "moves" }, h("b", { id: "moves-title" }, t("Moves")), h("ol", { tabindex: "0", "aria-labelledby": "moves-title" }, v.summaries.map(s => {
    totals[s.seat] += s.points;
    // issue 18: each placement of the turn explained, on hover
    const said = inWords(v, s);
    return h("li", { title: (s.explanations || []).join("\n") || null }, h("span", { class: "move" }, t("{name}: {turn}", { name: v.players[s.seat], turn: shownTurn(s.notation, c) + (s.note ? " (" + s.note + ")" : "") })),
      said ? [" ", h("span", { class: "said" + (s.no_fit ? " no-fit" : "") }, said)] : "",
      // issue 35: why a computer exchanged or passed
      s.reason ? [" ", h("span", { class: "reason" }, s.reason)] : "",
      points ? [" ", h("span", { class: "pts" }, "+" + s.points), " ", h("span", { class: "totals" }, "→ " + v.players.map((p, i) => p + " " + totals[i]).join(" · "))] : "");
  })));
}

// Running totals per player after each turn, from the summaries: [[0, ...], ...] per player.
export function runningTotals(v) {
  const lines = v.players.map(() => [0]);
  v.summaries.forEach(s => lines.forEach((line, i) => line.push(line[line.length - 1] + (s.seat === i ? s.points : 0))));
  return lines;
}

export function describe(s, c, v) {
  const extras = [];
  if (c.score_unit === "points" && s.points) extras.push(s.points);
  if (s.note) extras.push(s.note);
  const said = v ? inWords(v, s) : "";
  return shownTurn(s.notation, c) + (extras.length ? " (" + extras.join(", ") + ")" : "") + (said ? ": " + said : "") + (s.reason ? " — " + s.reason : "");
}

// A turn said in words beside its notation where the notation alone says little
// (issue 32): a drawn card's turn ("draw A=4 exchange") and a turn that ended by itself.
const DRAWN = /^draw (\S+)=(\d+)(?: (exchange|penalty))?$/;
export function inWords(v, s) {
  const drawn = DRAWN.exec(s.notation || "");
  if (drawn) {
    const words = { pile: drawn[1], value: drawn[2] };
    // TRANSLATORS: a turn of a player with no card to play: the card drawn went on a pile, then...
    if (drawn[3] === "exchange") return t("no card fitted: drew one, played {value} on pile {pile}, then exchanged a card", words);
    if (drawn[3] === "penalty") return t("no card fitted: drew one, played {value} on pile {pile}, then took a penalty card", words);
    return t("no card fitted: drew one and played {value} on pile {pile}", words);
  }
  if (!s.no_fit) return "";
  return byPiece({
    token: () => t("no other token fitted"),
    tile: () => t("no other tile fitted"),
    card: () => t("no other card fitted") }, capsOf(v.variant));
}

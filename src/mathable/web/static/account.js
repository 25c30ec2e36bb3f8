// Who I am, on every page (issue 15, "Players"): the header shows the session's player
// (a guest until they make an account) with Sign up / Log in, or an account's name with
// its profile and Log out. Accounts keep games and ratings across devices; rated games
// need one. Names are shown with textContent (h()), never as markup.

import { announce, api, closeModal, h, iAmNow, modal, say, state, whoAmI } from "./core.js";
import { lang, nt, t } from "./i18n.js";

const area = document.getElementById("me");

export async function showMe() {
  try { state.me = await whoAmI(); } catch { return; }
  const me = state.me;
  const profile = h("a", { href: "/players/" + encodeURIComponent(me.id), id: "me-name", title: t("Your profile") }, me.name);
  const buttons = me.account
    ? [h("button", { type: "button", class: "switch", id: "logout", onclick: logout }, t("Log out"))]
    : [h("button", { type: "button", class: "switch", id: "signup", onclick: () => form("signup") }, t("Sign up")),
       h("button", { type: "button", class: "switch", id: "login", onclick: () => form("login") }, t("Log in"))];
  area.replaceChildren(profile, ...buttons);
}

// The dialog to make an account of this guest (their games stay theirs) or to log in.
function form(kind) {
  const signup = kind === "signup";
  const name = h("input", { id: "account-name", maxlength: 40, autocomplete: "username", required: true, value: signup ? state.me.name : "" });
  const password = h("input", { id: "account-password", type: "password", minlength: signup ? 8 : 1, maxlength: 200, required: true,
    autocomplete: signup ? "new-password" : "current-password", "aria-describedby": "account-help" });
  const error = h("p", { id: "account-error", class: "error", role: "alert" });
  const submit = async e => {
    e.preventDefault();
    try {
      const body = JSON.stringify({ name: name.value, password: password.value });
      iAmNow(await api(signup ? "/api/accounts" : "/api/session", { method: "POST", body }));
      closeModal();
      const done = signup ? t("Your account {name} is made: your games and ratings follow you.", { name: state.me.name })
        : t("Welcome back, {name}.", { name: state.me.name });
      say(done);
      announce(done);
      document.dispatchEvent(new CustomEvent("mathable:me", { detail: state.me }));
    } catch (err) { error.textContent = err.message; }
  };
  modal(h("form", { id: "account-form", onsubmit: submit },
    h("h2", {}, signup ? t("Make an account") : t("Log in")),
    h("div", { class: "row" }, h("label", { for: "account-name" }, t("Name")), name),
    h("div", { class: "row" }, h("label", { for: "account-password" }, t("Password")), password),
    h("p", { id: "account-help", class: "about" }, signup
      ? t("8 characters or more. Your games so far stay yours; rated games need an account.")
      : t("The name and password of your account.")),
    error,
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "account-submit" }, signup ? t("Make my account") : t("Log in")),
      h("button", { type: "button", id: "account-cancel", onclick: closeModal }, t("Cancel")))));
}

async function logout() {
  try {
    iAmNow(await api("/api/session", { method: "DELETE" }));
    say(t("Logged out: you are {name} on this device now.", { name: state.me.name }));
    announce(t("Logged out."));
    document.dispatchEvent(new CustomEvent("mathable:me", { detail: state.me }));
  } catch (err) { say(err.message, true); }
}

// Any page that changes who I am (a new name, an account) says so with this event.
document.addEventListener("mathable:me", e => { iAmNow(e.detail); showMe(); });
if (area) showMe();

// Account settings, on my own profile (issue 30, "Sessions kept on the server"): the
// browsers logged in as me (GET /api/me/sessions), each but this one to log out, "Log out
// everywhere" (this browser stays, in a new session) and a new password (every other
// session ends). User agents are text, never markup.
export function accountSettings(isBot = false) {
  const rows = h("tbody", { id: "sessions-rows" });
  const status = h("p", { id: "settings-status", role: "status" });
  const when = seconds => new Date(seconds * 1000).toLocaleString(lang === "qps" ? "en" : lang);
  const done = text => { status.className = ""; status.textContent = text; announce(text); };
  const failed = err => { status.className = "error"; status.textContent = err.message; };
  async function refresh() {
    const sessions = await api("/api/me/sessions");
    rows.replaceChildren(...sessions.map(s => h("tr", { "data-session": s.id, class: s.current ? "current" : "" },
      h("td", {}, s.user_agent || t("an unknown browser")), h("td", {}, when(s.created)), h("td", {}, when(s.last_seen)),
      h("td", {}, s.current ? t("this browser")
        : h("button", { type: "button", class: "end-session", onclick: () => end(s.id),
          "aria-label": t("Log out the browser last seen {date}", { date: when(s.last_seen) }) }, t("Log out"))))));
  }
  async function end(id) {
    try { await api("/api/me/sessions/" + encodeURIComponent(id), { method: "DELETE" }); await refresh(); done(t("That browser is logged out.")); }
    catch (err) { failed(err); }
  }
  async function everywhere() {
    try {
      const answer = await api("/api/me/logout-everywhere", { method: "POST" });
      await refresh();
      done(nt("Logged out everywhere else: {count} session ended.", "Logged out everywhere else: {count} sessions ended.", answer.ended));
    } catch (err) { failed(err); }
  }
  const current = h("input", { id: "password-current", type: "password", maxlength: 200, required: true, autocomplete: "current-password" });
  const fresh = h("input", { id: "password-new", type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password",
    "aria-describedby": "password-help" });
  async function change(e) {
    e.preventDefault();
    try {
      const answer = await api("/api/me/password", { method: "POST", body: JSON.stringify({ current: current.value, password: fresh.value }) });
      current.value = fresh.value = "";
      await refresh();
      done(nt("Your password is changed: {count} other session ended.", "Your password is changed: {count} other sessions ended.", answer.ended));
    } catch (err) { failed(err); }
  }
  const field = (label, control) => h("div", { class: "row" }, h("label", { for: control.id }, label), control);
  const section = h("section", { id: "account-settings", "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, t("Account settings")),
    h("table", { id: "sessions", class: "seeks" }, h("caption", {}, t("Where you are logged in")),
      h("thead", {}, h("tr", {}, [t("Browser"), t("Since"), t("Last seen"), ""].map(head => h("th", { scope: "col" }, head)))), rows),
    h("p", { class: "about" }, t("A session ends 30 days after its last use, or when you log out.")),
    h("button", { type: "button", id: "logout-everywhere", onclick: everywhere }, t("Log out everywhere else")),
    h("form", { id: "password-form", onsubmit: change },
      h("fieldset", {}, h("legend", {}, t("Change your password")),
        field(t("Current password"), current), field(t("New password"), fresh),
        h("p", { id: "password-help", class: "about" }, t("8 characters or more. Every other session ends.")),
        h("button", { type: "submit", class: "primary", id: "password-submit" }, t("Change the password")))),
    botAccount(isBot, done, failed),
    status);
  refresh().catch(failed);
  return section;
}

// A bot account (issue 36, the Bot API as lichess's): an account that has played no game
// becomes one (for good, after a second press), and its API token is shown once, with
// the command that runs examples/bot.py on it; a bot account makes a new token or
// revokes it. Texts only: the token is the server's, shown in a read-only field.
function botAccount(isBot, done, failed) {
  const out = h("div", { id: "bot-token-area" });
  function showToken(token) {
    const field = h("input", { id: "bot-token", readonly: true, value: token, spellcheck: "false", autocomplete: "off" });
    const command = ".venv/bin/python examples/bot.py --url " + location.origin + " --token " + token + " --level greedy";
    out.replaceChildren(
      h("div", { class: "row" }, h("label", { for: "bot-token" }, t("Your bot's token (shown once: copy it now)")), field),
      h("p", { class: "about" }, t("Run a bot on it from a clone of the project:")),
      h("pre", { id: "bot-command" }, command));
    field.focus();
    field.select();
  }
  async function call(path, method, said) {
    try {
      const answer = await api(path, { method });
      if (answer && answer.token) showToken(answer.token); else out.replaceChildren();
      done(said);
    } catch (err) { failed(err); }
  }
  if (isBot) {
    return h("fieldset", { id: "bot-settings" }, h("legend", {}, t("Bot account")),
      h("p", { class: "about" }, t("A program plays for this account through the Bot API, with its token.")),
      h("button", { type: "button", id: "bot-new-token", onclick: () => call("/api/account/bot/token", "POST", t("A new token is made: the old one no longer opens the account.")) }, t("Make a new token")),
      h("button", { type: "button", id: "bot-revoke", onclick: () => call("/api/account/bot/token", "DELETE", t("The token is revoked.")) }, t("Revoke the token")),
      out);
  }
  const sure = h("button", { type: "button", id: "bot-sure", class: "primary", hidden: true,
    onclick: () => call("/api/account/bot", "POST", t("This account is a bot account now.")) }, t("Yes, make it a bot account"));
  return h("fieldset", { id: "bot-settings" }, h("legend", {}, t("Bot account")),
    h("p", { class: "about" }, t("A program of yours may play people with this account through the Bot API (as on lichess). Only an account that has played no game can become one, and it stays one.")),
    h("button", { type: "button", id: "bot-make", onclick: () => { sure.hidden = false; sure.focus(); } }, t("Make this a bot account")),
    sure, out);
}

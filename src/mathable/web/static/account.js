// Who I am, on every page (issue 15, "Players"): the header shows the session's player
// (a guest until they make an account) with Sign up / Log in, or an account's name with
// its profile and Log out. Accounts keep games and ratings across devices; rated games
// need one. Names are shown with textContent (h()), never as markup.

import { announce, api, closeModal, h, iAmNow, modal, say, state, whoAmI } from "./core.js";
import { t } from "./i18n.js";

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

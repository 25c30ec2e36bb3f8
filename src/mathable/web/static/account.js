// Who I am, on every page (issue 15, "Players"): the header shows the session's player
// (a guest until they make an account) with Sign up / Log in, or an account's name with
// its profile and Log out. Accounts keep games and ratings across devices; rated games
// need one. Names are shown with textContent (h()), never as markup.

import { announce, api, closeModal, h, iAmNow, modal, say, state, whoAmI } from "./core.js";

const area = document.getElementById("me");

export async function showMe() {
  try { state.me = await whoAmI(); } catch { return; }
  const me = state.me;
  const profile = h("a", { href: "/players/" + encodeURIComponent(me.id), id: "me-name", title: "Your profile" }, me.name);
  const buttons = me.account
    ? [h("button", { type: "button", class: "switch", id: "logout", onclick: logout }, "Log out")]
    : [h("button", { type: "button", class: "switch", id: "signup", onclick: () => form("signup") }, "Sign up"),
       h("button", { type: "button", class: "switch", id: "login", onclick: () => form("login") }, "Log in")];
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
      const done = signup ? "Your account " + state.me.name + " is made: your games and ratings follow you." : "Welcome back, " + state.me.name + ".";
      say(done);
      announce(done);
      document.dispatchEvent(new CustomEvent("mathable:me", { detail: state.me }));
    } catch (err) { error.textContent = err.message; }
  };
  modal(h("form", { id: "account-form", onsubmit: submit },
    h("h2", {}, signup ? "Make an account" : "Log in"),
    h("div", { class: "row" }, h("label", { for: "account-name" }, "Name"), name),
    h("div", { class: "row" }, h("label", { for: "account-password" }, "Password"), password),
    h("p", { id: "account-help", class: "about" }, signup
      ? "8 characters or more. Your games so far stay yours; rated games need an account."
      : "The name and password of your account."),
    error,
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "account-submit" }, signup ? "Make my account" : "Log in"),
      h("button", { type: "button", id: "account-cancel", onclick: closeModal }, "Cancel"))));
}

async function logout() {
  try {
    iAmNow(await api("/api/session", { method: "DELETE" }));
    say("Logged out: you are " + state.me.name + " on this device now.");
    announce("Logged out.");
    document.dispatchEvent(new CustomEvent("mathable:me", { detail: state.me }));
  } catch (err) { say(err.message, true); }
}

// Any page that changes who I am (a new name, an account) says so with this event.
document.addEventListener("mathable:me", e => { iAmNow(e.detail); showMe(); });
if (area) showMe();

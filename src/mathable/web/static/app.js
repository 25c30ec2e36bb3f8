// Mathable in the browser: no build step. Every rule is the server's; this page draws
// the view it receives and sends actions in notation (I8=12, end, pass, A=32...).
// It never asks which game it shows: a game's capabilities (/api/variants) say what to
// draw (surface, targets, columns), which actions exist and what a piece is called, and
// each view says what the seat may place (playable) and do now (available).
// This is the entry module: it starts the home page or a game page.

import { app, h } from "./core.js";
import { LANGUAGES, chooseLanguage, lang, pt, t } from "./i18n.js";
import { home } from "./home.js";
import { gamePage } from "./play.js";
import { lobbyPage } from "./lobby.js";
import "./prefs.js";
import "./account.js";
import "./blind.js";  // issue 32: the skip link, blind mode, announcements queued
import { rulesPage } from "./rules.js";
import { leaderboardPage } from "./leaderboard.js";
import { profilePage } from "./profile.js";

// The texts of index.html in the reader's language (the file keeps their English, for a
// browser without scripts), before any page is drawn: the pages find the site's links by
// their text (setWhere).
function shellTexts() {
  const say = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = text; };
  // TRANSLATORS: the header's link to the home page, where a game is set up
  say("play-nav", pt("site navigation", "Play"));
  say("lobby-nav", t("Lobby"));
  say("learn-nav", t("Learn"));
  say("puzzles-nav", t("Puzzles"));
  say("practice-nav", t("Practice"));
  say("leaderboard-nav", t("Leaderboard"));
  // TRANSLATORS: the header's link to the score keeper of a game on a real board
  say("keep-nav", t("Keep score"));
  // TRANSLATORS: the header's link to the tournaments (Swiss, round robin, arena)
  say("tournaments-nav", t("Tournaments"));
  // TRANSLATORS: the button that opens the site's links and settings on a phone
  say("menu", t("Menu"));
  say("theme", t("Dark mode"));
  say("sound", t("Sound"));
  say("lang-label", t("Language"));
  const site = document.querySelector("header nav.site");
  // TRANSLATORS: the name screen readers give the site's navigation (Lobby, Leaderboard)
  if (site) site.setAttribute("aria-label", t("Site"));
  const loading = app.querySelector("p");
  if (loading) loading.textContent = t("Loading…");
}

// The language switch in the header: every language offered, each named in itself; a
// choice is kept (a cookie) and the page drawn again in it.
function languageSwitch() {
  const pick = document.getElementById("lang-switch");
  if (!pick) return;
  const names = { ...LANGUAGES };
  if (!(lang in names)) names[lang] = lang;  // a language for tests (qps), shown as its code
  pick.replaceChildren(...Object.entries(names).map(([code, name]) => h("option", { value: code, lang: code, selected: code === lang }, name)));
  pick.value = lang;
  pick.addEventListener("change", () => { if (pick.value !== lang) chooseLanguage(pick.value); });
}

// On a narrow screen the header is one row: the brand and a Menu button that shows the
// site's links and the settings (a disclosure: aria-expanded; Esc or a link closes it).
function siteMenu() {
  const button = document.getElementById("menu"), header = document.querySelector("header");
  if (!button || !header) return;
  const show = open => { header.classList.toggle("open", open); button.setAttribute("aria-expanded", String(open)); };
  button.addEventListener("click", () => show(!header.classList.contains("open")));
  // Esc closes an open menu wherever the focus is (a page that loads late may have moved it).
  document.addEventListener("keydown", e => { if (e.key === "Escape" && header.classList.contains("open")) { show(false); button.focus(); } });
  document.addEventListener("click", e => { if (!header.contains(e.target)) show(false); });
}

shellTexts();
languageSwitch();
siteMenu();

const match = location.pathname.match(/^\/g\/([\w-]+)/);
const rules = location.pathname.match(/^\/rules\/([^/]+)$/);
const player = location.pathname.match(/^\/players\/([^/]+)$/);
const kept = location.pathname.match(/^\/keep(?:\/([\w-]+))?$/);  // issue 37: the score keeper
const contest = location.pathname.match(/^\/t\/([\w-]+)$/);  // issue 38: a tournament
if (match && new URLSearchParams(location.search).has("practice")) import("./practice.js").then(m => m.practicePanel(match[1]));  // issue 18
const printed = /^\/g\/[\w-]+\/print$/.test(location.pathname) || location.pathname === "/puzzles/print";  // issue 18: printable pages
(printed ? import("./print.js").then(m => match ? m.gamePrintPage(match[1]) : m.puzzleSetPage()) : match ? gamePage(match[1]) : rules ? rulesPage(decodeURIComponent(rules[1])) : location.pathname === "/learn" ? import("./learn.js").then(m => m.learnPage()) : location.pathname === "/practice" ? import("./practice.js").then(m => m.practicePage())
  : location.pathname === "/class" ? import("./class.js").then(m => m.classPage())  // issue 18: the class view
  : location.pathname === "/lobby" ? lobbyPage()
  : kept ? import("./keeper.js").then(m => m.keeperPage(kept[1]))
  : location.pathname === "/tournaments" ? import("./tournaments.js").then(m => m.tournamentsPage())
  : contest ? import("./tournaments.js").then(m => m.tournamentPage(contest[1]))
  : location.pathname === "/puzzles" ? import("./puzzles.js").then(m => m.puzzlesPage()) : location.pathname === "/leaderboard" ? leaderboardPage() : player ? profilePage(decodeURIComponent(player[1])) : home()).catch(e => { app.textContent = t("Error: {message}", { message: e.message }); });

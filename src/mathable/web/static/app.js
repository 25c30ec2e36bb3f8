// Mathable in the browser: no build step. Every rule is the server's; this page draws
// the view it receives and sends actions in notation (I8=12, end, pass, A=32...).
// It never asks which game it shows: a game's capabilities (/api/variants) say what to
// draw (surface, targets, columns), which actions exist and what a piece is called, and
// each view says what the seat may place (playable) and do now (available).
// This is the entry module: it starts the home page or a game page.

import { app } from "./core.js";
import { home } from "./home.js";
import { gamePage } from "./play.js";
import { lobbyPage } from "./lobby.js";
import "./prefs.js";
import "./account.js";
import { rulesPage } from "./rules.js";
import { leaderboardPage } from "./leaderboard.js";
import { profilePage } from "./profile.js";

const match = location.pathname.match(/^\/g\/([\w-]+)/);
const rules = location.pathname.match(/^\/rules\/([^/]+)$/);
const player = location.pathname.match(/^\/players\/([^/]+)$/);
(match ? gamePage(match[1]) : rules ? rulesPage(decodeURIComponent(rules[1])) : location.pathname === "/lobby" ? lobbyPage()
  : location.pathname === "/leaderboard" ? leaderboardPage() : player ? profilePage(decodeURIComponent(player[1])) : home()).catch(e => { app.textContent = "Error: " + e.message; });

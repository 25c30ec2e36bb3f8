"""The full-screen terminal game (Textual): every game of the family, people and bots.

The app only draws views and forwards actions: every rule is the engine's, and what to
draw and offer comes from the view and the game's capabilities (``game.game_type``), never
from asking which game it holds. A person picks a piece from the rack (keys 1-9 and 0, or
``,`` ``.`` to step through a long hand, or a click) and its legal targets light up; a
click or Enter on the cursor places it; notation typed in the command line (``I8=12``,
``A=32``) works too. With several people at one screen a cover hides the rack between
their turns. Computers think in a worker thread, so the screen never freezes. A person
in the game may resign (``R`` or typed ``resign``) and, before each player has moved,
abort (``A``, ``abort``): asked to confirm, then played like any action (local ruling
L1); the side panel marks a seat that left from the view's ``left``.

Every text a person typed (names, notation) is drawn as :class:`rich.text.Text`, never
as markup: ``[bold]Eve`` shows as typed (issue 12).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from contextvars import copy_context
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerState

from mathable.ai import Bot, seat_bots
from mathable.ai.analysis import analysis_report
from mathable.ai.hints import hints
from mathable.cli.hotseat import (
    LEAVING_WORDS,
    LEFT_MARKS,
    challenge_request,
    explain_cell,
    leave_question,
    leave_request,
    leaving_open,
    left_names,
    left_text,
    over_text,
)
from mathable.engine import records
from mathable.engine.actions import Action, Exchange, Place, Shake, action_kind
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, HouseRules, View
from mathable.games.registry import new_game
from mathable.i18n import (
    _,
    command_name,
    lazy,
    lazy_context,
    ngettext,
    pgettext,
    typed_command,
)
from mathable.render import panels
from mathable.render.surface import Surface

from .rules import by_piece, placement_example, worded
from .screens import (
    CoverScreen,
    ExchangeScreen,
    GameChoice,
    HelpScreen,
    Key,
    NewGameScreen,
    QuestionScreen,
    ReplayScreen,
    TableScreen,
    bindings,
    bot_name,
    speak_keys,
    styled,
)

CSS_PATH = Path(__file__).with_name("app.tcss")

KEYWORD_ACTIONS = (
    "end",
    "pass",
    "challenge",
    "stop",
    "accept",
    "decline",
    "draw",
    "penalty",
    "diago",
)
"""The actions a key plays at once, by their notation keyword (``act('pass')``)."""

ANSWERS = ("accept", "decline")
"""Answers to a pending proposal (J4's stop, C12's game-ending turn): their keys are
offered only while the view makes them available."""

TILE = 5
"""Characters per rack piece: four for the value, one space."""
MIN_WIDTH = 80
"""The narrowest terminal for any game: the key bar needs it."""
SIDE_MIN = 16
"""The narrowest side panel (scores, player card, moves), its border included."""
BELOW_BOARD = 7
PACE = 0.3
"""Seconds between the computer's placements, unless the player chooses (``--pace``)."""
PACES = (0.0, 0.3, 0.6, 1.0, 2.0)
"""The paces the ``v`` key steps through."""
"""Lines under the board at the smallest size: a rack line, the command line, four
message lines (turns, message, status) and the key bar."""


def shown(text: object) -> str:
    """A typed string (or a text of the engine, in the current language) as it can be
    drawn on one line: control characters (which a terminal would obey, not show) written
    as escapes; everything else, brackets included, as is."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) == "Cc" else ch
        for ch in str(text)
    )


def fresh_path(stem: str) -> Path:
    """``stem.json`` in the working folder, or ``stem-2.json``... if that one exists: a
    first save never overwrites another game's file (later saves go to the same one)."""
    path, number = Path(f"{stem}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}.json")
    return path


def _taken_back(game: Game) -> bool:
    """Whether an undo has something to take back: an action that is not a shake of the
    bag (ruling O5: shakes are never taken back)."""
    return any(not isinstance(action, Shake) for action in game.log)


def owner(name: str, piece: str) -> str:
    """Whose pieces the rack line shows: ``Ann's rack``, ``Your hand`` (for a player
    called You), one message each, as languages say it in their own order."""
    if name.strip().casefold() == "you":
        return by_piece(
            piece, token=lazy("Your rack"), tile=lazy("Your rack"), card=lazy("Your hand")
        )
    name = shown(name)
    # translated with the name first, then the word ("{name} : chevalet"): no article
    # or preposition that a name would have to agree with ("de Ann", issue 33)
    return by_piece(
        piece,
        # TRANSLATORS: the rack line's label. Put the name first, then a colon and the
        # word, so that no name needs an elision or an article: "{name} : chevalet"
        token=lazy_context("rack line", "{name}'s rack", name=name),
        tile=lazy_context("rack line", "{name}'s rack", name=name),
        # TRANSLATORS: the label of a player's hand of cards. Put the name first, then a
        # colon and the word, so no name needs an elision: "{name} : main"
        card=lazy_context("rack line", "{name}'s hand", name=name),
    )


def unit_word(unit: str) -> str:
    """The scores' column heading, in the current language: points, or rounds won in a
    match (the same messages as :data:`mathable.render.panels` shows)."""
    if unit == "rounds":
        # TRANSLATORS: a column heading of the scores: rounds won (Mathable Quattro)
        return pgettext("column", "rounds")
    # TRANSLATORS: a column heading of the scores: points scored
    return pgettext("column", "points") if unit == "points" else unit


def fit(text: str | Text, width: int) -> Text:
    """``text`` on one line of at most ``width`` cells, cut with an ellipsis if it must."""
    out = text.copy() if isinstance(text, Text) else Text(shown(text))
    out.no_wrap = True
    if out.cell_len > width:
        out.truncate(max(width, 1), overflow="ellipsis")
    return out


def card_text(unseen: Mapping[int, int]) -> Text:
    """C13's player card, whole in a narrow side panel: a run of three values or more,
    next to each other in the set and each unseen as many times, is written from its
    first to its last (``1…3×6``, ``16…90``: every value of the set from 16 to 90 once);
    ``m`` shows the card value by value (issue 33)."""
    # TRANSLATORS: the player card (C13): the values of the pieces not seen yet follow
    text = Text(_("unseen:") + " ", style="bold")
    runs: list[list[int]] = []  # [first, last, count, length]
    for value, count in unseen.items():
        if runs and count and runs[-1][2] == count:
            runs[-1][1] = value
            runs[-1][3] += 1
        else:
            runs.append([value, value, count, 1])
    parts: list[str] = []
    for first, last, count, length in runs:
        if not count:
            continue
        times = f"×{count}" if count > 1 else ""
        if length >= 3:
            parts.append(f"{first}…{last}{times}")
        else:
            between = [v for v in unseen if first <= v <= last]
            parts += [f"{v}{times}" for v in between]
    # TRANSLATORS: the player card (C13) when every piece has been seen
    text.append(" ".join(parts) if parts else pgettext("unseen", "none"))
    return text


@dataclass(frozen=True)
class ScoreBoard:
    """Every player's name and score (and rack size), fitted to the width it is drawn in:
    one line a player when the names fit, else the name on a line of its own above the
    numbers, cut with an ellipsis only when even that line is too narrow (the move list,
    ``m``, and the cover show full names)."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    to_move: int | None
    rack_sizes: tuple[int, ...]
    unit: str
    rack_word: str
    left: tuple[str, ...] = ()
    """Per seat, why it left ("" while in): marked after its name, ``(resigned)``."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))

    def lines(self, width: int) -> list[Text]:
        """The panel as lines of at most ``width`` cells."""
        scores = [str(s) for s in self.scores]
        sizes = [str(n) for n in self.rack_sizes]
        score_w = max(len(self.unit), *map(len, scores))
        size_w = max(len(self.rack_word), *map(len, sizes))
        marks_left = [
            # TRANSLATORS: beside a player's name in the scores: the player left the game
            f" ({LEFT_MARKS.get(why) or _('left')})" if why else ""
            for why in (self.left or ("",) * len(self.players))
        ]
        names_w = max(
            cell_len(shown(p)) + len(m) for p, m in zip(self.players, marks_left, strict=True)
        )
        room = width - 2 - 1 - score_w - 1 - size_w
        marks = ["▶ " if seat == self.to_move else "  " for seat in range(len(self.players))]
        out: list[Text] = []
        if room >= min(names_w, 12):
            name_w = min(names_w, room)
            player = pgettext("column", "player")
            head = f"  {player:<{name_w}} {self.unit:>{score_w}} {self.rack_word:>{size_w}}"
            out.append(fit(Text(head, style="bold"), width))
            for seat, name in enumerate(self.players):
                line = Text(marks[seat])
                line.append_text(self._label(name, marks_left[seat], name_w))
                line.pad_right(name_w - line.cell_len + 2)
                line.append(f" {scores[seat]:>{score_w}} {sizes[seat]:>{size_w}}")
                out.append(fit(line, width))
            return out
        out.append(fit(Text(f"{self.unit} · {self.rack_word}", style="bold"), width))
        for seat, name in enumerate(self.players):
            label = self._label(name, marks_left[seat], max(width - 2, 1))
            out.append(fit(Text(marks[seat]) + label, width))
            out.append(fit(f"  {scores[seat]} · {sizes[seat]}", width))
        return out

    @staticmethod
    def _label(name: str, mark: str, width: int) -> Text:
        """A name cut to ``width`` with its mark of a seat that left kept whole after it
        (while there is room for a few letters of the name)."""
        if not mark or width - len(mark) < 4:
            return fit(name + mark, width)
        return fit(name, width - len(mark)) + Text(mark, style="dim")


class SurfaceWidget(Static):
    """The board or the piles; clicks become targets."""

    can_focus = True

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MathableApp):
            app.board_clicked(event.x, event.y)


class RackView(Static):
    """The rack of the person at the screen, wrapped over as many lines as it needs; a
    click picks a piece."""

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MathableApp):
            app.rack_clicked(event.x, event.y)


class CommandLine(Input):
    """The line notation is typed in, every key taken in the order it came (issue 33).
    Textual runs a field's Enter, Backspace or arrows only once the key has gone round
    the app, after the letters typed since: typed fast, ``:F7=2⏎:F8=7⏎`` was sent as
    ``F7=2:F8=7``. Here they act at once, Enter empties the line as it sends it, and
    the board gets the keys back only once the app has read what was sent, if nothing
    was typed meanwhile (:meth:`MathableApp.on_input_submitted`)."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return
        await super()._on_key(event)

    async def action_submit(self) -> None:
        typed = self.value
        self.value = ""
        self.post_message(self.Submitted(self, typed))


class MathableApp(App[None]):
    """Mathable in the terminal."""

    TITLE = "Mathable"
    CSS_PATH = str(CSS_PATH)
    ENABLE_COMMAND_PALETTE = False
    KEYS: ClassVar[tuple[Key, ...]] = (
        Key("question_mark", "help", lazy_context("key", "Help")),
        Key("y", "act('accept')", lazy_context("key", "Accept")),
        Key("n", "act('decline')", lazy_context("key", "Decline")),
        Key("e", "act('end')", lazy_context("key", "End turn")),
        Key("p", "act('pass')", lazy_context("key", "Pass")),
        Key("x", "exchange", lazy_context("key", "Exchange")),
        # TRANSLATORS: Mathable Quattro's DIAGO call, usually kept as it is
        Key("d", "act('diago')", lazy_context("key", "DIAGO")),
        Key("w", "act('draw')", lazy_context("key", "Draw")),
        Key("n", "act('penalty')", lazy_context("key", "Penalty")),
        Key("c", "act('challenge')", lazy_context("key", "Challenge")),
        Key("t", "act('stop')", lazy_context("key", "Propose stop")),
        Key("h", "hint", lazy_context("key", "Hint")),
        Key("R", "leave('resign')", lazy_context("key", "Resign")),
        Key("A", "leave('abort')", lazy_context("key", "Abort")),
        # TRANSLATORS: a key that chooses the next piece of a long rack or hand
        Key("full_stop", "step_piece(1)", lazy_context("key", "Next")),
        Key("comma", "step_piece(-1)", lazy_context("key", "Previous"), show=False),
        # checked first, so a key typed right after it goes to the command line
        Key("colon,slash", "command", lazy_context("key", "Type"), show=False, priority=True),
        Key("u", "undo", lazy_context("key", "Undo"), show=False),
        # in the help, not the key bar: q saves too, and the bar fits 80 columns in
        # every language (issue 33)
        Key("s", "save", lazy_context("key", "Save"), show=False),
        Key("r", "replay", lazy_context("key", "Replay"), show=False),
        Key("a", "analysis", lazy_context("key", "Analysis"), show=False),
        Key("m", "moves", lazy_context("key", "Moves"), show=False),
        Key("up", "cursor(0,-1)", show=False),
        Key("down", "cursor(0,1)", show=False),
        Key("left", "cursor(-1,0)", show=False),
        Key("right", "cursor(1,0)", show=False),
        Key("enter", "place_at_cursor", lazy_context("key", "Place"), show=False),
        # TRANSLATORS: a key that changes how fast the computer's placements are shown
        Key("v", "pace", lazy_context("key", "Pace"), show=False),
        Key("q", "quit_game", lazy_context("key", "Quit")),
        *(Key(str(k), f"pick({k})", show=False) for k in range(1, 10)),
        Key("0", "pick(10)", show=False),
        # Textual's own Ctrl+Q quits at once and its Ctrl+C only says (in English) to
        # press Ctrl+Q: both ask first here, and save (issue 33), from every screen
        Key("ctrl+q,ctrl+c", "ask_quit", lazy_context("key", "Quit"), show=False, priority=True),
    )
    """The keys, described in the reader's language when the app is made."""
    BINDINGS: ClassVar[list[BindingType]] = bindings(KEYS)
    GAME_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        key.action.partition("(")[0] for key in KEYS if key.action != "ask_quit"
    )
    """The actions of the game screen's keys: offered only while it is the screen in
    front (a replay, the help or a question owns its keys, issue 33)."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        save_path: Path | None = None,
        bot_delay: float = PACE,
        seed: int | None = None,
        variant: str | None = None,
        house_rules: HouseRules | None = None,
        levels: Mapping[int, str] | None = None,
    ) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.game: Game | None = game
        self.first_choice = (variant, house_rules)
        """The game and house rules the new-game screen first shows (from the CLI)."""
        self.bots: dict[int, Bot] = seat_bots(game.players, seed, levels) if game else {}
        self.save_path = save_path
        self.bot_delay = max(bot_delay, 0.0)
        """Seconds between the computer's placements (``v`` changes it; 0: at once)."""
        self.farewell = ""
        """What is printed once the app has closed: where the game was saved."""
        self.quitting = False
        """Whether the question to save and quit is open (a second Ctrl+C answers yes)."""
        self.bot_seed = seed
        self.selected: int | None = None
        """The value of the chosen piece."""
        self.selected_index: int | None = None
        """Where the chosen piece lies in the rack (values may repeat)."""
        self.cursor = 0
        self.covered_for: int | None = None
        self.message = Text("")
        self.marks: dict[int, str] = {}
        self.waiting_cover = False
        self.widgets: dict[str, Static] = {}
        self.parts: list[Widget] = []
        """What the game screen shows, hidden together when the terminal is too small."""
        self.available: frozenset[str] = frozenset()
        """What the person at the screen may do now (the view's ``available``)."""
        self.notes: tuple[str, ...] = ()
        """The notes drawn under the targets now (they change where clicks land)."""
        self.thinking: int | None = None
        """The computer seat whose move is being worked out, if any."""
        self.bot_actions: list[str] = []
        """The actions of the computer turn under way, as notation (shown one by one)."""
        self.asked: tuple[Worker[Action], int, tuple[Action, ...]] | None = None
        """The computer's move being worked out: its worker, seat and the log it saw."""
        self.bot_seat: int | None = None
        """The computer whose turn is under way (its actions so far in ``bot_actions``)."""

    @property
    def surface(self) -> Surface:
        """How the game in play lays out its targets."""
        assert self.game is not None
        return Surface(self.game.game_type)

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield SurfaceWidget(id="board")
            with Vertical(id="side"):
                yield Static(id="status")
                yield Static(id="card")
                with VerticalScroll(id="moves-box", can_focus=False):
                    yield Static(id="moves")
        yield RackView(id="rack")
        yield CommandLine(placeholder=_("type a move… (: to type, ? help)"), id="command")
        yield Static(id="message")
        yield Static(id="too-small")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.widgets = {
            name: self.query_one(f"#{name}", Static)
            for name in ("board", "rack", "message", "status", "card", "moves", "too-small")
        }
        self.parts = [self.query_one(f"#{name}") for name in ("main", "rack", "command", "message")]
        self.parts.append(self.query_one(Footer))
        if self.game is None:
            variant, house_rules = self.first_choice
            screen = NewGameScreen(variant=variant, house_rules=house_rules)
            self.push_screen(screen, self.start_game)
        else:
            self._begin()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_all)

    def start_game(self, choice: GameChoice | None) -> None:
        """Create the game chosen on the new-game screen."""
        if choice is None:
            self.exit()
            return
        names = [bot_name(n, k) for n, k in zip(choice.names, choice.kinds, strict=True)]
        try:
            game = new_game(
                choice.variant,
                names,
                seed=choice.seed,
                house_rules=choice.house_rules,
                rounds=choice.rounds,
            )
            bots = seat_bots(game.players, choice.seed)
        except (ValueError, MathableError) as exc:
            self.push_screen(NewGameScreen(choice, error=str(exc)), self.start_game)
            return
        self.game = game
        self.bots = bots
        self._begin()

    def _begin(self) -> None:
        game = self.game
        assert game is not None
        self.cursor = self.surface.start()
        example = placement_example(game.game_type)
        command = self.query_one("#command", Input)
        command.placeholder = _("type {example}… (: to type, ? help)", example=example)
        notice = game.view(None).notice
        if notice and not game.log:
            self.say(str(notice))
        self.widgets["board"].focus()
        self.refresh_all()
        self.next_turn()

    # -- whose turn ----------------------------------------------------------------

    @property
    def people(self) -> list[int]:
        """The people still in the game (local ruling L1: a seat that left is out)."""
        assert self.game is not None
        return [s for s in self.game.seats_in if s not in self.bots]

    def leaving_seat(self) -> int | None:
        """The person at the screen who may leave the game: the one whose rack is
        shown, else the only person still in (a computer may be thinking)."""
        seat = self.viewer()
        if seat is None and len(self.people) == 1:
            seat = self.people[0]
        return seat

    def challenging_seat(self) -> int | None:
        """Who a bare ``challenge`` (the ``c`` key) is for: the person at the screen,
        else the person to move (C12: any opponent may name a seat, ``challenge 2``)."""
        seat = self.leaving_seat()
        if seat is None and self.game is not None and self.game.to_move not in self.bots:
            seat = self.game.to_move
        return seat

    def viewer(self) -> int | None:
        """Whose rack is shown: the person to move once uncovered; with one person at
        the screen, that person always; otherwise nobody."""
        game = self.game
        assert game is not None
        if game.is_over:
            return None
        seat = game.to_move
        if seat not in self.bots and (len(self.people) == 1 or self.covered_for == seat):
            return seat
        if len(self.people) == 1:
            return self.people[0]
        return None

    def next_turn(self) -> None:
        """Let a bot move, or cover the screen for the next person."""
        game = self.game
        if game is None:
            return
        if game.is_over:
            self.thinking = None
            self.say(_("{result} (a: analysis, r: replay)", result=shown(over_text(game))))
            self.refresh_all()
            return
        seat = game.to_move
        if seat in self.bots:
            if self.thinking is None:
                self.thinking = seat
                self.refresh_all()
                self.set_timer(max(self.bot_delay, 0.001), self.bot_step)
        elif len(self.people) > 1 and self.covered_for != seat and not self.waiting_cover:
            self.waiting_cover = True
            self.refresh_all()
            self.push_screen(CoverScreen(game.players[seat]), self._uncovered)

    def _uncovered(self, _: None) -> None:
        assert self.game is not None
        self.waiting_cover = False
        self.covered_for = self.game.to_move
        self.refresh_all()

    def bot_step(self) -> None:
        """Ask the computer to move, in a worker thread (a strong search takes time and
        must not freeze the screen); :meth:`on_worker_state_changed` plays its answer."""
        game = self.game
        if game is None or game.is_over or game.to_move not in self.bots:
            self.thinking = None
            self.refresh_all()
            return
        seat = game.to_move
        self.thinking = seat
        # the computer thinks in a thread: in the app's language, should it say anything
        work = partial(copy_context().run, self.bots[seat].act, game.view(seat))
        worker = self.run_worker(
            work, name="computer", group="bot", thread=True, exclusive=True, exit_on_error=False
        )
        self.asked = (worker, seat, game.log)
        self.refresh_all()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A computer's answer: played if the game still stands where it was asked."""
        worker = event.worker
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if self.asked is None or self.asked[0] is not worker:
            return
        _worker, seat, log = self.asked
        self.asked = None
        game = self.game
        self.thinking = None
        if game is None or game.is_over or game.log != log:
            self.next_turn()  # the game moved on meanwhile (an undo, a challenge)
            return
        action = worker.result
        if event.state == WorkerState.ERROR or not isinstance(action, Action):
            name = shown(game.players[seat])
            self.say(_("{name} could not move: {error}", name=name, error=worker.error), error=True)
            self.refresh_all()
            return
        try:
            game.apply(action)
        except MathableError as exc:
            name = shown(game.players[seat])
            self.say(_("{name} was refused: {error}", name=name, error=exc), error=True)
            self.refresh_all()
            return
        if self.bot_seat != seat:
            self.bot_actions = []
        self.bot_actions.append(worded(game.format_action(action)))
        self.bot_seat = seat
        if game.to_move != seat or game.is_over:
            self.bot_seat, self.bot_actions = None, []  # finished: its summary says it all
        self.after_action()

    # -- acting ----------------------------------------------------------------------

    def human_seat(self) -> int | None:
        game = self.game
        if game is None or game.is_over or game.to_move in self.bots:
            return None
        if self.viewer() != game.to_move:
            return None
        return game.to_move

    def play_text(self, text: str) -> bool:
        """Play an action typed in the notation (``I8=12``, ``A=32``, ``pass``); a typed
        ``resign`` or ``abort`` is asked to confirm first."""
        game = self.game
        if game is None:
            return False
        if text.split()[:1] and text.split()[0].lower() in LEAVING_WORDS:
            self.leave_typed(text)
            return False
        if text.split()[:1] and text.split()[0].lower() == "explain":  # issue 18: explain I8
            lines, refused = explain_cell(game, game.view(self.viewer()), text.partition(" ")[2])
            self.say("\n".join(lines), error=refused)
            return False
        if text.split()[:1] and text.split()[0].lower() == "challenge":  # C12: any opponent
            request = challenge_request(game, text, self.challenging_seat(), self.bots)
            if isinstance(request, str):
                self.say(_("Refused: {reason}", reason=request), error=True)
                return False
            finished = game.summaries()
            if not self.play(request):
                return False
            assert request.by is not None and finished  # of the last finished turn
            by, maker = game.players[request.by], game.players[finished[-1].seat]
            self.say(
                _(
                    "{name} challenged: {maker}'s turn is cut short at its first mistake",
                    name=shown(by),
                    maker=shown(maker),
                )
            )
            return True
        turn = self._whole_turn(text)
        if turn:
            for place in turn:
                if not self.play(place):  # refused with its reason: the rest not tried
                    return False
            self.say(" ".join(worded(game.format_action(place)) for place in turn))
            return True
        try:
            action = game.parse_action(text)
        except MathableError as exc:
            self.say(_("Refused: {reason}", reason=exc), error=True)
            return False
        return self.play(action)

    def _whole_turn(self, text: str) -> list[Place]:
        """A whole turn typed on one line, placements apart by spaces or commas
        (``F7=2 F8=7``, ``F7=2,F8=7``), as the move list writes turns; empty unless it
        holds two placements or more, each as the game reads one (issue 33)."""
        assert self.game is not None
        words = [word for word in re.split(r"[\s,]+", text) if word]
        if len(words) < 2:
            return []
        places: list[Place] = []
        for word in words:
            try:
                action = self.game.parse_action(word)
            except MathableError:
                return []  # not a turn: read as one action, refused with its reason
            if not isinstance(action, Place):
                return []
            places.append(action)
        return places

    def play(self, action: Action) -> bool:
        """Apply a person's action; an illegal one is refused with the rule, nothing
        changed."""
        game = self.game
        if game is None:
            return False
        # any person may challenge the turn just ended (C12); the rest waits for one's turn
        if action_kind(action) != "challenge" and self.human_seat() is None:
            self.say(_("It is not your turn."), error=True)
            return False
        try:
            game.apply(action)
        except MathableError as exc:
            self.say(_("Refused: {reason}", reason=exc), error=True)
            self.refresh_all()
            return False
        self.say(worded(game.format_action(action)))
        self.after_action()
        return True

    def action_leave(self, keyword: str) -> None:
        """``R`` (resign) or ``A`` (abort) for the person at the screen."""
        self.leave_typed(keyword)

    def leave_typed(self, line: str) -> None:
        """A person leaves (``resign``) or calls the game off (``abort``), for the seat at
        the screen or the seat or name typed after the word: refused with the reason
        when the engine does not allow it, else asked to confirm, then played (L1)."""
        game = self.game
        if game is None:
            return
        request = leave_request(game, line, self.leaving_seat(), self.bots)
        if isinstance(request, str):
            self.say(_("Refused: {reason}", reason=request), error=True)
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.say(_("Play goes on."))
                return
            try:
                game.apply(request)
            except MathableError as exc:
                self.say(_("Refused: {reason}", reason=exc), error=True)
                return
            self.say(f"{shown(left_text(game, request))}.")
            if request.seat == self.covered_for:
                self.covered_for = None  # the next person's rack waits behind the cover
            self.after_action()

        self.push_screen(QuestionScreen(shown(leave_question(game, request))), answered)

    def after_action(self) -> None:
        self.selected = self.selected_index = None
        self.marks = {}
        self.refresh_all()
        self.next_turn()

    def say(self, text: str | Text, *, error: bool = False) -> None:
        """Show a message under the board (``text`` is never read as markup)."""
        message = text.copy() if isinstance(text, Text) else Text(text)
        if error:
            message.stylize("bold red")
        self.message = message
        if self.widgets and self.game is not None:
            self.refresh_all()

    # -- input events ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the game's own actions only, and only while they are open now (the
        view's ``available``): the key bar lists what the person may do. Answers to a
        proposal (accept, decline) appear only while one is pending."""
        game = self.game
        if action not in self.GAME_ACTIONS:  # Textual's own (Tab, Esc) and Ctrl+Q
            return True
        if game is None or len(self.screen_stack) > 1:  # another screen owns the keys
            return False
        if action == "command":  # a ':' typed in the command line is typed there
            return self.focused is not self.query_one("#command")
        if action == "hint":  # while one plays (off by the house rule, it says so)
            return not game.is_over
        if action == "step_piece":  # shown only for a hand too long for the digit keys
            return len(self._playable()) > 9
        if action == "leave" and parameters:  # resign, abort: only while open (L1)
            return str(parameters[0]) in leaving_open(game, self.leaving_seat())
        if action == "act" and parameters:
            keyword = str(parameters[0])
        elif action == "exchange":
            keyword = "exchange"
        else:
            return True
        if keyword in ANSWERS:
            return keyword in self.available
        # hidden unless open now: the key bar lists what may be done (and fits 80 columns)
        return game.game_type.has(keyword) and keyword in self.available

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            return
        if not event.input.value:  # nothing typed since: the keys go back to the board
            self.screen.set_focus(self.widgets["board"])
        # a ':' typed fast before the line was sent is left out; end, pass... are read
        # in the reader's language
        text = typed_command(event.value.strip().lstrip(":/").strip())
        if text:
            self.play_text(text)

    def action_command(self) -> None:
        """``:`` or ``/``: the command line takes the keys typed next, at once (a later
        focus, as ``focus()`` makes, let fast typing reach the board: issue 33)."""
        self.screen.set_focus(self.query_one("#command", Input))

    def action_act(self, keyword: str) -> None:
        """Play the keyword action ``keyword`` (``pass``, ``end``, ``diago``...)."""
        if keyword in KEYWORD_ACTIONS:
            self.play_text(keyword)

    def action_pick(self, index: int) -> None:
        self.pick_token(index - 1)

    def action_step_piece(self, delta: int) -> None:
        """Choose the next (or previous) piece of the rack: every piece of a long hand
        is reachable from the keyboard."""
        count = len(self._playable())
        if not count:
            return
        if self.selected_index is None:
            index = 0 if delta > 0 else count - 1
        else:
            index = (self.selected_index + delta) % count
        self.pick_token(index)

    def _playable(self) -> tuple[int, ...]:
        seat = self.human_seat()
        if seat is None or self.game is None:
            return ()
        return self.game.view(seat).playable

    def _per_line(self) -> int:
        """Rack pieces per line at the present width."""
        return max(1, self.size.width // TILE)

    def rack_clicked(self, x: int, y: int = 0) -> None:
        column, offset = divmod(x, TILE)
        if offset < TILE - 1 and column < self._per_line():
            self.pick_token(y * self._per_line() + column)

    def pick_token(self, index: int) -> None:
        """Choose the rack's ``index``-th piece and light up where it may go."""
        rack = self._playable()
        game = self.game
        if game is None or not 0 <= index < len(rack):
            return
        value = rack[index]
        self.selected, self.selected_index = value, index
        targets = self._legal_targets(value)
        self.marks = {t: str(value) for t in targets}
        names = [game.game_type.targets[t].name for t in targets]
        count = len(names)
        listed = ", ".join(names) if 0 < count <= 4 else ""
        if self.surface.cards:
            if listed:
                where = ngettext(
                    "{count} legal pile: {names}",
                    "{count} legal piles: {names}",
                    count,
                    names=listed,
                )
            else:
                where = ngettext("{count} legal pile", "{count} legal piles", count)
            self.say(
                _(
                    "{value} chosen: {where}. Click a pile, or move the cursor and press Enter.",
                    value=value,
                    where=where,
                )
            )
            return
        if listed:
            where = ngettext(
                "{count} legal cell: {names}", "{count} legal cells: {names}", count, names=listed
            )
        else:
            where = ngettext("{count} legal cell", "{count} legal cells", count)
        self.say(
            _(
                "{value} chosen: {where}. Click a cell, or move the cursor and press Enter.",
                value=value,
                where=where,
            )
        )

    def _legal_targets(self, value: int) -> list[int]:
        """The targets a piece ``value`` may be placed on now."""
        assert self.game is not None
        cells: set[int] = set()
        for action in self.game.legal_actions():
            match action:
                case Place(cell=cell, value=placed) if placed == value:
                    cells.add(cell)
        return sorted(cells)

    def board_clicked(self, x: int, y: int) -> None:
        if self.game is None:
            return
        target = self.surface.target_at(x, y, self.notes)
        if target is not None:
            self.cursor = target
            self.action_place_at_cursor()

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.game is None:
            return
        self.cursor = self.surface.moved(self.cursor, dx, dy)
        self.refresh_all()

    def action_place_at_cursor(self) -> None:
        game = self.game
        if game is None or self.selected is None:
            if game is not None and self.human_seat() is not None:
                self.say(
                    by_piece(
                        game.game_type.piece,
                        token=lazy("Choose a token first (1-9, 0, . or click it)."),
                        tile=lazy("Choose a tile first (1-9, 0, . or click it)."),
                        card=lazy("Choose a card first (1-9, 0, . or click it)."),
                    )
                )
            return
        place = Place(self.cursor, self.selected)
        if game.game_type.has("extra") and "extra" in self.available:
            extra = Place(place.cell, place.value, True)
            placements = game.legal_placements()
            if place in placements and extra in placements:
                target = game.game_type.targets[place.cell]
                cell = target.name
                if target.kind == "restriction":
                    question = by_piece(
                        game.game_type.piece,
                        token=lazy(
                            "{cell} is a restriction square: take the extra token now? (rule C7)",
                            cell=cell,
                        ),
                        tile=lazy(
                            "{cell} is a restriction square: take the extra tile now? (rule C7)",
                            cell=cell,
                        ),
                    )
                else:
                    question = by_piece(
                        game.game_type.piece,
                        token=lazy("{cell}: take the extra token now? (rule C7)", cell=cell),
                        tile=lazy("{cell}: take the extra tile now? (rule C7)", cell=cell),
                    )

                def answered(yes: bool | None) -> None:
                    self.play(extra if yes else place)

                self.push_screen(QuestionScreen(question), answered)
                return
        self.play(place)

    def action_exchange(self) -> None:
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return

        def chosen(values: tuple[int, ...] | None) -> None:
            if values:
                self.play(Exchange(values))

        kind = game.game_type
        screen = ExchangeScreen(game.view(seat).rack, kind.exchange_exactly, kind.piece)
        self.push_screen(screen, chosen)

    def action_undo(self) -> None:
        game = self.game
        if game is None:
            return
        before = self.viewer()
        try:
            game.undo()
            while game.to_move in self.bots and not game.is_over and _taken_back(game):
                game.undo()  # take back the bots' replies too, back to a person
            game.apply(Shake.fresh())  # O5: what was drawn is back in the bag, shaken
        except MathableError as exc:
            self.say(str(exc), error=True)
            return
        self.say(_("Taken back."))
        self.selected = self.selected_index = None
        self.marks = {}
        if game.to_move != before:  # another person's turn again: cover their rack first
            self.covered_for = None
        self.refresh_all()
        self.next_turn()

    def action_hint(self) -> None:
        """The best turns for the person to move, found from that person's view; only
        when the hints house rule is on (O2)."""
        game = self.game
        if game is None:
            return
        if not game.house_rules.hints:
            self.say(_("Hints are off in this game (house rule, O2)."), error=True)
            return
        seat = self.human_seat()
        if seat is None:
            self.say(_("Hints are for the player to move, on their turn."), error=True)
            return
        view = game.view(seat)
        found = hints(view)
        if not found:
            others = [k for k in view.available if k not in ("place", "extra", "challenge")]
            # TRANSLATORS: a hint when there is nothing to place and nothing to do
            what = command_name(others[0]) if others else pgettext("hint", "wait")
            for other in others[1:]:
                # TRANSLATORS: two commands to choose from (each may be a list of them)
                what = pgettext(
                    "hint", "{first} or {second}", first=what, second=command_name(other)
                )
            self.say(_("Hint: nothing to place; {what}.", what=what))
            return
        marks: dict[int, str] = {}
        for action in found[0].actions:
            match action:
                case Place(cell=cell, value=value):
                    marks[cell] = str(value)
        self.marks = marks or {cell: "?" for cell in found[0].cells}
        turns = "; ".join(
            worded(h.notation) if h.points is None else f"{worded(h.notation)} ({h.points})"
            for h in found
        )
        self.say(_("Hint: {turns}", turns=turns))

    def _save_target(self) -> Path:
        """Where the game is saved: the file it was resumed from or first saved to."""
        assert self.game is not None
        return self.save_path or fresh_path(f"mathable-{self.game.name}-{self.game.seed}")

    def _worth_saving(self) -> bool:
        """Whether the game holds anything a quit would lose: an action that is not a
        shake of the bag, finished games (a resignation) included."""
        return self.game is not None and _taken_back(self.game)

    def action_save(self) -> bool:
        """Save the game, and say to which file (and how to resume it)."""
        game = self.game
        if game is None:
            return False
        path = self._save_target()
        try:
            levels = {seat: bot.name for seat, bot in self.bots.items()}
            path.write_text(records.dumps(game, levels), encoding="utf-8")
        except OSError as exc:
            self.say(_("Cannot save: {error}", error=exc), error=True)
            return False
        self.save_path = path
        self.farewell = _("Saved to {path}; resume with: mathable play --resume {path}", path=path)
        self.say(self.farewell)
        return True

    def action_replay(self) -> None:
        if self.game is not None:
            self.push_screen(ReplayScreen(self.game))

    def action_help(self) -> None:
        if self.game is None:
            return
        leaving = leaving_open(self.game, self.leaving_seat())
        self.push_screen(HelpScreen(self.game.game_type, self.game.house_rules, leaving))

    def action_moves(self) -> None:
        """The scores with every full name, the racks left at the end, and every turn."""
        game = self.game
        if game is None:
            return
        view = game.view(None)
        kind = game.game_type
        table = panels.scores_table(
            tuple(shown(p) for p in left_names(view.players, view.left)),
            view.scores,
            None if view.over else view.to_move,
            view.rack_sizes,
            kind.score_unit,
            panels.holder(kind),
        )
        left = self._racks_left(view)
        parts: list[RenderableType] = [table, Text("")]
        if left:
            parts += [*left, Text("")]
        parts += [panels.player_card(view.unseen), Text(""), self._move_list(view)]
        self.push_screen(TableScreen(Group(*parts)))

    def action_analysis(self) -> None:
        game = self.game
        if game is None:
            return
        if not game.is_over:
            self.say(_("The analysis opens once the game is over (it shows every rack)."))
            return
        self.push_screen(TableScreen(panels.analysis_view(analysis_report(game))))

    def action_quit_game(self) -> None:
        """``q``: save (a finished or resigned game too), then close; the file's name is
        printed once the screen is gone. A save that fails keeps the game open."""
        if self._worth_saving() and not self.action_save():
            return
        self.exit()

    def action_ask_quit(self) -> None:
        """Ctrl+Q, Ctrl+C, Esc on the new-game screen: with a game to lose, ask (in the
        player's language) to save it and quit; a second Ctrl+C while asked says yes."""
        if not self._worth_saving():
            self.exit()
            return
        if self.quitting:
            self.action_quit_game()
            return
        self.quitting = True

        def answered(yes: bool | None) -> None:
            self.quitting = False
            if yes:
                self.action_quit_game()
            else:
                self.say(_("Play goes on."))

        question = _("Save the game to {path} and quit?", path=self._save_target())
        self.push_screen(QuestionScreen(question), answered)

    def action_pace(self) -> None:
        """``v``: the next pace of the computer's placements (0 shows them at once)."""
        later = [pace for pace in PACES if pace > self.bot_delay + 1e-9]
        self.bot_delay = later[0] if later else PACES[0]
        seconds = f"{self.bot_delay:g}"
        self.say(
            _("The computer's placements now come {seconds} s apart (v: change).", seconds=seconds)
        )

    # -- drawing -------------------------------------------------------------------

    def minimum_size(self) -> tuple[int, int]:
        """The smallest terminal the game in play is whole in: its surface beside the
        narrowest side panel, and the rack, command, message lines and key bar below."""
        assert self.game is not None
        drawing = self._surface_drawing(self.game.view(None))
        width = max((cell_len(line.plain) for line in drawing.split()), default=0)
        height = len(drawing.split())
        return max(width + SIDE_MIN, MIN_WIDTH), height + BELOW_BOARD

    def _surface_drawing(self, view: View) -> Text:
        """The surface and its legend as one text (the legend only if the game has one)."""
        surface = self.surface
        drawing = surface.draw(
            view.surface,
            recent=view.recent_targets,
            marks=self.marks,
            cursor=self.cursor if self.viewer() is not None else None,
            notes=view.target_notes,
        )
        legend = surface.legend()
        if legend.plain:
            drawing = drawing.copy()
            drawing.append_text(legend)
        drawing.rstrip()
        return drawing

    def _fit(self) -> bool:
        """Show the game, or a request to enlarge the terminal below its minimum size."""
        need_w, need_h = self.minimum_size()
        width, height = self.size
        small = width < need_w or height < need_h
        for part in self.parts:
            part.display = not small
        notice = self.widgets["too-small"]
        notice.display = small
        if small:
            notice.update(
                Text(
                    _(
                        "enlarge the terminal to at least {needed}\n(it is {size}; q quits)",
                        needed=f"{need_w}×{need_h}",
                        size=f"{width}×{height}",
                    ),
                    justify="center",
                )
            )
        return not small

    def refresh_all(self) -> None:
        game = self.game
        if game is None or not self.widgets or not self.widgets["board"].is_attached:
            return  # before the screen is built, or after it is gone (a late timer)
        if not self._fit():
            return
        seat = self.viewer()
        view = game.view(seat)
        self.available = frozenset(view.available)
        self.notes = view.target_notes
        self.widgets["board"].update(self._surface_drawing(view))
        rack = self._rack(view, seat)
        self.widgets["rack"].update(rack)
        board_lines = self.minimum_size()[1] - BELOW_BOARD
        # what the board, the rack, the command line and the key bar leave to messages
        room = self.size.height - board_lines - len(rack.split()) - 2
        self.widgets["message"].update(self._messages(view, room))
        self.widgets["status"].update(self._status(view))
        self.widgets["card"].update(card_text(view.unseen))
        self.widgets["moves"].update(self._move_list(view, newest_first=True))
        self.refresh_bindings()

    def _rack(self, view: View, seat: int | None) -> Text:
        """The pieces of the person at the screen, wrapped; the racks left once the game
        is over; else a word on why none is shown."""
        assert self.game is not None
        kind = self.game.game_type
        if view.over:
            left = self._racks_left(view)
            return Text("\n").join(left) if left else Text("")
        if seat is None:
            if self.waiting_cover:
                return Text(_("(the screen is covered)"), style="dim")
            # TRANSLATORS: under the board when nobody's rack is shown (computers play)
            return Text(_("(watching)"), style="dim")
        per_line = self._per_line()
        tiles = Text()
        for index, value in enumerate(view.playable):
            if index and index % per_line == 0:
                tiles.append("\n")
            chosen = index == self.selected_index
            tiles.append(
                f"{value:^{TILE - 1}}",
                style="bold black on yellow" if chosen else "bold black on white",
            )
            tiles.append(" ")
        whose = owner(view.players[seat], kind.piece)
        if len(view.playable) > 9:
            whose = _("{owner} (1-9, 0, then . and ,)", owner=whose)
        last = tiles.plain.rsplit("\n", 1)[-1]
        room = self.size.width - cell_len(last) - 1
        if cell_len(whose) > room:
            tiles.append("\n")
            room = self.size.width
        tiles.append_text(fit(Text(" " + whose, style="dim"), room))
        return tiles

    def _racks_left(self, view: View) -> list[Text]:
        """At the end: each player's pieces left and what they cost (C11), one line each."""
        assert self.game is not None
        kind = self.game.game_type
        if not view.open_racks or not any(view.open_racks):
            return []
        deducted = view.to_dict().get("deductions")
        lines = []
        for seat, rack in enumerate(view.open_racks):
            name = fit(view.players[seat], 24)
            if rack:
                pieces = " ".join(map(str, rack))
                line = styled(_("{name}: {pieces} left", pieces=pieces), name=name)
            else:
                line = styled(_("{name}: nothing left"), name=name)
            if isinstance(deducted, list) and seat < len(deducted) and kind.deducts_rack:
                line.append(f", −{deducted[seat]}", style="bold")
            lines.append(fit(line, max(self.size.width, 20)))
        return lines

    def _messages(self, view: View, lines: int) -> Text:
        """The message block, at most ``lines`` lines: the other players' turns since
        the person at the screen last played (every computer action), the last message,
        and the game's status with a thinking mark while a computer plays."""
        assert self.game is not None
        width = max(self.size.width, 20)
        status = Text()
        if view.status:
            status.append(str(view.status), style="bold")
        if self.thinking is not None:
            if status.plain:
                status.append("   ")
            name = shown(view.players[self.thinking])
            status.append(_("{name} is thinking…", name=name), style="italic")
        message = self.message.copy()
        message_lines = len(message.wrap(Console(width=width), width)) if message.plain else 0
        kept: list[Text] = []
        if status.plain:
            kept.append(fit(status, width))
        room = max(lines - len(kept), 0)
        if message.plain and message_lines <= room:
            room -= message_lines
        elif message.plain:
            message = fit(message, width)
            room -= 1
        turns = self._recent_turns(view)[-room:] if room > 0 else []
        block = [*turns, *([message] if message.plain else []), *kept]
        return Text("\n").join(block)

    def _recent_turns(self, view: View) -> list[Text]:
        """The turns played since the person at the screen last played, as the game
        writes them, and the actions of a computer turn under way."""
        assert self.game is not None
        kind = self.game.game_type
        width = max(self.size.width, 20)
        person = self.viewer()
        if person is None and not view.over and view.to_move not in self.bots:
            person = view.to_move
        mine = [i for i, t in enumerate(view.summaries) if t.seat == person]
        start = mine[-1] + 1 if mine else 0
        start = max(start, len(view.summaries) - len(view.players) + 1)
        out = [
            fit(panels.summary_text(view.players, turn, kind), width)
            for turn in view.summaries[start:]
        ]
        if self.bot_seat is not None and self.bot_actions:
            line = Text(shown(view.players[self.bot_seat]), style="bold")
            line.append(" " + " ".join(self.bot_actions) + " …")
            out.append(fit(line, width))
        return out

    def _status(self, view: View) -> RenderableType:
        """Every player's name and score (with rack sizes) and the bag."""
        assert self.game is not None
        kind = self.game.game_type
        board = ScoreBoard(
            view.players,
            view.scores,
            None if view.over else view.to_move,
            view.rack_sizes,
            unit_word(kind.score_unit),
            panels.holder(kind),
            view.left,
        )
        if kind.piece == "card":
            # TRANSLATORS: how many cards are left in Mathable Quattro's reserve
            extra = Text(_("reserve: {count}", count=view.bag_size))
        else:
            # TRANSLATORS: how many tokens or tiles are left in the bag
            extra = Text(_("bag: {count}", count=view.bag_size))
        return Group(board, extra)

    def _move_list(self, view: View, *, newest_first: bool = False) -> Text:
        """The finished turns as the game writes them (``view.summaries``), every one,
        wrapped to the width; in the side panel the newest first (its box scrolls)."""
        assert self.game is not None
        points = self.game.game_type.score_unit == "points"
        # TRANSLATORS: the heading of the list of turns played
        out = Text(pgettext("panel", "moves"), style="bold")
        turns = list(enumerate(view.summaries, start=1))
        for number, turn in reversed(turns) if newest_first else turns:
            line = Text(f"{number:>3}. ")
            line.append(shown(view.players[turn.seat]))
            line.append(f": {worded(turn.notation)}")
            if points:
                line.append(f" ({turn.points})")
            if turn.note:
                line.append(f", {shown(turn.note)}", style="italic")
            out.append("\n")
            out.append_text(line)
        return out


def run_app(
    game: Game | None = None,
    *,
    save_path: Path | None = None,
    seed: int | None = None,
    variant: str | None = None,
    house_rules: HouseRules | None = None,
    levels: Mapping[int, str] | None = None,
    pace: float = PACE,
) -> None:
    """Open the terminal game (a new-game screen when ``game`` is None, showing
    ``variant`` and ``house_rules`` first; ``levels``: a resumed record's computer
    seats; ``pace``: seconds between the computer's placements, 0 at once); once it
    closes, say where the game was saved."""
    app = MathableApp(
        game,
        save_path=save_path,
        bot_delay=pace,
        seed=seed,
        variant=variant,
        house_rules=house_rules,
        levels=levels,
    )
    app.run()
    if app.farewell:
        Console(highlight=False).print(Text(app.farewell))

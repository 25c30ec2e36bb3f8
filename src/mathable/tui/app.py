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

from collections.abc import Mapping
from contextvars import copy_context
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from mathable.ai import seat_bots
from mathable.ai.analysis import analysis_report
from mathable.ai.equity import DEPTHS, EXPERT_DEPTH
from mathable.engine import records
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, HouseRules
from mathable.games.registry import from_record, new_game
from mathable.i18n import _, lazy_context, typed_command
from mathable.render import panels
from mathable.render.typed import leaving_open
from mathable.render.words import left_names

from .acting import ActingApp
from .rules import placement_example
from .screens import (
    AnalysisScreen,
    GameChoice,
    HelpScreen,
    Key,
    NewGameScreen,
    QuestionScreen,
    ReplayScreen,
    TableScreen,
    bindings,
    bot_name,
)
from .seats import PACE, taken_back
from .widgets import CommandLine, RackView, SurfaceWidget, shown

CSS_PATH = Path(__file__).with_name("app.tcss")

ANSWERS = ("accept", "decline")
"""Answers to a pending proposal (J4's stop, C12's game-ending turn): their keys are
offered only while the view makes them available."""

PACES = (0.0, 0.3, 0.6, 1.0, 2.0)
"""The paces the ``v`` key steps through."""


def fresh_path(stem: str) -> Path:
    """``stem.json`` in the working folder, or ``stem-2.json``... if that one exists: a
    first save never overwrites another game's file (later saves go to the same one)."""
    path, number = Path(f"{stem}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}.json")
    return path


class MathableApp(ActingApp):
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

    def _save_target(self) -> Path:
        """Where the game is saved: the file it was resumed from or first saved to."""
        assert self.game is not None
        return self.save_path or fresh_path(f"mathable-{self.game.name}-{self.game.seed}")

    def _worth_saving(self) -> bool:
        """Whether the game holds anything a quit would lose: an action that is not a
        shake of the bag, finished games (a resignation) included."""
        return self.game is not None and taken_back(self.game)

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

    def action_analysis(self, depth: str = EXPERT_DEPTH.name) -> None:
        """``a``: the finished game's analysis at ``depth`` (the expert's; from its screen,
        ``m`` judges again like the master and ``e`` back)."""
        game = self.game
        if game is None:
            return
        if not game.is_over:
            self.say(_("The analysis opens once the game is over (it shows every rack)."))
            return
        if self.analysing:  # asked again while it is worked out: once is enough
            return
        self.analysing = True
        shown_before = self.message  # said again once the analysis is shown
        self.say(
            _("Judging like the master… (about ten times as long)")
            if depth != EXPERT_DEPTH.name
            else _("Analysing the game…")
        )
        # a whole game's analysis takes a second or more: in a thread, the screen stays
        # live; the thread replays its own copy of the game from the record
        record = records.dumps(game)
        work = partial(copy_context().run, self._analysed, record, shown_before, depth)
        self.run_worker(work, name="analysis", group="analysis", thread=True)

    def _analysed(self, record: str, shown_before: Text, depth: str) -> None:
        """In a worker thread: the analysis of the game ``record`` holds at ``depth``,
        then shown on the app's thread (the message under the board back to
        ``shown_before``)."""
        try:
            report = analysis_report(from_record(record), DEPTHS[depth])
        except Exception as exc:  # said on the screen, not a crash of the game
            self.call_from_thread(self._analysis_failed, exc)
            return
        self.call_from_thread(self._show_analysis, report, shown_before)

    def _show_analysis(self, report: dict[str, Any], shown_before: Text) -> None:
        self.analysing = False
        self.say(shown_before)
        method = report.get("method")
        depth = method.get("depth") if isinstance(method, dict) else None
        shown = AnalysisScreen(panels.analysis_view(report), depth, self.action_analysis)
        self.push_screen(shown)

    def _analysis_failed(self, error: Exception) -> None:
        self.analysing = False
        self.say(_("The analysis failed: {error}", error=error), error=True)

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

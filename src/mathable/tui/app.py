"""The full-screen terminal game (Textual): every game of the family, people and bots.

The app only draws views and forwards actions: every rule is the engine's, and what to
draw and offer comes from the view and the game's capabilities (``game.game_type``), never
from asking which game it holds. A person picks a piece from the rack (key 1-9 or a
click) and its legal targets light up; a click or Enter on the cursor places it; notation
typed in the command line (``I8=12``, ``A=32``) works too. With several people at one
screen a cover hides the rack between their turns.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Static

from mathable.ai import Bot, seat_bots
from mathable.ai.analysis import analysis_report
from mathable.ai.hints import hints
from mathable.engine import records
from mathable.engine.actions import Action, Exchange, Place, action_kind
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, View
from mathable.games.registry import new_game
from mathable.render import panels
from mathable.render.surface import Surface

from .rules import placement_example
from .screens import (
    PERSON,
    CoverScreen,
    ExchangeScreen,
    GameChoice,
    HelpScreen,
    NewGameScreen,
    QuestionScreen,
    ReplayScreen,
    TableScreen,
)

CSS_PATH = Path(__file__).with_name("app.tcss")

KEYWORD_ACTIONS = ("end", "pass", "challenge", "stop", "draw", "penalty", "diago")
"""The actions a key plays at once, by their notation keyword (``act('pass')``)."""


class SurfaceWidget(Static):
    """The board or the piles; clicks become targets."""

    can_focus = True

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MathableApp):
            app.board_clicked(event.x, event.y)


class RackView(Static):
    """The rack of the person to move; a click picks a piece."""

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MathableApp):
            app.rack_clicked(event.x)


class MathableApp(App[None]):
    """Mathable in the terminal."""

    TITLE = "Mathable"
    CSS_PATH = str(CSS_PATH)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("e", "act('end')", "End turn"),
        Binding("p", "act('pass')", "Pass"),
        Binding("x", "exchange", "Exchange"),
        Binding("d", "act('diago')", "DIAGO"),
        Binding("w", "act('draw')", "Draw"),
        Binding("n", "act('penalty')", "Penalty"),
        Binding("c", "act('challenge')", "Challenge"),
        Binding("t", "act('stop')", "Stop"),
        Binding("h", "hint", "Hint"),
        Binding("colon,slash", "command", "Type", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("s", "save", "Save"),
        Binding("r", "replay", "Replay", show=False),
        Binding("a", "analysis", "Analysis", show=False),
        Binding("m", "moves", "Moves", show=False),
        Binding("up", "cursor(0,-1)", show=False),
        Binding("down", "cursor(0,1)", show=False),
        Binding("left", "cursor(-1,0)", show=False),
        Binding("right", "cursor(1,0)", show=False),
        Binding("enter", "place_at_cursor", "Place", show=False),
        Binding("q", "quit_game", "Quit"),
        *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)),
    ]

    def __init__(
        self,
        game: Game | None = None,
        *,
        save_path: Path | None = None,
        bot_delay: float = 0.3,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.game: Game | None = game
        self.bots: dict[int, Bot] = seat_bots(game.players, seed) if game else {}
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.bot_seed = seed
        self.selected: int | None = None
        self.cursor = 0
        self.covered_for: int | None = None
        self.message = Text("")
        self.marks: dict[int, str] = {}
        self.waiting_cover = False
        self.widgets: dict[str, Static] = {}
        self.available: frozenset[str] = frozenset()
        """What the person at the screen may do now (the view's ``available``)."""
        self.notes: tuple[str, ...] = ()
        """The notes drawn under the targets now (they change where clicks land)."""

    @property
    def surface(self) -> Surface:
        """How the game in play lays out its targets."""
        assert self.game is not None
        return Surface(self.game.game_type)

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SurfaceWidget(id="board")
                yield RackView(id="rack")
                yield Input(placeholder="type a move… (: to type, ? help)", id="command")
                yield Static(id="message")
            with Vertical(id="side"):
                yield Static(id="status")
                yield Static(id="card")
                yield Static(id="moves")
        yield Footer()

    def on_mount(self) -> None:
        self.widgets = {
            name: self.query_one(f"#{name}", Static)
            for name in ("board", "rack", "message", "status", "card", "moves")
        }
        if self.game is None:
            self.push_screen(NewGameScreen(), self.start_game)
        else:
            self._begin()

    def start_game(self, choice: GameChoice | None) -> None:
        """Create the game chosen on the new-game screen."""
        if choice is None:
            self.exit()
            return
        names = [
            name if kind == PERSON else f"{name} [bot:{kind}]"
            for name, kind in zip(choice.names, choice.kinds, strict=True)
        ]
        try:
            game = new_game(
                choice.variant,
                names,
                seed=choice.seed,
                house_rules=choice.house_rules,
                rounds=choice.rounds,
            )
        except ValueError as exc:
            self.push_screen(NewGameScreen(), self.start_game)
            self.notify(str(exc), severity="error")
            return
        self.game = game
        self.bots = seat_bots(game.players, choice.seed)
        self._begin()

    def _begin(self) -> None:
        game = self.game
        assert game is not None
        self.cursor = self.surface.start()
        example = placement_example(game.game_type)
        self.query_one("#command", Input).placeholder = f"type {example}… (: to type, ? help)"
        notice = game.view(None).notice
        if notice and not game.log:
            self.say(notice)
        self.widgets["board"].focus()
        self.refresh_all()
        self.next_turn()

    # -- whose turn ----------------------------------------------------------------

    @property
    def people(self) -> list[int]:
        assert self.game is not None
        return [s for s in range(len(self.game.players)) if s not in self.bots]

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
            winners = " and ".join(game.players[s] for s in game.winners())
            self.say(f"Game over: {game.end_reason}. Winner: {winners}. (a: analysis, r: replay)")
            self.refresh_all()
            return
        seat = game.to_move
        if seat in self.bots:
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
        game = self.game
        if game is None or game.is_over or game.to_move not in self.bots:
            return
        seat = game.to_move
        action = self.bots[seat].act(game.view(seat))
        game.apply(action)
        self.say(f"{game.players[seat]}: {game.format_action(action)}")
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
        """Play an action typed in the notation (``I8=12``, ``A=32``, ``pass``)."""
        game = self.game
        if game is None:
            return False
        try:
            action = game.parse_action(text)
        except MathableError as exc:
            self.say(f"Refused: {exc}", error=True)
            return False
        return self.play(action)

    def play(self, action: Action) -> bool:
        """Apply a person's action; an illegal one is refused with the rule, nothing
        changed."""
        game = self.game
        if game is None:
            return False
        # any person may challenge the turn just ended (C12); the rest waits for one's turn
        if action_kind(action) != "challenge" and self.human_seat() is None:
            self.say("It is not your turn.", error=True)
            return False
        try:
            game.apply(action)
        except MathableError as exc:
            self.say(f"Refused: {exc}", error=True)
            self.refresh_all()
            return False
        self.say(game.format_action(action))
        self.after_action()
        return True

    def after_action(self) -> None:
        self.selected = None
        self.marks = {}
        self.refresh_all()
        self.next_turn()

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a one-line message under the board."""
        self.message = Text(text, style="bold red" if error else "")
        if self.widgets:
            self.widgets["message"].update(self.message)

    # -- input events ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the game's own actions only: hidden when the game has none of them,
        greyed out while they are not open now (the view's ``available``)."""
        game = self.game
        if game is None:  # the new-game screen: nothing to play yet
            return action == "quit_game"
        if action == "act" and parameters:
            keyword = str(parameters[0])
        elif action == "exchange":
            keyword = "exchange"
        else:
            return True
        if not game.game_type.has(keyword):
            return False
        return True if keyword in self.available else None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.widgets["board"].focus()
        if text:
            self.play_text(text)

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_act(self, keyword: str) -> None:
        """Play the keyword action ``keyword`` (``pass``, ``end``, ``diago``...)."""
        if keyword in KEYWORD_ACTIONS:
            self.play_text(keyword)

    def action_pick(self, index: int) -> None:
        self.pick_token(index - 1)

    def rack_clicked(self, x: int) -> None:
        self.pick_token(x // 5)

    def pick_token(self, index: int) -> None:
        """Choose the rack's ``index``-th piece and light up where it may go."""
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return
        rack = game.view(seat).playable
        if not 0 <= index < len(rack):
            return
        value = rack[index]
        self.selected = value
        targets = self._legal_targets(value)
        self.marks = {t: str(value) for t in targets}
        word = self.surface.target_word
        names = [game.game_type.targets[t].name for t in targets]
        where = f"{len(names)} legal {word}{'s' if len(names) != 1 else ''}"
        if 0 < len(names) <= 4:
            where += ": " + ", ".join(names)
        self.say(f"{value} chosen: {where}. Click a {word}, or move the cursor and press Enter.")
        self.refresh_all()

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
                self.say(f"Choose a {game.game_type.piece} first (1-9 or click it).")
            return
        place = Place(self.cursor, self.selected)
        if game.game_type.has("extra") and "extra" in self.available:
            extra = Place(place.cell, place.value, True)
            placements = game.legal_placements()
            if place in placements and extra in placements:
                target = game.game_type.targets[place.cell]
                where = target.name
                if target.kind == "restriction":
                    where += " is a restriction square"

                def answered(yes: bool | None) -> None:
                    self.play(extra if yes else place)

                question = f"{where}: take the extra {game.game_type.piece} now? (rule C7)"
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
        try:
            game.undo()
            while game.log and game.to_move in self.bots and not game.is_over:
                game.undo()  # take back the bots' replies too, back to a person
        except MathableError as exc:
            self.say(str(exc), error=True)
            return
        self.say("Taken back.")
        self.covered_for = game.to_move
        self.selected = None
        self.marks = {}
        self.refresh_all()

    def action_hint(self) -> None:
        """The best turns for the person to move, found from that person's view."""
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return
        view = game.view(seat)
        found = hints(view)
        if not found:
            others = [k for k in view.available if k not in ("place", "extra", "challenge")]
            what = " or ".join(others) if others else "wait"
            self.say(f"Hint: nothing to place; {what}.")
            return
        self.say(
            "Hint: "
            + "; ".join(
                h.notation if h.points is None else f"{h.notation} ({h.points})" for h in found
            )
        )
        marks: dict[int, str] = {}
        for action in found[0].actions:
            match action:
                case Place(cell=cell, value=value):
                    marks[cell] = str(value)
        self.marks = marks or {cell: "?" for cell in found[0].cells}
        self.refresh_all()

    def action_save(self) -> None:
        game = self.game
        if game is None:
            return
        path = self.save_path or Path(f"mathable-{game.name}-{game.seed}.json")
        try:
            path.write_text(records.dumps(game), encoding="utf-8")
        except OSError as exc:
            self.say(f"Cannot save: {exc}", error=True)
            return
        self.save_path = path
        self.say(f"Saved to {path}; resume with: mathable play --resume {path}")

    def action_replay(self) -> None:
        if self.game is not None:
            self.push_screen(ReplayScreen(self.game))

    def action_help(self) -> None:
        if self.game is None:
            return
        self.push_screen(HelpScreen(self.game.game_type))

    def action_moves(self) -> None:
        if self.game is not None:
            self.push_screen(TableScreen(self._move_list(self.game.view(None), limit=None)))

    def action_analysis(self) -> None:
        game = self.game
        if game is None:
            return
        if not game.is_over:
            self.say("The analysis opens once the game is over (it shows every rack).")
            return
        self.push_screen(TableScreen(panels.analysis_view(analysis_report(game))))

    def action_quit_game(self) -> None:
        game = self.game
        if game is not None and not game.is_over and game.log:
            self.action_save()
        self.exit()

    # -- drawing -------------------------------------------------------------------

    def refresh_all(self) -> None:
        game = self.game
        if game is None:
            return
        seat = self.viewer()
        view = game.view(seat)
        self.available = frozenset(view.available)
        self.notes = view.target_notes
        surface = self.surface
        drawing = surface.draw(
            view.surface,
            recent=view.recent_targets,
            marks=self.marks,
            cursor=self.cursor if seat is not None else None,
            notes=self.notes,
        )
        self.widgets["board"].update(Group(drawing, surface.legend()))
        if seat is None:
            covered = "the screen is covered" if self.waiting_cover else "watching"
            self.widgets["rack"].update(Text(f"({covered})", style="dim"))
        else:
            tiles = Text()
            for value in view.playable:
                style = "bold black on yellow" if value == self.selected else "bold black on white"
                tiles.append(f"{value:^4}", style=style)
                tiles.append(" ")
            owner = "your rack" if seat == game.to_move else f"{game.players[seat]}'s rack"
            tiles.append(f" {owner}", style="dim")
            self.widgets["rack"].update(tiles)
        self.widgets["message"].update(self.message)
        self.widgets["status"].update(self._status(view))
        self.widgets["card"].update(panels.player_card(view.unseen))
        self.widgets["moves"].update(self._move_list(view, limit=12))
        self.refresh_bindings()

    def _status(self, view: View) -> RenderableType:
        """Scores and rack sizes, the bag, and the view's own status line."""
        assert self.game is not None
        kind = self.game.game_type
        table = panels.scores_table(
            view.players, view.scores, None if view.over else view.to_move, view.rack_sizes
        )
        extra = Text(f"bag: {view.bag_size}")
        if kind.score_unit != "points":
            extra.append(f"   (scores: {kind.score_unit} won)")
        if view.status:
            extra.append(f"\n{view.status}", style="bold")
        return Group(table, extra)

    def _move_list(self, view: View, limit: int | None) -> Text:
        """The finished turns as the game writes them (``view.summaries``)."""
        assert self.game is not None
        points = self.game.game_type.score_unit == "points"
        out = Text("moves\n", style="bold")
        turns = list(enumerate(view.summaries, start=1))
        shown = turns if limit is None else turns[-limit:]
        for number, turn in shown:
            out.append(f"{number:>3}. {view.players[turn.seat]}: {turn.notation}")
            if points:
                out.append(f" ({turn.points})")
            if turn.note:
                out.append(f", {turn.note}", style="italic")
            out.append("\n")
        return out


def run_app(
    game: Game | None = None, *, save_path: Path | None = None, seed: int | None = None
) -> None:
    """Open the terminal game (a new-game screen when ``game`` is None)."""
    MathableApp(game, save_path=save_path, seed=seed).run()

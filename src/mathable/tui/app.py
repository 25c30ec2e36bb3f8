"""The full-screen terminal game (Textual): every game of the family, people and bots.

The app only draws views and forwards actions: every rule is the engine's. A person
picks a rack token (key 1-9 or a click) and the legal cells light up; a click or Enter on
the cursor places it; notation typed in the command line (``I8=12``, ``A=32``) works
too. With several people at one screen a cover hides the board between their turns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Static

from mathable.ai import Bot, seat_bots
from mathable.ai.quattro import quattro_act
from mathable.ai.strong import rank_plans
from mathable.cli import render
from mathable.engine import records
from mathable.engine.actions import (
    Action,
    Challenge,
    Diago,
    Draw,
    EndTurn,
    Exchange,
    Pass,
    Penalty,
    Place,
)
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, HouseRules
from mathable.games.board.view import BoardView
from mathable.games.quattro.game import PILES, PilesView, QuattroGame
from mathable.games.registry import new_game

from .screens import (
    CoverScreen,
    ExchangeScreen,
    HelpScreen,
    NewGameScreen,
    QuestionScreen,
    ReplayScreen,
    TableScreen,
)

CSS_PATH = Path(__file__).with_name("app.tcss")


class SurfaceWidget(Static):
    """The board (or Quattro's four piles); clicks become cells or piles."""

    can_focus = True

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MathableApp):
            app.board_clicked(event.x, event.y)


class RackView(Static):
    """The rack of the person to move; a click picks a token."""

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
        Binding("h", "hint", "Hint"),
        Binding("colon,slash", "command", "Type", show=False),
        Binding("c", "act('challenge')", "Challenge", show=False),
        Binding("d", "act('diago')", "DIAGO", show=False),
        Binding("w", "act('draw')", "Draw", show=False),
        Binding("n", "act('penalty')", "Penalty", show=False),
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

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SurfaceWidget(id="board")
                yield RackView(id="rack")
                yield Input(placeholder="type I8=12, end, pass… (: to type, ? help)", id="command")
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

    def start_game(self, config: dict[str, Any] | None) -> None:
        """Create the game chosen on the new-game screen."""
        if config is None:
            self.exit()
            return
        names = [
            name if kind == "person" else f"{name} [bot:{kind}]"
            for name, kind in zip(config["names"], config["kinds"], strict=True)
        ]
        try:
            game = new_game(
                config["variant"],
                names,
                seed=config["seed"],
                house_rules=HouseRules(
                    table_referee=config["referee"],
                    allow_undo=config["undo"],
                    strict=config["strict"],
                ),
                rounds=config["rounds"],
            )
        except ValueError as exc:
            self.push_screen(NewGameScreen(), self.start_game)
            self.notify(str(exc), severity="error")
            return
        self.game = game
        self.bots = seat_bots(game.players, config["seed"])
        self._begin()

    def _begin(self) -> None:
        game = self.game
        assert game is not None
        self.cursor = len(game.board.values) // 2 if isinstance(game, Game) else 0
        if isinstance(game, Game) and game.start_draws and not game.log:
            draws = ", ".join(f"{game.players[s]} drew {v}" for s, v in game.start_draws)
            self.say(f"Drawing for the start: {draws}. {game.players[game.to_move]} starts.")
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

    def play(self, action: Action | str) -> bool:
        """Apply a person's action; an illegal one is refused with the rule, nothing
        changed."""
        game = self.game
        if game is None:
            return False
        # any person may challenge the turn just ended (C12); the rest waits for one's turn
        challenge = isinstance(action, Challenge) or action == "challenge"
        if not challenge and self.human_seat() is None:
            self.say("It is not your turn.", error=True)
            return False
        try:
            if isinstance(action, str):
                action = game.parse_action(action)
            game.apply(action)
        except MathableError as exc:
            self.say(f"Refused: {exc}", error=True)
            self.refresh_all()
            return False
        self.say(f"{game.format_action(action)}")
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

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.widgets["board"].focus()
        if text:
            self.play(text)

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_act(self, what: str) -> None:
        actions: dict[str, Action] = {
            "end": EndTurn(),
            "pass": Pass(),
            "challenge": Challenge(),
            "diago": Diago(),
            "draw": Draw(),
            "penalty": Penalty(),
        }
        self.play(actions[what])

    def action_pick(self, index: int) -> None:
        self.pick_token(index - 1)

    def rack_clicked(self, x: int) -> None:
        self.pick_token(x // 5)

    def pick_token(self, index: int) -> None:
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return
        rack = self._rack(seat)
        if not 0 <= index < len(rack):
            return
        value = rack[index]
        self.selected = value
        if isinstance(game, QuattroGame):
            legal = {
                a.cell for a in game.legal_actions() if isinstance(a, Place) and a.value == value
            }
            self.marks = {p: "•" for p in legal}
            where = ", ".join(PILES[p] for p in sorted(legal)) or "no pile"
        else:
            cells = game.variant.legal_cells(game.board, value, game.house_rules.strict)
            self.marks = {c: str(value) for c in cells}
            where = f"{len(cells)} legal cell{'s' if len(cells) != 1 else ''}"
        target = "pile" if isinstance(game, QuattroGame) else "cell"
        self.say(f"{value} chosen: {where}. Click a {target}, or move the cursor and press Enter.")
        self.refresh_all()

    def _rack(self, seat: int) -> tuple[int, ...]:
        game = self.game
        assert game is not None
        if isinstance(game, QuattroGame) and game.drawn is not None and seat == game.to_move:
            return (game.drawn,)
        return game.rack(seat)

    def board_clicked(self, x: int, y: int) -> None:
        game = self.game
        if game is None:
            return
        if isinstance(game, QuattroGame):
            col, row = (x - 2) // 9, y // 4
            if 0 <= col < 2 and 0 <= row < 2:
                self.cursor = row * 2 + col
                self.action_place_at_cursor()
            return
        cell = render.cell_at(game.board.grid.size, x, y)
        if cell is not None:
            self.cursor = cell
            self.action_place_at_cursor()

    def action_cursor(self, dx: int, dy: int) -> None:
        game = self.game
        if game is None:
            return
        size = 2 if isinstance(game, QuattroGame) else game.board.grid.size
        row, col = divmod(self.cursor, size)
        row, col = max(0, min(size - 1, row + dy)), max(0, min(size - 1, col + dx))
        self.cursor = row * size + col
        self.refresh_all()

    def action_place_at_cursor(self) -> None:
        game = self.game
        if game is None or self.selected is None:
            if game is not None and self.human_seat() is not None:
                self.say("Choose a token first (1-9 or click it).")
            return
        place = Place(self.cursor, self.selected)
        if isinstance(game, Game):
            square = game.variant.layout.squares[self.cursor]
            extra_possible = (
                game.variant.extra_draw
                and square.restriction is not None
                and game.bag_size > 0
                and place in game.legal_placements()
            )
            if extra_possible:
                self.push_screen(
                    QuestionScreen(
                        f"{game.board.grid.name(self.cursor)} is a restriction square: "
                        "take the extra token now? (rule C7)"
                    ),
                    lambda yes: self.play(Place(place.cell, place.value, bool(yes))),
                )
                return
        self.play(place)

    def action_exchange(self) -> None:
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return
        single = isinstance(game, QuattroGame)

        def chosen(values: tuple[int, ...] | None) -> None:
            if values:
                self.play(Exchange(values))

        self.push_screen(ExchangeScreen(game.rack(seat), single), chosen)

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
        self.refresh_all()

    def action_hint(self) -> None:
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return
        view = game.view(seat)
        if isinstance(view, PilesView):
            import random

            suggestion = quattro_act(view, "strong", random.Random(0))
            self.say(f"Hint: {game.format_action(suggestion)}")
            return
        ranked = rank_plans(view)
        plans = [plan for _, plan in ranked if plan.placements][:3]
        if not plans:
            self.say("Hint: nothing to place; pass or exchange.")
            return
        grid = game.board.grid
        text = "; ".join(
            " ".join(f"{grid.name(c)}={v}" for c, v in plan.placements) + f" ({plan.total})"
            for plan in plans
        )
        self.marks = {c: str(v) for c, v in plans[0].placements}
        self.say(f"Hint: {text}")
        self.refresh_all()

    def action_save(self) -> None:
        game = self.game
        if game is None:
            return
        path = self.save_path or Path(f"mathable-{game.variant.name}-{game.seed}.json")
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
        name = self.game.variant.name if self.game else "classic"
        self.push_screen(HelpScreen(name))

    def action_moves(self) -> None:
        if self.game is not None:
            self.push_screen(TableScreen(self._move_list(limit=None)))

    def action_analysis(self) -> None:
        game = self.game
        if game is None:
            return
        if not isinstance(game, Game):
            self.say("Analysis is for the board games.")
            return
        if not game.is_over:
            self.say("The analysis opens once the game is over (it shows every rack).")
            return
        from mathable.ai.analysis import analysis_report

        self.push_screen(TableScreen(render.analysis_view(analysis_report(game))))

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
        board = self.widgets["board"]
        if isinstance(game, QuattroGame):
            assert isinstance(view, PilesView)
            board.update(self._piles(view))
        else:
            assert isinstance(view, BoardView)
            last = {p.cell for p in game.turns[-1].placements} if game.turns else set()
            last |= {p.cell for p in view.turn_placements}
            board.update(
                Group(
                    render.board_text(
                        game.variant.layout,
                        view.board,
                        last,
                        self.marks,
                        cursor=self.cursor if seat is not None else None,
                    ),
                    render.legend(),
                )
            )
        if seat is None:
            covered = "the screen is covered" if self.waiting_cover else "watching"
            self.widgets["rack"].update(Text(f"({covered})", style="dim"))
        else:
            tiles = Text()
            for value in self._rack(seat):
                style = "bold black on yellow" if value == self.selected else "bold black on white"
                tiles.append(f"{value:^4}", style=style)
                tiles.append(" ")
            owner = "your rack" if seat == game.to_move else f"{game.players[seat]}'s rack"
            tiles.append(f" {owner}", style="dim")
            self.widgets["rack"].update(tiles)
        self.widgets["message"].update(self.message)
        self.widgets["status"].update(self._status(view))
        self.widgets["card"].update(render.player_card(view.unseen))
        self.widgets["moves"].update(self._move_list(limit=12))

    def _piles(self, view: PilesView) -> Text:
        out = Text()
        for row in range(2):
            for line in range(4):
                out.append("  ")
                for col in range(2):
                    pile = row * 2 + col
                    top = view.tops[pile]
                    style = "bold black on green3" if pile in self.marks else "bold"
                    if pile == self.cursor:
                        style += " underline"
                    body = ["┌─────┐", f"│{PILES[pile]:<5}│", f"│{top:^5}│", "└─────┘"][line]
                    out.append(body, style=style)
                    out.append("  ")
                out.append("\n")
        diag = "diagonals count" if view.diagonals else "no diagonals"
        out.append(f"  {diag}; reserve {view.bag_size}, trash {view.trash_size}\n")
        if view.drawn is not None:
            out.append(f"  You drew a {view.drawn}: put it on a pile (1, then a pile)\n")
        elif view.phase == "after":
            out.append("  Now x: exchange one card (draw two), or n: a penalty card\n")
        return out

    def _status(self, view: BoardView | PilesView) -> Any:
        game = self.game
        assert game is not None
        sizes = view.rack_sizes
        table = render.scores_table(
            view.players, view.scores, None if view.over else view.to_move, sizes
        )
        extra = Text(f"bag: {view.bag_size}")
        if isinstance(view, PilesView):
            extra = Text(f"round {view.round} of {view.rounds} (scores: rounds won)")
        elif view.turn_placements:
            extra.append(f"   this turn: {view.turn_points} points")
        return Group(table, extra)

    def _move_list(self, limit: int | None) -> Text:
        game = self.game
        assert game is not None
        out = Text("moves\n", style="bold")
        turns = list(enumerate(game.turns, start=1))
        shown = turns if limit is None else turns[-limit:]
        for number, turn in shown:
            out.append(f"{number:>3}. {game.players[turn.seat]}: ")
            out.append(_describe(game, turn) + "\n")
        return out


def _describe(game: Game, turn: Any) -> str:
    """A finished turn in notation, for the move list."""
    if isinstance(game, QuattroGame):
        plays = " ".join(f"{PILES[p]}={v}" for p, v in turn.plays)
        if turn.drawn_to:
            pile, value = turn.drawn_to
            rest = "exchange" if turn.exchanged else "penalty"
            return f"draw {PILES[pile]}={value} {rest}"
        return plays or turn.kind
    grid = game.board.grid
    placed = " ".join(
        f"{grid.name(p.cell)}={p.value}{'+' if p.extra else ''}" for p in turn.placements
    )
    return f"{placed or turn.kind} ({turn.points})"


def run_app(
    game: Game | None = None, *, save_path: Path | None = None, seed: int | None = None
) -> None:
    """Open the terminal game (a new-game screen when ``game`` is None)."""
    MathableApp(game, save_path=save_path, seed=seed).run()

"""The small screens of the terminal app: new game, cover, questions, help, replay."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from mathable.ai import BOTS
from mathable.cli import render
from mathable.engine import records
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.quattro.game import QuattroGame
from mathable.games.registry import GAMES

from .rules import RULES

PERSON = "person"


class NewGameScreen(Screen[dict[str, Any]]):
    """Choose the game, the seats (people or computer levels), house rules and a seed."""

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        games = [(f"{info.title} ({name})", name) for name, info in GAMES.items()]
        kinds = [("person", PERSON), *((f"computer: {b}", b) for b in BOTS)]
        with VerticalScroll(id="newgame"):
            yield Static("[b]Mathable[/b]: a new game", id="title")
            yield Label("Game")
            yield Select(games, value="classic", allow_blank=False, id="variant")
            for seat in range(4):
                with Horizontal(classes="seat"):
                    yield Input(
                        value=["Ann", "Bob", "Cleo", "Dan"][seat],
                        placeholder=f"player {seat + 1}",
                        id=f"name{seat}",
                    )
                    default = PERSON if seat == 0 else ("greedy" if seat == 1 else "none")
                    options = kinds if seat < 2 else [("no player", "none"), *kinds]
                    yield Select(options, value=default, allow_blank=False, id=f"kind{seat}")
            yield Checkbox("table referee: mistakes stand until challenged (C12)", id="referee")
            yield Checkbox("allow undo", id="undo")
            yield Checkbox("strict: scoring squares first (numbered board, K2)", id="strict")
            with Horizontal(classes="seat"):
                yield Input(placeholder="seed (empty: random)", id="seed")
                yield Input(value="1", placeholder="rounds (Quattro)", id="rounds")
            yield Static("", id="newgame-error")
            yield Button("Start", variant="primary", id="start")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            return
        names, kinds = [], []
        for seat in range(4):
            kind = self.query_one(f"#kind{seat}", Select).value
            if kind == "none":
                continue
            name = self.query_one(f"#name{seat}", Input).value.strip() or f"Player {seat + 1}"
            names.append(name)
            kinds.append(str(kind))
        seed_text = self.query_one("#seed", Input).value.strip()
        rounds_text = self.query_one("#rounds", Input).value.strip() or "1"
        error = self.query_one("#newgame-error", Static)
        if seed_text and not seed_text.isdigit():
            error.update("[red]the seed is a whole number[/red]")
            return
        if not rounds_text.isdigit() or not 1 <= int(rounds_text) <= 99:
            error.update("[red]rounds: 1 to 99[/red]")
            return
        self.dismiss(
            {
                "variant": str(self.query_one("#variant", Select).value),
                "names": names,
                "kinds": kinds,
                "referee": self.query_one("#referee", Checkbox).value,
                "undo": self.query_one("#undo", Checkbox).value,
                "strict": self.query_one("#strict", Checkbox).value,
                "seed": int(seed_text) if seed_text else None,
                "rounds": int(rounds_text),
            }
        )


class CoverScreen(ModalScreen[None]):
    """Pass-and-play: hides the board until the next player is at the screen."""

    BINDINGS = [Binding("enter", "dismiss_cover", "I am here")]

    def __init__(self, name: str) -> None:
        super().__init__(id="cover")
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="cover-box"):
            yield Static(f"Pass the screen to [b]{self.player}[/b]", id="cover-text")
            yield Button(f"I am {self.player}: show my rack", variant="primary", id="uncover")

    def action_dismiss_cover(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class QuestionScreen(ModalScreen[bool]):
    """A yes/no question (the extra token of a restriction square, C7)."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="question-box"):
            yield Static(self.question)
            with Horizontal():
                yield Button("Yes (y)", variant="primary", id="yes")
                yield Button("No (n)", id="no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ExchangeScreen(ModalScreen[tuple[int, ...] | None]):
    """Choose the tokens to give back (C8b, J3) or the one card to discard (Q3)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rack: tuple[int, ...], single: bool) -> None:
        super().__init__()
        self.rack = rack
        self.single = single

    def compose(self) -> ComposeResult:
        what = "the card to discard" if self.single else "the tokens to give back"
        with Vertical(id="question-box"):
            yield Static(f"Tick {what}, then Exchange.")
            for index, value in enumerate(self.rack):
                yield Checkbox(str(value), id=f"x{index}")
            with Horizontal():
                yield Button("Exchange", variant="primary", id="go")
                yield Button("Cancel", id="cancel")

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        chosen = tuple(
            value
            for index, value in enumerate(self.rack)
            if self.query_one(f"#x{index}", Checkbox).value
        )
        self.dismiss(chosen or None)


class HelpScreen(ModalScreen[None]):
    """The rules of the game in play and the keys."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, variant: str) -> None:
        super().__init__()
        self.variant = variant

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(RULES.get(self.variant, RULES["classic"]) + "\n\n" + RULES["keys"])
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class TableScreen(ModalScreen[None]):
    """A Rich renderable to read, then close (the analysis, the move list)."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close")]

    def __init__(self, content: Any) -> None:
        super().__init__()
        self.content = content

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self.content)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class ReplayScreen(Screen[None]):
    """Step back and forth through a game's actions (left/right, home/end)."""

    BINDINGS = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.source = game
        self.actions = list(game.log)
        self.position = len(self.actions)

    def compose(self) -> ComposeResult:
        yield Static(id="replay-board")
        yield Static(id="replay-info")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def action_step(self, delta: int) -> None:
        self.position = max(0, min(len(self.actions), self.position + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.position = len(self.actions) if where < 0 else 0
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)

    def _game_at(self, count: int) -> Game:
        """The game after its first ``count`` actions, rebuilt from its record."""
        data = records.to_record(self.source)
        data["actions"] = data["actions"][:count]
        data.pop("result", None)
        return registry.from_record(data)

    def show(self) -> None:
        game = self._game_at(self.position)
        info = Text(f"action {self.position} of {len(self.actions)}")
        if self.position:
            info.append(f": {game.format_action(self.actions[self.position - 1])}")
        info.append(
            "\n" + "  ".join(f"{p} {s}" for p, s in zip(game.players, game.scores, strict=True))
        )
        if isinstance(game, QuattroGame):
            a, b, c, d = game.tops
            self.query_one("#replay-board", Static).update(
                Text(f"\n   A {a:>3}   B {b:>3}\n   C {c:>3}   D {d:>3}\n", style="bold")
            )
        else:
            last = {p.cell for p in game.turn_placements}
            self.query_one("#replay-board", Static).update(
                render.board_text(game.variant.layout, game.board.values, last)
            )
        self.query_one("#replay-info", Static).update(info)


__all__ = [
    "CoverScreen",
    "ExchangeScreen",
    "HelpScreen",
    "NewGameScreen",
    "QuestionScreen",
    "ReplayScreen",
    "TableScreen",
]

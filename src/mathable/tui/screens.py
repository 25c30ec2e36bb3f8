"""The small screens of the terminal app: new game, cover, questions, help, replay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from mathable.ai import BOTS, SEAT_BOT
from mathable.engine.protocol import Game, GameType, HouseRules
from mathable.games.registry import GAMES
from mathable.render.surface import Surface

from .rules import rules_page

PERSON = "person"


HOUSE_RULE_BOXES = {
    "referee": "table_referee",
    "undo": "allow_undo",
    "strict": "strict",
    "hints": "hints",
}
"""The new-game screen's checkboxes and the house rules they switch on."""

ON_BY_DEFAULT = frozenset({"hints"})
"""House rules a game at one screen starts with (O2: hints, as players at one table may
help each other)."""

NAME_LENGTH = 40
"""The longest player name."""


@dataclass(frozen=True)
class GameChoice:
    """What the new-game screen asks for: the game, the seats, the options."""

    variant: str
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    """``person``, or the computer level of each seat."""
    house_rules: HouseRules
    seed: int | None
    rounds: int


def bot_name(name: str, kind: str) -> str:
    """A seat's name as the game holds it: a computer's names its level (``Bob
    [bot:greedy]``), which is how records and the app find the computers again."""
    return name if kind == PERSON else f"{name} [bot:{kind}]"


def seat_problem(names: Sequence[str], kinds: Sequence[str]) -> str:
    """Why these seats cannot start a game ('' when they can): 2-4 players, distinct
    names, and no person whose name would make a computer of the seat (``bot:``)."""
    if not 2 <= len(names) <= 4:
        return "choose 2 to 4 players"
    for name, kind in zip(names, kinds, strict=True):
        if kind == PERSON and SEAT_BOT.search(name.lower()):
            return f"{name!r}: a person's name may not hold 'bot:' (it names a computer)"
        room = NAME_LENGTH - len(bot_name("", kind))
        if kind != PERSON and len(name) > room:
            return f"{name!r}: a computer's name has at most {room} characters"
    folded = [name.casefold() for name in names]
    for name, key in zip(names, folded, strict=True):
        if folded.count(key) > 1:
            return f"two players are called {name!r}: give each a name of their own"
    return ""


class NewGameScreen(Screen[GameChoice]):
    """Choose the game, the seats (people or computer levels), house rules and a seed;
    only the house rules and options the chosen game offers can be ticked. Enter moves
    to the next field (and starts the game on the Start button); it never clears one."""

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def __init__(
        self,
        choice: GameChoice | None = None,
        *,
        error: str = "",
        variant: str | None = None,
        house_rules: HouseRules | None = None,
    ) -> None:
        super().__init__()
        self.choice = choice
        self.error = error
        self.variant = variant
        """The game first shown (``mathable play --variant``) when there is no choice."""
        self.house_rules = house_rules
        """The house rules first ticked (``mathable play --referee --no-hints``)."""

    def compose(self) -> ComposeResult:
        games = [(f"{info.title} ({name})", name) for name, info in GAMES.items()]
        kinds = [("person", PERSON), *((f"computer: {b}", b) for b in BOTS)]
        choice = self.choice
        with VerticalScroll(id="newgame"):
            yield Static(Text.assemble(("Mathable", "bold"), ": a new game"), id="title")
            yield Label("Game")
            variant = choice.variant if choice else (self.variant or "classic")
            variant = variant if variant in GAMES else "classic"
            yield Select(games, value=variant, allow_blank=False, id="variant")
            for seat in range(4):
                with Horizontal(classes="seat"):
                    name, kind = ["Ann", "Bob", "Cleo", "Dan"][seat], "none"
                    if choice is None:
                        kind = PERSON if seat == 0 else ("greedy" if seat == 1 else "none")
                    elif seat < len(choice.names):
                        name, kind = choice.names[seat], choice.kinds[seat]
                    yield Input(
                        value=name,
                        placeholder=f"player {seat + 1}",
                        max_length=NAME_LENGTH,
                        id=f"name{seat}",
                    )
                    options = kinds if seat < 2 else [("no player", "none"), *kinds]
                    yield Select(options, value=kind, allow_blank=False, id=f"kind{seat}")
            chosen = choice.house_rules if choice else self.house_rules
            rules = chosen.to_dict() if chosen else {}
            for box, label in (
                ("referee", "table referee: mistakes stand until challenged (C12)"),
                ("undo", "allow undo"),
                ("strict", "strict: scoring squares first (numbered board, K2)"),
                ("hints", "hints: the computer suggests turns on request (O2)"),
            ):
                rule = HOUSE_RULE_BOXES[box]
                value = rules.get(rule, rule in ON_BY_DEFAULT)
                yield Checkbox(label, value, id=box, compact=True)
            with Horizontal(classes="seat"):
                seed = "" if choice is None or choice.seed is None else str(choice.seed)
                yield Input(value=seed, placeholder="seed (empty: random)", id="seed")
                rounds = str(choice.rounds) if choice else "1"
                yield Input(value=rounds, placeholder="rounds of a match", id="rounds")
        with Horizontal(id="newgame-bar"):  # always in sight, whatever the terminal's size
            yield Button("Start", variant="primary", id="start")
            yield Static(Text(self.error, style="red"), id="newgame-error")
        yield Footer()

    def on_mount(self) -> None:
        self._offer(GAMES[str(self.query_one("#variant", Select).value)])

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and str(event.value) in GAMES:
            self._offer(GAMES[str(event.value)])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field moves on to the next one; the field keeps what was typed."""
        event.stop()
        self.focus_next()

    def _offer(self, kind: GameType) -> None:
        """Enable the house rules and the rounds the game ``kind`` has."""
        for box, rule in HOUSE_RULE_BOXES.items():
            self.query_one(f"#{box}", Checkbox).disabled = rule not in kind.house_rules
        self.query_one("#rounds", Input).disabled = not kind.rounds

    def _refuse(self, why: str) -> None:
        self.query_one("#newgame-error", Static).update(Text(why, style="red"))

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
        rounds_box = self.query_one("#rounds", Input)
        rounds_text = "1" if rounds_box.disabled else rounds_box.value.strip() or "1"
        problem = seat_problem(names, kinds)
        if problem:
            self._refuse(problem)
            return
        if seed_text and not (seed_text.isascii() and seed_text.isdigit()):
            self._refuse("the seed is a whole number")
            return
        if not (rounds_text.isascii() and rounds_text.isdigit()) or not 1 <= int(rounds_text) <= 99:
            self._refuse("rounds: 1 to 99")
            return
        rules = {
            rule: self.query_one(f"#{box}", Checkbox).value
            and not self.query_one(f"#{box}", Checkbox).disabled
            for box, rule in HOUSE_RULE_BOXES.items()
        }
        self.dismiss(
            GameChoice(
                variant=str(self.query_one("#variant", Select).value),
                names=tuple(names),
                kinds=tuple(kinds),
                house_rules=HouseRules(**rules),
                seed=int(seed_text) if seed_text else None,
                rounds=int(rounds_text),
            )
        )


class CoverScreen(ModalScreen[None]):
    """Pass-and-play: hides the board until the next player is at the screen."""

    BINDINGS = [Binding("enter", "dismiss_cover", "I am here")]

    def __init__(self, name: str) -> None:
        super().__init__(id="cover")
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="cover-box"):
            text = Text("Pass the screen to ")
            text.append(self.player, style="bold")
            text.append(".\nOnly they should look now.")
            yield Static(text, id="cover-text")
            yield Button(Text("It is me: show my rack (Enter)"), variant="primary", id="uncover")

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
            yield Static(Text(self.question))
            with Horizontal():
                yield Button("Yes (y)", variant="primary", id="yes")
                yield Button("No (n)", id="no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ExchangeScreen(ModalScreen[tuple[int, ...] | None]):
    """Choose the pieces to give back (C8b, J3), exactly ``exactly`` of them when the
    game says so (Quattro's one card, Q3)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rack: tuple[int, ...], exactly: int | None, piece: str) -> None:
        super().__init__()
        self.rack = rack
        self.exactly = exactly
        self.piece = piece

    def compose(self) -> ComposeResult:
        if self.exactly is None:
            what = f"the {self.piece}s to give back"
        else:
            what = f"{self.exactly} {self.piece}{'s' if self.exactly != 1 else ''} to give back"
        with Vertical(id="question-box"):
            yield Static(Text(f"Tick {what}, then Exchange."))
            with VerticalScroll(id="exchange-pieces"):
                for index, value in enumerate(self.rack):
                    yield Checkbox(str(value), id=f"x{index}", compact=True)
            yield Static("", id="exchange-error")
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
        if self.exactly is not None and len(chosen) != self.exactly:
            self.query_one("#exchange-error", Static).update(
                Text(f"tick exactly {self.exactly}", style="red")
            )
            return
        self.dismiss(chosen or None)


class HelpScreen(ModalScreen[None]):
    """The rules of the game in play and the keys."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(
        self, kind: GameType, house_rules: HouseRules | None = None, leaving: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self.kind = kind
        self.house_rules = house_rules
        self.leaving = tuple(leaving)
        """The ways to leave open now (``resign``, ``abort``): only these are listed."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(rules_page(self.kind, self.house_rules, self.leaving))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class TableScreen(ModalScreen[None]):
    """A Rich renderable to read, then close (the analysis, the move list)."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close")]

    def __init__(self, content: RenderableType) -> None:
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

    def show(self) -> None:
        game = self.source.replayed(self.position)
        view = game.view(None)
        info = Text(f"action {self.position} of {len(self.actions)}")
        if self.position:
            info.append(f": {game.format_action(self.actions[self.position - 1])}")
        info.append(
            "\n" + "  ".join(f"{p} {s}" for p, s in zip(view.players, view.scores, strict=True))
        )
        surface = Surface(game.game_type)
        drawing = surface.draw(view.surface, recent=view.recent_targets, notes=view.target_notes)
        self.query_one("#replay-board", Static).update(Group(drawing, surface.legend()))
        self.query_one("#replay-info", Static).update(info)


__all__ = [
    "PERSON",
    "CoverScreen",
    "ExchangeScreen",
    "GameChoice",
    "HelpScreen",
    "NewGameScreen",
    "QuestionScreen",
    "ReplayScreen",
    "TableScreen",
    "bot_name",
    "seat_problem",
]

"""The small screens of the terminal app: new game, cover, questions, help, replay."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from mathable import i18n
from mathable.ai import BOTS, SEAT_BOT, is_slow
from mathable.engine.protocol import Game, GameType, HouseRules
from mathable.games.registry import GAMES
from mathable.i18n import Text as Message
from mathable.i18n import _, lazy, lazy_context, lazy_plural, ngettext, pgettext
from mathable.render.surface import Surface

from .rules import by_piece, rules_page, worded

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
class Key:
    """A key binding whose description (shown in the key bar) is a text translated when
    the screen is made: Textual reads a class's ``BINDINGS`` once, at import, before
    anyone knows the reader's language."""

    keys: str
    action: str
    description: Message | None = None
    show: bool = True
    priority: bool = False
    """Checked before the focused widget's own keys (Ctrl+C, Ctrl+Q in a text field)."""
    key_display: str | None = None
    """How the key bar writes the key (``Tab``), when not as Textual does."""

    def binding(self) -> Binding:
        """The binding, its description in the current language."""
        description = "" if self.description is None else str(self.description)
        return Binding(
            self.keys,
            self.action,
            description,
            show=self.show,
            priority=self.priority,
            key_display=self.key_display,
        )


def bindings(keys: Sequence[Key]) -> list[BindingType]:
    """The bindings of ``keys``, described in the current language (at import: English)."""
    return [key.binding() for key in keys]


def speak_keys(node: DOMNode, keys: Sequence[Key]) -> None:
    """Describe ``node``'s own bindings (its class's ``BINDINGS``, made from ``keys``) in
    the current language: called when the app or screen is made."""
    fresh: dict[str, list[Binding]] = {}
    for binding in Binding.make_bindings(bindings(keys)):
        fresh.setdefault(binding.key, []).append(binding)
    node._bindings.key_to_bindings.update(fresh)


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def styled(message: str, **parts: Text) -> Text:
    """A translated ``message`` whose ``{placeholders}`` are the styled ``parts`` (a name
    in bold): the message is translated whole, its parts put in their places after, so
    a name is shown as typed, never read as a placeholder or as markup."""
    out = Text()
    last = 0
    for found in _FIELD.finditer(message):
        if found[1] in parts:
            out.append(message[last : found.start()])
            out.append_text(parts[found[1]])
            last = found.end()
    out.append(message[last:])
    return out


class LongCheckbox(Checkbox):
    """A checkbox whose label wraps over as many lines as it needs (Textual's stays on
    one line, cut): a house rule's label in a long language is read whole at 80×24."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.render().wrap(max(width, 1))))


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
        return _("choose 2 to 4 players")
    for name, kind in zip(names, kinds, strict=True):
        if kind == PERSON and SEAT_BOT.search(name.lower()):
            return _(
                "{name}: a person's name may not hold 'bot:' (it names a computer)",
                name=repr(name),
            )
        room = NAME_LENGTH - len(bot_name("", kind))
        if kind != PERSON and len(name) > room:
            return ngettext(
                "{name}: a computer's name has at most {count} character",
                "{name}: a computer's name has at most {count} characters",
                room,
                name=repr(name),
            )
    folded = [name.casefold() for name in names]
    for name, key in zip(names, folded, strict=True):
        if folded.count(key) > 1:
            return _(
                "two players are called {name}: give each a name of their own", name=repr(name)
            )
    return ""


def _seat_kind(level: str) -> str:
    """A computer level as a seat's choice; a slow one (the master) says that its turns
    take a few seconds, as the web's new game does."""
    if is_slow(level):
        # TRANSLATORS: a seat's choice: the master computer level, whose turns take a few seconds.
        return _("computer: {level}, a few seconds a turn", level=level)
    return _("computer: {level}", level=level)


class NewGameScreen(Screen[GameChoice]):
    """Choose the game, the seats (people or computer levels), house rules and a seed;
    only the house rules and options the chosen game offers can be ticked. The keyboard
    alone does it all (issue 33): the Start button has the focus first, so Enter starts
    with what is shown; Tab and Shift+Tab go through every field and back to Start, the
    focused one scrolled into view; Enter in a text field moves on (it never clears one);
    Esc quits. Every field is one line high, so at 80×24 all are in sight."""

    KEYS = (
        # TRANSLATORS: a key of the new-game screen: go to the next field
        Key("tab", "app.focus_next", lazy_context("key", "Next field"), key_display="Tab"),
        Key("shift+tab", "app.focus_previous", show=False),
        # TRANSLATORS: a key of the new-game screen: the game starts (on the Start button)
        Key("ctrl+s", "start", lazy_context("key", "Start"), key_display="^s"),
        Key("escape", "app.ask_quit", lazy_context("key", "Quit"), key_display="Esc"),
    )
    BINDINGS = bindings(KEYS)
    AUTO_FOCUS = "#start"

    def __init__(
        self,
        choice: GameChoice | None = None,
        *,
        error: str = "",
        variant: str | None = None,
        house_rules: HouseRules | None = None,
    ) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.choice = choice
        self.error = error
        self.variant = variant
        """The game first shown (``mathable play --variant``) when there is no choice."""
        self.house_rules = house_rules
        """The house rules first ticked (``mathable play --referee --no-hints``)."""

    def compose(self) -> ComposeResult:
        games = [(f"{info.title} ({name})", name) for name, info in GAMES.items()]
        # TRANSLATORS: a seat played by a person (the other choices are computer levels)
        kinds = [(pgettext("seat", "person"), PERSON)]
        kinds += [(_seat_kind(b), b) for b in BOTS]
        choice = self.choice
        with VerticalScroll(id="newgame", can_focus=False):
            title = styled(_("{product}: a new game"), product=Text("Mathable", style="bold"))
            yield Static(title, id="title")
            # TRANSLATORS: the label of the list of games, on the new-game screen
            yield Label(pgettext("new game", "Game"))
            variant = choice.variant if choice else (self.variant or "classic")
            variant = variant if variant in GAMES else "classic"
            yield Select(games, value=variant, allow_blank=False, id="variant", compact=True)
            for seat in range(4):
                with Horizontal(classes="seat"):
                    name, kind = ["Ann", "Bob", "Cleo", "Dan"][seat], "none"
                    if choice is None:
                        kind = PERSON if seat == 0 else ("greedy" if seat == 1 else "none")
                    elif seat < len(choice.names):
                        name, kind = choice.names[seat], choice.kinds[seat]
                    yield Input(
                        value=name,
                        placeholder=_("player {number}", number=seat + 1),
                        max_length=NAME_LENGTH,
                        id=f"name{seat}",
                        compact=True,
                    )
                    options = kinds if seat < 2 else [(_("no player"), "none"), *kinds]
                    yield Select(
                        options, value=kind, allow_blank=False, id=f"kind{seat}", compact=True
                    )
            chosen = choice.house_rules if choice else self.house_rules
            rules = chosen.to_dict() if chosen else {}
            for box, label in (
                ("referee", _("table referee: mistakes stand until challenged (C12)")),
                ("undo", _("allow undo")),
                ("strict", _("strict: scoring squares first (numbered board, K2)")),
                ("hints", _("hints: the computer suggests turns on request (O2)")),
            ):  # each label wraps when a language makes it longer than the screen
                rule = HOUSE_RULE_BOXES[box]
                value = rules.get(rule, rule in ON_BY_DEFAULT)
                yield LongCheckbox(label, value, id=box, compact=True)
            with Horizontal(classes="seat"):
                seed = "" if choice is None or choice.seed is None else str(choice.seed)
                # TRANSLATORS: the label of the new-game screen's seed field
                yield Label(pgettext("new game", "Seed"), classes="field-label")
                yield Input(
                    value=seed, placeholder=_("seed (empty: random)"), id="seed", compact=True
                )
            with Horizontal(classes="seat"):
                rounds = str(choice.rounds) if choice else "1"
                # TRANSLATORS: the label of the new-game screen's field of rounds (a match)
                yield Label(pgettext("new game", "Rounds"), classes="field-label")
                yield Input(
                    value=rounds, placeholder=_("rounds of a match"), id="rounds", compact=True
                )
        with Horizontal(id="newgame-bar"):  # always in sight, whatever the terminal's size
            # TRANSLATORS: the button that starts the game chosen on the new-game screen
            yield Button(pgettext("new game", "Start"), variant="primary", id="start", compact=True)
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

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field scrolled into view (a small terminal, a long language)."""
        self.query_one("#newgame", VerticalScroll).scroll_to_widget(event.widget, animate=False)

    def action_start(self) -> None:
        """Start with what the fields hold, wherever the focus is (``Ctrl+S``)."""
        self.query_one("#start", Button).press()

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
        self._submit()

    def _submit(self) -> None:
        """The choice, refused in one line when a field is wrong."""
        names, kinds = [], []
        for seat in range(4):
            kind = self.query_one(f"#kind{seat}", Select).value
            if kind == "none":
                continue
            name = self.query_one(f"#name{seat}", Input).value.strip()
            name = name or _("Player {number}", number=seat + 1)
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
            self._refuse(_("the seed is a whole number"))
            return
        if not (rounds_text.isascii() and rounds_text.isdigit()) or not 1 <= int(rounds_text) <= 99:
            self._refuse(_("rounds: 1 to 99"))
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

    KEYS = (Key("enter", "dismiss_cover", lazy("I am here")),)
    BINDINGS = bindings(KEYS)

    def __init__(self, name: str) -> None:
        super().__init__(id="cover")
        speak_keys(self, self.KEYS)
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="cover-box"):
            text = styled(
                _("Pass the screen to {name}.\nOnly they should look now."),
                name=Text(self.player, style="bold"),
            )
            yield Static(text, id="cover-text")
            yield Button(Text(_("It is me: show my rack (Enter)")), variant="primary", id="uncover")
        yield Footer()  # every screen lists its keys (issue 33)

    def action_dismiss_cover(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class QuestionScreen(ModalScreen[bool]):
    """A yes/no question (the extra token of a restriction square, C7)."""

    KEYS = (
        Key("y", "answer(True)", lazy_context("answer", "Yes")),
        Key("n", "answer(False)", lazy_context("answer", "No")),
    )
    BINDINGS = bindings(KEYS)

    def __init__(self, question: str) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="question-box"):
            yield Static(Text(self.question))
            with Horizontal():
                # TRANSLATORS: a button: the answer (Yes, No) and the key that gives it
                yes = _("{answer} ({key})", answer=pgettext("answer", "Yes"), key=_yes_key())
                yield Button(yes, variant="primary", id="yes")
                no = _("{answer} ({key})", answer=pgettext("answer", "No"), key=_no_key())
                yield Button(no, id="no")
        yield Footer()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_key(self, event: events.Key) -> None:
        """The answers' letters in the player's language too (``o``/``n`` in French)."""
        typed = i18n.folded(event.character or "")
        if typed and typed == i18n.folded(_yes_key()) and typed != "y":
            event.stop()
            self.dismiss(True)
        elif typed and typed == i18n.folded(_no_key()) and typed != "n":
            event.stop()
            self.dismiss(False)


def _yes_key() -> str:
    # TRANSLATORS: the one-letter answer yes, typed to confirm (y/n)
    return pgettext("answer", "y")


def _no_key() -> str:
    # TRANSLATORS: the one-letter answer no (y/n)
    return pgettext("answer", "n")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ExchangeScreen(ModalScreen[tuple[int, ...] | None]):
    """Choose the pieces to give back (C8b, J3), exactly ``exactly`` of them when the
    game says so (Quattro's one card, Q3)."""

    KEYS = (Key("escape", "cancel", lazy("Cancel")),)
    BINDINGS = bindings(KEYS)

    def __init__(self, rack: tuple[int, ...], exactly: int | None, piece: str) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.rack = rack
        self.exactly = exactly
        self.piece = piece

    def compose(self) -> ComposeResult:
        n = self.exactly
        if n is None:
            what = by_piece(
                self.piece,
                token=lazy("Tick the tokens to give back, then Exchange."),
                tile=lazy("Tick the tiles to give back, then Exchange."),
                card=lazy("Tick the cards to give back, then Exchange."),
            )
        else:
            what = by_piece(
                self.piece,
                token=lazy_plural(
                    "Tick {count} token to give back, then Exchange.",
                    "Tick {count} tokens to give back, then Exchange.",
                    n,
                ),
                tile=lazy_plural(
                    "Tick {count} tile to give back, then Exchange.",
                    "Tick {count} tiles to give back, then Exchange.",
                    n,
                ),
                card=lazy_plural(
                    "Tick {count} card to give back, then Exchange.",
                    "Tick {count} cards to give back, then Exchange.",
                    n,
                ),
            )
        with Vertical(id="question-box"):
            yield Static(Text(what))
            with VerticalScroll(id="exchange-pieces"):
                for index, value in enumerate(self.rack):
                    yield Checkbox(str(value), id=f"x{index}", compact=True)
            yield Static("", id="exchange-error")
            with Horizontal():
                # TRANSLATORS: the button that gives back the ticked pieces
                yield Button(pgettext("button", "Exchange"), variant="primary", id="go")
                yield Button(pgettext("button", "Cancel"), id="cancel")
        yield Footer()

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
                Text(_("tick exactly {count}", count=self.exactly), style="red")
            )
            return
        self.dismiss(chosen or None)


class HelpScreen(ModalScreen[None]):
    """The rules of the game in play and the keys."""

    KEYS = (Key("escape,question_mark,q", "close", lazy("Close")),)
    BINDINGS = bindings(KEYS)

    def __init__(
        self, kind: GameType, house_rules: HouseRules | None = None, leaving: Sequence[str] = ()
    ) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
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

    KEYS: tuple[Key, ...] = (Key("escape,q,enter", "close", lazy("Close")),)
    BINDINGS = bindings(KEYS)

    def __init__(self, content: RenderableType) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.content = content

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self.content)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class AnalysisScreen(TableScreen):
    """A finished game's analysis, judged at ``depth``. A board game's (judged by equity,
    at a depth) can be judged again at the other one, the master's (``m``) or back to the
    expert's (``e``): the screen closes and ``judge(depth)`` works it out."""

    KEYS = (
        # TRANSLATORS: a key of the analysis: judge the game again with the master's budgets
        Key("m", "judge('master')", lazy_context("key", "Like the master")),
        # TRANSLATORS: a key of the analysis: back to the expert's judgement (the default)
        Key("e", "judge('expert')", lazy_context("key", "Like the expert")),
        *TableScreen.KEYS,
    )
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        content: RenderableType,
        depth: str | None,
        judge: Callable[[str], None],
    ) -> None:
        super().__init__(content)
        self.depth = depth
        """The depth the report was judged at; None: a game judged without depths."""
        self.judge = judge

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the other depth's key, and none for a game judged without depths."""
        if action == "judge":
            return self.depth is not None and parameters[0] != self.depth
        return True

    def action_judge(self, depth: str) -> None:
        self.dismiss(None)
        self.judge(depth)


class ReplayScreen(Screen[None]):
    """Step back and forth through a game's actions (left/right, home/end)."""

    KEYS = (
        Key("left", "step(-1)", lazy_context("replay", "Back")),
        Key("right", "step(1)", lazy_context("replay", "Forward")),
        # TRANSLATORS: in the replay, a key that goes back to the game's start
        Key("home", "jump(0)", lazy_context("replay", "Start")),
        # TRANSLATORS: in the replay, a key that goes to the game's last action
        Key("end", "jump(-1)", lazy_context("replay", "End")),
        Key("escape,q", "close", lazy("Close")),
    )
    BINDINGS = bindings(KEYS)

    def __init__(self, game: Game) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
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
        if self.position:
            info = Text(
                _(
                    "action {number} of {count}: {action}",
                    number=self.position,
                    count=len(self.actions),
                    action=worded(game.format_action(self.actions[self.position - 1])),
                )
            )
        else:
            info = Text(_("action {number} of {count}", number=0, count=len(self.actions)))
        info.append(
            "\n" + "  ".join(f"{p} {s}" for p, s in zip(view.players, view.scores, strict=True))
        )
        surface = Surface(game.game_type)
        drawing = surface.draw(view.surface, recent=view.recent_targets, notes=view.target_notes)
        self.query_one("#replay-board", Static).update(Group(drawing, surface.legend()))
        self.query_one("#replay-info", Static).update(info)


__all__ = [
    "PERSON",
    "AnalysisScreen",
    "CoverScreen",
    "ExchangeScreen",
    "GameChoice",
    "HelpScreen",
    "Key",
    "NewGameScreen",
    "QuestionScreen",
    "ReplayScreen",
    "TableScreen",
    "bindings",
    "bot_name",
    "seat_problem",
    "speak_keys",
    "styled",
]

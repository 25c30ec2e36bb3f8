"""Guided lessons (issue 18): the rulebook's worked example played move by move by the
learner, each step with the rule it shows in our own words, and wrong attempts explained.

A lesson is data: scenes (a dealt start, :class:`Start`) and steps (the move the learner
is asked to make, its explanation, the equation that makes it legal and the points the
rulebook gives it). The games are real engine games (``registry.new_game`` with a
``setup``), so every refusal is the engine's own (``IllegalMove`` reason and rule) and
every score is the engine's. Steps the worked example does not show (exchange, the end
and its deduction) start from a made-up position of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mathable import i18n
from mathable.engine.actions import Action, Exchange, Place, action_kind
from mathable.engine.errors import IllegalMove, MathableError
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.i18n import Text, _, lazy, ngettext

MAX_TYPED = 64
"""The longest attempt read (a placement or ``exchange`` with a few values is far shorter)."""


@dataclass(frozen=True)
class Start:
    """A dealt start: the racks, the bag in draw order and the seat to move."""

    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    to_move: int = 0
    players: tuple[str, ...] = ("Ann", "Bob")
    piles: tuple[int, ...] = ()
    """The piles' first cards, for a game played on piles (Mathable Quattro)."""
    moves: tuple[str, ...] = ()
    """Moves played before the scene's first step, so that its board shows the game its
    text speaks of (an ending: tokens on the board, not the start's four; issue 32)."""

    def setup(self) -> dict[str, Any]:
        """The game's ``setup`` (a record's): racks and bag, or hands, piles and reserve."""
        if self.piles:
            return {
                "hands": [list(r) for r in self.racks],
                "piles": list(self.piles),
                "reserve": list(self.bag),
                "to_move": self.to_move,
            }
        return {
            "racks": [list(r) for r in self.racks],
            "bag": list(self.bag),
            "to_move": self.to_move,
        }


@dataclass(frozen=True)
class Step:
    """One move the learner makes, and what it teaches."""

    move: str
    """The move in the notation (``I8=12``, ``J8=16+``, ``exchange 42,45``)."""
    title: Text
    text: Text
    """The rule the step shows, in our own words."""
    why: Text
    """Why this move is legal here (the equations, the cells), said again after a wrong try."""
    rule: str
    """The rulings it shows (RULINGS.md): ``C3``, ``C5, C7``."""
    points: int
    """What the move adds to the mover's score, as the rulebook counts it (bonus included)."""
    start: Start | None = None
    """A new scene from a made-up start; ``None`` goes on from the previous step."""
    any_of_kind: bool = False
    """Any legal action of the move's kind is right (which tokens to exchange is free)."""


@dataclass(frozen=True)
class Lesson:
    """A guided game: a variant, an introduction and its steps."""

    name: str
    variant: str
    title: Text
    intro: Text
    steps: tuple[Step, ...]
    end: Text
    """What is said once the last step is made."""

    def game_before(self, index: int) -> Game:
        """The game as it stands before step ``index`` (its scene replayed with the
        expected moves of the steps before it)."""
        if not 0 <= index < len(self.steps):
            raise IndexError(index)
        first = index
        while self.steps[first].start is None:
            first -= 1  # the first step always has a start
        start = self.steps[first].start
        assert start is not None
        game = registry.new_game(self.variant, list(start.players), seed=0, setup=start.setup())
        for move in start.moves:
            game.apply(move)
        for step in self.steps[first:index]:
            game.apply(step.move)
        return game


@dataclass(frozen=True)
class Attempt:
    """The answer to a learner's attempt at a step."""

    correct: bool
    text: str
    """What to tell the learner, in the current language."""
    where: str = ""
    """The cell (or pile) the answer is about, to highlight."""
    rule: str = ""
    game: Game | None = field(default=None, compare=False)
    """After a right move: the game with it made."""
    points: int = 0
    """After a right move: what it scored (bonus included)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON of the web's check."""
        return {
            "correct": self.correct,
            "text": self.text,
            "where": self.where,
            "rule": self.rule,
            "points": self.points,
        }


def _explained(game: Game, action: Action) -> str:
    """The engine's explanation of a placement (``Game.explain``, issue 18 part 2) where
    the game has one and the placement makes an equation, else ``""``."""
    explain = getattr(game, "explain", None)
    if explain is None or not isinstance(action, Place):
        return ""
    try:
        explained = explain(action)
    except MathableError:
        return ""
    return str(explained.text()) if getattr(explained, "equations", ()) else ""


def _same(expected: Action, tried: Action, step: Step) -> bool:
    """Whether ``tried`` is the step's move: the same token on the same cell (whether to
    take C7's extra token follows the book, so the learner's ``+`` does not matter), the
    same tokens exchanged, or any of the kind where the step leaves the choice."""
    if step.any_of_kind:
        return action_kind(tried) == action_kind(expected)
    if isinstance(expected, Place) and isinstance(tried, Place):
        return (expected.cell, expected.value) == (tried.cell, tried.value)
    if isinstance(expected, Exchange) and isinstance(tried, Exchange):
        return sorted(expected.values) == sorted(tried.values)
    return expected == tried


def check(lesson: Lesson, index: int, typed: str) -> Attempt:
    """The learner typed ``typed`` at step ``index``: right (and the game after it), or
    why not, in words: the engine's refusal (reason and rule), or for a legal but other
    move, what the step asks for and why it is legal."""
    step = lesson.steps[index]
    game = lesson.game_before(index)
    expected = game.parse_action(step.move)
    asked = _asked(game, expected)
    typed = typed.strip()
    if not typed:
        return Attempt(
            False, _("Type a move, for example {move}.", move=i18n.shown_command(step.move))
        )
    if len(typed) > MAX_TYPED:
        return Attempt(
            False, _("That is too long: a move is at most {most} characters.", most=MAX_TYPED)
        )
    try:
        tried = game.parse_action(typed)
    except MathableError as exc:
        # TRANSLATORS: why the typed text is not a move, then an example of one
        return Attempt(
            False,
            _(
                "{problem}. A move looks like {move}.",
                problem=str(exc),
                move=i18n.shown_command(step.move),
            ),
        )
    where = game.cell_names.name(tried.cell) if isinstance(tried, Place) else ""
    if _same(expected, tried, step):
        action = tried if step.any_of_kind else expected
        said = _explained(game, action) or str(step.why)
        mover = game.to_move
        before = _running(game, mover)
        game.apply(action)
        points = _running(game, mover) - before
        # TRANSLATORS: a right move in a lesson: why it is legal; its points follow
        text = _("Right: {why}.", why=said)
        if game.game_type.score_unit == "points":
            text += " " + ngettext("{count} point.", "{count} points.", points, count=points)
        return Attempt(True, text, where, step.rule, game, points)
    trial = game.copy()
    try:
        trial.apply(tried)
    except IllegalMove as exc:
        # TRANSLATORS: the engine's refusal of a move in a lesson, then what the step asks
        text = _(
            "{refusal}. This step asks for {move}: {why}.",
            refusal=str(exc),
            move=asked,
            why=step.why,
        )
        return Attempt(False, text, where or exc.where, exc.rule)
    except MathableError as exc:
        text = _(
            "{refusal}. This step asks for {move}: {why}.",
            refusal=str(exc),
            move=asked,
            why=step.why,
        )
        return Attempt(False, text, where)
    if isinstance(tried, Place) and isinstance(expected, Place):
        cell = game.cell_names.name(expected.cell)
        if tried.value == expected.value:
            # TRANSLATORS: a legal placement of the right token on another cell in a lesson
            text = _(
                "{value} may go on {tried} too, but this step puts it on {cell}: {why}.",
                value=tried.value,
                tried=where,
                cell=cell,
                why=step.why,
            )
        elif tried.cell == expected.cell:
            text = _(
                "{typed} is legal too, but this step puts {value} on {cell}: {why}.",
                typed=i18n.shown_command(typed),
                value=expected.value,
                cell=cell,
                why=step.why,
            )
        else:
            text = _(
                "{typed} is legal too, but this step asks for {move}: {why}.",
                typed=i18n.shown_command(typed),
                move=asked,
                why=step.why,
            )
        more = _explained(game, tried)
        if more:
            # TRANSLATORS: the learner's placement, then the engine's explanation of it
            shown = i18n.shown_command(typed)
            text += " " + _("{typed} would make {explanation}.", typed=shown, explanation=more)
        return Attempt(False, text, where, step.rule)
    # TRANSLATORS: a legal action other than the step's in a lesson (a pass, an exchange)
    text = _(
        "{typed} is allowed here, but this step asks for {move}: {why}.",
        typed=i18n.shown_command(typed),
        move=asked,
        why=step.why,
    )
    return Attempt(False, text, where, step.rule)


def running_scores(game: Game) -> list[int]:
    """Every seat's score with the points of the turn still open: what a lesson shows
    after each move (issue 32: "12 points" and not "Ann 0")."""
    return [_running(game, seat) for seat in range(len(game.scores))]


def _running(game: Game, seat: int) -> int:
    """``seat``'s score with the points of its turn still open (a view's ``turn``, where
    the game shows one): scores are banked when a turn ends, a lesson counts each move."""
    if game.is_over or game.to_move != seat:
        return game.scores[seat]
    turn = game.view(None).to_dict().get("turn")
    pending = turn.get("points", 0) if isinstance(turn, dict) else 0
    return game.scores[seat] + (pending if isinstance(pending, int) else 0)


def _asked(game: Game, expected: Action) -> str:
    """The step's move as the learner types it (``J8=16`` for ``J8=16+``: the extra token
    follows the book whatever the learner writes)."""
    if isinstance(expected, Place):
        return game.format_action(Place(expected.cell, expected.value))
    return game.format_action(expected)


# -- the classic lesson: the rulebook's worked example (seed 000, part VI) --------------

_BOOK = Start(
    racks=((1, 2, 8, 12, 16, 17, 42), (3, 4, 6, 7, 7, 8, 21)),
    # Ann's extra token on J8 is an 11 in the book, then 4 to refill her rack, then Bob's.
    bag=(11, 5, 5, 5, 5, 9, 9, 9, 9, 9, 9, 9, 10, 10),
)

CLASSIC = Lesson(
    name="classic",
    variant="classic",
    title=lazy("Your first game of Mathable"),
    intro=lazy(
        "Two players, Ann and Bob, play the first turns of the rulebook's example game. "
        "You make every move for them: type it (a cell, '=', the token: I8=12) or, on the "
        "web, pick a token and a square. The board starts with 1, 2, 3 and 4 in the centre."
    ),
    end=lazy(
        "You have played a whole lesson: Ann scored 39 and Bob 121 in the example, and "
        "you have seen every rule. Now play a real game!"
    ),
    steps=(
        Step(
            "I8=12",
            lazy("An equation in a line"),
            lazy(
                "A token goes next to two tokens that lie side by side in a row or a column, "
                "at either end, when its value is their sum, difference, product or "
                "quotient. Ann has a 12: 3 × 4 = 12. Put it right of the 4."
            ),
            lazy("12 = 3 × 4, the 3 on G8 and the 4 on H8"),
            "C3, C6",
            12,
            start=_BOOK,
        ),
        Step(
            "H6=8",
            lazy("Up and down count too"),
            lazy(
                "Columns work like rows. 2 × 4 = 8: put Ann's 8 above the 2. A token scores "
                "its own value for each equation it makes."
            ),
            lazy("8 = 2 × 4, the 2 on H7 and the 4 on H8 below it"),
            "C3, C6",
            8,
        ),
        Step(
            "G9=2",
            lazy("Subtraction, either way round"),
            lazy(
                "The order of the two tokens does not matter: 3 − 1 = 2 whether the 3 or "
                "the 1 comes first. Put Ann's 2 below the 3."
            ),
            lazy("2 = 3 − 1, the 3 on G8 and the 1 on G7 above it"),
            "C3",
            2,
        ),
        Step(
            "F7=1",
            lazy("Never between two tokens"),
            lazy(
                "The two tokens must both lie on the same side of the new one: never one "
                "on each side, never diagonally. 2 − 1 = 1: put Ann's 1 left of the 1."
            ),
            lazy("1 = 2 − 1, the 1 on G7 and the 2 on H7"),
            "C3",
            1,
        ),
        Step(
            "J8=16+",
            lazy("A restriction square, and its extra token"),
            lazy(
                "Blue squares show an operation: only an equation with that operation may "
                "fill them. J8 is a + square, and 12 + 4 = 16. Whoever fills a restriction "
                "square may take one extra token from the bag at once (in writing: a '+' "
                "after the move, J8=16+); Ann does and draws an 11. Her 11, 17 and 42 fit "
                "nowhere, so her turn ends: 12 + 8 + 2 + 1 + 16 = 39 points, and she "
                "refills her rack to 7."
            ),
            lazy("16 = 12 + 4, the 12 on I8 and the 4 on H8, and J8 is a + square"),
            "C5, C7, C8",
            16,
        ),
        Step(
            "F8=7",
            lazy("Bob's turn"),
            lazy("Bob adds 3 and 4: put his 7 left of the 3."),
            lazy("7 = 3 + 4, the 3 on G8 and the 4 on H8"),
            "C3",
            7,
        ),
        Step(
            "F9=6",
            lazy("Build on the new tokens"),
            lazy(
                "Every token on the board may be used, the ones just placed too. "
                "7 − 1 = 6: put the 6 under the 7."
            ),
            lazy("6 = 7 − 1, the 7 on F8 and the 1 on F7 above it"),
            "C3",
            6,
        ),
        Step(
            "H9=8",
            lazy("Several equations at once"),
            lazy(
                "A token may complete an equation in several directions at once; each one "
                "counts. Right of the 2, an 8 makes 6 + 2 = 8 in its row and 2 × 4 = 8 in "
                "its column: 8 twice, 16 points."
            ),
            lazy("8 = 6 + 2 (F9 and G9) and 8 = 2 × 4 (H7 and H8): two equations"),
            "C4, C6",
            16,
        ),
        Step(
            "G6=4",
            lazy("Addition in a column"),
            lazy("3 + 1 = 4: put Bob's 4 above the 1."),
            lazy("4 = 3 + 1, the 3 on G8 and the 1 on G7 below it"),
            "C3",
            4,
        ),
        Step(
            "E9=3",
            lazy("Division"),
            lazy("6 ÷ 2 = 3: division works when it comes out exact. Put the 3 left of the 6."),
            lazy("3 = 6 ÷ 2, the 6 on F9 and the 2 on G9"),
            "C3",
            3,
        ),
        Step(
            "E8=21",
            lazy("A × square: the extra token is a choice"),
            lazy(
                "E8 is a × square and 7 × 3 = 21 fits it. Bob may take an extra token but "
                "does not, afraid of drawing one he cannot place. Type E8=21 (with no '+')."
            ),
            lazy("21 = 7 × 3, the 7 on F8 and the 3 on G8, and E8 is a × square"),
            "C5, C7",
            21,
        ),
        Step(
            "E10=7",
            lazy("An award square, and the 50-point bonus"),
            lazy(
                "21 ÷ 3 = 7. Above the 21 it may not go: E7 is a + square. Below the 3, E10 "
                "is a 2× square, which doubles the token: 14. Bob started with 7 tokens and "
                "has placed them all: 50 more. His turn: 71 + 50 = 121."
            ),
            lazy("7 = 21 ÷ 3, the 21 on E8 and the 3 on E9 above it, on a 2× square"),
            "C5, C6, C9",
            14 + 50,
        ),
        Step(
            "exchange 42,45,48",
            lazy("Exchange instead of placing"),
            lazy(
                "A new game: none of Ann's tokens fits anywhere. Instead of placing she may "
                "exchange tokens for new ones from the bag (as many as the bag holds); that "
                "is her whole turn. Type exchange and the values, for example "
                "exchange 42,45,48."
            ),
            lazy("no token of this rack makes an equation with 1, 2, 3 and 4"),
            "C8",
            0,
            start=Start(
                racks=((42, 45, 48, 50, 54, 56, 60), (3, 4, 6, 7, 7, 8, 21)),
                bag=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
            ),
            any_of_kind=True,
        ),
        Step(
            "I8=12",
            lazy("The end, and what is left on the racks"),
            lazy(
                "The bag is empty and Ann holds only a 12. When a player places the last "
                "token with the bag empty, the game ends, and each player loses the values "
                "left on the rack: Bob loses 5 + 7 = 12. Place Ann's 12 right of the 4."
            ),
            lazy("12 = 3 × 4, the 3 on G8 and the 4 on H8"),
            "C11",
            12,
            # a game near its end: the bag empty, both players' turns played from it
            start=Start(
                racks=((8, 2, 1, 12), (7, 6, 4, 5, 7)),
                bag=(),
                moves=("H6=8", "G9=2", "F7=1", "end", "F8=7", "F9=6", "G6=4", "end"),
            ),
        ),
    ),
)

# -- Mathable Junior, front side (J1-J3): + and − only, racks of 5, a 25-point bonus -------

JUNIOR = Lesson(
    name="junior",
    variant="junior",
    title=lazy("Your first game of Mathable Junior"),
    intro=lazy(
        "The board starts with 1, 2, 3 and 4 in the centre. In Mathable Junior only + and − "
        "count, and each rack holds 5 tiles. You play Ann's first turn with 7, 6, 2, 8 and 4."
    ),
    end=lazy("Ann placed her whole rack: 64 points. Now play a real game!"),
    steps=(
        Step(
            "D6=7",
            lazy("Add two tiles in a line"),
            lazy(
                "A tile goes next to two tiles side by side in a row or a column when it is "
                "their sum or their difference. 3 + 4 = 7: put the 7 left of the 3. D6 shows "
                "'+': only an addition may fill it (a '+' after the move, D6=7+, would also "
                "take an extra tile from the bag)."
            ),
            lazy("7 = 3 + 4, the 3 on E6 and the 4 on F6, and D6 is a + square"),
            "J2, J3",
            7,
            start=Start(
                racks=((7, 6, 2, 8, 4), (1, 3, 5, 9, 10)),
                bag=(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8),
            ),
        ),
        Step(
            "F7=6",
            lazy("Columns count too"),
            lazy("2 + 4 = 6 down the column: put the 6 below the 4."),
            lazy("6 = 2 + 4, the 2 on F5 and the 4 on F6 above it"),
            "J2",
            6,
        ),
        Step(
            "E7=2",
            lazy("Subtraction"),
            lazy("3 − 1 = 2, either way round: put the 2 below the 3 on the − square."),
            lazy("2 = 3 − 1, the 3 on E6 and the 1 on E5 above it"),
            "J2",
            2,
        ),
        Step(
            "G7=8",
            lazy("A 2X square"),
            lazy(
                "6 + 2 = 8 along row 7. G7 is a 2X square: the tile placed on it counts "
                "double, 16 points."
            ),
            lazy("8 = 6 + 2, the 6 on F7 and the 2 on E7, on a 2X square"),
            "J2",
            16,
        ),
        Step(
            "D7=4",
            lazy("The whole rack: 25 more"),
            lazy(
                "6 − 2 = 4 on the other 2X square: 8 points. Ann started with 5 tiles and has "
                "placed them all, so she scores 25 more, and her turn ends: she draws 5 new "
                "tiles."
            ),
            lazy("4 = 6 − 2, the 6 on F7 and the 2 on E7, on a 2X square"),
            "J2, J3",
            8 + 25,
        ),
    ),
)

# -- Mathable Junior, back side (K1-K3): tiles on squares printed with their number -------

JUNIOR_NUMBERS = Lesson(
    name="junior-numbers",
    variant="junior-numbers",
    title=lazy("Mathable Junior, the numbered board"),
    intro=lazy(
        "On this side every square shows a number. Each player has 3 tiles face up and "
        "places all 3, one by one, each on a free square showing its number."
    ),
    end=lazy("Ann placed her 3 tiles and scored 1 point; she draws 3 more. Now play!"),
    steps=(
        Step(
            "E5=5",
            lazy("A tile on its own number"),
            lazy(
                "Ann has 5, 3 and 8. A tile goes on a square printed with its number: put "
                "the 5 on E5. No two tiles lie next to it yet, so it scores nothing."
            ),
            lazy("E5 shows 5"),
            "K2",
            0,
            start=Start(racks=((5, 3, 8), (1, 2, 4)), bag=(6, 7, 9, 10, 1, 2)),
        ),
        Step(
            "F5=3",
            lazy("Prepare an equation"),
            lazy("F5 shows 3: put the 3 there, next to the 5. Still no point."),
            lazy("F5 shows 3"),
            "K2",
            0,
        ),
        Step(
            "G5=8",
            lazy("A square that is a sum scores"),
            lazy(
                "G5 shows 8, and the two tiles next to it in the row make 5 + 3 = 8: a tile "
                "placed where the two tiles before it add up (or subtract) to its number "
                "scores 1 point."
            ),
            lazy("G5 shows 8, and 8 = 5 + 3, the 5 on E5 and the 3 on F5"),
            "K2",
            1,
        ),
    ),
)

# -- Mathable Quattro (Q1-Q5): the rulebook's example, 20, 12, 32, 7 and 25 ---------------

QUATTRO = Lesson(
    name="quattro",
    variant="quattro",
    title=lazy("Your first game of Mathable Quattro"),
    intro=lazy(
        "Four piles of cards lie in a square, A and B on top, C and D below; only each "
        "pile's top card counts. Louis holds a 32 and a 25, as in the rulebook's example."
    ),
    end=lazy(
        "The first player to play every card of the hand wins the round. Now play a real game!"
    ),
    steps=(
        Step(
            "A=32",
            lazy("A card on one of two neighbours"),
            lazy(
                "A card goes on a pile when it is the sum, difference, product or quotient "
                "of that pile's top card and the top card of a pile beside it, sideways or "
                "up and down. 20 + 12 = 32: it may go on the 20 or on the 12. Put it on the "
                "20 (pile A), to use the 25 next."
            ),
            lazy("32 = 20 + 12, the 20 on A and the 12 on B beside it"),
            "Q2",
            0,
            start=Start(
                racks=((32, 25, 13, 90, 81, 72, 64), (2, 2, 3, 3, 4, 4, 5)),
                bag=(5, 6, 8, 9, 10, 10, 11),
                piles=(20, 12, 7, 2),
                players=("Louis", "Zoé"),
            ),
        ),
        Step(
            "C=25",
            lazy("Go on while you can"),
            lazy(
                "A player goes on playing cards one by one while any fits. Now 32 − 7 = 25, "
                "A over C: put the 25 on the 7 (pile C). Nothing else fits, so the turn "
                "passes."
            ),
            lazy("25 = 32 − 7, the 32 on A and the 7 on C below it"),
            "Q2",
            0,
        ),
        Step(
            "draw",
            lazy("No card fits: draw"),
            lazy(
                "None of Zoé's cards fits anywhere, so she draws a card from the reserve. "
                "Type draw."
            ),
            lazy("no card of Zoé's hand is a result of two neighbouring piles"),
            "Q3",
            0,
        ),
        Step(
            "D=5",
            lazy("The drawn card goes anywhere"),
            lazy(
                "The card drawn, a 5, goes face up on any pile she likes, no equation "
                "needed. Put it on pile D."
            ),
            lazy("a drawn card goes on any pile; this step puts it on D"),
            "Q3",
            0,
        ),
        Step(
            "penalty",
            lazy("Exchange or penalty"),
            lazy(
                "Then she either exchanges one card of her hand (it goes to the trash and she "
                "draws two) or draws one penalty card. Type penalty."
            ),
            lazy("after the drawn card, a penalty card (or an exchange) ends the turn"),
            "Q3",
            0,
        ),
        Step(
            "diago",
            lazy("DIAGO"),
            lazy(
                "Once per round, at the start of a turn, a player may say DIAGO: for that "
                "turn, diagonal neighbours count too. Louis's 13 fits only diagonally. "
                "Type diago."
            ),
            lazy("13 = 25 − 12, and C and B are diagonal neighbours"),
            "Q4",
            0,
        ),
        Step(
            "B=13",
            lazy("A diagonal equation"),
            lazy("25 − 12 = 13 across the diagonal: put the 13 on the 12 (pile B)."),
            lazy("13 = 25 − 12, the 12 on B and the 25 on C diagonally"),
            "Q4",
            0,
        ),
    ),
)

LESSONS: dict[str, Lesson] = {
    lesson.name: lesson for lesson in (CLASSIC, JUNIOR, JUNIOR_NUMBERS, QUATTRO)
}
"""Every lesson by name (the name of its variant)."""


def lesson_for(variant: str) -> Lesson:
    """The lesson of ``variant``; a variant without one is refused naming those with one."""
    found = LESSONS.get(variant)
    if found is None:
        raise MathableError(
            lazy(
                "there is no lesson for {name}; lessons: {known}",
                name=variant[:40],
                known=", ".join(LESSONS),
            )
        )
    return found


__all__ = ["LESSONS", "MAX_TYPED", "Attempt", "Lesson", "Start", "Step", "check", "lesson_for"]

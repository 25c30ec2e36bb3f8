"""``mathable learn``: the guided first game at the terminal (issue 18).

Each step draws the board as ``mathable show`` does, says the rule the step shows, and
reads the learner's move in the notation (``I8=12``); a wrong attempt is explained
(:func:`mathable.learn.lessons.check`) and asked again, ``hint`` shows the move, ``quit``
leaves. :mod:`.main` registers the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from mathable import i18n
from mathable.i18n import _, lazy, typed_command

from .shell import VariantOpt, console, fail, helps, tolerant_stdin

if TYPE_CHECKING:
    from mathable.engine.protocol import Game
    from mathable.learn.lessons import Lesson


def _draw(console: Console, game: Game) -> None:
    """The board, the scores and the rack of the player to move."""
    from mathable.render import panels

    kind = game.game_type
    view = game.view(game.to_move)
    console.print(panels.view_surface(kind, view))
    console.print(
        panels.scores_table(
            view.players,
            view.scores,
            view.to_move,
            view.rack_sizes,
            kind.score_unit,
            panels.holder(kind),
        )
    )
    console.print(Text(panels.supply_count(kind, view.bag_size)))
    name = view.players[view.to_move]
    # TRANSLATORS: the pieces of the player to move follow (in a lesson: Ann's rack:)
    if kind.piece == "card":
        held = _("{name}'s hand:", name=name)
    else:
        held = _("{name}'s rack:", name=name)
    console.print(Text(held + " "), panels.rack_text(view.rack))
    if view.playable != view.rack:
        # TRANSLATORS: the pieces the player must place now follow (a card just drawn)
        console.print(Text(_("to place:") + " "), panels.rack_text(view.playable))


def run_lesson(console: Console, lesson: Lesson) -> bool:
    """Go through ``lesson`` step by step at the terminal; False if the learner quit."""
    from mathable.learn.lessons import check
    from mathable.render.words import clean

    from .prompt import ask, refused

    console.print(Text(str(lesson.title), style="bold"))
    console.print(Text(str(lesson.intro)))
    console.print(Text(_("Type the move, 'hint' to see it, 'quit' to leave.")))
    count = len(lesson.steps)
    for index, step in enumerate(lesson.steps):
        game = lesson.game_before(index)
        console.print()
        # TRANSLATORS: a lesson's progress, then the step's title
        console.rule(
            Text(
                _(
                    "Step {number} of {count}: {title}",
                    number=index + 1,
                    count=count,
                    title=step.title,
                )
            )
        )
        _draw(console, game)
        console.print(Text(str(step.text), style="cyan"))
        while True:
            line = typed_command(
                ask(console, Text.assemble((game.players[game.to_move], "bold"), "> "))
            )
            word = line.strip().split()[0].lower() if line.strip() else ""
            if word == "quit":
                return False
            if word in ("help", "?"):
                # TRANSLATORS: a lesson's help; {move} is a move in the notation (I8=12),
                # {hint} and {quit} the words to type
                said = _(
                    "Type the move in the notation, like {move}: a cell, '=', then the "
                    "value; {hint} shows the move, {quit} leaves.",
                    move="I8=12",
                    hint=i18n.command_name("hint"),
                    quit=i18n.command_name("quit"),
                )
                console.print(Text(said))
                continue
            if word == "hint":
                # TRANSLATORS: a lesson's hint: the move to type, then why it is legal
                console.print(
                    Text(_("Type {move}: {why}.", move=i18n.shown_command(step.move), why=step.why))
                )
                continue
            attempt = check(lesson, index, line)
            if attempt.correct:
                console.print(Text(clean(attempt.text), style="green"))
                break
            refused(console, clean(attempt.text))
    console.print()
    console.print(Text(str(lesson.end), style="bold green"))
    return True


LEARN_HELP = helps(
    lazy(
        "A guided first game: make each move of the rulebook's example game yourself, "
        "with each rule explained and wrong moves explained too."
    )
)
"""The help of ``learn``."""


def learn(variant: VariantOpt = "classic") -> None:
    from mathable.engine.errors import MathableError
    from mathable.learn.lessons import lesson_for

    try:
        lesson = lesson_for(variant)
    except MathableError as exc:
        raise fail(str(exc)) from None
    tolerant_stdin()
    run_lesson(console, lesson)

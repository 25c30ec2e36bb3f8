"""``mathable practice``: one learner against the gentle computer, with free help (issue 18).

Each of the learner's turns shows the board, the rack with the cells each token fits
(``7: G9, J5``; a ``*`` marks a cell practising the level's arithmetic), and takes the
notation as in the line-by-line game; ``hint`` is free. When the turn is over, the best turn
that was available is shown with its explanation (:mod:`mathable.learn.practice`). The
command is registered by :mod:`.main`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from mathable.i18n import _, lazy, typed_command

from .shell import console, fail, helps, tolerant_stdin

if TYPE_CHECKING:
    from mathable.learn.practice import Level, Review

MAX_LINE = 200
"""The longest line read (a longer one is refused, not parsed)."""


def run_practice(console: Console, level: Level, seed: int | None = None) -> None:
    """Play a practice game of ``level`` to its end (or ``quit``) at the terminal."""
    from mathable.ai import seat_bots
    from mathable.learn.practice import COMPUTER, Coach, fits, new_practice, positions

    from .hotseat import play_line
    from .linehelp import help_text
    from .prompt import ask, refused
    from .screen import bot_action, draw, game_over, hint

    # TRANSLATORS: the learner's name in a practice game
    game = new_practice(level, _("You"), seed)
    bots = seat_bots(list(game.players), seed, {1: COMPUTER})
    coach = Coach(game, seat=0)
    # TRANSLATORS: a practice game's title: the level, then what it deals
    console.print(Text(_("Practice: {level}. {summary}", level=level.title, summary=level.summary)))
    console.print(Text(_("Type 'hint' for the best turns (free), 'help' for the commands.")))
    coach.observe()
    thinking: int | None = None
    drawn: int | None = None  # the log's length when the board was last drawn
    while not game.is_over:
        seat = game.to_move
        if seat in bots:
            thinking = bot_action(console, game, seat, bots[seat], thinking)
            _reviewed(console, coach.observe())
            continue
        thinking = None
        view = game.view(seat)
        if drawn != len(game.log):  # a refusal, help or hint stays in sight
            draw(console, game, view)
            # TRANSLATORS: then, per rack value, the cells it fits; '*' marks the level's
            # arithmetic
            console.print(Text(_("Where your tokens fit (* practises the level):")))
            console.print(Text(positions(fits(game, level))))
            drawn = len(game.log)
        line = typed_command(ask(console, Text.assemble((game.players[seat], "bold"), "> ")))
        line = line.strip()
        if not line:
            continue
        if len(line) > MAX_LINE:
            refused(console, _("the line is too long (at most {count} characters)", count=MAX_LINE))
            continue
        word = line.split()[0].lower()
        if word in ("help", "?"):
            console.print(Text(help_text(game.game_type, True, view.available, ())))
        elif word == "quit":
            return
        elif word == "hint":
            hint(console, game, view)
        else:
            refusal = play_line(game, line, seat)
            if refusal is not None:
                refused(console, refusal)
                continue
            _reviewed(console, coach.observe())
    draw(console, game, game.view(None))
    game_over(console, game)


def _reviewed(console: Console, review: Review | None) -> None:
    """The review of the learner's turn just ended, if one ended."""
    from mathable.render.words import clean

    if review is None:
        return
    style = "green" if review.found_best else "yellow"
    for line in review.text().splitlines():
        console.print(Text(clean(line), style=style))


PRACTICE_HELP = helps(
    lazy(
        "Practise against the gentle computer: your rack with the cells each token fits, "
        "free hints, and after each turn the best turn you had, explained."
    )
)
"""The help of ``practice``."""


def practice(
    level: Annotated[
        str,
        typer.Option(
            help=helps(
                lazy(
                    "plus-minus (Mathable Junior: + and − up to 20), tables (the classic game, "
                    "× and ÷ of the tables up to 10 marked) or everything."
                )
            )
        ),
    ] = "everything",
    seed: Annotated[
        int | None,
        typer.Option(min=0, max=10**9, help=helps(lazy("Seed of the shuffle (random if unset)."))),
    ] = None,
) -> None:
    from mathable.learn.practice import get_level

    try:
        chosen = get_level(level)
    except ValueError as exc:
        raise fail(str(exc)) from None
    tolerant_stdin()
    run_practice(console, chosen, seed)

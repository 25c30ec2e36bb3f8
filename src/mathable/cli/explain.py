"""``mathable explain POSITION PLACEMENT`` (issue 18): the equations that make a placement
legal and how its points add up, or why it is refused.

:mod:`.main` registers the command; POSITION is read as ``moves`` and ``show`` read it (a
one-line position, a file or a record).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from mathable.i18n import _, lazy

from .games import read_position
from .shell import JsonFlag, PositionArg, console, fail, helps, print_json

MAX_PLACEMENT = 40
"""The longest placement read, in characters (``I8=12`` is five)."""


EXPLAIN_HELP = helps(
    lazy(
        "Explain a placement in a position: each equation it completes and how its "
        "points add up, or why the rules refuse it."
    ),
    # TRANSLATORS: the notation between quotes is typed as it is, in every language
    lazy("For example: mathable explain 'classic | ...' I8=12"),
)
"""The help of ``explain``."""


def explain(
    position: PositionArg,
    placement: Annotated[
        str, typer.Argument(help=helps(lazy("The placement, in the notation: I8=12.")))
    ],
    json_out: JsonFlag = False,
) -> None:
    from mathable.engine.errors import MathableError
    from mathable.games import registry

    pos, _rules = read_position(position)
    if len(placement) > MAX_PLACEMENT:
        raise fail(_("the placement is too long (at most {most} characters)", most=MAX_PLACEMENT))
    written = pos.format(registry.position_grids()[pos.variant])
    try:  # as /api/explain: the registry explains, no board-family import here (issue 34)
        explained = registry.explain_placement(written, placement)
    except MathableError as exc:
        raise fail(str(exc)) from None
    if json_out:
        print_json(explained.to_json())
        return
    if not explained.legal:
        # TRANSLATORS: a refused placement: why, then the rule refusing it
        raise fail(_("{reason} (rule {rule})", reason=explained.reason, rule=explained.rule))
    for equation in explained.equations:
        console.print(Text(equation.text()))
    if not explained.equations or explained.points:
        # TRANSLATORS: how a placement's points add up: 2 equations × 12 × 2 (award) = 48
        console.print(Text(_("points: {sum}", sum=explained.points_text())))

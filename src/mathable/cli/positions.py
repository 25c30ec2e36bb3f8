"""``mathable show``, ``moves`` and ``hint``: a one-line position drawn, its legal
placements, and the best whole turns for the player to move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from mathable.i18n import _, lazy, ngettext, pgettext

from ._later import later
from .games import rack_of, read_position, written
from .shell import JsonFlag, PositionArg, console, fail, game_type, helps, print_json

if TYPE_CHECKING:
    from mathable.render import panels
else:
    panels = later("mathable.render.panels")


SHOW_HELP = helps(lazy("Draw a position's board in the terminal, squares in colour."))
"""The help of ``show``."""


def show(position: PositionArg) -> None:
    pos, rules = read_position(position)
    kind = game_type(pos.variant)
    board = rules.new_board(dict(pos.board))
    console.print(panels.surface_group(kind, board.values))
    names = tuple(_("Player {number}", number=i + 1) for i in range(len(pos.racks)))
    sizes = tuple(rack_of(r)[1] for r in pos.racks)
    console.print(panels.scores_table(names, pos.scores, pos.to_move, sizes))
    rack, _size = rack_of(pos.racks[pos.to_move])
    if rack is not None:
        # TRANSLATORS: the rack of the player to move follows
        console.print(Text(_("rack to move:") + " "), panels.rack_text(rack))
    console.print(Text(panels.supply_count(kind, pos.bag)))


MOVES_HELP = helps(
    lazy("Every legal single placement for the player to move, with its points, best first."),
    lazy("When that rack is hidden ('?7'), every token value still in play is tried."),
)
"""The help of ``moves``."""


def moves(
    position: PositionArg,
    json_out: JsonFlag = False,
    limit: Annotated[
        int, typer.Option(min=0, help=helps(lazy("Show at most this many (0: all).")))
    ] = 0,
) -> None:
    pos, rules = read_position(position)
    board = rules.new_board(dict(pos.board))
    rack, _size = rack_of(pos.racks[pos.to_move])
    if rack is None:
        on_board: dict[int, int] = {}
        start = set(rules.layout.start_cells())
        for cell, value in pos.board:
            if cell not in start:
                on_board[value] = on_board.get(value, 0) + 1
        values = sorted(v for v, n in rules.tokens.items() if n > on_board.get(v, 0))
    else:
        values = sorted(set(rack))
    found = [
        (rules.placement_points(board, cell, value), cell, value, board.equations(cell, value))
        for value in values
        for cell in rules.legal_cells(board, value)
    ]
    found.sort(key=lambda m: (-m[0], m[1], m[2]))
    total = len(found)
    if limit:
        found = found[:limit]
    grid = board.grid
    if json_out:
        print_json(
            [
                {
                    "placement": written(grid, c, v),
                    "cell": grid.name(c),
                    "value": v,
                    "points": p,
                    "equations": n,
                }
                for p, c, v, n in found
            ]
        )
        return
    if not found:
        console.print(Text(_("No legal placement.")))
        return
    table = Table(header_style="bold", box=None)
    # TRANSLATORS: a column heading: a placement in the notation (I8=12)
    table.add_column(pgettext("column", "placement"))
    table.add_column(pgettext("column", "points"), justify="right")
    # TRANSLATORS: a column heading: how many equations a placement makes
    table.add_column(pgettext("column", "equations"), justify="right")
    for points, cell, value, n in found:
        table.add_row(Text(written(grid, cell, value)), str(points), str(n))
    console.print(table)
    if len(found) < total:
        # TRANSLATORS: how many legal placements are shown, of how many there are
        said = ngettext(
            "{shown} of {count} placement", "{shown} of {count} placements", total, shown=len(found)
        )
    else:
        said = ngettext("{count} placement", "{count} placements", total)
    console.print(Text(said))


HINT_HELP = helps(lazy("The best whole turns for the player to move (exact search), best first."))
"""The help of ``hint``."""


def hint(
    position: Annotated[
        str, typer.Argument(help=helps(lazy("A one-line position, a file, or a record.")))
    ],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(min=1, help=helps(lazy("How many turns to show.")))] = 5,
) -> None:
    from mathable.ai.hints import board_hints

    pos, rules = read_position(position)
    rack, _size = rack_of(pos.racks[pos.to_move])
    if rack is None:
        raise fail(_("the rack to move is hidden ('?N'): a hint needs the rack"))
    board = rules.new_board(dict(pos.board))
    found = board_hints(rules, board, rack, started_with=len(rack), limit=max(1, limit))
    if json_out:
        print_json(
            [
                {
                    "turn": h.notation,
                    "points": (h.points or 0) - h.bonus,
                    "bonus": h.bonus,
                    "total": h.points or 0,
                    "leave": list(h.leave),
                }
                for h in found
            ]
        )
        return
    if not found:
        console.print(Text(_("No placement: pass or exchange.")))
        return
    for h in found:
        # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
        bonus = " " + _("(+{bonus} bonus)", bonus=h.bonus) if h.bonus else ""
        # TRANSLATORS: a rack keeping no token after a hinted turn
        kept = " ".join(map(str, h.leave)) or pgettext("kept", "nothing")
        # TRANSLATORS: then the values of the tokens left on the rack after a hinted turn
        keeps = _("keeps {values}", values=kept)
        console.print(Text(f"{h.points or 0:>4}{bonus}  {h.notation}   {keeps}"))

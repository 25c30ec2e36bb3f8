"""Reading the games commands are given: a record file, a one-line position (or a file
holding one), and the board family's rules of a board game for the commands that work a
position out on the board (``moves``, ``show``); anything else is refused in one line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mathable.i18n import _, ngettext

from ._later import later
from .shell import MAX_PATH, fail, game_type, in_file, read_file

if TYPE_CHECKING:
    from mathable.engine import actions, errors, notation
    from mathable.engine.notation import CellNames, Position
    from mathable.engine.protocol import Game, GameType
    from mathable.games import registry
    from mathable.games.board.variants import Variant
    from mathable.render import panels
else:
    actions = later("mathable.engine.actions")
    errors = later("mathable.engine.errors")
    notation = later("mathable.engine.notation")
    registry = later("mathable.games.registry")
    panels = later("mathable.render.panels")


def board_rules(
    kind: GameType, what: Literal["score sheets", "positions"], replay: bool = False
) -> Variant:
    """The board family's rules of a game played on a board, for what a position's
    commands work out on the board itself (``moves``, ``show``: legal cells, points);
    other games fail as :func:`on_a_board` says."""
    on_a_board(kind, what, replay)
    from mathable.games.board.variants import get_variant

    return get_variant(kind.name)


def on_a_board(
    kind: GameType, what: Literal["score sheets", "positions"], replay: bool = False
) -> None:
    """Fail unless ``kind`` is played on a board (score sheets and one-line positions are
    board notions), saying so (and that ``replay`` shows a record of it, if ``replay``)."""
    if kind.surface != "board":
        game = kind.title
        if what == "score sheets":
            raise fail(
                _("score sheets are for the board games; {game} is played on piles", game=game)
            )
        if replay:
            raise fail(
                _(
                    "positions are for the board games; {game} is played on piles: use replay",
                    game=game,
                )
            )
        raise fail(_("positions are for the board games; {game} is played on piles", game=game))


def written(names: CellNames, cell: int, value: int, extra: bool = False) -> str:
    """A placement in the notation: ``I8=12``, ``J8=16+``."""
    return notation.format_placement(actions.Place(cell, value, extra), names)


def load_game(path: Path) -> Game:
    """The game a record file holds; a file that is not a valid record is refused."""
    text = read_file(path)
    try:
        return registry.from_record(text)
    except errors.MathableError as exc:
        raise fail(in_file(path, exc)) from None
    except RecursionError:
        raise fail(in_file(path, _("not a game record (nested too deeply)"))) from None


def position_of(game: Game) -> Position:
    """The one-line position of a game on a board, as the seat to move sees it (other
    racks by their size unless they lie face up or the game is over)."""
    view = game.view(game.to_move)
    racks = tuple(
        view.open_racks[s] if view.open_racks else view.rack if s == view.seat else size
        for s, size in enumerate(view.rack_sizes)
    )
    board = tuple((c, v) for c, v in enumerate(view.surface) if v != panels.EMPTY)
    return notation.Position(game.name, board, racks, view.scores, view.bag_size, view.to_move)


def rack_of(rack: tuple[int, ...] | int) -> tuple[tuple[int, ...] | None, int]:
    """A position's rack as its values (None when hidden: ``?7`` is written as its size)
    and its size."""
    if isinstance(rack, int):
        return None, rack
    return rack, len(rack)


def _names_a_file(text: str) -> bool:
    """Whether ``text`` (a command's position argument) names an existing file: text
    with a ``|`` is a position, and text no file name can be is never looked up."""
    if "|" in text or "\0" in text or not text.strip() or len(text) > MAX_PATH:
        return False
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # a name too long for the file system
        return False


def read_position(text: str) -> tuple[Position, Variant]:
    """A position given as its one-line text, a file holding it, or a game record."""
    if _names_a_file(text):
        path = Path(text)
        content = read_file(path).strip()
        if content.startswith("{"):
            game = load_game(path)
            rules = board_rules(game.game_type, "positions", replay=True)
            return position_of(game), rules
        text = content
    elif "|" not in text:
        # TRANSLATORS: the fields of a one-line position between brackets, separated by |
        raise fail(
            _(
                "{text} is neither a file nor a one-line position "
                "(variant | board | racks | scores | bag | to move)",
                text=repr(text),
            )
        )
    grids = registry.position_grids()
    try:
        position = notation.Position.parse(text, grids)
    except errors.MathableError as exc:
        raise fail(str(exc)) from None
    kind = game_type(position.variant)
    rules = board_rules(kind, "positions")
    if any(not 0 <= c < len(kind.targets) for c, _value in position.board):
        raise fail(_("the position has a cell off the board"))
    if not kind.min_players <= len(position.racks) <= kind.max_players:
        raise fail(
            ngettext(
                "the position has {count} rack; {game} is played by {fewest} to {most} players",
                "the position has {count} racks; {game} is played by {fewest} to {most} players",
                len(position.racks),
                game=kind.title,
                fewest=kind.min_players,
                most=kind.max_players,
            )
        )
    for seat, rack in enumerate(position.racks, start=1):
        values, size = rack_of(rack)
        if size > kind.rack_size:
            raise fail(_rack_too_full(kind, seat, size))
        strange = [v for v in values or () if v not in rules.tokens]
        if strange:
            raise fail(_not_a_piece(kind, seat, strange[0]))
    return position, rules


def _rack_too_full(kind: GameType, seat: int, size: int) -> str:
    """A rack of a position holding more pieces than the game allows, in words."""
    values = {"rack": seat, "count": size, "most": kind.rack_size}
    if kind.piece == "card":
        return ngettext(
            "rack {rack} holds {count} card; at most {most}",
            "rack {rack} holds {count} cards; at most {most}",
            size,
            **values,
        )
    if kind.piece == "tile":
        return ngettext(
            "rack {rack} holds {count} tile; at most {most}",
            "rack {rack} holds {count} tiles; at most {most}",
            size,
            **values,
        )
    return ngettext(
        "rack {rack} holds {count} token; at most {most}",
        "rack {rack} holds {count} tokens; at most {most}",
        size,
        **values,
    )


def _not_a_piece(kind: GameType, seat: int, value: int) -> str:
    """A value on a position's rack that no piece of the game has, in words."""
    values = {"rack": seat, "value": value, "game": kind.title}
    if kind.piece == "card":
        return _("rack {rack}: {value} is not a card of {game}", **values)
    if kind.piece == "tile":
        return _("rack {rack}: {value} is not a tile of {game}", **values)
    return _("rack {rack}: {value} is not a token of {game}", **values)

"""Every game of the family by name: the one place games are found and created.

Adding a game is one package under ``games/`` plus one line in :data:`GAMES`; no front
end changes, for front ends learn all they draw and offer from a game's
:class:`~mathable.engine.protocol.GameType` (``mathable variants --json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mathable.engine import validation
from mathable.engine.errors import MathableError
from mathable.engine.explain import Explanation
from mathable.engine.notation import CellNames, Position
from mathable.engine.protocol import Game, GameType, HouseRules
from mathable.engine.records import replay_record
from mathable.i18n import lazy

from .board.game import game_type_of
from .board.keeper import KeptGame, KeptTurn, drawn_first
from .board.keptrecord import kept_record as board_record
from .board.placements import explain_in_position
from .board.variants import CLASSIC, JUNIOR, JUNIOR_NUMBERS, Variant
from .quattro.game import QUATTRO
from .quattro.keeper import KeptQuattro, KeptQuattroTurn
from .quattro.keptrecord import kept_quattro_record

_BOARD_VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, JUNIOR, JUNIOR_NUMBERS)}

GAMES: dict[str, GameType] = {
    t.name: t
    for t in (
        *(game_type_of(v) for v in _BOARD_VARIANTS.values()),
        QUATTRO,
    )
}
"""Every game, by name, in the order menus list them."""


class UnknownGame(MathableError):
    """A game name that is not in :data:`GAMES`."""


def game_type(name: str) -> GameType:
    """The game called ``name``; raises UnknownGame (a ValueError) listing every game."""
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(GAMES)
        raise UnknownGame(
            lazy(
                "unknown game {name}; choose one of {known}",
                name=validation.shown(name),
                known=known,
            )
        )
    return found


def new_game(
    name: str,
    players: Sequence[str] | int = 2,
    *,
    seed: int | None = None,
    house_rules: HouseRules | None = None,
    rounds: int = 1,
    setup: Mapping[str, Any] | None = None,
    version: int | None = None,
) -> Game:
    """A new game of ``name``; ``rounds`` counts for games played in rounds (any other
    game refuses more than one); ``version`` an older rules version to play by (a stored
    game's, so a game begun before a rules change goes on by the rules it began with).
    Bad players, seeds, house rules or setups are refused with a MathableError naming the
    field, before anything is built."""
    kind = game_type(name)
    if kind.rounds:
        options: dict[str, Any] = {"rounds": rounds}
    elif rounds != 1 or isinstance(rounds, bool):
        raise validation.FieldError("rounds", validation.not_in_rounds(kind))
    else:
        options = {}
    older = None if version is None or version >= kind.version else version
    return kind.create(
        players, seed=seed, house_rules=house_rules, options=options, setup=setup, version=older
    )


def from_record(data: dict[str, Any] | str) -> Game:
    """Replay a record of any game (data or JSON text); raises RecordError."""
    return replay_record(data, game_type)


def position_grids() -> dict[str, CellNames]:
    """The cell names of every game on a board, by name (for :meth:`Position.parse`)."""
    return {name: variant.layout.grid for name, variant in _BOARD_VARIANTS.items()}


def parse_position(text: str) -> Position:
    """A one-line position of a game on a board, checked in full against its game: the
    text (at most :data:`~mathable.engine.notation.MAX_POSITION_LENGTH` characters),
    the number of racks, rack sizes, printed squares, and board, racks and bag adding up
    to the game's pieces. Raises NotationError naming the field."""
    position = Position.parse(text, position_grids())
    variant = _BOARD_VARIANTS[position.variant]
    squares = variant.layout.squares
    position.check(
        pieces=variant.tokens,
        printed={c: sq.start for c, sq in enumerate(squares) if sq.start is not None},
        grid=variant.layout.grid,
        rack_size=variant.rack_size,
        players=(variant.min_players, variant.max_players),
        piece=variant.piece,
    )
    return position


def sheet_games() -> list[str]:
    """The games whose paper score sheets can be written and scored, by name."""
    return [name for name, kind in GAMES.items() if kind.sheets is not None]


def score_sheet(name: str, text: str) -> dict[str, Any]:
    """A paper score sheet of the game ``name`` scored turn by turn, as JSON-ready data
    (``mathable score --json``); raises UnknownGame, ValueError for a game without
    score sheets (see :func:`sheet_games`), or a MathableError at the sheet's first
    bad line."""
    kind = game_type(name)
    if kind.sheets is None:
        raise ValueError(lazy("{game} has no score sheets", game=kind.title_text))
    return kind.sheets.score(text)


Kept = KeptGame | KeptQuattro
"""A game kept by the score keeper: on a board, or a Quattro match (the same protocol:
``play(text)``, ``turns``, ``scores``, ``to_move``, ``unseen()``, ``is_over``, ``sheet()``)."""

KeptAnyTurn = KeptTurn | KeptQuattroTurn
"""A turn of a :data:`Kept` game."""


def kept_games() -> list[str]:
    """The games the score keeper keeps (issue 37): those played on a board, whose turns
    a sheet writes, and Quattro, whose turns its engine's notation writes."""
    return [*_BOARD_VARIANTS, QUATTRO.name]


def kept_game(
    name: str, players: Sequence[str], first: int = 0, referee: bool = False, rounds: int = 1
) -> Kept:
    """A game of ``name`` on a real table, kept turn by turn (the score keeper, R1: the
    racks and hands unknown); ``first`` the seat that starts, ``referee`` the
    table-referee house rule (C12, board games), ``rounds`` the rounds agreed (Q5,
    Quattro). Raises UnknownGame for a game the keeper does not keep, or an IllegalMove
    for a table the game cannot seat."""
    if name == QUATTRO.name:
        return KeptQuattro(players, first=first, referee=referee, rounds=rounds)
    variant = _BOARD_VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        known = ", ".join(kept_games())
        raise UnknownGame(
            lazy("unknown game {name} (known: {known})", name=validation.shown(name), known=known)
        )
    if rounds != 1 or isinstance(rounds, bool):
        raise validation.FieldError("rounds", validation.not_in_rounds(GAMES[name]))
    return KeptGame(variant, players, first=first, referee=referee)


def kept_record(game: Kept) -> dict[str, Any]:
    """A game record that replays the kept game (``mathable replay``, ``POST
    /api/records``): a board game's racks, a Quattro match's hands and reserve
    reconstructed as R1 allows. Raises a MathableError saying why when the rules cannot
    replay the game as kept."""
    if isinstance(game, KeptQuattro):
        return kept_quattro_record(game)
    return board_record(game)


def kept_table(game: Kept) -> dict[str, Any]:
    """What lies on the table of a kept game, as JSON-ready data: its game's name; on a
    board, the tokens placed (by cell), the bag and each rack's count; for Quattro, the
    piles' top cards and sizes, the reserve, each hand's count, the round, the rounds
    agreed and won, DIAGO. ``afterwards``: whether the game has a record and an analysis."""
    if isinstance(game, KeptQuattro):
        return {
            "variant": game.name,
            "started": game.started,
            "piles": game.piles,
            "pile_sizes": game.pile_sizes,
            "reserve": game.reserve,
            "bag": game.reserve,
            "racks": game.hands,
            "round": game.round,
            "rounds": game.rounds,
            "round_winners": game.round_winners,
            "diagonals": game.diagonals,
            "diago_used": game.diago_used,
            "end_text": game.end_text(),
            "afterwards": True,
        }
    board = game.table.board
    return {
        "variant": game.variant.name,
        "started": True,
        "board": {board.grid.name(c): v for c, v in board.placed().items()},
        "bag": game.bag,
        "racks": list(game.racks),
        "afterwards": True,
    }


def first_seat(name: str, players: Sequence[str], first: str | None) -> int:
    """The seat that starts a kept game: ``first`` a player's name, ``"draw"`` for the
    rulebook's draw (C10, made here: for Quattro, a card of the same deck, Q1), None the
    first listed. Raises UnknownGame or a MathableError naming the player not found."""
    kept_game(name, players)  # the game and its table checked first
    if first is None:
        return 0
    if first == "draw":
        return drawn_first(_BOARD_VARIANTS.get(name, CLASSIC), players)
    wanted = " ".join(first.split())
    names = [" ".join(p.split()) for p in players]
    if wanted not in names:
        raise MathableError(lazy("first: {name} is not one of the players", name=repr(first)))
    return names.index(wanted)


def explain_placement(position: str, placement: str) -> Explanation:
    """Explain ``placement`` (``I8=12``) in a one-line ``position`` of a game with a board:
    the equations that make it legal and its points, or why it is refused and by which
    rule (``/api/explain``, issue 18). Raises a MathableError when the position or the
    placement cannot be read, or the game has no board."""
    grids = position_grids()
    found = Position.parse(position, grids)
    if found.variant not in grids:
        raise MathableError(
            lazy("{game} has no board to explain placements on", game=found.variant)
        )
    return explain_in_position(found, placement)


def catalog() -> list[dict[str, Any]]:
    """Every game with its capabilities, as JSON-ready data."""
    return [kind.capabilities() for kind in GAMES.values()]


__all__ = [
    "GAMES",
    "Kept",
    "KeptAnyTurn",
    "KeptGame",
    "KeptQuattro",
    "KeptTurn",
    "UnknownGame",
    "catalog",
    "first_seat",
    "from_record",
    "game_type",
    "kept_game",
    "kept_games",
    "kept_record",
    "kept_table",
    "new_game",
    "parse_position",
    "position_grids",
    "score_sheet",
    "sheet_games",
]

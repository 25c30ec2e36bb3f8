"""What one player may know of a game: the only thing that leaves a server or reaches a bot.

A view holds the player's own rack, the public board, scores and turns, the size of the
bag and the player card (C13); never another player's rack nor the order of the bag.
Once the game is over the racks are shown, as players do when they deduct them (C11).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import EMPTY
from .game import PlacedToken, TurnRecord

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class PlayerView:
    """A game as ``seat`` sees it (``seat`` is None for a spectator)."""

    variant: str
    seat: int | None
    players: tuple[str, ...]
    board: tuple[int, ...]
    """The value on every cell, row by row; -1 where empty."""
    rack: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    bag_size: int
    to_move: int
    turn_placements: tuple[PlacedToken, ...]
    turn_points: int
    turns: tuple[TurnRecord, ...]
    unseen: dict[int, int]
    start_draws: tuple[tuple[int, int], ...]
    house_rules: dict[str, bool]
    can_challenge: bool
    over: bool
    end_reason: str
    deductions: tuple[int, ...]
    open_racks: tuple[tuple[int, ...], ...]
    """Every rack, when all may see them: face-up variants, or once the game is over."""

    def to_dict(self, cell_name: Any = None) -> dict[str, Any]:
        """JSON-ready data; ``cell_name`` turns cell numbers into names if given."""
        name = cell_name or (lambda c: c)

        def placed(p: PlacedToken) -> dict[str, Any]:
            return {"cell": name(p.cell), "value": p.value, "points": p.points, "extra": p.extra}

        return {
            "variant": self.variant,
            "seat": self.seat,
            "players": list(self.players),
            "board": {name(c): v for c, v in enumerate(self.board) if v != EMPTY},
            "rack": list(self.rack),
            "rack_sizes": list(self.rack_sizes),
            "scores": list(self.scores),
            "bag_size": self.bag_size,
            "to_move": self.to_move,
            "turn": {
                "placements": [placed(p) for p in self.turn_placements],
                "points": self.turn_points,
            },
            "turns": [
                {
                    "seat": t.seat,
                    "kind": t.kind,
                    "points": t.points,
                    "bonus": t.bonus,
                    "exchanged": t.exchanged,
                    "challenged": t.challenged,
                    "placements": [placed(p) for p in t.placements],
                }
                for t in self.turns
            ],
            "unseen": {str(v): n for v, n in self.unseen.items()},
            "start_draws": [list(d) for d in self.start_draws],
            "house_rules": dict(self.house_rules),
            "can_challenge": self.can_challenge,
            "over": self.over,
            "end_reason": self.end_reason,
            "deductions": list(self.deductions),
            "open_racks": [list(r) for r in self.open_racks],
        }


def make_view(game: Game, seat: int | None) -> PlayerView:
    """Build ``seat``'s view of ``game``."""
    if seat is not None and not 0 <= seat < len(game.players):
        raise ValueError(f"seat {seat} is not in this game")
    n = len(game.players)
    over = game.is_over
    return PlayerView(
        variant=game.variant.name,
        seat=seat,
        players=game.players,
        board=tuple(game.board.values),
        rack=game.rack(seat) if seat is not None else (),
        rack_sizes=tuple(len(game.rack(s)) for s in range(n)),
        scores=game.scores,
        bag_size=game.bag_size,
        to_move=game.to_move,
        turn_placements=game.turn_placements,
        turn_points=game.turn_points,
        turns=game.turns,
        unseen=game.unseen(seat),
        start_draws=game.start_draws,
        house_rules=game.house_rules.to_dict(),
        can_challenge=game.can_challenge,
        over=over,
        end_reason=game.end_reason,
        deductions=game.deductions,
        open_racks=(
            tuple(game.rack(s) for s in range(n)) if over or game.variant.open_racks else ()
        ),
    )

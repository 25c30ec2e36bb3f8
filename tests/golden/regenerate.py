"""Golden playthroughs: one whole seeded game of every game, written as a person reads it.

As OpenSpiel keeps its playthroughs, each file ``tests/golden/<game>-<seed>.txt`` holds a
header (game, seed, players, house rules, rounds) and then every action of one game,
each followed by the state: the surface (board grid with coordinates, or the piles),
every rack (all shown: the files are for tests), scores, bag count, whose turn, the
turns finished in words, and at the end the result. ``tests/test_golden.py`` replays each
file's game from its header and diffs it against the file, so any change in the rules,
the notation or the views shows up as a readable diff.

The moves come from a fixed policy (:func:`choose`): a ``random.Random`` seeded with the
game's seed over ``game.legal_actions()``, preferring placements. It does not depend on
the computer players, so tuning them never changes these files.

After a deliberate rules change, regenerate them all and review the diff::

    make golden          # or: .venv/bin/python tests/golden/regenerate.py

The writer uses only the one game protocol (``view``, ``game_type``, ``format_action``),
so the same code writes every game.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mathable import new_game
from mathable.engine.actions import Action, action_kind
from mathable.engine.protocol import Game, HouseRules

HERE = Path(__file__).resolve().parent
HEADER = "# Golden playthrough. After a deliberate rules change: make golden (see README.md)."


@dataclass(frozen=True)
class Golden:
    """What makes one golden game: everything its header says."""

    game: str
    seed: int
    players: tuple[str, ...]
    house_rules: HouseRules = field(default_factory=HouseRules)
    rounds: int = 1

    @property
    def filename(self) -> str:
        """``<game>-<seed>.txt``."""
        return f"{self.game}-{self.seed}.txt"

    def header(self) -> list[str]:
        """The header lines, which :func:`parse_header` reads back."""
        on = [name for name, value in self.house_rules.to_dict().items() if value]
        return [
            HEADER,
            f"game: {self.game}",
            f"seed: {self.seed}",
            f"players: {', '.join(self.players)}",
            f"house_rules: {', '.join(on) or 'none'}",
            f"rounds: {self.rounds}",
            f"policy: random.Random({self.seed}), placements first (tests/golden/regenerate.py)",
        ]


GOLDENS = (
    Golden("classic", 7, ("Ann", "Bob")),
    Golden("junior", 11, ("Ann", "Bob", "Cy")),
    Golden("junior-numbers", 5, ("Ann", "Bob", "Cy", "Dee")),
    Golden("quattro", 3, ("Ann", "Bob", "Cy", "Dee"), rounds=2),
)
"""The golden games: every game, 2 to 4 seats among them."""


def parse_header(text: str) -> Golden:
    """The game a golden file describes, from its header lines (``key: value``)."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break
        if line.startswith("#"):
            continue
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    rules = fields.get("house_rules", "none")
    names = [] if rules == "none" else [r.strip() for r in rules.split(",")]
    return Golden(
        game=fields["game"],
        seed=int(fields["seed"]),
        players=tuple(p.strip() for p in fields["players"].split(",")),
        house_rules=HouseRules.from_dict(dict.fromkeys(names, True)),
        rounds=int(fields.get("rounds", "1")),
    )


# -- the policy --------------------------------------------------------------------------

PLACING = ("place", "extra")
AGREED = ("stop", "challenge")
"""Kinds the policy uses only when nothing else is legal (ending by agreement would cut
the game short; a challenge is a question for the table referee house rule)."""


def choose(actions: list[Action], rng: random.Random) -> Action:
    """A seeded choice: a kind of action first (placements four times in five when there
    are any), then one action of that kind, so that a pile of exchange subsets does not
    crowd out the rest."""
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action_kind(action), []).append(action)
    kinds = [k for k in by_kind if k not in AGREED] or list(by_kind)
    placing = [k for k in kinds if k in PLACING]
    if placing and rng.random() < 0.8:
        kinds = placing
    return rng.choice(by_kind[rng.choice(kinds)])


# -- the writer --------------------------------------------------------------------------


def _cell(value: int, label: str) -> str:
    """A board square: its value, or when empty its printed label in brackets."""
    if value >= 0:
        return str(value)
    return f"[{label}]" if label else "."


def surface_lines(game: Game) -> list[str]:
    """The board with coordinates, or every pile with its top card."""
    kind = game.game_type
    tops = game.view(None).surface
    if kind.surface == "piles":
        return [
            "  ".join(
                f"{t.name}: {'-' if tops[i] < 0 else tops[i]:>3}"
                for i, t in enumerate(kind.targets[row : row + kind.columns], start=row)
            )
            for row in range(0, len(kind.targets), kind.columns)
        ]
    rows = [kind.targets[r : r + kind.columns] for r in range(0, len(kind.targets), kind.columns)]
    cells = [
        [_cell(tops[r * kind.columns + c], t.label) for c, t in enumerate(row)]
        for r, row in enumerate(rows)
    ]
    width = max(4, *(len(text) for row in cells for text in row))
    columns = [_common_prefix([row[c].name for row in rows]) for c in range(kind.columns)]
    labels = [_common_suffix([t.name for t in row]) for row in rows]
    margin = max(len(label) for label in labels)
    lines = [" " * margin + "".join(name.rjust(width + 1) for name in columns)]
    for label, row_cells in zip(labels, cells, strict=True):
        lines.append(label.rjust(margin) + "".join(text.rjust(width + 1) for text in row_cells))
    return lines


def _common_prefix(names: list[str]) -> str:
    first = names[0]
    length = next(
        (i for i in range(len(first)) if any(len(n) <= i or n[i] != first[i] for n in names)),
        len(first),
    )
    return first[:length]


def _common_suffix(names: list[str]) -> str:
    return _common_prefix([n[::-1] for n in names])[::-1]


def state_lines(game: Game, seen: int) -> list[str]:
    """Everything a person reads of the state: turns finished since ``seen`` summaries,
    the surface, every rack and score, the bag, whose turn and what may be done."""
    public = game.view(None)
    lines = []
    for turn in public.summaries[seen:]:
        points = "" if game.game_type.rounds else f", {turn.points:+d}"
        note = f" ({turn.note})" if turn.note else ""
        lines.append(f"turn done: {game.players[turn.seat]} {turn.notation}{points}{note}")
    lines += surface_lines(game)
    width = max(len(p) for p in game.players)
    for seat, player in enumerate(game.players):
        view = game.view(seat)
        marker = "*" if seat == public.to_move and not public.over else " "
        drawn = f"  playable {list(view.playable)}" if view.playable != view.rack else ""
        lines.append(
            f"{marker} {player.ljust(width)}  score {public.scores[seat]:>4}  "
            f"rack {list(view.rack)}{drawn}"
        )
    lines.append(f"bag: {public.bag_size}")
    if public.over:
        winners = ", ".join(game.players[s] for s in game.winners())
        lines.append(f"over: {public.end_reason}")
        lines.append(f"result: scores {list(public.scores)}, won by {winners}")
    else:
        mover = game.view(public.to_move)
        lines.append(f"to move: {game.players[public.to_move]}")
        lines.append(f"may: {', '.join(mover.available) or '-'}")
    if public.status:
        lines.append(f"status: {public.status}")
    return lines


def playthrough(golden: Golden) -> str:
    """The whole text of a golden file: the header, the start, then every action."""
    game = new_game(
        golden.game,
        list(golden.players),
        seed=golden.seed,
        house_rules=golden.house_rules,
        rounds=golden.rounds,
    )
    rng = random.Random(golden.seed)
    lines = [*golden.header(), "", "== start", *state_lines(game, 0)]
    seen = 0
    while not game.is_over:
        seat = game.to_move
        action = choose(game.legal_actions(), rng)
        game.apply(action)
        number = len(game.log)
        lines += ["", f"== {number}. {game.players[seat]}: {game.format_action(action)}"]
        lines += state_lines(game, seen)
        seen = len(game.view(None).summaries)
    return "\n".join(lines) + "\n"


def main() -> int:
    """Write every golden file and remove stale ones; print what changed."""
    wanted = {g.filename for g in GOLDENS}
    for stale in sorted(HERE.glob("*.txt")):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed {stale.name}")
    for golden in GOLDENS:
        path = HERE / golden.filename
        text = playthrough(golden)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        state = "unchanged" if old == text else ("written" if old is None else "CHANGED")
        print(f"{state:>9} {path.relative_to(HERE.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

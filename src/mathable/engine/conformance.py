"""One conformance harness for every game of the family (OpenSpiel's ``random_sim_test``,
pgx's ``api_test``): random games checked after every event.

After each action it checks that tokens (or cards) are conserved, that every action the
game generates is accepted, that undo restores the exact state, that replaying the log
reproduces it, that views hide what they must, and that every game ends. A variant, or
a new game of the family, passes when :func:`random_sim_test` returns without raising.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Playable(Protocol):
    """What the harness needs of a game."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int: ...

    def apply(self, action: Any) -> None: ...

    def legal_actions(self) -> list[Any]: ...

    def undo(self) -> None: ...

    def census(self) -> Counter[int]: ...

    def snapshot(self) -> tuple[object, ...]: ...


@dataclass
class SimReport:
    """What a run covered."""

    games: int = 0
    actions: int = 0
    undo_checks: int = 0
    replay_checks: int = 0
    view_checks: int = 0


class ConformanceError(AssertionError):
    """An invariant broken, with the game's seed and step."""


def random_sim_test(
    new_game: Callable[[int], Playable],
    replay: Callable[[Playable], Playable],
    full_set: Mapping[int, int],
    secrets_for: Callable[[Playable, int | None], list[list[Any]]],
    view_json: Callable[[Playable, int | None], Any],
    *,
    games: int = 100,
    seed: int = 0,
    max_actions: int = 5000,
    check_every: float = 0.1,
) -> SimReport:
    """Play ``games`` random games and check the invariants.

    ``new_game(seed)`` builds a game with undo allowed; ``replay(game)`` rebuilds it
    from its record; ``secrets_for(game, viewer)`` lists what ``viewer`` (a seat, or None
    for a spectator) must not see: the other racks or hands, the bag or reserve order;
    ``view_json(game, viewer)`` is the JSON that viewer receives. Undo and replay
    are checked at a random ``check_every`` share of steps and always at the end.
    """
    rng = random.Random(seed)
    report = SimReport()
    expected = Counter({v: n for v, n in full_set.items() if n})
    for _ in range(games):
        game_seed = rng.randrange(2**62)
        game = new_game(game_seed)
        where = f"game seed {game_seed}"
        steps = 0
        while not game.is_over:
            actions = game.legal_actions()
            if not actions:
                raise ConformanceError(f"{where}: no legal action but the game is not over")
            if steps >= max_actions:
                raise ConformanceError(f"{where}: still running after {max_actions} actions")
            before = game.snapshot()
            action = _pick(actions, rng)
            try:
                game.apply(action)
            except Exception as exc:  # a generated action must be accepted
                raise ConformanceError(
                    f"{where} step {steps}: generated {action!r} was refused: {exc}"
                ) from exc
            steps += 1
            if Counter(+game.census()) != expected:
                raise ConformanceError(f"{where} step {steps}: tokens not conserved")
            if rng.random() < check_every:
                _check_undo(game, before, where, steps)
                report.undo_checks += 1
                _check_replay(game, replay, where, steps)
                report.replay_checks += 1
                _check_views(game, secrets_for, view_json, where, steps)
                report.view_checks += 1
        _check_replay(game, replay, where, steps)
        _check_undo_last(game, where, steps)
        report.replay_checks += 1
        report.games += 1
        report.actions += steps
    return report


def _pick(actions: list[Any], rng: random.Random) -> Any:
    """Mostly placements (games progress), sometimes anything."""
    names = {type(a).__name__ for a in actions}
    if rng.random() < 0.9 and len(names) > 1:
        first = type(actions[0]).__name__
        placing = [a for a in actions if type(a).__name__ == first]
        return rng.choice(placing)
    return rng.choice(actions)


def _check_undo(game: Playable, before: tuple[object, ...], where: str, step: int) -> None:
    after = game.snapshot()
    log = list(getattr(game, "log", ()))
    game.undo()
    if game.snapshot() != before:
        raise ConformanceError(f"{where} step {step}: undo did not restore the position")
    game.apply(log[-1])
    if game.snapshot() != after:
        raise ConformanceError(f"{where} step {step}: redo after undo differs")


def _check_undo_last(game: Playable, where: str, step: int) -> None:
    if step:
        after = game.snapshot()
        log = list(getattr(game, "log", ()))
        game.undo()
        game.apply(log[-1])
        if game.snapshot() != after:
            raise ConformanceError(f"{where}: undo and redo of the last action differ")


def _check_replay(
    game: Playable, replay: Callable[[Playable], Playable], where: str, step: int
) -> None:
    if replay(game).snapshot() != game.snapshot():
        raise ConformanceError(f"{where} step {step}: replaying the record differs")


def _check_views(
    game: Playable,
    secrets_for: Callable[[Playable, int | None], list[list[Any]]],
    view_json: Callable[[Playable, int | None], Any],
    where: str,
    step: int,
) -> None:
    """While the game runs no view holds what its viewer must not see.

    A secret shows as a list with the same items (in any order); lists shorter than 3
    are not looked for, since such short lists occur in views by chance.
    """
    if game.is_over:
        return  # racks are shown at the end (C11)
    for viewer in [None, *range(len(game.players))]:
        data = json.loads(json.dumps(view_json(game, viewer)))
        for secret in secrets_for(game, viewer):
            if len(secret) >= 3 and _holds(data, secret):
                raise ConformanceError(
                    f"{where} step {step}: the view of seat {viewer} holds a secret {secret}"
                )


def _holds(data: Any, hidden: list[Any]) -> bool:
    """Whether any list inside ``data`` has the items of ``hidden``."""
    if isinstance(data, list):
        if sorted(data, key=repr) == sorted(hidden, key=repr):
            return True
        return any(_holds(item, hidden) for item in data)
    if isinstance(data, dict):
        return any(_holds(item, hidden) for item in data.values())
    return False

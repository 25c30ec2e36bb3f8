"""One conformance harness for every game of the family (OpenSpiel's ``random_sim_test``,
pgx's ``api_test``): random games checked after every event.

After each action it checks that tokens (or cards) are conserved, that every action the
game generates is accepted, that undo restores the exact state, that replaying the log
reproduces it, that views hide what they must and offer the player to move every kind
of action the game generates (answers to a proposal included: J4, C12), that
:meth:`~.protocol.Game.play` refuses them to seats not to move, and that every game
ends. A variant, or
a new game of the family, passes when :func:`random_sim_test` returns without raising.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .actions import action_kind
from .protocol import ActionRefused, Game
from .records import replay_record, to_record


@dataclass
class SimReport:
    """What a run covered."""

    games: int = 0
    actions: int = 0
    undo_checks: int = 0
    replay_checks: int = 0
    view_checks: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    """How many actions of each keyword were played (``stop``, ``accept``...)."""


class ConformanceError(AssertionError):
    """An invariant broken, with the game's seed and step."""


def random_sim_test(
    new_game: Callable[[int], Game],
    replay: Callable[[Game], Game] | None = None,
    full_set: Mapping[int, int] | None = None,
    secrets_for: Callable[[Game, int | None], list[list[Any]]] | None = None,
    view_json: Callable[[Game, int | None], Any] | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    max_actions: int = 5000,
    check_every: float = 0.1,
) -> SimReport:
    """Play ``games`` random games and check the invariants.

    ``new_game(seed)`` builds a game with undo allowed. The rest defaults to what the
    protocol gives every game: ``replay(game)`` rebuilds it from its record;
    ``full_set`` is the census of a fresh game; ``secrets_for(game, viewer)`` lists what
    ``viewer`` (a seat, or None for a spectator) must not see: the other racks or hands
    and the bag order; ``view_json(game, viewer)`` is the JSON that viewer receives. Undo
    and replay are checked at a random ``check_every`` share of steps and at the end.
    """
    replay = replay or _replayed
    secrets_for = secrets_for or _secrets
    view_json = view_json or (lambda game, viewer: game.view(viewer).to_dict())
    if full_set is None:
        full_set = new_game(seed).census()
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
            listed = game.legal_actions(exchanges=False)  # a view's list: all but exchanges
            if listed != [a for a in actions if action_kind(a) != "exchange"]:
                raise ConformanceError(f"{where} step {steps}: without exchanges {listed!r}")
            moved = {summary.seat for summary in game.summaries()}
            if game.started != all(seat in moved for seat in game.seats_in):  # memo (O4)
                raise ConformanceError(f"{where} step {steps}: started {game.started}")
            for seat in range(len(game.players)):  # a seat's own keys, without a view
                own = game.own_view_dict(seat)
                view = game.view(seat, explained=False)
                if own != view.own_dict():
                    raise ConformanceError(f"{where} step {steps}: seat {seat}'s own {own!r}")
                names = [f.name for f in fields(view)]  # made at once (View.of): a view
                remade = type(view)(**{name: getattr(view, name) for name in names})
                held = [name for name in vars(view) if not name.startswith("_")]  # all read
                if sorted(held) != sorted(names) or view != remade:  # as __init__ makes it
                    raise ConformanceError(f"{where} step {steps}: seat {seat}'s view {view!r}")
            before = game.snapshot()
            action = _pick(actions, rng)
            try:
                game.apply(action)
            except Exception as exc:  # a generated action must be accepted
                raise ConformanceError(
                    f"{where} step {steps}: generated {action!r} was refused: {exc}"
                ) from exc
            steps += 1
            report.kinds[action_kind(action)] += 1
            if Counter(+game.census()) != expected:
                raise ConformanceError(f"{where} step {steps}: tokens not conserved")
            if rng.random() < check_every:
                _check_undo(game, before, where, steps)
                report.undo_checks += 1
                _check_replay(game, replay, where, steps)
                report.replay_checks += 1
                _check_views(game, secrets_for, view_json, where, steps)
                _check_offers(game, where, steps)
                _check_who_acts(game, where, steps)
                report.view_checks += 1
        _check_replay(game, replay, where, steps)
        _check_undo_last(game, where, steps)
        report.replay_checks += 1
        report.games += 1
        report.actions += steps
    return report


def _replayed(game: Game) -> Game:
    return replay_record(to_record(game), lambda _: game.game_type)


def _secrets(game: Game, viewer: int | None) -> list[list[Any]]:
    """The bag order, and the other racks unless racks lie face up (Junior's back)."""
    hidden = [list(game.bag_order())]
    if game.game_type.open_racks:
        return hidden
    return hidden + [list(game.rack(s)) for s in range(len(game.players)) if s != viewer]


def _pick(actions: list[Any], rng: random.Random) -> Any:
    """Mostly actions of the first type offered (placements: games progress), sometimes
    anything."""
    types = {type(a) for a in actions}
    if rng.random() < 0.9 and len(types) > 1:
        first = type(actions[0])
        return rng.choice([a for a in actions if type(a) is first])
    return rng.choice(actions)


def _check_undo(game: Game, before: tuple[object, ...], where: str, step: int) -> None:
    after = game.snapshot()
    log = game.log
    game.undo()
    if game.snapshot() != before:
        raise ConformanceError(f"{where} step {step}: undo did not restore the position")
    game.apply(log[-1])
    if game.snapshot() != after:
        raise ConformanceError(f"{where} step {step}: redo after undo differs")


def _check_undo_last(game: Game, where: str, step: int) -> None:
    if step:
        after = game.snapshot()
        log = game.log
        game.undo()
        game.apply(log[-1])
        if game.snapshot() != after:
            raise ConformanceError(f"{where}: undo and redo of the last action differ")


def _check_replay(game: Game, replay: Callable[[Game], Game], where: str, step: int) -> None:
    if replay(game).snapshot() != game.snapshot():
        raise ConformanceError(f"{where} step {step}: replaying the record differs")


def _check_views(
    game: Game,
    secrets_for: Callable[[Game, int | None], list[list[Any]]],
    view_json: Callable[[Game, int | None], Any],
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
        secrets = [secret for secret in secrets_for(game, viewer) if len(secret) >= 3]
        if not secrets:
            continue
        data = json.loads(json.dumps(view_json(game, viewer)))
        shown = _lists_sorted(data, {len(secret) for secret in secrets})
        for secret in secrets:
            if sorted(secret, key=repr) in shown.get(len(secret), ()):
                raise ConformanceError(
                    f"{where} step {step}: the view of seat {viewer} holds a secret {secret}"
                )


def _check_offers(game: Game, where: str, step: int) -> None:
    """The view of the player to move offers every kind of action the game generates
    (a pending proposal's ``accept`` and ``decline`` too); the other seats are offered
    nothing but a challenge (C12: any opponent may challenge)."""
    if game.is_over:
        return
    generated = {action_kind(a) for a in game.legal_actions()}
    offered = set(game.view(game.to_move).available)
    if not generated <= offered:
        missing = ", ".join(sorted(generated - offered))
        raise ConformanceError(
            f"{where} step {step}: the view of seat {game.to_move} does not offer {missing}"
        )
    for seat in range(len(game.players)):
        if seat != game.to_move and set(game.view(seat).available) - {"challenge"}:
            raise ConformanceError(
                f"{where} step {step}: seat {seat}, not to move, is offered "
                f"{', '.join(game.view(seat).available)}"
            )


def _check_who_acts(game: Game, where: str, step: int) -> None:
    """:meth:`Game.play` lets only the seat to move play what the game generates (a
    challenge apart: C12, any opponent), and refuses with the game unchanged."""
    if game.is_over:
        return
    before = game.snapshot(), game.log
    for action in game.legal_actions()[:3]:
        if action_kind(action) == "challenge":
            continue
        for seat in game.seats_in:
            if seat == game.to_move:
                continue
            try:
                game.play(seat, action)
            except ActionRefused as refused:
                if refused.kind != "turn":
                    raise ConformanceError(
                        f"{where} step {step}: seat {seat} out of turn refused as "
                        f"{refused.kind}: {refused}"
                    ) from None
            else:
                raise ConformanceError(f"{where} step {step}: seat {seat} played out of turn")
            if (game.snapshot(), game.log) != before:
                raise ConformanceError(f"{where} step {step}: a refused play changed the game")


def _lists_sorted(data: Any, lengths: set[int]) -> dict[int, list[list[Any]]]:
    """Every list inside ``data`` (itself included) whose length is one of ``lengths``,
    its items sorted by their ``repr``, by length: what a secret is looked for among
    (a list with the same items in any order), walked once per view rather than once
    per secret."""
    found: dict[int, list[list[Any]]] = {}
    waiting = [data]
    while waiting:
        item = waiting.pop()
        if isinstance(item, list):
            if len(item) in lengths:
                found.setdefault(len(item), []).append(sorted(item, key=repr))
            waiting.extend(item)
        elif isinstance(item, dict):
            waiting.extend(item.values())
    return found


def _holds(data: Any, hidden: list[Any]) -> bool:
    """Whether any list inside ``data`` has the items of ``hidden`` (in any order)."""
    return sorted(hidden, key=repr) in _lists_sorted(data, {len(hidden)}).get(len(hidden), ())

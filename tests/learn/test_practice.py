"""Practice (issue 18): the levels, the cells each rack token fits (the engine's legal
placements), the best turn (the search's best, never beaten by the learner's turn) and its
explanation, and ``mathable practice`` played with typed input."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from mathable.ai import get_bot
from mathable.ai.search import search_turns
from mathable.cli.app import app
from mathable.engine.actions import EndTurn, Pass, Place
from mathable.engine.arithmetic import Op, pair_results
from mathable.games.board.board import EMPTY
from mathable.games.board.game import BoardGame
from mathable.learn.practice import (
    LEVELS,
    Coach,
    Level,
    Review,
    best_turn,
    explain_turn,
    fits,
    get_level,
    new_practice,
    report,
)

SEEDS = (1, 2, 3)


def test_levels_choose_the_game_not_the_rules() -> None:
    assert list(LEVELS) == ["plus-minus", "tables", "everything"]
    junior = new_practice(get_level("plus-minus"), "Ann", seed=1)
    assert junior.name == "junior"
    assert junior.variant.ops == Op.ADD | Op.SUB  # + and − only
    assert max(junior.variant.tokens) == 20  # tiles 1-20 (J2)
    for name in ("tables", "everything"):
        game = new_practice(get_level(name), "Ann", seed=1)
        assert game.name == "classic"
        assert game.house_rules.hints  # free hints (O2)
        assert not game.house_rules.table_referee and not game.house_rules.allow_undo
    assert new_practice(get_level("everything"), "Ann", seed=1).players[0] == "Ann"
    with pytest.raises(ValueError, match="unknown practice level"):
        get_level("algebra")


def _positions(level: Level, seed: int, turns: int = 6) -> list[BoardGame]:
    """The positions where the learner is to move in a game where both seats play
    random legal placements (no extra token), a few turns long."""
    game = new_practice(level, "Ann", seed=seed)
    chance = random.Random(seed)
    found: list[BoardGame] = []
    while not game.is_over and len(found) < turns:
        if game.to_move == 0:
            found.append(game.copy())
        _random_turn(game, chance)
    return found


def _random_turn(game: BoardGame, chance: random.Random) -> None:
    """Up to three random legal placements, then the end of the turn (or a pass)."""
    seat = game.to_move
    for _ in range(chance.randint(1, 3)):
        options = list(game.legal_placements())
        if not options or game.to_move != seat:
            break
        game.apply(chance.choice(options))
    if game.to_move == seat and not game.is_over:
        kinds = {type(a) for a in game.legal_actions()}
        game.apply(EndTurn() if EndTurn in kinds else Pass())


def _practised(game: BoardGame, level: Level, cell: int, value: int) -> bool:
    """The level's arithmetic, computed here from the neighbours: some pair in line makes
    ``value`` by one of the level's operations within its limit."""
    board = game.board
    ops = game.variant.layout.squares[cell].restriction or game.variant.ops
    symbols = {Op.ADD: "+", Op.SUB: "−", Op.MUL: "×", Op.DIV: "÷"}
    for near, far in board.grid.pairs[cell]:
        a, b = board.values[near], board.values[far]
        if EMPTY in (a, b):
            continue
        for op, symbol in symbols.items():
            if not ops & op or symbol not in level.ops or value not in pair_results(a, b, op):
                continue
            small, big = sorted((a, b))
            if level.limit is None:
                return True
            if op is Op.MUL and big <= level.limit:
                return True
            if op is Op.DIV and small <= level.limit and value <= level.limit:
                return True
            if op in (Op.ADD, Op.SUB) and max(a, b, value) <= level.limit:
                return True
    return False


@pytest.mark.parametrize("name", list(LEVELS))
def test_fitting_cells_are_the_legal_placements(name: str) -> None:
    level = LEVELS[name]
    for seed in SEEDS:
        for game in _positions(level, seed):
            fitted = fits(game, level)
            names = game.cell_names
            listed = {(names.parse(c), f.value) for f in fitted for c in f.cells}
            legal = {(p.cell, p.value) for p in game.legal_placements()}
            assert listed == legal
            assert [f.value for f in fitted] == sorted(set(game.view(0).rack))
            for fit in fitted:
                assert set(fit.practised) <= set(fit.cells)
                for cell_name in fit.cells:
                    cell = names.parse(cell_name)
                    wanted = _practised(game, level, cell, fit.value)
                    assert (cell_name in fit.practised) == wanted, (cell_name, fit.value)
            if name != "tables":  # + − up to 20 on Junior's tiles, or every operation
                assert all(f.practised == f.cells for f in fitted)


@pytest.mark.parametrize("name", ["plus-minus", "everything"])
def test_the_best_turn_is_the_searchs_best_and_is_explained(name: str) -> None:
    level = LEVELS[name]
    for seed in SEEDS:
        for game in _positions(level, seed, turns=3):
            best = best_turn(game)
            rack = game.view(0).rack
            plans = search_turns(game.variant, game.board, rack, started_with=len(rack))
            placing = [p.total for p in plans if p.placements]
            if not placing:
                assert best is None
                continue
            assert best is not None and best.points == max(placing)
            singles = [game.board.points(p.cell, p.value) for p in game.legal_placements()]
            assert best.points >= max(singles)
            explained = explain_turn(game, best)
            assert [f"{e.target}={e.value}" for e in explained] == best.notation.split()
            assert sum(e.points for e in explained) + best.bonus == best.points
            assert all(e.legal and e.equations for e in explained)


@pytest.mark.parametrize("name", ["plus-minus", "tables"])
def test_the_played_turn_never_beats_the_best(name: str) -> None:
    level = LEVELS[name]
    for seed in SEEDS:
        game = new_practice(level, "Ann", seed=seed)
        coach = Coach(game)
        coach.observe()
        chance = random.Random(seed)
        bot = get_bot("gentle", seed)
        reviews: list[Review] = []
        while not game.is_over and len(reviews) < 3:
            if game.to_move == 0:
                _random_turn(game, chance)
            else:
                game.apply(bot.act(game.view(game.to_move)))
            review = coach.observe()
            if review is not None:
                reviews.append(review)
        assert len(reviews) == 3
        if game.to_move != 0:  # the report on the page reviews the same turn, from the log
            shown = report(game, 0, level)
            assert shown["review"] == reviews[-1].to_json()
            assert shown["fits"] == []
        for review in reviews:
            if review.best is None:
                assert review.points == 0
                continue
            assert review.points <= (review.best.points or 0)
            assert review.found_best == (review.points == review.best.points)
            assert review.best.notation in review.text()


def test_playing_the_best_turn_is_found() -> None:
    game = new_practice(LEVELS["plus-minus"], "Ann", seed=4)
    coach = Coach(game)
    coach.observe()
    best = best_turn(game)
    assert best is not None
    for action in best.actions:
        game.apply(action)
    if game.to_move == 0:
        game.apply(EndTurn())
    review = coach.observe()
    assert review is not None and review.found_best
    assert review.points == best.points
    assert review.played.startswith(best.notation)
    assert review.to_json()["best"]["turn"] == best.notation
    assert report(game, 0, LEVELS["plus-minus"])["review"] == review.to_json()
    with pytest.raises(ValueError, match="not a practice game"):
        report(game, 0, LEVELS["tables"])  # a Junior game is not the tables' classic


runner = CliRunner()


def test_cli_practice_with_typed_input() -> None:
    level = LEVELS["plus-minus"]  # Junior: the first seat (the learner) starts (J1)
    game = new_practice(level, "You", seed=5)
    assert game.to_move == 0
    best = best_turn(game)
    assert best is not None
    typed = ["hint", "Z99=3", *best.notation.split()]
    if len(best.actions) < len(game.view(0).rack):
        typed.append("end")
    typed.append("quit")
    out = runner.invoke(app, ["practice", "--level", "plus-minus", "--seed", "5"], "\n".join(typed))
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Practice: + and − up to 20." in text
    assert "Where your tokens fit" in text
    first = best.actions[0]
    assert isinstance(first, Place)
    fit_line = next(f for f in fits(game, level) if f.value == first.value)
    assert f"{fit_line.value}: " + ", ".join(f"{c}*" for c in fit_line.cells) in text
    assert "refused:" in text  # Z99 is off the board: refused, no traceback
    assert f"The best turn was {best.notation}" in text
    assert "You found it" in text
    assert "Traceback" not in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--level", "algebra"], "unknown practice level 'algebra'"),
        (["--seed", "-1"], "--seed takes a whole number from 0 to"),
    ],
)
def test_cli_practice_refuses_bad_options(args: list[str], said: str) -> None:
    out = runner.invoke(app, ["practice", *args])
    assert out.exit_code != 0
    assert said in out.output
    assert "Traceback" not in out.output

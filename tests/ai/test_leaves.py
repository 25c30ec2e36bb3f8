"""Leave values learned from self-play (issue 16): the fit, the shipped models, the
training's reproducibility and its command."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mathable.ai import get_bot
from mathable.ai.leaves import LeaveModel, judge, load, unlearnable
from mathable.ai.training import fit, fit_stuck, game_samples, train
from mathable.cli.app import app


def test_the_fit_recovers_the_weights_that_made_the_points() -> None:
    """Points made exactly by a known model (token weights, a duplicate weight, size
    weights) are fitted back to it, up to the ridge's small pull and the centring."""
    values = [1, 2, 3, 5, 8, 13]
    truth = LeaveModel(
        "x", {1: 4.0, 2: 3.0, 3: 1.0, 5: -2.0, 8: -5.0, 13: 0.5}, -3.0, (0.0, 2.0, 1.0, 0.0)
    )
    rng = random.Random(4)
    samples = []
    for _ in range(4000):
        leave = tuple(sorted(rng.choice(values) for _ in range(rng.randint(1, 3))))
        samples.append((leave, round(100 * truth.value(leave, 10))))
    fitted = fit("x", [(leave, points / 100) for leave, points in samples], values, sizes=4)  # type: ignore[misc]
    for leave in [(1,), (8, 13), (2, 2, 5), (3, 8, 8)]:
        # centring shifts every value by one constant: compare differences
        assert fitted.value(leave, 10) - fitted.value((1,), 10) == pytest.approx(
            truth.value(leave, 10) - truth.value((1,), 10), abs=0.3
        )


def test_shipped_models_exist_where_a_leave_is_chosen() -> None:
    for game in ("classic", "junior"):
        model = load(game)
        assert model is not None and unlearnable(game) is None
        # with the bag empty a kept token is a deduction to come (C11)
        assert model.value((5, 20), 0) == pytest.approx(-0.6 * 25)
    assert load("quattro") is None and unlearnable("quattro")
    assert load("junior-numbers") is None and "K2" in (unlearnable("junior-numbers") or "")


def test_the_shipped_classic_model_predicts_games_it_was_not_trained_on() -> None:
    """On fresh self-play games (seeds far from the training's) the model's guess of the
    next turn's points from the leave beats the plain average: it learned something."""
    model = load("classic")
    assert model is not None
    samples = [s for seed in range(90_000, 90_040) for s in game_samples(("classic", seed)).leaves]
    assert len(samples) > 400
    mean = sum(points for _, points in samples) / len(samples)
    centre = sum(model.value(leave, 50) for leave, _ in samples) / len(samples)
    model_error = sum(
        (points - mean - (model.value(leave, 50) - centre)) ** 2 for leave, points in samples
    )
    plain_error = sum((points - mean) ** 2 for _, points in samples)
    assert model_error < 0.97 * plain_error


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    first, count = train("junior", 6, 77)
    second, again = train("junior", 6, 77)
    assert count == again > 0
    assert first.to_json({}) == second.to_json({})
    other, _ = train("junior", 6, 78)
    assert other.to_json({}) != first.to_json({})


def test_the_command_writes_a_model_that_loads(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["train-leaves", "-v", "junior", "--games", "4", "--seed", "500", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    written = LeaveModel.from_json((tmp_path / "leaves-junior.json").read_text(encoding="utf-8"))
    assert written.game == "junior" and written.token
    refused = CliRunner().invoke(app, ["train-leaves", "--seed", "99999", "--games", "5"])
    assert refused.exit_code != 0 and "tuning seeds" in refused.output
    quattro = CliRunner().invoke(app, ["train-leaves", "-v", "quattro"])
    assert quattro.exit_code != 0 and "no leave to learn" in quattro.output


def test_a_level_values_its_leave_as_asked() -> None:
    with pytest.raises(
        ValueError, match="leaves=wise: expected one of learned, to-the-end, hand, none"
    ):
        get_bot("strong:leaves=wise")
    assert judge("none", "classic", 7)((1, 2), 10) == 0.0
    assert judge("learned", "quattro", 7)((1, 2), 10) == judge("hand", "quattro", 7)((1, 2), 10)


def test_the_stuck_fit_recovers_the_chances_that_made_the_fates() -> None:
    """Fates drawn from known logistic chances (a value that often sticks, more so as
    the bag empties, and one that seldom does) are fitted back to those chances."""
    truth = {64: (1.5, -0.7), 2: (-2.0, -0.8)}
    rng = random.Random(5)
    samples = []
    for _ in range(20_000):
        value, bag = rng.choice((64, 2)), rng.randint(1, 80)
        a, b = truth[value]
        chance = 1 / (1 + math.exp(-(a + b * math.log1p(bag))))
        samples.append((value, bag, rng.random() < chance))
    fitted = LeaveModel("x", {}, 0.0, (0.0,), fit_stuck(samples))
    exact = LeaveModel("x", {}, 0.0, (0.0,), truth)
    for value in (64, 2):
        for bag in (1, 10, 40, 80):
            assert fitted.stuck_chance(value, bag) == pytest.approx(
                exact.stuck_chance(value, bag), abs=0.03
            )
    assert fitted.stuck_chance(7, 10) == 0.0  # never seen kept: no charge


def test_the_end_charges_each_kept_token_its_value_times_its_chance_of_sticking() -> None:
    model = load("classic")
    assert model is not None and model.stuck
    leave = (3, 49, 64)
    charged = sum(v * model.stuck_chance(v, 20) for v in leave)
    assert charged > 0
    assert model.value_to_the_end(leave, 20) == pytest.approx(model.value(leave, 20) - charged)
    assert model.value_to_the_end(leave, 0) == model.value(leave, 0)  # C11: counted already
    assert judge("to-the-end", "classic", 7)(leave, 20) == model.value_to_the_end(leave, 20)
    # a big token is likelier to stick than a small one, and more so as the bag empties
    assert model.stuck_chance(64, 20) > model.stuck_chance(2, 20)
    assert model.stuck_chance(64, 3) > model.stuck_chance(64, 20) > model.stuck_chance(64, 70)


def test_the_shipped_stuck_chances_predict_games_they_were_not_trained_on() -> None:
    """On fresh self-play games the chance of each kept token sticking to the end beats
    one rate for all tokens (log loss): it learned which tokens find no place."""
    model = load("classic")
    assert model is not None
    fates = [f for seed in range(90_100, 90_140) for f in game_samples(("classic", seed)).stuck]
    assert len(fates) > 2000
    rate = sum(stuck for _, _, stuck in fates) / len(fates)

    def loss(chance: float, stuck: bool) -> float:
        chance = min(max(chance, 1e-6), 1 - 1e-6)
        return -math.log(chance if stuck else 1 - chance)

    learned = sum(loss(model.stuck_chance(v, bag), stuck) for v, bag, stuck in fates)
    plain = sum(loss(rate, stuck) for _, _, stuck in fates)
    assert learned < 0.9 * plain

"""The computer levels' starting ratings (issue 15, "Ratings"): a round robin of paired
deals rated game by game as the server rates, reproducible from its seed whatever the
number of processes, and the shipped file covers every game and level."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from mathable.ai import BOTS, arena
from mathable.cli.app import app
from mathable.games.registry import GAMES
from mathable.online import botratings
from mathable.online.ratings import (
    PROVISIONAL_DEVIATION,
    Rating,
    provisional,
    ranks_from_scores,
    rate_game,
)


def test_each_pair_plays_each_deal_twice_with_seats_swapped() -> None:
    games = botratings.deals(["a", "b", "c"], 3, seed=100)
    assert len(games) == 3 * 3 * 2
    assert Counter(tuple(names) for names, _ in games) == {
        pair: 3 for pair in [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]
    }
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first[0] == second[0][::-1] and first[1] == second[1]
    assert {seed for _, seed in games} == {100, 101, 102}


def test_a_calibration_is_reproducible_and_rates_by_deal_order() -> None:
    levels = ["gentle", "greedy"]
    once = botratings.calibrate("junior", levels, 2, seed=5)
    assert once == botratings.calibrate("junior", levels, 2, seed=5)
    assert once == botratings.calibrate("junior", levels, 2, seed=5, jobs=2)
    assert {entry["games"] for entry in once.values()} == {4}
    assert all(entry["deviation"] == botratings.SHIPPED_DEVIATION for entry in once.values())
    # two levels from the same start are rated as mirror images: the pool keeps 1500
    assert abs(once["gentle"]["rating"] + once["greedy"]["rating"] - 3000) <= 0.1


def test_the_shipped_ratings_cover_every_game_and_level_and_the_ladder_climbs() -> None:
    for variant in GAMES:
        ratings = {level: botratings.starting_rating(level, variant) for level in BOTS}
        assert all(isinstance(r, Rating) for r in ratings.values()), variant
        found = {level: r for level, r in ratings.items() if r is not None}
        assert not any(provisional(r) for r in found.values())
        assert all(r.deviation <= PROVISIONAL_DEVIATION for r in found.values())
        assert found["gentle"].rating < found["strong"].rating, variant
        assert found["gentle"].rating < found["expert"].rating, variant
    assert botratings.starting_rating("nobody", "classic") is None
    assert botratings.starting_rating("expert", "chess") is None


def test_one_game_rated_again_keeps_the_other_games_ratings(tmp_path: Path) -> None:
    """``mathable rate-bots -v junior-numbers --out FILE``: that game's ratings are made
    afresh and the other games' in FILE kept; a FILE made otherwise is refused, unchanged."""
    out = tmp_path / "ratings.json"
    classic = {"gentle": {"rating": 1234.5, "deviation": 110.0, "volatility": 0.06, "games": 9}}
    made = {
        "seed": 7,
        "pairs": 1,
        "levels": list(BOTS),
        "games": {"classic": classic},
        "master": "a note on how a level was rated apart",
    }
    out.write_text(json.dumps(made), encoding="utf-8")
    command = ["rate-bots", "-v", "junior-numbers", "--pairs", "1", "--seed", "7"]
    result = CliRunner().invoke(app, [*command, "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert list(written["games"]) == ["classic", "junior-numbers"]
    assert written["games"]["classic"] == classic
    assert written["master"] == made["master"]
    assert written["games"]["junior-numbers"] == botratings.calibrate(
        "junior-numbers", list(BOTS), 1, seed=7
    )
    before = out.read_text(encoding="utf-8")
    refused = CliRunner().invoke(app, [*command[:-1], "8", "--out", str(out)])
    assert refused.exit_code != 0 and "--seed 7 --pairs 1" in refused.output
    assert "Traceback" not in refused.output and out.read_text(encoding="utf-8") == before


def test_one_level_rated_against_the_others_held(tmp_path: Path) -> None:
    """``mathable rate-bots -v junior --level gentle --out FILE``: gentle is rated afresh
    from its games against each other level of FILE's junior, whose ratings stay; the
    other games' entries and the file's note stay; an unknown level is refused with the
    levels named, FILE unchanged."""
    out = tmp_path / "ratings.json"
    junior = {
        "gentle": {"rating": 1111.0, "deviation": 110.0, "volatility": 0.06, "games": 9},
        "greedy": {"rating": 1500.0, "deviation": 110.0, "volatility": 0.06, "games": 9},
        "strong": {"rating": 1900.0, "deviation": 110.0, "volatility": 0.06, "games": 9},
    }
    classic = {"gentle": {"rating": 1234.5, "deviation": 110.0, "volatility": 0.06, "games": 9}}
    made = {
        "seed": 3,
        "pairs": 1,
        "levels": list(BOTS),
        "games": {"classic": classic, "junior": junior},
    }
    made["note"] = "how the round robin was made"
    out.write_text(json.dumps(made), encoding="utf-8")
    command = ["rate-bots", "-v", "junior", "--level", "gentle", "--pairs", "1", "--seed", "7"]
    result = CliRunner().invoke(app, [*command, "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["games"]["classic"] == classic and written["note"] == made["note"]
    assert (written["seed"], written["pairs"]) == (3, 1)
    assert written["games"]["junior"]["greedy"] == junior["greedy"]
    assert written["games"]["junior"]["strong"] == junior["strong"]
    others = botratings.ratings_of({k: v for k, v in junior.items() if k != "gentle"})
    expected = botratings.calibrate_held("junior", "gentle", others, 1, seed=7)
    assert written["games"]["junior"]["gentle"] == {**expected, "held": {"seed": 7, "pairs": 1}}
    assert expected["games"] == 2 * 2  # one deal, twice, against each of two levels
    assert expected["rating"] != 1111.0
    before = out.read_text(encoding="utf-8")
    refused = CliRunner().invoke(app, [*command[:4], "grandmaster", "--out", str(out)])
    assert refused.exit_code != 0 and "grandmaster is no computer level" in refused.output
    assert "Traceback" not in refused.output and out.read_text(encoding="utf-8") == before


def test_held_levels_keep_their_ratings_and_the_deals_are_paired() -> None:
    games = botratings.held_deals("a", ["b", "c"], 2, seed=10)
    assert Counter(tuple(names) for names, _ in games) == {
        ("a", "b"): 2,
        ("b", "a"): 2,
        ("a", "c"): 2,
        ("c", "a"): 2,
    }
    held = {"greedy": Rating(1500.0, 110.0, 0.06)}
    once = botratings.calibrate_held("junior", "gentle", held, 2, seed=5)
    assert once == botratings.calibrate_held("junior", "gentle", held, 2, seed=5, jobs=2)
    assert held == {"greedy": Rating(1500.0, 110.0, 0.06)} and once["games"] == 4
    # by hand: gentle rated game by game against greedy kept at its rating every game
    gentle = Rating()
    for names, game_seed in botratings.held_deals("gentle", ["greedy"], 2, seed=5):
        final = arena.play_game(names, "junior", game_seed).scores
        seats = {name: seat for seat, name in enumerate(names)}
        pair = [gentle, held["greedy"]] if seats["gentle"] == 0 else [held["greedy"], gentle]
        gentle = rate_game(pair, ranks_from_scores(final))[seats["gentle"]]
    assert once["rating"] == round(gentle.rating, 1)

"""The master level (issue 35): the expert's search with a larger counted budget, its
settings, its decisions from the seed alone, its games in every game, and the ladder's
rows where two levels are one player."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mathable.ai import (
    BOTS,
    DESCRIPTIONS,
    LEVEL_NAMES,
    SLOW_LEVELS,
    ExpertBot,
    MasterBot,
    get_bot,
    parse_spec,
    plays_as,
    same_player_note,
    settings_of,
)
from mathable.ai.arena import REPORTING_SEEDS_FROM, play_game
from mathable.ai.ladder import Rung, matches, play, same_player, table
from mathable.ai.master import MASTER_TO_END
from mathable.cli.app import app
from mathable.games.board.view import BoardView
from mathable.games.registry import GAMES, new_game

QUICK_MASTER = (
    "master:samples=6,candidates=4,threat_top=10,exchanges=2,pre_samples=2,pre_nodes=60,cap_ms=none"
)
"""The master with a short budget for tests, and no clock in its decisions."""


def test_the_master_comes_after_the_expert_with_larger_budgets() -> None:
    assert list(BOTS)[-2:] == ["expert", "master"]
    assert "master" in SLOW_LEVELS and str(LEVEL_NAMES["master"]) == "master"
    master, expert = MasterBot(1), ExpertBot(1)
    assert master.samples > expert.samples and master.candidates > expert.candidates
    assert master.threat_top > expert.threat_top and master.exchanges > expert.exchanges
    assert master.cap_ms is not None and expert.cap_ms is not None
    assert master.cap_ms > expert.cap_ms  # a safety net for longer turns, never a budget
    assert str(DESCRIPTIONS["master"]).startswith("Plays as the expert")


def test_the_master_plays_its_late_continuations_out_to_the_end_and_the_expert_does_not() -> None:
    """``to_end``: measured better than the expert in classic on tuning and on held-out
    deals (docs/computer-players.md); the expert's simulations stop after two turns."""
    master, expert = MasterBot(1), ExpertBot(1)
    assert master.to_end == MASTER_TO_END > 0 > expert.to_end


def test_the_pre_end_game_is_a_setting_refused_out_of_range() -> None:
    """``pre_endgame`` (off by default: it gained on tuning deals, not on held-out ones,
    docs/computer-players.md); a setting out of range is refused with its name."""
    assert MasterBot(1).pre_endgame == 0 == ExpertBot(1).pre_endgame
    assert get_bot("master:pre_endgame=4", 1).pre_endgame == 4  # type: ignore[attr-defined]
    for wrong in ("pre_endgame=-1", "pre_samples=0", "pre_nodes=0"):
        with pytest.raises(ValueError, match=wrong):
            get_bot(f"master:{wrong}")


def test_the_pre_end_game_search_decides_only_with_its_few_tokens_in_the_bag() -> None:
    """With 1 to ``pre_endgame`` tokens in the bag the pre-end-game search chooses the
    turn; one token more, and the master chooses as without it (the simulations).
    Positions from greedy games, each with 1 to 3 tokens in the bag."""
    quick = "master:samples=8,candidates=6,threat_top=12,pre_samples=3,pre_nodes=200,cap_ms=none"
    apart, positions, seed = 0, 0, 60
    while positions < 6:
        seed += 1
        game = new_game("classic", ["a", "b"], seed=seed)
        greedy = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
        while not game.is_over:
            view = game.view(game.to_move, explained=False)
            assert isinstance(view, BoardView)
            if 0 < view.bag_size <= 3 and not view.turn_placements:
                break
            game.apply(greedy[game.to_move].act(view))
        else:
            continue  # the bag went from more than 3 to none in one turn
        positions += 1
        simulated = get_bot(f"{quick},pre_endgame=0", seed).act(view)
        assert get_bot(f"{quick},pre_endgame={view.bag_size - 1}", seed).act(view) == simulated
        searched = get_bot(f"{quick},pre_endgame={view.bag_size}", seed).act(view)
        assert get_bot(f"{quick},pre_endgame={view.bag_size}", seed).act(view) == searched
        apart += searched != simulated
    assert apart >= 1


def test_the_masters_settings_parse_as_the_experts() -> None:
    level, settings = parse_spec(QUICK_MASTER)
    assert level == "master" and settings == {
        "samples": 6,
        "candidates": 4,
        "threat_top": 10,
        "exchanges": 2,
        "pre_samples": 2,
        "pre_nodes": 60,
        "cap_ms": None,
    }
    bot = get_bot(QUICK_MASTER, 3)
    assert isinstance(bot, MasterBot) and (bot.samples, bot.candidates, bot.cap_ms) == (6, 4, None)
    with pytest.raises(ValueError, match="master has no setting 'depth'"):
        get_bot("master:depth=3")


def test_the_master_takes_every_setting_of_the_expert() -> None:
    """Its constructor repeats the expert's (the settings are read from signatures): a
    new setting of the expert must reach the master too."""
    assert list(settings_of("master")) == list(settings_of("expert"))


def _midgame_view(seed: int):  # type: ignore[no-untyped-def]
    """A classic position some turns in (quick players bring it there), its player's view."""
    game = new_game("classic", ["a", "b"], seed=seed)
    greedy = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
    for _ in range(12):
        game.apply(greedy[game.to_move].act(game.view(game.to_move)))
    return game.view(game.to_move)


@pytest.mark.parametrize("seed", [5, 6])
def test_the_master_decides_from_its_seed_and_the_view_alone(seed: int) -> None:
    """Two masters made apart, one after another, choose the same action from one view:
    nothing but the seed and the view (no clock, no earlier decision) decides it."""
    view = _midgame_view(seed)
    first = get_bot(QUICK_MASTER, seed)
    chosen = first.act(view)
    again = get_bot(QUICK_MASTER, seed).act(view)
    assert chosen == again
    assert first.act(view) == chosen  # asked once more, the kept bot says the same


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_master_plays_legal_games_to_the_end_in_every_game(game: str) -> None:
    """Every action the master chooses is accepted (apply raises otherwise)."""
    result = play_game([QUICK_MASTER, "greedy"], game, 11)
    assert result.winners and result.capped[QUICK_MASTER] == 0


def test_the_expert_and_the_master_play_as_the_strong_player_where_nothing_is_simulated() -> None:
    for game in ("classic", "junior"):
        assert (plays_as("expert", game), plays_as("master", game)) == ("expert", "master")
    for game in ("junior-numbers",):  # Quattro's expert and master are their own (issue 35)
        assert plays_as("expert", game) == plays_as("master", game) == "strong"
        assert same_player_note("master", game) == "master = strong in this game"
        assert same_player(game, "strong", "expert") and same_player(game, "expert", "master")
    assert same_player_note("strong", "quattro") is None
    assert not same_player("classic", "expert", "master")


def test_a_match_of_one_player_is_not_played_and_its_row_says_so() -> None:
    assert matches()[-1] == ("expert", "master")
    rungs = play(["junior-numbers"], 1, REPORTING_SEEDS_FROM, only=[("strong", "expert")])
    assert [(r.game, r.weaker, r.stronger, r.same) for r in rungs] == [
        ("junior-numbers", "strong", "expert", True)
    ]
    assert rungs[0].bots == [] and rungs[0].paired == {}
    row = rungs[0].row()
    assert row.startswith("| junior-numbers | strong vs expert |")
    assert "expert = strong in this game: the same player" in row and "50.0%" not in row
    assert table(rungs, 1, REPORTING_SEEDS_FROM).count("| junior-numbers |") == 1
    top = Rung("junior-numbers", "expert", "master", {}, [], same=True).row()
    assert "| expert vs master | – | master = expert = strong in this game" in top


def test_the_ladder_plays_the_masters_rung_where_it_differs() -> None:
    """One paired Junior deal of expert against a quick master: a played row."""
    played = Rung(
        "junior",
        "expert",
        QUICK_MASTER,
        {
            "deals": 1,
            "games": 2,
            "win_rate": 0.5,
            "win_rate_ci95": [0.5, 0.5],
            "margin": 3.0,
            "margin_ci95": [3.0, 3.0],
        },
        [
            {"bot": "expert", "mean_score": 300.0},
            {
                "bot": QUICK_MASTER,
                "mean_score": 303.0,
                "mean_ms_per_turn": 1.0,
                "p95_ms_per_turn": 2.0,
                "max_ms_per_turn": 3.0,
            },
        ],
    )
    assert played.row().startswith(f"| junior | expert vs {QUICK_MASTER} | 1 (2) | 50.0%")


def test_bots_lists_the_master_and_says_where_levels_are_one_player() -> None:
    out = CliRunner().invoke(app, ["bots"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "master: Plays as the expert" in text
    assert text.lower().count("on junior's numbered side it plays as the strong") == 2


@pytest.mark.parametrize("game", ["junior-numbers"])
def test_where_the_ladder_says_one_player_the_games_are_the_same(game: str) -> None:
    """The master (full budget) and the strong player, each against greedy from the same
    deals, play the very same games where :func:`plays_as` says they are one player."""
    for seed in range(3):
        master = play_game(["master:cap_ms=none", "greedy"], game, seed, keep_record=True)
        strong = play_game(["strong", "greedy"], game, seed, keep_record=True)
        assert master.record is not None and strong.record is not None
        assert master.scores == strong.scores
        assert master.record["actions"] == strong.record["actions"]


def test_the_end_blend_weighs_only_continuations_played_out() -> None:
    """``end_blend`` (issue 35): once every candidate's continuations are played out to
    the end (``even_horizon``, the bag at most ``to_end``), the simulations weigh
    ``end_blend`` against the static estimate instead of ``blend``; before that,
    ``blend`` rules. On a late turn where the two weights choose apart (seed 43, a
    strong-versus-strong game: 6 tokens in the bag)."""
    game = new_game("classic", ["a", "b"], seed=43)
    bots = [get_bot("strong", 43), get_bot("strong", 44)]
    while True:
        view = game.view(game.to_move, explained=False)
        assert isinstance(view, BoardView)
        if not view.turn_placements and 0 < view.bag_size <= 8:
            break
        game.apply(bots[game.to_move].act(view))
    quick = "expert:even_horizon=true,samples=16,cap_ms=none"

    def chosen(settings: str) -> object:
        return get_bot(f"{quick},{settings}", 3).act(view)

    whole, half = chosen("to_end=8,blend=1"), chosen("to_end=8,blend=0.5")
    assert whole != half
    assert chosen("to_end=8,end_blend=1") == whole
    assert chosen(f"to_end={view.bag_size - 1},end_blend=1") == chosen(
        f"to_end={view.bag_size - 1}"
    )

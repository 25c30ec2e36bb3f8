"""Benchmarks of the rules core and the computer players, printed as JSON.

Usage: ``python benchmarks/run.py [--quick] [--repeats N] [--only NAME ...]``.
Every figure is the median of several runs; comparisons are ratios measured in the
same run, because the machines are shared and noisy. Record results, dated, in
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the naive oracle lives with the tests

from mathable.engine.actions import Place  # noqa: E402
from mathable.games.board.board import Board  # noqa: E402
from mathable.games.board.game import BoardGame  # noqa: E402
from oracle import naive_placements  # noqa: E402

Suite = Callable[[argparse.Namespace], dict[str, object]]


def sample_positions(count: int, seed: int) -> list[tuple[Board, tuple[int, ...]]]:
    """Mid-game positions (board and rack of the player to move) from seeded random games."""
    rng = random.Random(seed)
    positions: list[tuple[Board, tuple[int, ...]]] = []
    while len(positions) < count:
        game = BoardGame("classic", 2, seed=rng.randrange(2**40))
        stop = rng.randint(10, 70)
        while not game.is_over and len(game.log) < stop:
            actions = game.legal_actions()
            places = [a for a in actions if isinstance(a, Place)]
            game.apply(rng.choice(places) if places and rng.random() < 0.9 else actions[-1])
        if not game.is_over:
            positions.append((game.board.copy(), game.rack(game.to_move)))
    return positions


def incremental_placements(board: Board, rack: tuple[int, ...]) -> dict[tuple[int, int], int]:
    """What the engine does for a rack: read the per-value tables, no scan."""
    out: dict[tuple[int, int], int] = {}
    for value in set(rack):
        for cell in board.cells_accepting(value):
            out[(cell, value)] = board.points(cell, value)
    return out


def _per_position_us(
    fn: Callable[[Board, tuple[int, ...]], object],
    positions: list[tuple[Board, tuple[int, ...]]],
) -> float:
    start = time.perf_counter()
    for board, rack in positions:
        fn(board, rack)
    return (time.perf_counter() - start) / len(positions) * 1e6


def bench_legal(args: argparse.Namespace) -> dict[str, object]:
    """Legal placements of a rack: incremental tables against the naive full scan."""
    positions = sample_positions(50 if args.quick else 300, seed=1)
    for board, rack in positions:  # the two must agree before they are timed
        assert incremental_placements(board, rack) == naive_placements(board, rack)
    fast, slow, ratios = [], [], []
    for _ in range(args.repeats):
        f = _per_position_us(incremental_placements, positions)
        s = _per_position_us(naive_placements, positions)
        fast.append(f)
        slow.append(s)
        ratios.append(s / f)
    return {
        "positions": len(positions),
        "incremental_us_median": round(statistics.median(fast), 1),
        "naive_us_median": round(statistics.median(slow), 1),
        "speedup_median": round(statistics.median(ratios), 1),
    }


def random_playout(seed: int) -> int:
    """One whole classic game through ``Game`` with random legal actions; its length."""
    rng = random.Random(seed)
    game = BoardGame("classic", 2, seed=seed)
    while not game.is_over:
        places = list(game.legal_placements())
        if places and rng.random() < 0.95:
            game.apply(rng.choice(places))
        else:
            game.apply(game.legal_actions()[-1] if not places else rng.choice(places))
    return len(game.log)


def bench_playouts(args: argparse.Namespace) -> dict[str, object]:
    """Whole random games per second through the public Game API (one core)."""
    games = 3 if args.quick else 10
    rates, actions = [], 0
    for repeat in range(args.repeats):
        start = time.perf_counter()
        actions = sum(random_playout(1000 * repeat + i) for i in range(games))
        rates.append(games / (time.perf_counter() - start))
    return {
        "games_per_run": games,
        "actions_last_run": actions,
        "game_api_games_per_s_median": round(statistics.median(rates), 2),
    }


def played_positions(count: int, seed: int) -> list[BoardGame]:
    """Turn starts from the middle of seeded greedy-versus-greedy games: boards as real
    games make them (random play leaves sparse boards with few placements)."""
    from mathable.ai import GreedyBot

    rng = random.Random(seed)
    found: list[BoardGame] = []
    while len(found) < count:
        game = BoardGame("classic", 2, seed=rng.randrange(2**40))
        bots = [GreedyBot(1), GreedyBot(2)]
        stop = rng.randint(8, 40)
        while not game.is_over and len(game.turns) < stop:
            game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
        if not game.is_over and not game.turn_placements:
            found.append(game)
    return found


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_search(args: argparse.Namespace) -> dict[str, object]:
    """The strong player's exact best-turn search on fixed mid-game positions, full
    racks of 7 (the positions come from seeded random games, so they are the same in
    every run)."""
    from mathable.ai.search import best_turn
    from mathable.games.board.variants import CLASSIC

    games = played_positions(20 if args.quick else 100, seed=5)
    positions = [(g.board.copy(), g.rack(g.to_move)) for g in games]
    medians, p95s = [], []
    for _ in range(args.repeats):
        times = []
        for board, rack in positions:
            start = time.perf_counter()
            best_turn(CLASSIC, board, rack, started_with=len(rack))
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
        p95s.append(_quantile(times, 0.95))
    return {
        "positions": len(positions),
        "best_turn_ms_median": round(statistics.median(medians), 2),
        "best_turn_ms_p95": round(statistics.median(p95s), 2),
    }


def bench_expert(args: argparse.Namespace) -> dict[str, object]:
    """The expert's thinking time for a whole turn at its default settings."""
    from mathable.ai import ExpertBot

    games = played_positions(3 if args.quick else 20, seed=9)
    per_turn = []
    for game in games:
        bot = ExpertBot(1)
        seat = game.to_move
        start = time.perf_counter()
        while not game.is_over and game.to_move == seat:
            game.apply(bot.act(game.view(seat, explained=False)))
        per_turn.append((time.perf_counter() - start) * 1000)
    return {
        "turns": len(per_turn),
        "expert_ms_per_turn_median": round(statistics.median(per_turn), 1),
        "expert_ms_per_turn_p95": round(_quantile(per_turn, 0.95), 1),
    }


def compiled_modules() -> list[str]:
    """The modules of ``mathable.compiled`` running compiled in this process (mypyc),
    by name: every one of them, so a stale build that fell back to source shows."""
    import importlib

    from mathable.compiled import COMPILED_MODULES

    loaded = [importlib.import_module(name) for name in COMPILED_MODULES]
    return [m.__name__ for m in loaded if not (m.__file__ or "").endswith(".py")]


def bench_turns(args: argparse.Namespace) -> dict[str, object]:
    """Every turn's thinking time of the searching levels at their defaults over whole
    games, endgames included (issue 16: the slow turns were in endgames, which the
    ``expert`` suite never reaches): expert against strong in each board game, seeds
    from the tuning range. Reports p50, p95 and the max per level, and the max of the
    turns played with the bag empty."""
    from mathable.ai.arena import play_game

    games = 2 if args.quick else 12
    out: dict[str, object] = {"compiled": compiled_modules()}
    for variant in ("classic", "junior", "junior-numbers"):
        times: dict[str, list[float]] = {"strong": [], "expert": []}
        for number in range(games):
            seats = ["expert", "strong"] if number % 2 == 0 else ["strong", "expert"]
            result = play_game(seats, variant, 20_000 + number // 2)
            for name, spent in result.times.items():
                times[name].extend(1000 * t for t in spent)
        out[variant] = {
            name: {
                "turns": len(ms),
                "p50_ms": round(statistics.median(ms), 1),
                "p95_ms": round(_quantile(ms, 0.95), 1),
                "max_ms": round(max(ms), 1),
            }
            for name, ms in times.items()
        }
    return out


CALIBRATION_STEPS = 200_000
"""The size of one calibration unit (:func:`calibration_loop`): ~25-50 ms on our machines."""

CALIBRATION_SLICE = 10_000
"""The calibration steps run after each self-play game (a twentieth of a unit), so that
the yardstick is timed under the same load as the games, spread over the same seconds."""


def calibration_loop(steps: int = CALIBRATION_STEPS) -> int:
    """Calibration work: a fixed amount of plain Python (dict, list and int operations, no
    project code, nothing compiled of ours), ``steps`` of them (one unit:
    :data:`CALIBRATION_STEPS`), so that the games a second measured beside it can be
    divided by how fast this machine runs Python right now. The shared machines' speed
    varies ~3x from day to day; the ratio varies far less."""
    table: dict[int, int] = {}
    kept: list[int] = []
    total = 0
    for step in range(steps):
        key = (step * 7919) % 1009
        table[key] = table.get(key, 0) + step
        kept.append(step ^ key)
        if len(kept) == 64:
            total += sum(kept) + len(table)
            kept.clear()
    return total


def calibration_per_s(loops: int = 3) -> float:
    """Calibration units a second, the fastest of ``loops`` whole units."""
    best = float("inf")
    for _ in range(loops):
        start = time.perf_counter()
        calibration_loop()
        best = min(best, time.perf_counter() - start)
    return 1 / best


def bench_selfplay(args: argparse.Namespace) -> dict[str, object]:
    """Whole classic games per second on one core through the public ``Game`` API, each
    level against itself (issue 16's targets: strong >= 30, greedy >= 300), median of
    ``--repeats`` runs; ``compiled`` names the modules running compiled.

    After each game a slice of calibration work runs (:data:`CALIBRATION_SLICE`), timed
    apart, so games and yardstick share the run's load; ``{level}_games_per_unit_median``
    is the median of the runs' games a second divided by their calibration units a
    second (the games played in the time of one unit), which compares across days and
    machines where games a second alone does not (issue 35)."""
    from mathable.ai.arena import play_game

    sizes = {"greedy": 10 if args.quick else 200, "strong": 2 if args.quick else 40}
    out: dict[str, object] = {"compiled": compiled_modules()}
    calibrations: list[float] = []
    for level, games in sizes.items():
        rates, per_unit = [], []
        for run in range(args.repeats):
            playing = calibrating = 0.0
            for number in range(games):
                start = time.perf_counter()
                play_game([level, level], "classic", 30_000 + run * 1000 + number)
                middle = time.perf_counter()
                calibration_loop(CALIBRATION_SLICE)
                playing += middle - start
                calibrating += time.perf_counter() - middle
            rate = games / playing
            units = games * CALIBRATION_SLICE / CALIBRATION_STEPS / calibrating
            calibrations.append(units)
            rates.append(rate)
            per_unit.append(rate / units)
        out[f"{level}_games_per_s_median"] = round(statistics.median(rates), 1)
        out[f"{level}_games_per_s_min"] = round(min(rates), 1)
        out[f"{level}_games_per_unit_median"] = round(statistics.median(per_unit), 3)
    out["calibration_per_s_median"] = round(statistics.median(calibrations), 2)
    out["calibration_steps"] = CALIBRATION_STEPS
    return out


def bench_load(args: argparse.Namespace) -> dict[str, object]:
    """The median of three load runs (one with --quick); see :func:`load_once`."""
    runs = [load_once(args) for _ in range(1 if args.quick else 3)]
    out: dict[str, object] = dict(runs[0])
    for key in ("actions_per_s", "latency_ms_p50", "latency_ms_p95"):
        out[key] = statistics.median(float(r[key]) for r in runs)  # type: ignore[arg-type]
    out["runs"] = len(runs)
    return out


def load_once(args: argparse.Namespace) -> dict[str, object]:
    """A load run on localhost: concurrent games played by WebSocket clients (two per
    game, each playing its seat from the legal actions it is sent), against a real
    ``mathable serve`` process on a fresh SQLite file. Latency: from sending an action to
    receiving the view that includes it."""
    import asyncio
    import json
    import tempfile

    import httpx2
    from websockets.asyncio.client import connect

    from webserver import Server

    games = 10 if args.quick else 50
    actions_per_game = 20 if args.quick else 60
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "load.db").start()
        try:
            made = [
                httpx2.post(
                    server.url + "/api/games",
                    json={
                        "players": [{"name": "A"}, {"name": "B"}],
                        "seed": 100 + i,
                        "mode": "screen",  # O1: a chosen seed and every seat's token
                    },
                ).json()
                for i in range(games)
            ]
            latencies: list[float] = []

            async def player(game_id: str, token: str, rng: random.Random) -> int:
                url = server.url.replace("http", "ws") + f"/api/games/{game_id}/ws?token={token}"
                done = 0
                async with connect(url, max_size=None) as socket:
                    sent_at: float | None = None
                    waiting_for = -1
                    while True:
                        message = json.loads(await socket.recv())
                        if message["type"] != "view":
                            sent_at = None
                            continue
                        view = message["view"]
                        if sent_at is not None and view["seq"] >= waiting_for:
                            latencies.append(time.perf_counter() - sent_at)
                            sent_at = None
                        if view["over"] or view["seq"] >= actions_per_game:
                            return done
                        if view["legal"] and sent_at is None:
                            places = [a for a in view["legal"] if "=" in a and "+" not in a]
                            action = rng.choice(places) if places else view["legal"][-1]
                            if "end" in view["legal"] and rng.random() < 0.3:
                                action = "end"
                            waiting_for = view["seq"] + 1
                            sent_at = time.perf_counter()
                            await socket.send(json.dumps({"action": action, "seq": view["seq"]}))
                            done += 1

            async def run_all() -> int:
                rng = random.Random(1)
                tasks = [
                    player(g["id"], seat["token"], random.Random(rng.random()))
                    for g in made
                    for seat in g["seats"]
                ]
                return sum(await asyncio.gather(*tasks))

            start = time.perf_counter()
            total = asyncio.run(run_all())
            elapsed = time.perf_counter() - start
        finally:
            server.stop()
    ordered = sorted(latencies)
    return {
        "games": games,
        "clients": 2 * games,
        "actions": total,
        "actions_per_s": round(total / elapsed, 1),
        "latency_ms_p50": round(1000 * _quantile(ordered, 0.5), 2),
        "latency_ms_p95": round(1000 * _quantile(ordered, 0.95), 2),
    }


SUITES: dict[str, Suite] = {
    "legal": bench_legal,
    "playouts": bench_playouts,
    "search": bench_search,
    "expert": bench_expert,
    "turns": bench_turns,
    "selfplay": bench_selfplay,
    "load": bench_load,
}


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--only", nargs="*", choices=sorted(SUITES), help="suites to run")
    args = parser.parse_args(argv)
    report: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"),
        "commit": _commit(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeats": args.repeats,
    }
    for name in args.only or list(SUITES):
        report[name] = SUITES[name](args)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

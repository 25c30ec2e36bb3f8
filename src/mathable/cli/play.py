"""``mathable play``: a new or resumed game at one screen, in the full-screen terminal app
(:mod:`mathable.tui`, started only when both ends are a terminal) or line by line
(:mod:`.hotseat`, ``--plain``); the players, levels and house rules checked first."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mathable.i18n import _, lazy

from ._later import later
from .games import load_game
from .shell import VariantOpt, console, fail, game_type, helps, in_file, read_file, tolerant_stdin

if TYPE_CHECKING:
    from mathable import ai
    from mathable.engine import protocol, records
    from mathable.engine.protocol import Game, GameType, HouseRules
    from mathable.games import registry
else:
    ai = later("mathable.ai")
    protocol = later("mathable.engine.protocol")
    records = later("mathable.engine.records")
    registry = later("mathable.games.registry")


def _seat_names(players: str, vs: str | None) -> list[str]:
    """The seats ``--players`` and ``--vs`` ask for: ``--vs LEVEL`` seats one person (the
    one name of ``--players``, else "You") against that computer level."""
    names = [n.strip() for n in players.split(",") if n.strip()]
    if vs is None:
        return names
    if vs not in ai.BOTS:
        raise fail(
            _(
                "unknown computer level {level}; choose one of {levels}",
                level=repr(vs),
                levels=", ".join(ai.BOTS),
            )
        )
    if len(names) > 1 or any(ai.SEAT_BOT.search(n.lower()) for n in names):
        raise fail(
            _(
                "--vs seats one person against the computer: give at most one name with "
                "--players (for more seats, name them all: --players Ann,Bob,bot:strong)"
            )
        )
    # TRANSLATORS: the name of the one person playing against the computer (--vs)
    return [names[0] if names else _("You"), f"{vs.title()} [bot:{vs}]"]


def _house_rules(kind: GameType, chosen: dict[str, tuple[str, bool]], hints: bool) -> HouseRules:
    """The house rules switched on by flags (``chosen``: rule -> (flag, on)); a rule the
    game does not offer is refused. Hints (O2) are on where the game offers them unless
    ``--no-hints``."""
    for rule, (flag, on) in chosen.items():
        if on and rule not in kind.house_rules:
            raise fail(_("{game} has no house rule {flag}", game=kind.title, flag=flag))
    wanted = {rule for rule, (_flag, switched) in chosen.items() if switched}
    return protocol.HouseRules(
        table_referee="table_referee" in wanted,
        allow_undo="allow_undo" in wanted,
        strict="strict" in wanted,
        hints=hints and "hints" in kind.house_rules,
    )


def _checked_new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game, its computer players checked (and named as the terminal app names
    them: ``bot:strong`` seats ``Strong [bot:strong]``); raises ValueError saying what is
    wrong, in the player's words (never a record's field names)."""
    from mathable.ai import seat_bots
    from mathable.engine.validation import FieldError

    names = bot_names(names)
    seen: dict[str, str] = {}
    for name in names:
        twin = seen.setdefault(name.strip().casefold(), name)
        if twin != name or names.count(name) > 1:
            raise ValueError(
                _(
                    "{first} and {second} are one name: give each player a different one",
                    first=twin,
                    second=name,
                )
            )
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ValueError(_("--seed takes a whole number from 0 to {most}", most=MAX_SEED))
    seat_bots(names, seed)
    try:
        return registry.new_game(kind.name, names, seed=seed, house_rules=rules, rounds=rounds)
    except FieldError as exc:
        raise ValueError(_in_words(exc)) from None


MAX_SEED = 2**63 - 1
"""The largest seed of a shuffle (records keep it as a 64-bit integer)."""


def bot_names(names: list[str]) -> list[str]:
    """Seats typed ``bot:LEVEL`` named as every front end names a computer player:
    ``Strong [bot:strong]`` (``Strong 2 [bot:strong]`` for a second of one level)."""
    named: list[str] = []
    for name in names:
        level = name.strip().lower().removeprefix("bot:")
        if name.strip().lower().startswith("bot:") and level in ai.BOTS:
            title, number = level.title(), 1
            while f"{title} [bot:{level}]" in named:
                number += 1
                title = f"{level.title()} {number}"
            name = f"{title} [bot:{level}]"
        named.append(name)
    return named


def _in_words(exc: Exception) -> str:
    """A refusal of a new game's settings in the player's words: the option or the
    player it is about, not the field of a record (``field 'players[0]'``)."""
    from mathable.engine.validation import FieldError

    if not isinstance(exc, FieldError):
        return str(exc)
    field, problem = exc.field, str(exc.problem)
    seat = re.fullmatch(r"players\[(\d+)\]", field)
    if seat:
        # TRANSLATORS: a player's name refused: which player, then why
        return _("the name of player {number}: {problem}", number=int(seat[1]) + 1, problem=problem)
    if field == "players":
        return problem
    if field == "seed":
        return _("--seed takes a whole number from 0 to {most}", most=MAX_SEED)
    if field in ("rounds", "house_rules"):
        # TRANSLATORS: an option of the command line, then why its value is refused
        return _("{option}: {problem}", option=f"--{field.replace('_', '-')}", problem=problem)
    return str(exc)


def _new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game; names, levels or options the game refuses are refused in one line."""
    try:
        return _checked_new_game(kind, names, seed, rules, rounds)
    except ValueError as exc:  # MathableError included
        raise fail(str(exc)) from None


PLAY_HELP = helps(
    lazy("Play at one screen or against the computer, in the full-screen terminal app."),
    lazy(
        "Without --players, --vs or --resume the app opens on a new-game screen (--plain: "
        "asks for the players). A resumed game keeps its own players and house rules."
    ),
)
"""The help of ``play``."""


def play(
    players: Annotated[
        str,
        typer.Option(
            help=helps(
                lazy(
                    "Names, comma separated; bot:LEVEL for a computer player "
                    "(--players Ann,Bob,bot:strong)."
                )
            )
        ),
    ] = "",
    vs: Annotated[
        str | None,
        typer.Option(
            help=helps(
                lazy(
                    "Play one person against this computer level (see 'bots'): you alone, "
                    "or the one name given by --players (--players Ann --vs strong)."
                )
            )
        ),
    ] = None,
    rounds: Annotated[
        int, typer.Option(help=helps(lazy("Rounds of a match, in games played in rounds.")))
    ] = 1,
    seed: Annotated[
        int | None, typer.Option(help=helps(lazy("Seed of the shuffle (random if unset).")))
    ] = None,
    variant: VariantOpt = "classic",
    referee: Annotated[
        bool,
        typer.Option(
            "--referee", help=helps(lazy("House rule C12: mistakes stand until challenged."))
        ),
    ] = False,
    undo: Annotated[
        bool, typer.Option("--undo", help=helps(lazy("House rule: allow taking back.")))
    ] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help=helps(lazy("House rule K2 (numbered board): scoring first."))
        ),
    ] = False,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints",
            help=helps(lazy("House rule O2: players may ask for their best turns.")),
        ),
    ] = True,
    resume: Annotated[
        Path | None, typer.Option(help=helps(lazy("Continue a saved game record.")))
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help=helps(lazy("The line-by-line game instead of the full screen."))
        ),
    ] = False,
    pace: Annotated[
        float | None,
        typer.Option(
            min=0,
            max=10,
            help=helps(
                lazy(
                    "Seconds between the computer's placements, 0 for none (the full "
                    "screen's own pace if unset; none in --plain)."
                )
            ),
        ),
    ] = None,
) -> None:
    from .hotseat import ask_game, run_hotseat

    kind = game_type(variant)
    names = _seat_names(players, vs)
    if resume is not None and names:
        raise fail(
            _("--resume continues a saved game with its own players: leave out --players/--vs")
        )
    house = _house_rules(
        kind,
        {
            "table_referee": ("--referee", referee),
            "allow_undo": ("--undo", undo),
            "strict": ("--strict", strict),
        },
        hints,
    )
    if rounds != 1 and not kind.rounds:
        raise fail(_("{game} is not played in rounds: leave out --rounds", game=kind.title))
    game: Game | None = None
    levels: dict[int, str] = {}  # a resumed record's computer seats (its ``bots``)
    if resume is not None:
        game = load_game(resume)
        levels = records.bots_of(records.loads(read_file(resume)))
        for seat, level in levels.items():
            if level not in ai.BOTS:
                said = _(
                    "seat {seat} was played by the computer level {level}, which this "
                    "program has not ({levels})",
                    seat=seat + 1,
                    level=repr(level),
                    levels=", ".join(ai.BOTS),
                )
                raise fail(in_file(resume, said))
    elif names:
        game = _new_game(kind, names, seed, house, rounds)
    else:  # the players are asked for later: refuse bad options now
        seats = [_("Player {number}", number=i + 1) for i in range(kind.min_players)]
        _new_game(kind, seats, seed, house, rounds)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from mathable.tui.app import run_app

        paced = {} if pace is None else {"pace": pace}  # the app's own pace if unset
        run_app(
            game,
            save_path=resume,
            seed=seed,
            variant=kind.name,
            house_rules=house,
            levels=levels,
            **paced,
        )
        return
    tolerant_stdin()
    if game is None:
        game = ask_game(
            console,
            kind,
            lambda typed: _checked_new_game(kind, typed, seed, house, rounds),
        )
    run_hotseat(console, game, seed=seed, levels=levels, pace=pace or 0.0)

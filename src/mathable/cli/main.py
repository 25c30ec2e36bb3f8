"""The ``mathable`` command: every command registered, in the order ``--help`` lists them.

Each command lives in the module of its concern and imports only what lies below it
(:mod:`.shell`, :mod:`.games`); this module, at the top, puts them on the group
(:mod:`.group`). The engine, the games, the computer players and the web are imported when
a command first needs them (:func:`._later.later`): ``mathable --help`` loads none of them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import typer

from mathable import i18n
from mathable.i18n import _

from . import bots, explain, keep, learn, play, positions, practice, puzzles, serve, sheets
from .group import Command, new_app
from .shell import err

COMMANDS: tuple[tuple[str, Callable[..., None], str], ...] = (
    ("score", sheets.score, sheets.SCORE_HELP),
    ("keep", keep.keep, keep.KEEP_HELP),
    ("replay", sheets.replay, sheets.REPLAY_HELP),
    ("show", positions.show, positions.SHOW_HELP),
    ("moves", positions.moves, positions.MOVES_HELP),
    ("variants", sheets.variants, sheets.VARIANTS_HELP),
    ("play", play.play, play.PLAY_HELP),
    ("bots", bots.bots, bots.BOTS_HELP),
    ("arena", bots.arena, bots.ARENA_HELP),
    ("ladder", bots.ladder, bots.LADDER_HELP),
    ("train-leaves", bots.train_leaves, bots.TRAIN_LEAVES_HELP),
    ("rate-bots", bots.rate_bots, bots.RATE_BOTS_HELP),
    ("analyse", sheets.analyse, sheets.ANALYSE_HELP),
    ("hint", positions.hint, positions.HINT_HELP),
    ("serve", serve.serve, serve.SERVE_HELP),
    ("explain", explain.explain, explain.EXPLAIN_HELP),
    ("learn", learn.learn, learn.LEARN_HELP),
    ("practice", practice.practice, practice.PRACTICE_HELP),
    ("make-puzzles", puzzles.make_puzzles, puzzles.MAKE_PUZZLES_HELP),
    ("puzzles", puzzles.puzzles, puzzles.PUZZLES_HELP),
)
"""Every command: its name, its function and its help, in the order of ``--help``."""


def build() -> typer.Typer:
    """The command group with every command of :data:`COMMANDS` on it."""
    group = new_app()
    for name, callback, help_text in COMMANDS:
        group.command(name, cls=Command, help=help_text)(callback)
    return group


app = build()


def main() -> None:
    """Entry point of the console script (and of ``python -m mathable``)."""
    try:
        app()
    except KeyboardInterrupt:
        with i18n.language(i18n.from_environment()):
            err.print(_("interrupted"))
        sys.exit(130)
    except BrokenPipeError:  # the reader of our output stopped (``| head``): leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)

"""Words both terminal games say about the players and the end of a game: a seat that
left (local ruling L1), a leaving confirmed and played, the winners, and typed text echoed
safely. The plain game (:mod:`mathable.cli.hotseat`) and the full screen
(:mod:`mathable.tui`) both show them, so they live here, below both."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from mathable.engine.actions import Abort, Leave
from mathable.engine.protocol import Game, departure_text
from mathable.i18n import Text as Message
from mathable.i18n import _, lazy

LEFT_MARKS: dict[str, Message] = {
    # TRANSLATORS: beside a player's name in the scores: the player resigned
    "resign": lazy("resigned"),
    # TRANSLATORS: beside a player's name in the scores: the player's clock ran out
    "flag": lazy("out of time"),
    # TRANSLATORS: beside a player's name in the scores: an opponent claimed the game
    # after this player was gone too long
    "claim": lazy("claimed"),
}
"""How a seat that left is marked beside its name (the view's ``left``, local ruling L1),
translated when shown."""

# TRANSLATORS: beside a player's name in the scores: the player left the game
LEFT_MARK = lazy("left")
"""The mark of a seat that left for a reason :data:`LEFT_MARKS` does not know."""


def left_names(players: Sequence[str], left: Sequence[str]) -> tuple[str, ...]:
    """The players' names, a seat that left marked: ``Ann (resigned)``."""
    return tuple(
        # TRANSLATORS: a player's name and why they left the game: Ann (resigned)
        _("{name} ({mark})", name=name, mark=LEFT_MARKS.get(why, LEFT_MARK)) if why else name
        for name, why in zip(players, left, strict=True)
    )


def leave_question(game: Game, action: Leave | Abort) -> str:
    """The question a leaving is confirmed with: ``Ann resigns: sure? y/n``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        # TRANSLATORS: y/n: the answers yes and no (see the answer "y")
        return _("{name} aborts the game (nobody wins): sure? y/n", name=name)
    # TRANSLATORS: y/n: the answers yes and no (see the answer "y")
    return _("{name} resigns: sure? y/n", name=name)


def left_text(game: Game, action: Leave | Abort) -> str:
    """A leaving in words, once played: ``Ann resigned``, ``Ann aborted the game``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        return _("{name} aborted the game", name=name)
    return departure_text(name, action.reason)


def names_and(names: Sequence[str]) -> str:
    """Names in a sentence: ``Ann``, ``Ann and Bob``, ``Ann and Bob and Cy``."""
    said = ""
    for name in names:
        # TRANSLATORS: two names (or a list of names and one more) joined: Ann and Bob
        said = _("{first} and {second}", first=said, second=name) if said else name
    return said


def winners_text(game: Game) -> str:
    """`` Winner: Ann.`` after the end of a game, or '' when nobody won (an abort)."""
    winners = [game.players[s] for s in game.winners()]
    return " " + _("Winner: {names}.", names=names_and(winners)) if winners else ""


def over_text(game: Game) -> str:
    """The end of a game in words: how it ended and who won (nobody after an abort)."""
    if game.game_type.rounds:
        # TRANSLATORS: the end of a match of several rounds, then why it ended
        over = _("Match over: {reason}.", reason=game.end_reason)
    else:
        # TRANSLATORS: the end of a game, then why it ended
        over = _("Game over: {reason}.", reason=game.end_reason)
    return over + winners_text(game)


def clean(text: str) -> str:
    """``text`` with control characters written as escapes (``\\n``, ``\\x1b``): an
    echo of typed text stays on its line and cannot drive the terminal."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)

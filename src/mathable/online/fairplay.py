"""Fair play in rated games (issue 15, "Fair play"; rulings O1, O2): what a rated game may
not have, checked in one place for every way a game is made (a new game, a lobby seek).

Hints and analysis during the game are an aid nobody else sees (O2 lets players of a
casual game agree on them, shown to every seat); a rated game is played without them,
and without taking moves back (undo), as lichess rates only games without such help.
"""

from __future__ import annotations

from collections.abc import Mapping

from mathable.i18n import Text, lazy

OFF_WHEN_RATED: dict[str, Text] = {
    "hints": lazy("hints and analysis are off in rated games until they end (fair play)"),
    "allow_undo": lazy("moves cannot be taken back in rated games"),
}
"""The house rules a rated game refuses, each with the reason shown (lazy texts: shown
in the reader's language)."""


RATED_SEED = lazy(
    "a rated game is dealt by the server from a secret seed, shown at the end (O1); a chosen "
    "seed is for casual games"
)
"""Why a rated game refuses a chosen seed: whoever knows the seed knows every rack and the
bag, computer seats' too (issue 29)."""


def rated_refusal(
    house_rules: Mapping[str, bool], seed: int | None = None
) -> tuple[str, Text] | None:
    """``(field, reason)`` of the first thing a rated game refuses (a chosen ``seed``, a
    house rule that aids); None: fair."""
    if seed is not None:
        return "seed", RATED_SEED
    for rule, reason in OFF_WHEN_RATED.items():
        if house_rules.get(rule):
            return f"house_rules.{rule}", reason
    return None

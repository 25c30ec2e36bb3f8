"""Who may act, and who acted: the checks between a seat and the rules, for every game.

A front end hands the engine a seat and what it typed; :meth:`Game.play
<.protocol.Game.play>` decides whether that seat may play it now (as OpenSpiel's
``ApplyAction`` or boardgame.io's reducer checks the acting player), so no front end
checks a turn. A refusal is an :class:`ActionRefused` whose :attr:`~ActionRefused.kind`
says which check failed, for a server to answer with the right status; an action the
rules refuse is a plain :class:`~.errors.IllegalMove`.

The same module knows who made each action of a log (:func:`actors`) and how far an
undo by a seat reaches (:func:`undo_steps`, house rule ``allow_undo``, ruling V-B).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal, Protocol, TypeAlias

from mathable.i18n import Text, lazy

from .actions import Abort, Action, Challenge, Leave, Shake, action_kind
from .errors import IllegalMove
from .metadata import HouseRules, Words
from .view import TurnSummary


class Table(Protocol):
    """What the checks of who may act read of a game: a :class:`~.protocol.Game` (named
    by what it offers, so this module needs nothing of the protocol that calls it)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def house_rules(self) -> HouseRules: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def end_text(self) -> Words: ...

    @property
    def left(self) -> tuple[str, ...]: ...

    @property
    def to_move(self) -> int: ...

    @property
    def log(self) -> tuple[Action, ...]: ...

    def actors(self) -> tuple[int, ...]: ...

    def available(self, seat: int | None) -> tuple[str, ...]: ...

    def summaries(self) -> Sequence[TurnSummary]: ...


RefusalKind: TypeAlias = Literal["over", "left", "not_playable", "challenge", "turn", "undo"]
"""Why a seat may not act now:

- ``over``: the game is over;
- ``left``: the seat has left the game (local ruling L1);
- ``not_playable``: an action no seat plays directly (leaving, aborting, shaking the bag:
  resigning, claims, flags, aborts and undos play those through :meth:`Game.apply`);
- ``challenge``: a challenge the seat may not make now (C12);
- ``turn``: it is another seat's turn;
- ``undo``: nothing the seat may take back now (V-B, L1, O5).
"""

REFUSAL_KINDS: tuple[RefusalKind, ...] = (
    "over",
    "left",
    "not_playable",
    "challenge",
    "turn",
    "undo",
)
"""Every :data:`RefusalKind`, in the order :meth:`Game.play` checks them (undo apart)."""


class ActionRefused(IllegalMove):
    """A seat may not act now (whatever the action's merits): the game is over, the seat
    left, the action is not one a seat plays, or it is not the seat's turn or challenge.

    ``kind`` (a :data:`RefusalKind`) tells which, for a server's answer; the texts cite
    their ruling in words, so ``rule`` stays empty and ``str(exc)`` is the text alone."""

    def __init__(self, reason: str | Text, *, kind: RefusalKind) -> None:
        super().__init__(reason)
        self.kind: RefusalKind = kind

    def __reduce__(self) -> tuple[object, ...]:
        # the kind survives pickling (errors cross to worker processes)
        return (_rebuild_refused, (self.reason_text, self.kind))


def _rebuild_refused(reason: str | Text, kind: RefusalKind) -> ActionRefused:
    return ActionRefused(reason, kind=kind)


def over_text(game: Table) -> Text:
    """The refusal of an action once the game is over, with why it ended."""
    why = game.end_text
    if why:
        return lazy("the game is over: {reason}", reason=why)
    return lazy("the game is over")


def checked_play(game: Table, seat: int, action: Action) -> Action:
    """The action ``seat`` plays, as the game will apply it (a challenge names its
    challenger, C12), once every check of who may act passes; raises
    :class:`ActionRefused` otherwise. The game is not changed."""
    if not 0 <= seat < len(game.players):
        raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
    if game.is_over:
        raise ActionRefused(over_text(game), kind="over")
    if isinstance(action, Leave | Abort | Shake):  # resign, abort, claim, flags; undo (O5)
        raise ActionRefused(
            lazy("{action}: not an action to play here", action=action_kind(action)),
            kind="not_playable",
        )
    if game.left[seat]:
        raise ActionRefused(lazy("you have left the game: play goes on without you"), kind="left")
    if isinstance(action, Challenge):
        return challenge_by(game, seat)
    if seat != game.to_move:
        raise ActionRefused(
            lazy("it is {name}'s turn, not yours", name=game.players[game.to_move]),
            kind="turn",
        )
    return action


def challenge_by(game: Table, seat: int) -> Challenge:
    """C12: any opponent of the player who made the turn may challenge it until the
    next player acts, whoever is to move (a game-ending turn waits for it); the player
    who made it may not. Raises :class:`ActionRefused` (``challenge``) saying why not."""
    if "challenge" in game.available(seat):
        return Challenge(by=seat)
    if not game.house_rules.table_referee:
        reason = lazy("there are no challenges without the table-referee house rule (C12)")
    else:
        summaries = game.summaries()
        if summaries and summaries[-1].seat == seat:
            reason = lazy("you made that turn: only your opponents may challenge it (C12)")
        else:
            reason = lazy(
                "nothing to challenge: a challenge comes before the next player acts (C12)"
            )
    raise ActionRefused(reason, kind="challenge")


def actor_of(game: Table, action: Action) -> int:
    """The seat that makes ``action`` when applied to ``game`` now: a leaving or aborting
    seat, a challenge's challenger when named, else the seat to move."""
    if isinstance(action, Leave | Abort):
        return action.seat
    if isinstance(action, Challenge) and action.by is not None:
        return action.by
    return game.to_move


def undo_refusal(game: Table, seat: int | None, computers: Collection[int] = ()) -> Text | int:
    """How many actions an undo by ``seat`` takes back now, or why it may not (a text).

    House rule ``allow_undo`` (ruling V-B forbids it otherwise): a player takes back
    their own last action, and the replies after it of the seats in ``computers`` (the
    computer players), back to their turn, while no other person has acted since; so
    nobody ever takes back what another person did. A shake of the bag is nobody's and
    never taken back (O5); a seat leaving or an abort is never taken back (L1); nothing
    once the game is over."""
    if seat is None:
        return lazy("spectators cannot undo")
    if not game.house_rules.allow_undo:
        return lazy("undo is off in this game: taking back is a house rule (allow undo, V-B)")
    if game.is_over:
        return lazy("the game is over")
    if game.left[seat]:
        return lazy("you have left the game")
    log, steps = game.log, 0
    for back, actor in enumerate(reversed(game.actors()), start=1):
        if isinstance(log[-back], Shake):
            continue  # nobody's, never taken back: the bag shaken by an undo (O5)
        if isinstance(log[-back], Leave | Abort):
            break  # never taken back (local ruling L1)
        steps += 1
        if actor == seat:
            return steps
        if actor not in computers:
            break
    return lazy(
        "nothing of yours to take back: you may undo your own last action (and the "
        "computer's replies) while nobody else has played since (V-B)"
    )


def undo_steps(game: Table, seat: int | None, computers: Collection[int] = ()) -> int:
    """How many actions an undo by ``seat`` takes back now (see :func:`undo_refusal`);
    raises :class:`ActionRefused` (``undo``) saying why it may not."""
    found = undo_refusal(game, seat, computers)
    if isinstance(found, int):
        return found
    raise ActionRefused(found, kind="undo")

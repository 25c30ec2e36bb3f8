"""A seat's action or undo (:class:`Moves`): checked by the game, stored, broadcast, and
answered with the seat's view; then the computers reply. A socket's messages arrive
typed (:data:`~.schemas.ClientIn`).
"""

from __future__ import annotations

import logging

from pydantic import ValidationError

from mathable import i18n
from mathable.engine.actions import Shake
from mathable.engine.errors import IllegalMove, NotationError
from mathable.engine.protocol import ActionRefused, RefusalKind
from mathable.i18n import _
from mathable.web.infra.connections import Encoded
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import ConflictError
from mathable.web.infra.workers import (
    UNDO,
    apply_event,
    undo_event,
)
from mathable.web.rounds.leaving import Leaving
from mathable.web.rounds.live import LiveGame, Seated

log = logging.getLogger(__name__)


REFUSED_STATUS: dict[RefusalKind, int] = {
    "over": 409,
    "left": 409,
    "challenge": 409,
    "turn": 409,
    "undo": 409,
    "not_playable": 400,  # resign, abort, claim, flags and undo have routes of their own
}
"""The answer's status for each reason a seat may not act now (:class:`ActionRefused`)."""


def refused_extra(refusal: ActionRefused, live: LiveGame) -> dict[str, int]:
    """What a refusal's answer adds: the seq a client looks again from, when the game
    went on without it (not its turn, a challenge no longer open)."""
    if refusal.kind == "challenge":
        return {"seq": len(live.game.log)}
    if refusal.kind == "turn":
        return {"seq": live.events}
    return {}


def spectator_refusal() -> ServiceError:
    """A spectator's action, refused (403)."""
    return ServiceError(
        403,
        _(
            "spectators cannot play: this browser holds no seat of this game (follow "
            "your invitation, or open your seat's link)"
        ),
    )


def action_refusal() -> ServiceError:
    """An action that is no text of the notation, refused (400)."""
    # TRANSLATORS: I8=12, end, pass and exchange 3,5 are typed as they are
    return ServiceError(400, _("action: a text such as I8=12, end, pass or exchange 3,5"))


class Moves(Leaving):
    """A seat's action (or undo): checked by the game, stored, broadcast, and answered with
    the seat's view; then the computers reply."""

    # -- acting -----------------------------------------------------------------------

    @staticmethod
    def malformed(seated: Seated, error: ValidationError) -> ServiceError:
        """The refusal of a socket message that is no :data:`~.schemas.ClientIn`: a
        spectator's as any of theirs, else the first field at fault (the action, then the
        seq), in the words :meth:`act` uses."""
        if seated.seat is None:
            return spectator_refusal()
        fields = {str(problem["loc"][-1]) for problem in error.errors() if problem["loc"]}
        if "seq" in fields and "action" not in fields:
            return ServiceError(400, _("seq: the number of actions you have seen"))
        return action_refusal()

    async def act(self, seated: Seated, text: str, expected_seq: int | None = None) -> Encoded:
        """Play ``text`` for the seat; refusals change nothing. Answers the seat's view
        after it (the one its sockets were sent: built once)."""
        seat, game_id = seated.seat, seated.live.id
        if seat is None:
            raise spectator_refusal()
        if not text.strip() or len(text) > 100:
            raise action_refusal()
        text = i18n.typed_command(text)  # "passer" typed by a French player is "pass"
        live = self.get(game_id)
        async with live.lock:
            # The store is read for other processes' actions only when the memory copy
            # refuses the action or loses the race to store it: a copy that is behind
            # always does one or the other (its seq is taken), so the answer is the same
            # as reading first, without a database round trip per action.
            live, read = self.get(game_id), False
            while True:
                try:
                    live = await self._flag_if_due(live, refuse=True)
                    event, seq = self._play(live, seat, text, expected_seq)
                except ServiceError:
                    if read:
                        raise
                    read = True
                    live, moved = await self._catch_up(live)  # other processes
                    if not moved:
                        raise
                    await self._broadcast(live)
                    continue
                try:
                    at = self.now()
                    ends = live.game.is_over
                    self._count(live, seq, event, at)
                    await self._append(game_id, seq, event, seat, at, ends)
                except ConflictError:  # another process stored an action first
                    live = self.reload(live)
                    await self._broadcast(live)
                    if not read:  # the copy was behind: judge the action on the store's game
                        read = True
                        continue
                    raise ServiceError(
                        409, _("another action came first: look again"), seq=live.events
                    ) from None
                except Exception:  # the database failed: memory goes back to what it holds
                    log.exception("storing an action of game %s", game_id)
                    try:
                        self.reload(live)
                    except Exception:  # the store is down: read it afresh when next asked
                        with self._memory:
                            self.live.pop(game_id, None)
                    raise ServiceError(
                        503, _("the game could not be saved: try again in a moment"), seq=seq
                    ) from None
                break
        await self._broadcast(live)  # views built outside the lock
        await self._run_bots(live)
        return self.view(self.get(game_id), seat)  # reloaded if a bot's move raced

    def _play(
        self, live: LiveGame, seat: int, text: str, expected_seq: int | None
    ) -> tuple[str, int]:
        """Apply the seat's action (or undo) to the game in memory; returns the event to
        store and its seq (its number in the store). Refusals (:class:`ServiceError`)
        change nothing."""
        game = live.game
        if expected_seq is not None and expected_seq != live.events:
            raise ServiceError(
                409,
                _(
                    "the game has moved on (action {actions}, you saw {seen}): look again",
                    actions=live.events,
                    seen=expected_seq,
                ),
                seq=live.events,
            )
        if text.strip().lower() == UNDO:
            steps = self.undo_steps(live, seat)
            # O5: then the bag is shaken, with fresh entropy kept in the stored event
            event = undo_event(steps, Shake.fresh().entropy)
            apply_event(game, event)
            return event, live.events
        try:
            action = game.play(seat, text)  # the engine decides who may act (issue 34)
        except NotationError as exc:
            raise ServiceError(400, str(exc)) from None
        except ActionRefused as exc:  # (an IllegalMove: caught first)
            raise ServiceError(
                REFUSED_STATUS[exc.kind], exc.reason_text, **refused_extra(exc, live)
            ) from None
        except IllegalMove as exc:
            raise ServiceError(
                422, str(exc), rule=exc.rule, where=exc.where, reason=exc.reason
            ) from None
        return game.format_action(action), live.events

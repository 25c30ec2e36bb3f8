"""The score keeper's service (issue 37): kept games stored as a setup and an event log,
replayed on every request.

A kept game is small (a hundred entries replay in milliseconds), so no process keeps one
in memory: every request reads the log and replays it (the registry's
:func:`~mathable.games.registry.kept_game`: a board game or a Quattro match), and every
process over the database serves every kept game, a reload, a restart or a second phone
alike. The log is the authority: an entry takes the next
sequence number in the primary key (game, seq), so two phones entering at once cannot
both take it (the second is told the game moved on), and a client's turn id is unique
per game, so a turn queued offline and sent twice is stored once.

Own tables (:data:`~mathable.web.infra.db.kept_games`, ``kept_entries``), not the games'
event log: a kept game has no seed, seats, clock, result or rating, and every query over
``games`` (the lobby, the histories, the computers resumed at start) would otherwise have
to skip it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from mathable.ai.kept_jobs import analysed, kept_from_log
from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.explain import Explanation
from mathable.games import registry
from mathable.games.registry import Kept, KeptAnyTurn
from mathable.i18n import _
from mathable.web.infra.db import is_unique_violation, kept_entries, kept_games
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore


def token_hash(token: str) -> str:
    """The SHA-256 of a kept game's token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Loaded:
    """A kept game replayed from the store, and its log's turn ids."""

    game_id: str
    spec: dict[str, Any]
    token_hash: str
    game: Kept
    turn_ids: dict[str, int]
    """The client's turn id of each entry that had one -> its sequence number."""


def refusal(exc: MathableError) -> ServiceError:
    """An entry the rules refuse, answered 422 with the rule and the cell (as the games
    answer an illegal action)."""
    if isinstance(exc, IllegalMove):
        return ServiceError(422, exc.full_text, rule=exc.rule, where=exc.where, reason=exc.reason)
    return ServiceError(422, exc.text)


def new_game(spec: dict[str, Any]) -> Kept:
    """The kept game of a stored setup."""
    return kept_from_log(spec, [])


class KeeperService:
    """Kept games over the event store's database."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    # -- making and reading ------------------------------------------------------------

    def create(
        self,
        variant: str,
        players: Sequence[str],
        first: str | None,
        referee: bool,
        rounds: int = 1,
    ) -> tuple[str, str, Kept]:
        """A new kept game: its id, its token (shown once) and the game; ``rounds``
        agreed for a game played in rounds (Quattro, Q5)."""
        names = [" ".join(p.split()) for p in players]
        try:
            seat = registry.first_seat(variant, names, first)
        except MathableError as exc:
            raise refusal(exc) from None
        spec: dict[str, Any] = {
            "variant": variant,
            "players": names,
            "first": seat,
            "referee": referee,
        }
        if rounds != 1:
            spec["rounds"] = rounds
        try:
            game = new_game(spec)
        except MathableError as exc:
            raise refusal(exc) from None
        game_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
        with self.store.writing() as connection:
            connection.execute(
                insert(kept_games).values(
                    id=game_id,
                    created=time.time(),
                    spec=json.dumps(spec),
                    token_hash=token_hash(token),
                )
            )
        return game_id, token, game

    def load(self, game_id: str) -> Loaded:
        """A kept game replayed (404 when there is none)."""
        with self.store.reading() as connection:
            row = connection.execute(
                select(kept_games.c.spec, kept_games.c.token_hash).where(kept_games.c.id == game_id)
            ).first()
            if row is None:
                raise ServiceError(404, _("no kept game {id}", id=game_id))
            entries = connection.execute(
                select(kept_entries.c.entry, kept_entries.c.turn_id)
                .where(kept_entries.c.game_id == game_id)
                .order_by(kept_entries.c.seq)
            ).all()
        spec = json.loads(row.spec)
        game = new_game(spec)
        turn_ids: dict[str, int] = {}
        for seq, (entry, turn_id) in enumerate(entries):
            game.play(entry)  # stored entries were checked when entered: they replay
            if turn_id is not None:
                turn_ids[turn_id] = seq
        return Loaded(game_id, spec, row.token_hash, game, turn_ids)

    def opened(self, game_id: str, token: str) -> Loaded:
        """A kept game for the holder of its token (403 otherwise)."""
        loaded = self.load(game_id)
        if not secrets.compare_digest(loaded.token_hash, token_hash(token)):
            raise ServiceError(403, _("this token does not keep game {id}", id=game_id))
        return loaded

    # -- entering ------------------------------------------------------------------------

    def enter(
        self,
        game_id: str,
        token: str,
        entry: str,
        turn_id: str | None = None,
        seq: int | None = None,
    ) -> tuple[Loaded, KeptAnyTurn | None, bool]:
        """Enter one line: the game after it, the turn it made (None: an undo or an end)
        and whether it was a repeat of an entry already stored (same ``turn_id``:
        nothing stored again). ``seq``: the entries the client has seen; another count
        is refused (409) unless a repeat, so nothing is entered over an entry it has
        not seen (an undo of another phone's turn)."""
        loaded = self.opened(game_id, token)
        if turn_id is not None and turn_id in loaded.turn_ids:
            return loaded, None, True
        game = loaded.game
        if seq is not None and seq != len(game.log):
            raise ServiceError(
                409,
                _("the game moved on: {count} entries now, reload it", count=len(game.log)),
                seq=len(game.log),
            )
        try:
            turn = game.play(entry)
        except (IllegalMove, NotationError) as exc:
            raise refusal(exc) from None
        stored = game.log[-1]
        try:
            with self.store.writing() as connection:
                connection.execute(
                    insert(kept_entries).values(
                        game_id=game_id,
                        seq=len(game.log) - 1,
                        entry=stored,
                        turn_id=turn_id,
                        created=time.time(),
                    )
                )
        except IntegrityError as exc:
            if not is_unique_violation(exc):
                raise
            again = self.load(game_id)
            if turn_id is not None and turn_id in again.turn_ids:
                return again, None, True
            raise ServiceError(
                409,
                _("the game moved on: {count} entries now, reload it", count=len(again.game.log)),
                seq=len(again.game.log),
            ) from None
        keyword = stored.split(" ", 1)[0].lower()
        made = turn if keyword not in ("undo", "end") and game.turns[-1:] == [turn] else None
        return loaded, made, False


# -- afterwards: the record and the analysis -------------------------------------------


def record_text(game: Kept) -> str:
    """The kept game's record as JSON text (:func:`~mathable.games.registry.
    kept_record`), 422 with the reason when the rules cannot replay it as kept."""
    try:
        data = registry.kept_record(game)
    except MathableError as exc:
        raise ServiceError(422, exc.text) from None
    return json.dumps(data, indent=1) + "\n"


def analysis_refused(game: Kept) -> None:
    """422 with the reason when the keeper has no analysis of ``game`` (before its job
    is sent to the worker pool: :func:`~mathable.ai.kept_jobs.analyse_kept_log`)."""
    try:
        analysed(game)
    except MathableError as exc:
        raise ServiceError(422, exc.text) from None


def analysis_texts(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` with its explanations written in the reader's language (a worker
    process writes them in the default one)."""
    turns = []
    for turn in report["turns"]:
        shown = [
            {**data, "text": Explanation.from_json(data).text()}
            for data in turn["best_explanations"]
        ]
        turns.append({**turn, "best_explanations": shown})
    return {**report, "turns": turns}


# -- answers -----------------------------------------------------------------------------


def turn_data(game: Kept, turn: KeptAnyTurn) -> dict[str, Any]:
    """One kept turn as JSON: who, what, its points, each placement explained."""
    return {
        "seat": turn.seat,
        "player": game.players[turn.seat],
        "kind": turn.kind,
        "notation": turn.notation,
        "points": turn.points,
        "bonus": turn.bonus,
        "exchanged": turn.exchanged,
        "challenged": turn.challenged,
        "placements": [
            {
                "cell": p.cell,
                "value": p.value,
                "points": p.points,
                "extra": p.extra,
                "mistake": p.mistake,
            }
            for p in turn.placements
        ],
        "explanations": explanations(turn),
    }


def explanations(turn: KeptAnyTurn) -> list[dict[str, Any]]:
    """The turn's placements explained (equations, award; a mistake's reason), then its
    bonus and its notes (a round won, DIAGO), in the reader's language."""
    shown = [e.to_json() for e in turn.explanations]
    for index, data in enumerate(shown[: len(turn.placements)]):
        placed = turn.placements[index]
        if placed.mistake:
            data["mistake"] = True
            data["points"] = placed.points
    if turn.bonus:
        shown.append(
            {
                "bonus": turn.bonus,
                # TRANSLATORS: the bonus of a turn that emptied a full rack (C9, R1)
                "text": _("bonus {points}: a full rack emptied", points=turn.bonus),
            }
        )
    shown += [{"text": note} for note in getattr(turn, "notes", ())]
    return shown


def state_data(loaded: Loaded) -> dict[str, Any]:
    """The whole kept game as JSON (``GET /api/keeper/{id}``)."""
    game = loaded.game
    return {
        **registry.kept_table(game),
        "id": loaded.game_id,
        "players": list(game.players),
        "first": game.first,
        "referee": game.referee,
        "seq": len(game.log),
        "to_move": game.to_move,
        "scores": list(game.scores),
        "over": game.is_over,
        "ending": game.ending,
        "left": None if game.left is None else [list(v) for v in game.left],
        "deductions": game.deductions(),
        "unseen": {str(v): n for v, n in game.unseen().items()},
        "turns": [turn_data(game, t) for t in game.turns],
    }


def turn_answer(loaded: Loaded, turn: KeptAnyTurn | None, repeat: bool) -> dict[str, Any]:
    """The answer to an entry: the turn's points and explanation, then the table."""
    game = loaded.game
    last = turn if turn is not None else (game.turns[-1] if game.turns else None)
    return {
        "points": last.points if last is not None else 0,
        "bonus": last.bonus if last is not None else 0,
        "scores": list(game.scores),
        "to_move": game.to_move,
        "unseen": {str(v): n for v, n in game.unseen().items()},
        "explanations": explanations(last) if last is not None else [],
        "turn": turn_data(game, last) if last is not None else None,
        "seq": len(game.log),
        "repeat": repeat,
        "over": game.is_over,
        "ending": game.ending,
        "deductions": game.deductions(),
    }

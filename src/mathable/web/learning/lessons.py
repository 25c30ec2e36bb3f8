"""The guided lessons on the web (issue 18): the page ``/learn`` and ``/api/lessons``.

The page draws each step from the lesson's data (the board before the step, the rack, the
explanation); the learner's attempt is sent back and checked here with the engine
(:func:`mathable.learn.lessons.check`), so the page never judges a move itself.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from mathable import i18n
from mathable.engine.actions import Place
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game
from mathable.learn.lessons import LESSONS, MAX_TYPED, Lesson, check, lesson_for, running_scores
from mathable.render.panels import EMPTY
from mathable.web.infra.language import html_page

router = APIRouter()


class AttemptIn(BaseModel):
    """A learner's attempt at a step, in the notation (``I8=12``)."""

    move: str = Field(max_length=MAX_TYPED)


def _lesson(name: str) -> Lesson:
    try:
        return lesson_for(name[:40])
    except MathableError as exc:
        raise HTTPException(404, str(exc)) from None


def _legal(game: Game) -> dict[str, list[str]]:
    """The cells (or piles) each value of the rack may go on now, as the game page lights
    them when a token is picked (issue 32): the engine's legal placements."""
    if game.is_over:
        return {}
    legal: dict[str, list[str]] = {}
    for action in game.legal_placements():
        if isinstance(action, Place):
            cells = legal.setdefault(str(action.value), [])
            name = game.cell_names.name(action.cell)
            if name not in cells:
                cells.append(name)
    return legal


def _position(game: Game) -> dict[str, Any]:
    """What the page draws of a game: the board's tokens by cell name, the players,
    scores (with the open turn's points: they follow each step), the one to move, what it
    places from now (its rack) and where each value may go (``legal``)."""
    view = game.view(game.to_move)
    targets = game.game_type.targets
    return {
        "board": {t.name: v for t, v in zip(targets, view.surface, strict=True) if v != EMPTY},
        "players": list(view.players),
        "scores": running_scores(game),
        "legal": _legal(game),
        "to_move": view.to_move,
        "rack": list(view.playable),  # what is placed now (Quattro: a card just drawn)
        "bag": view.bag_size,
        "over": view.over,
    }


@router.get("/learn", include_in_schema=False)
async def learn_page() -> HTMLResponse:
    """The guided first game."""
    return html_page()


@router.get("/api/lessons", summary="The guided lessons")
async def lessons() -> list[dict[str, Any]]:
    """Every lesson: its name, game, title and number of steps."""
    return [
        {"name": x.name, "variant": x.variant, "title": str(x.title), "steps": len(x.steps)}
        for x in LESSONS.values()
    ]


def _steps(lesson: Lesson) -> dict[str, Any]:
    kind = lesson.game_before(0).game_type
    steps = []
    for index, step in enumerate(lesson.steps):
        game = lesson.game_before(index)
        steps.append(
            {
                "title": str(step.title),
                "text": str(step.text),
                "rule": step.rule,
                "move": step.move,
                "why": str(step.why),
                "points": step.points,
                **_position(game),
            }
        )
    return {
        "name": lesson.name,
        "variant": lesson.variant,
        "title": str(lesson.title),
        "intro": str(lesson.intro),
        "end": str(lesson.end),
        "surface": kind.surface,
        "columns": kind.columns,
        "targets": [{"name": t.name, "kind": t.kind, "label": t.label} for t in kind.targets],
        "steps": steps,
    }


@router.get("/api/lessons/{name}", summary="A lesson and its steps")
async def lesson_steps(name: str) -> dict[str, Any]:
    """A lesson: its board's squares and, per step, the position before it, the rule it
    shows and the move it asks for (the page's hint)."""
    return await run_in_threadpool(_steps, _lesson(name))


def _checked(lesson: Lesson, index: int, move: str) -> dict[str, Any]:
    attempt = check(lesson, index, i18n.typed_command(move))  # "piocher" is "draw"
    data = attempt.to_dict()
    data["after"] = None if attempt.game is None else _position(attempt.game)
    return data


@router.post("/api/lessons/{name}/steps/{index}", summary="Check an attempt at a step")
async def attempt(name: str, index: int, body: AttemptIn) -> dict[str, Any]:
    """Whether ``move`` is the step's move, checked with the engine; if not, why (the
    engine's refusal, or what the step asks for), naming the cell in ``where``."""
    lesson = _lesson(name)
    if not 0 <= index < len(lesson.steps):
        raise HTTPException(404, f"step {index}")
    return await run_in_threadpool(_checked, lesson, index, body.move)

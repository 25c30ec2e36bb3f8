"""Puzzles by theme (issue 32): a puzzle's themes are the operations of the equations its
answer makes (the engine's explanations), and the API lists the puzzles of a theme."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mathable.engine.notation import parse_placement
from mathable.games.board.game import explain_on_board
from mathable.learn import puzzles as mined
from mathable.web.api import create_app


def test_themes_are_the_operations_the_answer_needs() -> None:
    for puzzle in mined.shipped()[:40]:
        variant, board = mined.board_of(puzzle)
        ops: set[str] = set()
        for text in puzzle.answer.split():
            place = parse_placement(text, board.grid)
            made = explain_on_board(variant, board, place.cell, place.value).equations
            ops.update(e.op for e in made)
            board.place(place.cell, place.value)
        assert set(mined.themes(puzzle)) == ops and ops, puzzle.id
        assert list(mined.themes(puzzle)) == [op for op in mined.THEMES if op in ops]
    every = {op for p in mined.shipped() for op in mined.themes(p)}
    assert every == set(mined.THEMES)  # the shipped set has puzzles of each theme


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        yield client


def test_the_api_lists_a_themes_puzzles(client: TestClient) -> None:
    answer = client.get("/api/puzzles", params={"theme": "÷", "band": "easy", "limit": 50})
    assert answer.status_code == 200
    wanted = mined.of_theme("÷", mined.of_band("easy"))
    assert int(answer.headers["X-Total-Count"]) == len(wanted) < len(mined.of_band("easy"))
    listed = answer.json()
    assert [p["id"] for p in listed] == [p.id for p in wanted[:50]]
    assert all("÷" in p["themes"] for p in listed)
    assert "answer" not in listed[0]
    one = client.get(f"/api/puzzles/{listed[0]['id']}").json()
    assert one["themes"] == list(mined.themes(wanted[0]))
    refused = client.get("/api/puzzles", params={"theme": "^"})
    assert refused.status_code == 422 and "theme" in refused.text

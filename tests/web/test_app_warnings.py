"""Making the app (its routes, their parameters, its OpenAPI schema) warns of nothing.

The suite ignores one warning (pyproject.toml): Pydantic's
``UnsupportedFieldAttributeWarning`` for a route parameter's alias. FastAPI silences it
itself (``fastapi/_compat/v2.py``) with ``warnings.catch_warnings()``, which is not
thread-safe, so a test that made an app while another app's thread answered could still
show it (the Bot API's ``challenge_id``, in 2 of 5 fresh clones' runs). Here the app is
made alone with every warning an error."""

from __future__ import annotations

import warnings
from pathlib import Path

from mathable.web.api import create_app


def test_making_the_app_and_its_schema_warns_of_nothing(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
        schema = app.openapi()
    assert "/api/challenge/{challenge_id}/accept" in schema["paths"]

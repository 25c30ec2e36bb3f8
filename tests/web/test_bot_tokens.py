"""Bot API tokens read as what they are (issue 36): a token never begins with ``-``, so
``examples/bot.py --token TOKEN`` as docs/api.md writes it takes every token (a bare
``secrets.token_urlsafe`` began with ``-`` one time in 64 and was refused by argparse as
an unknown option: a fresh run's bot challenge test met one)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from mathable.web.players.botaccounts import TOKEN_PREFIX, new_token, token_digest

EXAMPLE = Path(__file__).parents[2] / "examples" / "bot.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_token_is_read_by_the_example_bot_as_its_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[str] = []
    example = _example()
    # the command line read as the example reads it; its HTTP client and its loop stood in
    monkeypatch.setattr(example, "Client", lambda _url, token: token)
    monkeypatch.setattr(example, "run", lambda token, *_rest: read.append(token))
    tokens = [new_token() for _ in range(400)]  # of bare urlsafe tokens ~6 begin with '-'
    for token in tokens:
        example.main(["--url", "http://127.0.0.1:9", "--token", token, "--once"])
    assert read == tokens
    assert all(t.startswith(TOKEN_PREFIX) and len(t) == len(TOKEN_PREFIX) + 43 for t in tokens)
    assert len({token_digest(t) for t in tokens}) == len(tokens)


def test_a_bare_token_beginning_with_a_dash_was_refused() -> None:
    """What the prefix mends: argparse takes ``-x…`` after ``--token`` for an option."""
    example = _example()
    with pytest.raises(SystemExit):
        example.main(["--token", "-" + new_token()[len(TOKEN_PREFIX) :]])

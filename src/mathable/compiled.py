"""The modules the install compiles with mypyc (issue 16: the rules core and the turn
search run ~2x faster compiled; the same source is the pure-Python fallback).

One list, read by ``setup.py`` (which compiles them) and by the tests (which check the
build did). ``MATHABLE_PURE=1`` when installing skips compiling; ``MATHABLE_PURE=1``
when running makes Python load these modules from their source even where compiled
ones are built (``mathable/__init__.py``), so the tests run on both.
"""

COMPILED_MODULES = (
    "mathable.games.board.geometry",
    "mathable.games.board.layouts",
    "mathable.games.board.board",
    "mathable.games.board.variants",
    "mathable.games.board.state",
    "mathable.ai.search",
    "mathable.ai.evaluation",
    "mathable.ai.simulation",
    "mathable.ai.quattro_chain",
)

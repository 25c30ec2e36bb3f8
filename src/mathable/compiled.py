"""The modules the install compiles with mypyc (issue 16: the rules core and the turn
search run ~2x faster compiled; the same source is the pure-Python fallback).

One list, read by ``setup.py`` (which compiles them) and by the tests (which check the
build did). ``MATHABLE_PURE=1`` when installing skips compiling; ``MATHABLE_PURE=1``
when running makes Python load these modules from their source even where compiled
ones are built (``mathable/__init__.py``), so the tests run on both.

The protocol's ``Game`` and the board game are compiled too (issue 35: a greedy
self-play game is mostly its views and actions; the server builds a view per seat and
action): both allow subclasses in Python (Quattro's game, tests' games), and keep what
is derived from them in :attr:`~mathable.engine.protocol.Game.memos`, as a compiled
object takes no weak reference.
"""

COMPILED_MODULES = (
    "mathable.engine.protocol",
    "mathable.engine.seats",
    "mathable.engine.splitmix",
    "mathable.games.board.geometry",
    "mathable.games.board.layouts",
    "mathable.games.board.board",
    "mathable.games.board.variants",
    "mathable.games.board.state",
    "mathable.games.board.game",
    "mathable.ai.families",
    "mathable.ai.memory",
    "mathable.ai.search",
    "mathable.ai.evaluation",
    "mathable.ai.simulation",
    "mathable.ai.quattro_chain",
)

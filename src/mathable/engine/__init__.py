"""The engine every game shares (standard library only): the game protocol and its
capabilities, actions and their notation, errors, records, the seeded generator and the
arithmetic of equations. Games live in :mod:`mathable.games`; front ends in ``cli``,
``tui`` and ``web``; computer players and analysis in ``ai``.
"""

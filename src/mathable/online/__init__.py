"""Online play (issue 15): the pure groundwork, free of any web framework or database.

:mod:`~mathable.online.ratings` rates players with Glicko-2 (two-player games directly,
three and four players as pairwise results by final rank); :mod:`~mathable.online.clocks`
derives every clock, and every loss on time, from the timestamped turn changes kept in a
game's event log, so nothing about a clock lives only in a server's memory.
"""

"""Tournaments (issue 38): Swiss, round robin and arena events over the games played
here, each stored as its spec and an event log (the rules in
:mod:`mathable.online.tournaments`)."""

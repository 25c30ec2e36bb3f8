"""Learning by playing: puzzles mined from computer games (issue 18)."""

"""The score keeper (issue 37): games on a real board, kept turn by turn."""

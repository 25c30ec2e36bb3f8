"""Command-line front ends: the ``mathable`` command and the plain terminal game."""

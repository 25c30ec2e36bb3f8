"""Rich renderings shared by the command line and the terminal app: any game's surface
(board or piles) drawn from its capabilities, score tables, the player card, analysis."""

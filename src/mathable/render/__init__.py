"""What both terminal games share, below them both: Rich renderings (any game's surface
drawn from its capabilities, score tables, the player card, analysis), the words about
players and endings, and the reading of what a person types to leave or challenge."""

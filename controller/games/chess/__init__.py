"""Mario chess, one module per facet: `cast` (the Mario names of the pieces and sides),
`state` (a position), `actions` (what a player does besides a move, and the text
notation), `rules` (the Game the referee asks: legality, draws, results), `illegal` (why
a move breaks the rules, in words), `words` (how moves are recorded and said aloud),
`camera` (what the camera sees, and a view no legal move explains) and `page` (the
status page's snapshot). docs/games/chess.md describes the game as refereed."""

"""Super Mario Labyrinth, one module per facet: `maze` (tiles, cells, arrows, where a
pawn can go, what a push does), `state` (a position), `actions` (what a player does, in
the text notation), `rules` (the Game the referee asks: turns, legality, the win),
`setups` (a maze drawn or read from the table, the deal), `words` (how it is said),
`camera` (what the camera sees, and a view the rules cannot explain in words) and `page`
(the status page's snapshot). docs/games/labyrinth.md describes the game as refereed."""

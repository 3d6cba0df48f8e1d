"""The simulated players of `referee demo`, one module per game.

A player knows how people choose in that game (among the legal moves their own
position allows, never the page's: demo_rig/own_game.py) and how the game's renderer
draws the table while they act: frames with an arm reaching in and a piece put down.
`controller/demo_rig/feed.py` (the DemoTable) drives them; each game's registry entry
names its player class (`entry(name).player_class()`), so no module here keeps a table of
games.

- base.py: `Player`, what every game's player does unless it says otherwise, and the
  simulated camera its films are made for (`FPS`, `SIZE`, sensor `Noise`);
- track.py: `TrackPlayer`, the filming and the mistakes of roll-and-move games on a track
  of spaces (Super Mario Bros., Monopoly);
- connect4.py, chess.py, labyrinth.py, smb.py, monopoly.py: each game's players.
"""

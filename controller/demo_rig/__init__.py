"""The simulated table: everything that stands in for the physical world, in one place.

- render_*.py and synth.py draw a game's board as a camera would see it (the tests and the
  demo's camera; vision never imports them);
- players/: the demo's simulated players, one module per game (each named by its
  registry entry) beside a shared base;
- feed.py: `DemoTable`, the players at the table seen through the synthetic camera (the
  frames handed to vision/camera.py's "synthetic" source), and their press of the
  new-game button (its mock pin);
- own_game.py: `OwnGame`, the game the players play (their own position and plies,
  never the page's), and where the referee's record parts from it;
- module.py: the die module's firmware run under CPython behind a pseudo-terminal, whose
  port is handed to the die link like a real module's.
"""

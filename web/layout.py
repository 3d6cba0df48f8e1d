"""The static board layouts the page's drawings need beside the snapshot: the Super Mario
Bros. World boards (spaces, where they lie, how the path runs) and the Monopoly ring's 40
spaces. They come from the running game's own board files, so a corrected board file is
drawn as it is refereed; the snapshot stays the game's moving parts only."""
from __future__ import annotations


def layout_of(game) -> dict:
    """What `web/static/draw/<game>.js` needs to draw `game`'s board; {} for games whose
    snapshot is enough (Connect 4, chess, Labyrinth)."""
    if game is None:
        return {}
    if game.name == "smb":
        return {"game": "smb", "worlds": {str(n): _world(w) for n, w in game.worlds.worlds.items()}}
    if game.name == "monopoly":
        return {"game": "monopoly", "spaces": [{"index": s.index, "name": s.name, "kind": s.kind, "set": s.set,
                                                "price": s.price} for s in game.b.spaces]}
    return {"game": game.name}


def _world(w) -> dict:
    return {"size": list(w.size), "start": w.start,
            "spaces": [{"id": s.id, "colour": s.colour, "level": s.level, "at": list(s.at),
                        "features": sorted(s.features), "next": list(s.next), "name": s.name(),
                        "label": s.label}
                       for s in w.spaces.values()],
            "blocks": list(w.blocks.values()) if isinstance(w.blocks, dict) else list(w.blocks),
            "decor": list(w.decor)}

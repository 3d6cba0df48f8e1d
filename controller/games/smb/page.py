"""What the status page gets of a Super Mario Bros. game: the state as a viewer may know
it (another seat's hand face down), as JSON, and the World boards for its drawing
(web/static/draw/smb.js).
"""
from __future__ import annotations

from ..words import printed
from .state import UNKNOWN, SMBState, evolve


class Page:
    """`seen_by`, `snapshot` and `layout`: part of `SuperMarioBros` (rules.py)."""

    def layout(self) -> dict:
        """The World boards: spaces, where they lie, how the path runs (draw/smb.js)."""
        return {"worlds": {str(n): _world_layout(w, self._) for n, w in self.worlds.worlds.items()}}

    def seen_by(self, state: SMBState, viewer: int | None) -> SMBState:
        """Another seat's hand and the draw pile are face down (UNKNOWN), as a physical
        deck is to the referee: nothing worded from this state tells who holds what."""
        hands = tuple(h if seat == viewer else (UNKNOWN,) * len(h) for seat, h in enumerate(state.hands))
        return evolve(state, hands=hands, pile=(UNKNOWN,) * len(state.pile))

    def snapshot(self, state: SMBState, viewer: int | None = None) -> dict:
        mario = self._space(state.mario)
        return {
            "world": state.world,
            "mario": state.mario,
            "mario_space": mario.name(self._),
            "turn": state.turn,
            "phase": state.phase,
            "roll": state.roll,
            "targets": list(state.targets),
            "bowser_phase": state.bowser,
            "coins": {state.names[i]: c for i, c in enumerate(state.coins)},
            "cards": {state.names[i]: len(h) for i, h in enumerate(state.hands)},
            "hand": [printed(k) if k != UNKNOWN else self._("a card the referee has not seen") for k in state.hands[viewer]]
            if viewer is not None else None,
            "drawpile": len(state.pile),
            "discards": list(state.discard),
            "hazard_tokens": [{"space": s, "kind": k, "name": printed(k), "space_name": self._space(s).name(self._)}
                              for s, k in state.tokens],
            "lives_lost": {state.names[i]: n for i, n in enumerate(state.lives_lost)},
            "turns": state.turns,
            "rolls": state.rolls,
            "note": state.note,
            # what the page writes on each player's card (never the cards themselves)
            "seat_words": [" \u00B7 ".join((self._.n("{n} coin", "{n} coins", state.coins[i]),
                                            self._.n("{n} card in hand", "{n} cards in hand", len(state.hands[i])),
                                            self._.n("{n} life lost", "{n} lives lost", state.lives_lost[i])))
                           for i in range(state.players)],
            "board": self.settings["board"] or "stand-in (controller/games/data/smb_worlds.json)",
        }


def _world_layout(w, _) -> dict:
    """A World for the page's drawing, its spaces named as the game (`_`) names them."""
    return {"size": list(w.size), "start": w.start,
            "spaces": [{"id": s.id, "colour": s.colour, "level": s.level, "at": list(s.at),
                        "features": sorted(s.features), "next": list(s.next), "name": s.name(_),
                        "label": s.label}
                       for s in w.spaces.values()],
            "blocks": list(w.blocks.values()) if isinstance(w.blocks, dict) else list(w.blocks),
            "decor": list(w.decor)}

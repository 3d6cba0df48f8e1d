"""What the status page gets of a Monopoly game: the state as JSON (players with their
deeds and balance sheets, the Bank, Bowser, the ledger, the tokens to put) and the
printed board's ring of spaces for its drawing (web/static/draw/monopoly.js).
"""
from __future__ import annotations

from .board import DECKS
from .state import FACE_DOWN, MState


class Page:
    """`seen_by`, `snapshot` and `layout`: part of `Monopoly` (rules.py)."""

    def seen_by(self, state: MState, viewer: int | None) -> MState:
        """Both decks face down, to every viewer: their order is the shuffle's (the
        journal's secret setup), so a move not made yet (a doubt's reading, a ply
        shown unsure) is worded "draws a Bowser's Fury card", never which card it is."""
        d = state.draft()
        d.decks = {deck: [FACE_DOWN] * len(cards) for deck, cards in d.decks.items()}
        return d.freeze()

    def snapshot(self, state: MState, viewer: int | None = None) -> dict:
        s = state
        players = []
        for p, name in enumerate(s.names):
            received: dict[str, int] = {}
            paid: dict[str, int] = {}
            for _, frm, to, amount, cat, _ in s.ledger:
                if to == p:
                    received[cat] = received.get(cat, 0) + amount
                if frm == p:
                    paid[cat] = paid.get(cat, 0) + amount
            players.append({
                "seat": p, "name": name, "space": None if s.out[p] else s.pos[p],
                "space_name": None if s.out[p] else self.space_name(s.pos[p]),
                "coins": s.coins[p], "in_jail": s.jail[p] >= 0, "jail_attempts": max(s.jail[p], 0),
                "bankrupt": s.out[p], "jail_cards": len(s.cards[p]),
                "deeds": [{"space": i, "name": self.space_name(i), "set": self.b.spaces[i].set,
                           "side": "Game Over" if s.flipped[i] else "Continue",
                           "whole_set": self._has_set(s, p, i)} for i in self._owned(s, p)],
                "balance_sheet": {"received": received, "paid": paid,
                                  "start": self.b.start_coins, "now": s.coins[p]},
            })
        return {
            "turn": s.turn, "turns_played": s.turns, "doubles_in_a_row": s.doubles,
            "players": players,
            "bank": s.bank, "coins_total": s.bank + sum(s.coins), "box_total": self.b.total_coins,
            "bowser": None if s.bowser is None else {
                "space": s.bowser, "space_name": self.space_name(s.bowser),
                "waiting_for": [s.names[p] for p in s.wait]},
            "deeds": [{"space": i, "name": self.space_name(i), "set": self.b.spaces[i].set,
                       "price": self.b.spaces[i].price, "rent": self.b.spaces[i].rent,
                       "continue": self.b.spaces[i].cont,
                       "owner": None if s.owner[i] is None else s.names[s.owner[i]],
                       "side": "Game Over" if s.flipped[i] else "Continue"} for i in self.b.locations],
            "decks": {d: len(s.decks[d]) for d in DECKS},
            "offer": None if s.offer is None else self._offer_text(s, s.offer),
            "news": list(s.news),
            # where the tokens stand on the table now, and where the prompt asks to put
            # them: the page draws the first and rings the second, so it never shows a
            # token where the players have yet to put it
            "on_table": {k: v for k, v in s.table.items() if v is not None},
            "to_put": [{"token": k, "name": self._token_name(s, k), "space": v, "space_name": self.space_name(v)}
                       for k, v in self._expected(s).items()
                       if s.need and s.need[0] == "place" and s.outcome is None and s.table.get(k) != v],
            "ledger": [{"turn": n, "from": self._who(s, f), "to": self._who(s, to), "coins": a,
                        "reason": cat, "text": why} for n, f, to, a, cat, why in s.ledger[-30:]],
            "stand_in": self.b.stand_in,
            "seat_words": [self._seat_words(s, p) for p in range(len(s.names))],
            "bank_words": self._.n("Bank: {n} coin", "Bank: {n} coins", s.bank),
        }

    def layout(self) -> dict:
        """The ring's 40 spaces as the board file prints them (draw/monopoly.js)."""
        return {"spaces": [{"index": s.index, "name": s.name, "kind": s.kind, "set": s.set, "price": s.price}
                           for s in self.b.spaces]}

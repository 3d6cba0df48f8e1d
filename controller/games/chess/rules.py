"""Mario chess: FIDE chess with the Mario cast (shared/RULINGS.md section 1), the Game
the referee asks. python-chess knows the moves; this adds what a referee at a table
needs around them: the draw rulings, resignation and agreed draws entered on the page,
the promotion choice the camera cannot see, and a clock's flag. The other facets are
modules of their own: the cast's names (cast.py), a position (state.py), the actions and
their notation (actions.py), why a move is illegal (illegal.py), the words (words.py),
the camera (camera.py) and the page (page.py).

Automatic ends: checkmate, stalemate, fivefold repetition, the 75-move rule and dead
positions (insufficient material). A flag fall loses, or it is a draw when the opponent
cannot checkmate by any series of legal moves (FIDE 6.9; python-chess's
`has_insufficient_material` of the opponent).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

import chess

from ...i18n import N_, Wrong
from ..base import Game, IllegalAction, Outcome, Prompt, Ruling
from ..time_control import TimeControl
from ..words import semicolon
from . import actions, camera, page, words
from .actions import AcceptDraw, ClaimDraw, Flag, OfferDraw, Promote, Resign
from .cast import COLOUR, KING, TEAM, piece_words, seat_of, team_words
from .illegal import why
from .state import SQUARES, ChessState


class Chess(Game):
    name = "chess"
    title = N_("Mario chess")
    example = N_("a move, e.g. e2e4 or Nf3")
    max_actions_per_view = 2  # a quick reply: two plies between stable views
    wrong_cells = 2  # a piece leaves a square for another: one odd square alone is a misread look

    SETTINGS = {
        "claimable_draws": ("claim", ("claim", "automatic"),
                            N_("Threefold repetition and the 50-move rule end the game when a "
                               "player claims them ('claim draw'); 'automatic' ends it at once.")),
        "default_promotion": ("q", ("q", "r", "b", "n"),
                              N_("A promotion seen by the camera is this piece unless a player picks "
                                 "another on the page before the next move.")),
    }

    def __init__(self, variant=None, settings=None, lang="en"):
        super().__init__(variant, settings, lang)
        for key, value in self.settings.items():
            if key == "clock":  # a time control (controller/games/time_control.py), "" for none
                if value:
                    TimeControl.parse(value)
                continue
            if key not in self.SETTINGS:
                raise Wrong(N_("chess has no setting {key!r}; expected one of {keys}"), key=key,
                            keys=", ".join([*self.SETTINGS, "clock"]))
            allowed = self.SETTINGS[key][1]
            if value not in allowed:
                raise Wrong(N_("chess setting {key!r} is {value!r}; expected one of {allowed}"), key=key, value=value,
                            allowed=", ".join(allowed))

    def setting(self, key: str):
        return self.settings.get(key, self.SETTINGS[key][0])

    def rulings(self) -> list[Ruling]:
        fixed = [
            Ruling("automatic_draws", True, self._("Fivefold repetition, the 75-move rule and dead positions "
                                                   "(insufficient material) end the game automatically.")),
            Ruling("illegal_move", "take back", self._("An illegal move is flagged at once; nothing is recorded "
                                                       "until the last legal position is back or a legal move "
                                                       "is made from it.")),
            Ruling("page_results", True, self._("Resignation and agreed draws are entered on the page.")),
        ]
        clock = self.settings.get("clock")
        if clock:
            control = TimeControl.parse(clock)
            fixed.append(Ruling("clock", control.text(), self._(
                "Clock {control}: {words}. The move seen is the clock pressed; an illegal move costs what the "
                "players rule (FIDE: two minutes added to the opponent; a second one in blitz loses).",
                control=control.text(), words=control.words(self._))))
        return [Ruling(k, self.setting(k), self._(text)) for k, (_, _, text) in self.SETTINGS.items()] + fixed

    SETUP = {"fen": str}

    def start(self, setup: Mapping | None = None) -> ChessState:
        """The start position, or {"fen": ...} (a problem, an adjourned game); a FEN that
        is not a legal position is refused with python-chess's reason."""
        fen = self.checked_setup(setup).get("fen")
        if fen is None:
            return ChessState()
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise Wrong(N_("chess setup: fen {fen!r}: {error}"), fen=fen, error=exc) from None
        if not board.is_valid():
            raise Wrong(N_("chess setup: fen {fen!r} is not a legal position ({status!r})"), fen=fen,
                        status=board.status())
        return ChessState(fen=board.fen())

    def seats(self, state: ChessState) -> list[str]:
        return [self._(team) for team in TEAM]

    def _team(self, seat: int) -> str:
        return team_words(self._, seat)

    def _piece(self, piece: chess.Piece, square: int | None = None) -> str:
        return piece_words(self._, piece, square)

    def public_setup(self, setup) -> dict:
        """A starting position is on the board for everyone to see."""
        return dict(setup)

    def _replay(self, moves: Iterable[str], fen: str | None = None) -> ChessState:
        state = self.start({"fen": fen} if fen else None)
        for uci in moves:
            state = state.after(chess.Move.from_uci(uci))
            state.keys  # built ply by ply, not by recursion through every parent
        return state

    # --- notation and words (actions.py, words.py) ---------------------------------
    def parse(self, state: ChessState, text: str):
        return actions.parse(self, state, text)

    def notation(self, state: ChessState, action) -> str:
        return actions.notation(state, action)

    def said_by(self, state: ChessState, text: str, seat: int) -> str:
        return actions.said_by(text, seat)

    def describe(self, state: ChessState, action) -> str:
        return words.describe(self, state, action)

    def spoken(self, move: dict) -> str:
        said = words.spoken(self._, move)
        return super().spoken(move) if said is None else said

    def cell_name(self, cell) -> str:
        return str(cell)

    # --- what the camera and the page see (camera.py, page.py) ---------------------
    def board(self, state: ChessState) -> dict[str, str]:
        return dict(state.cells)

    def changes(self, state: ChessState, board: dict, action) -> dict[str, str]:
        return state.changes(action) if isinstance(action, chess.Move) else super().changes(state, board, action)

    def position(self, state: ChessState) -> tuple:
        return state.keys[-1]  # the pieces by kind, the side to move, castling, en passant

    def observable_actions(self, state: ChessState, changed: set | None = None) -> list[chess.Move]:
        return camera.observable_actions(self, state, changed)

    def explain(self, state: ChessState, seen: Mapping) -> IllegalAction:
        return camera.explain(self, state, seen)

    def fix(self, state: ChessState, seen: Mapping) -> str:
        return camera.fix(self._, state, seen)

    def snapshot(self, state: ChessState, viewer: int | None = None) -> dict:
        return page.snapshot(self, state)

    # --- the rules -----------------------------------------------------------------
    def outcome(self, state: ChessState) -> Outcome | None:
        if state.ended:
            return state.ended
        end = state.automatic_end
        if end is None:
            return self.claimable(state) if self.setting("claimable_draws") == "automatic" else None
        winner, message, params = end
        return Outcome(winner, self._(message, **{k: self._(v) for k, v in params.items()}),
                       self._team(winner) if winner is not None else None)

    def claimable(self, state: ChessState) -> Outcome | None:
        if state.repetitions >= 3:
            return Outcome(None, self._("draw: threefold repetition"))
        if state.board.halfmove_clock >= 100:
            return Outcome(None, self._("draw: 50 moves by each side without a capture or a pawn move"))
        return None

    def flag_fall(self, state: ChessState, seat: int) -> Outcome:
        """FIDE 6.9: the side whose flag fell loses, unless the opponent cannot checkmate
        its king by any series of legal moves: then a draw."""
        other = 1 - seat
        if state.board.has_insufficient_material(chess.WHITE if other == 0 else chess.BLACK):
            return Outcome(None, self._("draw: {team}'s flag fell, but {other} cannot checkmate with the pieces "
                                        "it has", team=self._team(seat), other=self._team(other)))
        return Outcome(other, self._("{team}'s flag fell: {other} wins on time", team=self._team(seat),
                                     other=self._team(other)), self._team(other))

    def last_promotion(self, state: ChessState) -> chess.Move | None:
        if not state.moves:
            return None
        move = chess.Move.from_uci(state.moves[-1])
        return move if move.promotion else None

    def prompt(self, state: ChessState) -> Prompt:
        out = self.outcome(state)
        if out:
            return Prompt("move", None, self._("Game over: {reason}", reason=out.reason))
        seat = seat_of(state.board.turn)
        parts = [self._("{who} to move ({colour})", who=self._team(seat), colour=self._(COLOUR[seat]))]
        if state.board.is_check():
            parts.append(self._("{king} is in check", king=KING[seat]))
        if state.draw_offer is not None:
            parts.append(self._("{who} offers a draw: {other} may accept it", who=self._team(state.draw_offer),
                                other=self._team(1 - state.draw_offer)))
        promo = self.last_promotion(state)
        if promo:
            piece = state.board.piece_at(promo.to_square)
            parts.append(self._("{piece} was promoted on {square}: 'promote q|r|b|n' picks another piece",
                                piece=self._piece(piece, promo.to_square), square=SQUARES[promo.to_square]))
        claim = self.claimable(state)
        if claim:
            parts.append(self._("{draw} may be claimed ('claim draw')", draw=claim.reason))
        claims = (("promote q", "promote r", "promote b", "promote n") if promo else ()) + (
            ("claim draw",) if claim else ())
        # each side's own (a phone shows a player only theirs: the offerer is not offered
        # to accept their own draw, controller/referee.py's "actors")
        offers = ((f"accept draw {COLOUR[1 - state.draw_offer]}",) if state.draw_offer is not None
                  else tuple(f"offer draw {c}" for c in COLOUR))
        anytime = offers + tuple(f"resign {c}" for c in COLOUR)
        return Prompt("move", seat, semicolon(self._).join(parts), claims=claims, anytime=anytime)

    def actor(self, state: ChessState, action) -> int | None:
        """Who makes an action that is not the move itself: the promoter picks the piece
        (the other side is to move by then); a resignation or a draw offer names its
        side; "draw agreed" is both players'."""
        if isinstance(action, Promote):
            return 1 - seat_of(state.board.turn)
        if isinstance(action, (Resign, OfferDraw, AcceptDraw)):
            return action.seat
        if isinstance(action, Flag):
            return None  # the clock's, or the arbiter's: never a player's own
        # the prompt's seat, without its words (a search asks this of every position it walks)
        return None if self.outcome(state) else seat_of(state.board.turn)

    def not_one_seats(self, state: ChessState, action) -> str:
        """'draw agreed' is both players' at once: from a phone it would be one player
        ending the game alone."""
        if isinstance(action, Flag):
            return self._("a flag fall is the clock's to say (or the referee's, admin), not a player's")
        return self._("a draw needs both players: one offers it ('offer draw') and the other accepts "
                      "('accept draw'), each from their own phone; 'draw agreed' is the referee's (admin)")

    def check(self, state: ChessState, action) -> None:
        over = self.outcome(state)
        if over:
            raise IllegalAction(self._("the game is over: {reason}", reason=over.reason))
        board = state.board
        if isinstance(action, chess.Move):
            if not board.is_legal(action):
                raise why(self._, board, action)
        elif isinstance(action, AcceptDraw) and action.seat is not None:
            if state.draw_offer is None:
                raise IllegalAction(self._("there is no draw offer to accept ('offer draw' first, or "
                                           "'draw agreed' when both players agree)"))
            if state.draw_offer == action.seat:
                raise IllegalAction(self._("{who} cannot accept its own draw offer", who=self._team(action.seat)))
        elif isinstance(action, OfferDraw) and state.draw_offer == action.seat:
            raise IllegalAction(self._("{who} has already offered a draw", who=self._team(action.seat)))
        elif isinstance(action, ClaimDraw) and self.claimable(state) is None:
            raise IllegalAction(self._.n(
                "no draw can be claimed: the position has occurred {n} time (a claim needs three) and the last "
                "capture or pawn move was {moves} moves ago (a claim needs 50)",
                "no draw can be claimed: the position has occurred {n} times (a claim needs three) and the last "
                "capture or pawn move was {moves} moves ago (a claim needs 50)",
                state.repetitions, moves=board.halfmove_clock // 2))
        elif isinstance(action, Promote):
            promo = self.last_promotion(state)
            if promo is None:
                raise IllegalAction(self._("'promote' changes a promoted piece only right after the "
                                           "promotion, before the next move"))
            if action.piece == promo.promotion:
                piece = board.piece_at(promo.to_square)
                raise IllegalAction(self._("the piece on {square} already is {piece}", square=SQUARES[promo.to_square],
                                           piece=self._piece(piece, promo.to_square)))

    def apply(self, state: ChessState, action) -> ChessState:
        if isinstance(action, chess.Move):
            return state.after(action)
        if isinstance(action, Resign):
            return replace(state, ended=Outcome(1 - action.seat, self._("{who} resigns", who=self._team(action.seat)),
                                                self._team(1 - action.seat)))
        if isinstance(action, OfferDraw):
            return replace(state, draw_offer=action.seat)
        if isinstance(action, AcceptDraw):
            return replace(state, draw_offer=None, ended=Outcome(None, self._("draw agreed")))
        if isinstance(action, Flag):
            return replace(state, ended=self.flag_fall(state, action.seat))
        if isinstance(action, ClaimDraw):
            claim = self.claimable(state)
            return replace(state, ended=Outcome(None, self._("{draw}, claimed by {who}", draw=claim.reason,
                                                             who=self._team(seat_of(state.board.turn)))))
        promo = self.last_promotion(state)
        changed = chess.Move(promo.from_square, promo.to_square, action.piece)
        return replace(self._replay(state.moves[:-1] + (changed.uci(),), state.fen), draw_offer=state.draw_offer)

    def legal_actions(self, state: ChessState) -> list:
        if self.outcome(state):
            return []
        return list(state.board.legal_moves)

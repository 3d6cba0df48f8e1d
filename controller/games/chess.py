"""Mario chess: FIDE chess with the Mario cast (shared/RULINGS.md section 1).

python-chess knows the moves; this module adds what a referee at a table needs around
them: the Mario names in every message, the draw rulings, resignation and agreed draws
entered on the page, the promotion choice the camera cannot see, and words for what the
camera saw when it was not a legal move.

Seat 0 is Mario's team (red pieces), which moves first and so plays White everywhere
(FEN, PGN); seat 1 is Bowser's team (green pieces).

Text notation:
- a move in UCI (``e2e4``, ``e7e8q``; ``e7e8`` promotes to a queen) or SAN (``Nf3``,
  ``exd5``, ``O-O``, ``e8=Q``);
- ``resign`` (the player to move resigns), ``resign red`` / ``resign green``;
- ``offer draw`` (from the player to move; ``offer draw red|green`` names the side), then
  ``accept draw`` from the other side; an offer lapses when the other side moves instead;
  ``draw agreed`` ends the game at once (both players at once: the admin's or the CLI's,
  never one player's phone);
- ``claim draw``: threefold repetition or the 50-move rule, only while claimable;
- ``flag red`` / ``flag green``: that side's time ran out (the referee's clock enters it,
  controller/clock.py; an arbiter may type it for a game on a clock of its own): the side
  loses, or it is a draw when the opponent cannot checkmate by any series of legal moves
  (FIDE 6.9; python-chess's `has_insufficient_material` of the opponent);
- ``promote q|r|b|n``: right after a promotion, before the next move, changes the new
  piece (the camera sees colours only, so a promotion is a queen unless a player picks
  another piece on the page).

Automatic ends: checkmate, stalemate, fivefold repetition, the 75-move rule and dead
positions (insufficient material). The camera sees each square as "empty", "p0" (red)
or "p1" (green); cells are square names ("e4").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Iterable, Mapping

import chess

from ..i18n import N_
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling
from .time_control import TimeControl

# the printed names, said in the table's language (self._): each is a catalogue message
TEAM = (N_("Mario's team"), N_("Bowser's team"))
KING = ("Mario", "Bowser")
COLOUR = (N_("red"), N_("green"))
# the pieces as chess players name them, said after the Mario name ("Yoshi, knight, e5")
KIND = {chess.PAWN: N_("pawn"), chess.KNIGHT: N_("knight"), chess.BISHOP: N_("bishop"),
        chess.ROOK: N_("rook"), chess.QUEEN: N_("queen"), chess.KING: N_("king")}
SQUARES = tuple(chess.SQUARE_NAMES)
SIDES = {"red": 0, "white": 0, "mario": 0, "green": 1, "black": 1, "bowser": 1}
# a move in SAN, as the journal records it (castling, or piece, from, capture, square, promotion)
SAN = re.compile(r"(?:(?P<castle>O-O(?:-O)?)|(?P<piece>[KQRBN])?[a-h]?[1-8]?(?P<takes>x)?(?P<to>[a-h][1-8])"
                 r"(?:=(?P<promo>[QRBN]))?)(?P<end>[+#])?")
PROMOTION = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT,
             "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP, "knight": chess.KNIGHT}


def seat_of(color: bool) -> int:
    """Red (seat 0) plays White."""
    return 0 if color == chess.WHITE else 1


def piece_name(piece: chess.Piece, square: int | None = None) -> str:
    """The Mario name of a piece. Red's bishops are Peach (the dark-squared one, from c1)
    and Daisy (light squares, from f1); a bishop never changes square colour."""
    seat = seat_of(piece.color)
    t = piece.piece_type
    if t == chess.BISHOP and seat == 0:
        dark = square is None or bool(chess.BB_DARK_SQUARES & chess.BB_SQUARES[square])
        return "Peach" if dark else "Daisy"
    return {chess.KING: KING, chess.QUEEN: ("Luigi", "Bowser Jr."), chess.BISHOP: ("", "Magikoopa"),
            chess.KNIGHT: ("Yoshi", "Birdo"), chess.ROOK: ("Toad", "Goomba"),
            chess.PAWN: (N_("Coin"), N_("Green Shell"))}[t][seat]


def pronoun(name: str) -> str:
    return "her" if name in ("Peach", "Daisy", "Birdo") else "it" if name in ("Coin", "Green Shell") else "him"


# --- actions that are not moves on the board --------------------------------------------
@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class OfferDraw:
    seat: int


@dataclass(frozen=True)
class AcceptDraw:
    seat: int | None = None  # None: "draw agreed", both at once


@dataclass(frozen=True)
class ClaimDraw:
    pass


@dataclass(frozen=True)
class Flag:
    seat: int  # whose time ran out


@dataclass(frozen=True)
class Promote:
    piece: int  # chess.QUEEN, ROOK, BISHOP or KNIGHT


@dataclass(frozen=True)
class ChessState:
    """An immutable position: `moves` (UCI, from the start) is the record, plus what the
    page entered (a result, a standing draw offer).

    The referee builds a state for every legal move, and for every reply to each, each
    time a view is matched, but needs only what the camera would see of most of them.
    So a state made by a move keeps (parent state, move) and builds its python-chess
    board (without a move stack: copying a stack costs O(plies)) only when asked; its
    squares come straight from the parent's squares and the move. `keys`, the positions
    since the last capture or pawn move, are all that repetition needs."""

    moves: tuple[str, ...] = ()
    ended: Outcome | None = None  # by resignation, agreement or claim
    fen: str | None = None  # where the game started, if not the start position
    draw_offer: int | None = None  # seat whose offer stands
    made_by: tuple | None = field(default=None, compare=False, repr=False)  # (parent, move)

    @cached_property
    def board(self) -> chess.Board:
        if self.made_by is None:
            return chess.Board(self.fen or chess.STARTING_FEN)  # every other state is made by a move
        parent, move = self.made_by
        board = parent.board.copy(stack=False)
        board.push(move)
        return board

    @cached_property
    def keys(self) -> tuple:
        key = position_key(self.board)
        if self.made_by is None:
            return (key,)
        parent, move = self.made_by
        return (key,) if parent.board.is_zeroing(move) else parent.keys + (key,)

    @cached_property
    def cells(self) -> dict[str, str]:
        if self.made_by is None or "board" in self.__dict__:
            white, black = self.board.occupied_co[chess.WHITE], self.board.occupied_co[chess.BLACK]
            return {name: "p0" if white >> i & 1 else "p1" if black >> i & 1 else "empty"
                    for i, name in enumerate(SQUARES)}
        parent, move = self.made_by
        before = parent.board
        cells = dict(parent.cells)
        mover = cells[SQUARES[move.from_square]]
        cells[SQUARES[move.from_square]] = "empty"
        cells[SQUARES[move.to_square]] = mover
        bit = chess.BB_SQUARES[move.from_square]
        if before.kings & bit and before.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            cells[SQUARES[chess.square(7 if kingside else 0, rank)]] = "empty"
            cells[SQUARES[chess.square(5 if kingside else 3, rank)]] = mover
        elif before.pawns & bit and before.is_en_passant(move):
            cells[SQUARES[chess.square(chess.square_file(move.to_square),
                                       chess.square_rank(move.from_square))]] = "empty"
        return cells

    @cached_property
    def automatic_end(self) -> tuple | None:
        return _automatic_end(self)

    @property
    def repetitions(self) -> int:
        return self.keys.count(self.keys[-1])


def position_key(board: chess.Board) -> tuple:
    """What makes two positions the same for repetition (FIDE 9.2): pieces, side to move,
    castling rights and a capturable en passant square."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.turn, board.clean_castling_rights(),
            board.ep_square if board.has_legal_en_passant() else None)


@lru_cache(maxsize=64)
def _first_move(fen: str | None) -> tuple:
    """[move number, "white" | "black"] of the first move from `fen` (the start: [1, "white"])."""
    start = chess.Board(fen or chess.STARTING_FEN)
    return start.fullmove_number, "white" if start.turn else "black"


def _automatic_end(state: ChessState) -> tuple | None:
    """(winner seat or None, message, its parameters) of a game that ended by itself; the
    state holds no language: Chess.outcome says it in the table's."""
    board = state.board
    if board.is_checkmate():
        loser = seat_of(board.turn)
        return 1 - loser, N_("{king} is checkmated"), {"king": KING[loser]}
    if board.is_stalemate():
        return None, N_("draw: stalemate, {team} has no legal move"), {"team": TEAM[seat_of(board.turn)]}
    if board.is_insufficient_material():
        return None, N_("draw: dead position, neither side has the material to checkmate"), {}
    if state.repetitions >= 5:
        return None, N_("draw: the same position occurred five times"), {}
    if board.halfmove_clock >= 150:
        return None, N_("draw: 75 moves by each side without a capture or a pawn move"), {}
    return None


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
                raise ValueError(f"chess has no setting {key!r}; expected one of {', '.join(self.SETTINGS)}, clock")
            allowed = self.SETTINGS[key][1]
            if value not in allowed:
                raise ValueError(f"chess setting {key!r} is {value!r}; expected one of {', '.join(allowed)}")

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

    # --- state ---------------------------------------------------------------------
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
            raise ValueError(f"chess setup: fen {fen!r}: {exc}") from None
        if not board.is_valid():
            raise ValueError(f"chess setup: fen {fen!r} is not a legal position ({board.status()!r})")
        return ChessState(fen=board.fen())

    def seats(self, state: ChessState) -> list[str]:
        return [self._(team) for team in TEAM]

    def _team(self, seat: int) -> str:
        return self._(TEAM[seat])

    def _piece(self, piece: chess.Piece, square: int | None = None) -> str:
        """A piece's Mario name in the table's language."""
        return self._(piece_name(piece, square))

    def public_setup(self, setup) -> dict:
        """A starting position is on the board for everyone to see."""
        return dict(setup)

    def _replay(self, moves: Iterable[str], fen: str | None = None) -> ChessState:
        state = self.start({"fen": fen} if fen else None)
        for uci in moves:
            state = self._push(state, chess.Move.from_uci(uci))
            state.keys  # built ply by ply, not by recursion through every parent
        return state

    @staticmethod
    def _push(state: ChessState, move: chess.Move) -> ChessState:
        """The state after a move. An offer stands until the other side moves."""
        mover = seat_of(state.board.turn)
        offer = state.draw_offer if state.draw_offer == mover else None
        return ChessState(moves=state.moves + (move.uci(),), draw_offer=offer, fen=state.fen,
                          made_by=(state, move))

    def outcome(self, state: ChessState) -> Outcome | None:
        if state.ended:
            return state.ended
        end = state.automatic_end
        if end is None:
            return self._claimable(state) if self.setting("claimable_draws") == "automatic" else None
        winner, message, params = end
        return Outcome(winner, self._(message, **{k: self._(v) for k, v in params.items()}),
                       self._team(winner) if winner is not None else None)

    def _claimable(self, state: ChessState) -> Outcome | None:
        if state.repetitions >= 3:
            return Outcome(None, self._("draw: threefold repetition"))
        if state.board.halfmove_clock >= 100:
            return Outcome(None, self._("draw: 50 moves by each side without a capture or a pawn move"))
        return None

    def _flag_fall(self, state: ChessState, seat: int) -> Outcome:
        """FIDE 6.9: the side whose flag fell loses, unless the opponent cannot checkmate
        its king by any series of legal moves: then a draw."""
        other = 1 - seat
        if state.board.has_insufficient_material(chess.WHITE if other == 0 else chess.BLACK):
            return Outcome(None, self._("draw: {team}'s flag fell, but {other} cannot checkmate with the pieces "
                                        "it has", team=self._team(seat), other=self._team(other)))
        return Outcome(other, self._("{team}'s flag fell: {other} wins on time", team=self._team(seat),
                                     other=self._team(other)), self._team(other))

    def _last_promotion(self, state: ChessState) -> chess.Move | None:
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
        promo = self._last_promotion(state)
        if promo:
            piece = state.board.piece_at(promo.to_square)
            parts.append(self._("{piece} was promoted on {square}: 'promote q|r|b|n' picks another piece",
                                piece=self._piece(piece, promo.to_square), square=SQUARES[promo.to_square]))
        claim = self._claimable(state)
        if claim:
            parts.append(self._("{draw} may be claimed ('claim draw')", draw=claim.reason))
        claims = (("promote q", "promote r", "promote b", "promote n") if promo else ()) + (
            ("claim draw",) if claim else ())
        # each side's own (a phone shows a player only theirs: the offerer is not offered
        # to accept their own draw, controller/referee.py's "actors")
        offers = ((f"accept draw {COLOUR[1 - state.draw_offer]}",) if state.draw_offer is not None
                  else tuple(f"offer draw {c}" for c in COLOUR))
        anytime = offers + tuple(f"resign {c}" for c in COLOUR)
        return Prompt("move", seat, "; ".join(parts), claims=claims, anytime=anytime)

    # --- notation ------------------------------------------------------------------
    _UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbnkp]?)$")
    _SIDE = r"(?:\s+(red|green|white|black|mario|bowser))?"

    def parse(self, state: ChessState, text: str):
        t = " ".join(text.strip().split())
        low = t.lower()
        turn = seat_of(state.board.turn)
        if m := re.fullmatch(r"resign" + self._SIDE, low):
            return Resign(SIDES[m[1]] if m[1] else turn)
        if m := re.fullmatch(r"offer draw" + self._SIDE, low):
            return OfferDraw(SIDES[m[1]] if m[1] else turn)
        if m := re.fullmatch(r"accept draw" + self._SIDE, low):
            if m[1]:
                return AcceptDraw(SIDES[m[1]])
            return AcceptDraw(1 - state.draw_offer if state.draw_offer is not None else 1 - turn)
        if low == "draw agreed":
            return AcceptDraw(None)
        if low == "claim draw":
            return ClaimDraw()
        if m := re.fullmatch(r"flag" + self._SIDE, low):
            return Flag(SIDES[m[1]] if m[1] else turn)
        if m := re.fullmatch(r"promote\s+(\w+)", low):
            if m[1] not in PROMOTION:
                raise NotationError(self._("{text!r}: a pawn is promoted to q (queen), r (rook), b (bishop) "
                                           "or n (knight)", text=t))
            return Promote(PROMOTION[m[1]])
        if m := self._UCI.match(low):
            if m[3] in ("k", "p"):
                raise NotationError(self._("{text!r}: a pawn is promoted to q, r, b or n, never to a king", text=t)
                                    if m[3] == "k" else
                                    self._("{text!r}: a pawn is promoted to q, r, b or n, never to a pawn", text=t))
            if m[1] == m[2]:  # python-chess raises InvalidMoveError for a null move
                raise NotationError(self._("{text!r}: a move goes from one square to another, not to "
                                           "the square it starts on", text=t))
            move = chess.Move.from_uci(low)
            piece = state.board.piece_at(move.from_square)
            if (not move.promotion and piece and piece.piece_type == chess.PAWN
                    and chess.square_rank(move.to_square) in (0, 7)):
                move.promotion = PROMOTION[self.setting("default_promotion")]
            return move
        return self._parse_san(state, t)

    def _parse_san(self, state: ChessState, t: str) -> chess.Move:
        board = state.board
        if m := re.fullmatch(r"([a-h](?:x[a-h])?[18])([+#]?)", t):  # a promotion without its piece
            t = f"{m[1]}={self.setting('default_promotion').upper()}{m[2]}"
        try:
            return board.parse_san(t)
        except chess.AmbiguousMoveError:
            raise NotationError(self._("{text!r} is ambiguous: more than one piece can make it; add the "
                                       "file or rank it starts from (Nbd2) or use UCI (b1d2)", text=t)) from None
        except chess.InvalidMoveError:
            raise NotationError(self._("{text!r} is not a chess move", text=t),
                                self._("expected UCI (e2e4, e7e8q), SAN (Nf3, O-O), 'resign', 'offer draw', "
                                       "'accept draw', 'draw agreed', 'claim draw', 'flag red|green' or "
                                       "'promote q|r|b|n'")) from None
        except chess.IllegalMoveError:
            over = self.outcome(state)
            raise (IllegalAction(self._("the game is over: {reason}", reason=over.reason)) if over
                   else self._why_san(board, t)) from None

    def _why_san(self, board: chess.Board, t: str) -> IllegalAction:
        """A well-formed SAN that no piece can play: say which piece and why."""
        if t.upper().replace("0", "O").startswith("O-O"):
            side = chess.G1 if t.count("O") + t.count("0") == 2 else chess.C1
            king = board.king(board.turn)
            to = chess.square(chess.square_file(side), chess.square_rank(king) if king is not None else 0)
            return self._why(board, chess.Move(king, to)) if king is not None else \
                IllegalAction(self._("{king} is not on the board", king=KING[seat_of(board.turn)]))
        m = re.match(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])", t)
        if not m:
            return IllegalAction(self._("{text!r} is not a legal move here", text=t))
        kind = {"N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN,
                "K": chess.KING}.get(m[1], chess.PAWN)
        to = chess.parse_square(m[4])
        mine = [sq for sq in board.pieces(kind, board.turn)
                if (not m[2] or chess.square_file(sq) == "abcdefgh".index(m[2]))
                and (not m[3] or chess.square_rank(sq) == int(m[3]) - 1)]
        if len(mine) == 1:
            return self._why(board, chess.Move(mine[0], to, chess.QUEEN if "=" in t else None))
        name = self._piece(chess.Piece(kind, board.turn), to)
        team = self._team(seat_of(board.turn))
        if not mine:
            return IllegalAction(self._("{team} has no {piece} to move to {square}", team=team, piece=name, square=m[4]))
        return IllegalAction(self._("no {piece} of {team} can move to {square}", piece=name, team=team, square=m[4]),
                             [m[4]])

    def notation(self, state: ChessState, action) -> str:
        if isinstance(action, chess.Move):
            return state.board.san(action)
        if isinstance(action, Resign):
            return f"resign {COLOUR[action.seat]}"
        if isinstance(action, OfferDraw):
            return f"offer draw {COLOUR[action.seat]}"
        if isinstance(action, AcceptDraw):
            return "draw agreed" if action.seat is None else f"accept draw {COLOUR[action.seat]}"
        if isinstance(action, ClaimDraw):
            return "claim draw"
        if isinstance(action, Flag):
            return f"flag {COLOUR[action.seat]}"
        return f"promote {chess.piece_symbol(action.piece)}"

    def said_by(self, state: ChessState, text: str, seat: int) -> str:
        """A bare "resign" or "offer draw" from a phone is that side's: either side may
        resign or offer a draw at any time, not only the side to move."""
        t = " ".join(text.strip().split()).lower()
        return f"{t} {COLOUR[seat]}" if t in ("resign", "offer draw") and 0 <= seat < len(COLOUR) else text

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
        return self.prompt(state).seat

    def not_one_seats(self, state: ChessState, action) -> str:
        """'draw agreed' is both players' at once: from a phone it would be one player
        ending the game alone (issue 21 #3)."""
        if isinstance(action, Flag):
            return self._("a flag fall is the clock's to say (or the referee's, admin), not a player's")
        return self._("a draw needs both players: one offers it ('offer draw') and the other accepts "
                      "('accept draw'), each from their own phone; 'draw agreed' is the referee's (admin)")

    def describe(self, state: ChessState, action) -> str:
        board = state.board
        if isinstance(action, chess.Move):
            piece = board.piece_at(action.from_square)
            who = self._piece(piece, action.from_square)
            frm, to = SQUARES[action.from_square], SQUARES[action.to_square]
            if board.is_castling(action):
                text = self._("{who} castles kingside", who=who) if board.is_kingside_castling(action) \
                    else self._("{who} castles queenside", who=who)
            else:
                victim_sq = action.to_square
                if board.is_en_passant(action):
                    victim_sq = chess.square(chess.square_file(action.to_square), chess.square_rank(action.from_square))
                victim = board.piece_at(victim_sq)
                if not victim:
                    text = self._("{who} moves from {frm} to {to}", who=who, frm=frm, to=to)
                elif board.is_en_passant(action):
                    text = self._("{who} moves from {frm} to {to} and captures {victim} en passant", who=who,
                                  frm=frm, to=to, victim=self._piece(victim, victim_sq))
                else:
                    text = self._("{who} moves from {frm} to {to} and captures {victim}", who=who, frm=frm, to=to,
                                  victim=self._piece(victim, victim_sq))
            if action.promotion:
                new = chess.Piece(action.promotion, piece.color)
                text += ", " + self._("promoted to {piece}", piece=self._piece(new, action.to_square))
            after = board.copy(stack=False)
            after.push(action)
            if after.is_checkmate():
                text = self._("{move}: {king} is checkmated", move=text, king=KING[seat_of(after.turn)])
            elif after.is_check():
                text = self._("{move}: {king} is in check", move=text, king=KING[seat_of(after.turn)])
            return text
        if isinstance(action, Resign):
            return self._("{who} resigns", who=self._team(action.seat))
        if isinstance(action, OfferDraw):
            return self._("{who} offers a draw", who=self._team(action.seat))
        if isinstance(action, AcceptDraw):
            return self._("the players agree a draw") if action.seat is None else \
                self._("{who} accepts the draw", who=self._team(action.seat))
        if isinstance(action, ClaimDraw):
            return self._("{who} claims a draw", who=self._team(seat_of(board.turn)))
        if isinstance(action, Flag):
            return self._flag_fall(state, action.seat).reason
        sq = self._last_promotion(state).to_square
        return self._("the piece promoted on {square} becomes {piece}", square=SQUARES[sq],
                      piece=self._piece(chess.Piece(action.piece, board.piece_at(sq).color), sq))

    def spoken(self, move: dict) -> str:
        """A recorded move as people say it at the table ("Yoshi, knight, takes e5,
        check"), from its SAN and its seat: the Mario name, the piece, the square."""
        san, seat = move.get("notation", ""), move.get("seat")
        found = SAN.fullmatch(san)
        if seat not in (0, 1) or found is None:
            return super().spoken(move)
        color = chess.WHITE if seat == 0 else chess.BLACK
        end = found["end"] or ""
        tail = [self._("checkmate")] if end == "#" else [self._("check")] if end == "+" else []
        if found["castle"]:
            who = KING[seat]
            said = self._("{who}, castles queenside", who=who) if found["castle"].count("O") == 3 \
                else self._("{who}, castles kingside", who=who)
            return ", ".join([said, *tail])
        kind = chess.PIECE_SYMBOLS.index((found["piece"] or "p").lower())
        square = chess.parse_square(found["to"])
        words = [self._piece(chess.Piece(kind, color), square), self._(KIND[kind])]
        words.append(self._("takes {square}", square=found["to"]) if found["takes"] else found["to"])
        if found["promo"]:
            new = chess.Piece(chess.PIECE_SYMBOLS.index(found["promo"].lower()), color)
            words.append(self._("becomes {piece}", piece=self._piece(new, square)))
        return ", ".join(words + tail)

    def cell_name(self, cell) -> str:
        return str(cell)

    # --- rules ---------------------------------------------------------------------
    def check(self, state: ChessState, action) -> None:
        over = self.outcome(state)
        if over:
            raise IllegalAction(self._("the game is over: {reason}", reason=over.reason))
        board = state.board
        if isinstance(action, chess.Move):
            if not board.is_legal(action):
                raise self._why(board, action)
        elif isinstance(action, AcceptDraw) and action.seat is not None:
            if state.draw_offer is None:
                raise IllegalAction(self._("there is no draw offer to accept ('offer draw' first, or "
                                           "'draw agreed' when both players agree)"))
            if state.draw_offer == action.seat:
                raise IllegalAction(self._("{who} cannot accept its own draw offer", who=self._team(action.seat)))
        elif isinstance(action, OfferDraw) and state.draw_offer == action.seat:
            raise IllegalAction(self._("{who} has already offered a draw", who=self._team(action.seat)))
        elif isinstance(action, ClaimDraw) and self._claimable(state) is None:
            raise IllegalAction(self._.n(
                "no draw can be claimed: the position has occurred {n} time (a claim needs three) and the last "
                "capture or pawn move was {moves} moves ago (a claim needs 50)",
                "no draw can be claimed: the position has occurred {n} times (a claim needs three) and the last "
                "capture or pawn move was {moves} moves ago (a claim needs 50)",
                state.repetitions, moves=board.halfmove_clock // 2))
        elif isinstance(action, Promote):
            promo = self._last_promotion(state)
            if promo is None:
                raise IllegalAction(self._("'promote' changes a promoted piece only right after the "
                                           "promotion, before the next move"))
            if action.piece == promo.promotion:
                piece = board.piece_at(promo.to_square)
                raise IllegalAction(self._("the piece on {square} already is {piece}", square=SQUARES[promo.to_square],
                                           piece=self._piece(piece, promo.to_square)))

    def _why(self, board: chess.Board, move: chess.Move) -> IllegalAction:
        """The rule a move breaks, naming the piece by its Mario name and the squares."""
        frm, to = SQUARES[move.from_square], SQUARES[move.to_square]
        cells = [frm, to]
        piece = board.piece_at(move.from_square)
        if piece is None:
            return IllegalAction(self._("there is no piece on {square}", square=frm), cells)
        name = self._piece(piece, move.from_square)
        seat = seat_of(piece.color)
        if piece.color != board.turn:
            return IllegalAction(self._("it is {team}'s turn: {piece} cannot move now", team=self._team(1 - seat),
                                        piece=name), cells)
        cannot = self._("{piece} cannot move from {frm} to {to}", piece=name, frm=frm, to=to)
        if move.promotion and (piece.piece_type != chess.PAWN or chess.square_rank(move.to_square) not in (0, 7)):
            return IllegalAction(self._("{cannot}: only a pawn reaching the last rank is promoted", cannot=cannot),
                                 cells)
        king = KING[seat]
        if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2 \
                and chess.square_rank(move.to_square) == chess.square_rank(move.from_square):
            return self._why_castle(board, move, king)
        target = board.piece_at(move.to_square)
        if target is not None and target.color == piece.color:
            return IllegalAction(self._("{cannot}: {team}'s own {piece} stands there", cannot=cannot,
                                        team=self._team(seat), piece=self._piece(target, move.to_square)), cells)
        if move not in board.pseudo_legal_moves and chess.Move(move.from_square, move.to_square) not in board.pseudo_legal_moves:
            return IllegalAction(f"{cannot}: {self._geometry(board, piece, move)}", cells)
        if piece.piece_type == chess.KING:
            by = self._attackers(board, not piece.color, move.to_square, move.from_square)
            return IllegalAction(self._("{king} cannot move into check on {square}", king=king, square=to) + by, cells)
        if board.is_check():
            # {pronoun} is English's him/her/it: a translation may leave it out
            return IllegalAction(self._("{king} is in check: moving {piece} from {frm} to {to} does not get "
                                        "{pronoun} out of it", king=king, piece=name, frm=frm, to=to,
                                        pronoun=pronoun(king)), cells)
        if board.is_pinned(piece.color, move.from_square):
            # {pronoun} is English's him/her/it: a translation may leave it out
            return IllegalAction(self._("{piece} is pinned: moving {pronoun} would leave {king} in check", piece=name,
                                        pronoun=pronoun(piece_name(piece, move.from_square)), king=king), cells)
        return IllegalAction(self._("{cannot}: it would leave {king} in check", cannot=cannot, king=king), cells)

    def _attackers(self, board: chess.Board, color: bool, square: int, without: int | None = None) -> str:
        probe = board.copy(stack=False)
        if without is not None:
            probe.remove_piece_at(without)
        attackers = list(probe.attackers(color, square))
        if not attackers:
            return ""
        sq = attackers[0]
        return ": " + self._("{square} is attacked by {piece} on {on}", square=SQUARES[square],
                             piece=self._piece(probe.piece_at(sq), sq), on=SQUARES[sq])

    def _why_castle(self, board: chess.Board, move: chess.Move, king: str) -> IllegalAction:
        color = board.turn
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rank = chess.square_rank(move.from_square)
        rook_sq = chess.square(7 if kingside else 0, rank)
        cells = [SQUARES[move.from_square], SQUARES[move.to_square], SQUARES[rook_sq]]
        can = (board.has_kingside_castling_rights if kingside else board.has_queenside_castling_rights)(color)
        if not can:
            rook = self._piece(chess.Piece(chess.ROOK, color))
            return IllegalAction(self._("{king} cannot castle kingside: {king} or that {rook} has already moved "
                                        "(or the rook is gone)", king=king, rook=rook) if kingside else
                                 self._("{king} cannot castle queenside: {king} or that {rook} has already moved "
                                        "(or the rook is gone)", king=king, rook=rook), cells)
        between = chess.SquareSet(chess.between(move.from_square, rook_sq))
        blocking = [sq for sq in between if board.piece_at(sq)]
        if blocking:
            sq = blocking[0]
            words = dict(king=king, piece=self._piece(board.piece_at(sq), sq), square=SQUARES[sq])
            return IllegalAction(self._("{king} cannot castle kingside: {piece} on {square} is in the way", **words)
                                 if kingside else
                                 self._("{king} cannot castle queenside: {piece} on {square} is in the way", **words),
                                 cells)
        if board.is_check():
            return IllegalAction(self._("{king} cannot castle out of check", king=king), cells)
        step = 1 if kingside else -1
        through = move.from_square + step
        if board.is_attacked_by(not color, through):
            return IllegalAction(self._("{king} cannot castle through check", king=king)
                                 + self._attackers(board, not color, through), cells)
        return IllegalAction(self._("{king} cannot castle into check", king=king)
                             + self._attackers(board, not color, move.to_square, move.from_square), cells)

    def _geometry(self, board: chess.Board, piece: chess.Piece, move: chess.Move) -> str:
        """Why a piece cannot get from one square to the other, ignoring checks."""
        df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
        dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
        t = piece.piece_type
        if t == chess.PAWN:
            forward = 1 if piece.color == chess.WHITE else -1
            start = 1 if piece.color == chess.WHITE else 6
            if dr * forward <= 0:
                return self._("a pawn only moves forward")
            if df == 0 and dr == forward:
                return self._("a pawn cannot capture straight ahead and {square} is taken", square=SQUARES[move.to_square])
            if df == 0 and dr == 2 * forward:
                if chess.square_rank(move.from_square) != start:
                    return self._("a pawn moves two squares only from its starting square")
                return self._("{square} or {other} is taken", square=SQUARES[move.from_square + 8 * forward],
                              other=SQUARES[move.to_square])
            if abs(df) == 1 and dr == forward:
                return self._("a pawn moves diagonally only to capture (en passant only right after the "
                              "other pawn's two-square step)")
            return self._("a pawn moves one square forward (two from its starting square) or one diagonally to capture")
        between = [sq for sq in chess.SquareSet(chess.between(move.from_square, move.to_square)) if board.piece_at(sq)]
        straight = df == 0 or dr == 0
        diagonal = abs(df) == abs(dr)
        if t == chess.KNIGHT:
            return self._("a knight moves in an L, two squares one way and one to the side")
        if t == chess.KING:
            return self._("a king moves one square (two only when castling)")
        shape = {chess.BISHOP: (diagonal, N_("a bishop moves only diagonally")),
                 chess.ROOK: (straight, N_("a rook moves only along a rank or a file")),
                 chess.QUEEN: (straight or diagonal, N_("a queen moves along a rank, a file or a diagonal"))}
        ok, rule = shape[t]
        if not ok:
            return self._(rule)
        if between:
            sq = between[0]
            return self._("{piece} on {square} is in the way", piece=self._piece(board.piece_at(sq), sq),
                          square=SQUARES[sq])
        return self._(rule)

    def apply(self, state: ChessState, action) -> ChessState:
        if isinstance(action, chess.Move):
            return self._push(state, action)
        if isinstance(action, Resign):
            return replace(state, ended=Outcome(1 - action.seat, self._("{who} resigns", who=self._team(action.seat)),
                                                self._team(1 - action.seat)))
        if isinstance(action, OfferDraw):
            return replace(state, draw_offer=action.seat)
        if isinstance(action, AcceptDraw):
            return replace(state, draw_offer=None, ended=Outcome(None, self._("draw agreed")))
        if isinstance(action, Flag):
            return replace(state, ended=self._flag_fall(state, action.seat))
        if isinstance(action, ClaimDraw):
            claim = self._claimable(state)
            return replace(state, ended=Outcome(None, self._("{draw}, claimed by {who}", draw=claim.reason,
                                                             who=self._team(seat_of(state.board.turn)))))
        promo = self._last_promotion(state)
        changed = chess.Move(promo.from_square, promo.to_square, action.piece)
        return replace(self._replay(state.moves[:-1] + (changed.uci(),), state.fen), draw_offer=state.draw_offer)

    def snapshot(self, state: ChessState, viewer: int | None = None) -> dict:
        board = state.board
        promo = self._last_promotion(state)
        claim = self._claimable(state)
        return {
            "fen": board.fen(),
            "turn": seat_of(board.turn),
            "rows": [row.replace("/", "") for row in board.board_fen().split("/")],
            "check": board.is_check(),
            "last_move": state.moves[-1] if state.moves else None,
            "draw_offer": self._team(state.draw_offer) if state.draw_offer is not None else None,
            "promotion_square": SQUARES[promo.to_square] if promo else None,
            "claimable": claim.reason if claim else None,
            "moves": list(state.moves),
            # the number and side of the first move, for the page's record by move number
            "first_move": list(_first_move(state.fen)),
        }

    def legal_actions(self, state: ChessState) -> list:
        if self.outcome(state):
            return []
        return list(state.board.legal_moves)

    # --- what the camera sees ------------------------------------------------------
    def board(self, state: ChessState) -> dict[str, str]:
        return dict(state.cells)

    def observable_actions(self, state: ChessState, changed: set | None = None) -> list[chess.Move]:
        """Every legal move, each promotion once (as the default piece): the camera sees
        colours, not which piece a pawn became. With `changed`, only moves from a changed
        square (a move always empties its from-square; so does each ply of a quick reply)."""
        promo = PROMOTION[self.setting("default_promotion")]
        return [m for m in state.board.legal_moves if m.promotion in (None, promo)
                and (changed is None or SQUARES[m.from_square] in changed)]

    def explain(self, state: ChessState, seen: Mapping) -> IllegalAction:
        """Put a stable view that no legal move explains into words.

        The changed squares are read as a move attempt: a piece left a square and its
        colour appeared on another (a capture changes a colour, castling moves two pieces).
        If that attempt is a move of the side to move after a legal first move (a quick
        reply), the reply is judged from the position after it.
        """
        over = self.outcome(state)
        now = state.cells
        changed = [sq for sq in SQUARES if seen.get(sq, now[sq]) != now[sq]]
        if over and changed:
            return IllegalAction(self._("the game is over: {reason}", reason=over.reason), changed)
        attempt = self._attempt(state.board, now, seen, changed)
        if attempt is not None:
            return attempt
        for move in self.observable_actions(state):
            after = self._push(state, move)
            moved = [sq for sq in SQUARES if after.cells[sq] != now[sq]]
            if moved and all(seen.get(sq) == after.cells[sq] for sq in moved):
                rest = [sq for sq in SQUARES if seen.get(sq, after.cells[sq]) != after.cells[sq]]
                reply = self._attempt(after.board, after.cells, seen, rest)
                if reply is not None:
                    return IllegalAction(self._("after {move}: {reason}", move=state.board.san(move),
                                                reason=reply.reason), reply.cells)
        return self._mismatch(state.board, now, seen, changed)

    def fix(self, state: ChessState, seen: Mapping) -> str:
        """Put each wrongly seen square back: "put Luigi (red) back on d1; clear e3"."""
        now = state.cells
        back, clear = [], []
        for sq in SQUARES:
            if seen.get(sq, now[sq]) == now[sq]:
                continue
            piece = state.board.piece_at(chess.parse_square(sq))
            if piece is None:
                clear.append(sq)
            else:
                back.append(self._("put {piece} ({colour}) back on {square}", piece=self._piece(piece, chess.parse_square(sq)),
                                   colour=self._(COLOUR[seat_of(piece.color)]), square=sq))
        parts = back + ([self._("clear {squares}", squares=", ".join(clear))] if clear else [])
        return "; ".join(parts) or self._("put the board back as it was")

    def _attempt(self, board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction | None:
        """The illegal move that `changed` shows, if it shows one piece's move."""
        left = [sq for sq in changed if seen[sq] == "empty"]
        arrived = [sq for sq in changed if seen[sq] != "empty"]
        if not left or not arrived:
            return None
        for kind in (chess.KING, None):  # castling first: the king's two-square step
            for frm in left:
                piece = board.piece_at(chess.parse_square(frm))
                if kind and piece.piece_type != kind:
                    continue
                for to in arrived:
                    if seen[to] != f"p{seat_of(piece.color)}":
                        continue
                    move = chess.Move(chess.parse_square(frm), chess.parse_square(to))
                    if kind:  # the king's step of two files is an attempt to castle
                        if abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) != 2:
                            continue
                    elif len(left) + len(arrived) > 3:
                        continue  # more changed than one move (with a capture en passant) explains
                    if piece.piece_type == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
                        move.promotion = PROMOTION[self.setting("default_promotion")]
                    if board.is_legal(move):
                        if kind:
                            rook_to = "f" if chess.square_file(move.to_square) == 6 else "d"
                            return IllegalAction(self._("{piece} stepped from {frm} to {to}: castling moves the rook "
                                                        "to {square} too", piece=self._piece(piece), frm=frm, to=to,
                                                        square=rook_to + to[1]), [frm, to])
                        continue
                    return self._why(board, move)
        return None

    def _mismatch(self, board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction:
        """Nothing sensible explains the view (a knocked-over piece, a hand left behind)."""
        def what(sq):
            piece = board.piece_at(chess.parse_square(sq))
            if not piece:
                return self._("an empty square")
            return f"{self._piece(piece, chess.parse_square(sq))} ({self._(COLOUR[seat_of(piece.color)])})"

        def looks(label):
            if label == "empty":
                return self._("empty")
            return self._("a red piece") if label == "p0" else self._("a green piece")

        parts = [self._("{square} shows {seen} where {piece} should be", square=sq, seen=looks(seen[sq]), piece=what(sq))
                 for sq in changed]
        return IllegalAction(self._("board does not match: {cells}", cells="; ".join(parts)), changed)

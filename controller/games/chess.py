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

from ..texts import say
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling

TEAM = ("Mario's team", "Bowser's team")
KING = ("Mario", "Bowser")
COLOUR = ("red", "green")
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
            chess.PAWN: ("Coin", "Green Shell")}[t][seat]


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
    def automatic_end(self) -> Outcome | None:
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


def _automatic_end(state: ChessState) -> Outcome | None:
    board = state.board
    if board.is_checkmate():
        loser = seat_of(board.turn)
        return Outcome(1 - loser, f"{KING[loser]} is checkmated", TEAM[1 - loser])
    if board.is_stalemate():
        return Outcome(None, f"draw: stalemate, {TEAM[seat_of(board.turn)]} has no legal move")
    if board.is_insufficient_material():
        return Outcome(None, "draw: dead position, neither side has the material to checkmate")
    if state.repetitions >= 5:
        return Outcome(None, "draw: the same position occurred five times")
    if board.halfmove_clock >= 150:
        return Outcome(None, "draw: 75 moves by each side without a capture or a pawn move")
    return None


class Chess(Game):
    name = "chess"
    title = "Mario chess"
    example = "a move, e.g. e2e4 or Nf3"
    max_actions_per_view = 2  # a quick reply: two plies between stable views
    wrong_cells = 2  # a piece leaves a square for another: one odd square alone is a misread look

    SETTINGS = {
        "claimable_draws": ("claim", ("claim", "automatic"),
                            "Threefold repetition and the 50-move rule end the game when a "
                            "player claims them ('claim draw'); 'automatic' ends it at once."),
        "default_promotion": ("q", ("q", "r", "b", "n"),
                              "A promotion seen by the camera is this piece unless a player picks "
                              "another on the page before the next move."),
    }

    def __init__(self, variant=None, settings=None):
        super().__init__(variant, settings)
        for key, value in self.settings.items():
            if key not in self.SETTINGS:
                raise ValueError(f"chess has no setting {key!r}; expected one of {', '.join(self.SETTINGS)}")
            allowed = self.SETTINGS[key][1]
            if value not in allowed:
                raise ValueError(f"chess setting {key!r} is {value!r}; expected one of {', '.join(allowed)}")

    def setting(self, key: str):
        return self.settings.get(key, self.SETTINGS[key][0])

    def rulings(self) -> list[Ruling]:
        fixed = [
            Ruling("automatic_draws", True, "Fivefold repetition, the 75-move rule and dead positions "
                                            "(insufficient material) end the game automatically."),
            Ruling("illegal_move", "take back", "An illegal move is flagged at once; nothing is recorded "
                                                "until the last legal position is back or a legal move "
                                                "is made from it."),
            Ruling("page_results", True, "Resignation and agreed draws are entered on the page."),
        ]
        return [Ruling(k, self.setting(k), text) for k, (_, _, text) in self.SETTINGS.items()] + fixed

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
        return list(TEAM)

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
        if end is None and self.setting("claimable_draws") == "automatic":
            return self._claimable(state)
        return end

    @staticmethod
    def _claimable(state: ChessState) -> Outcome | None:
        if state.repetitions >= 3:
            return Outcome(None, "draw: threefold repetition")
        if state.board.halfmove_clock >= 100:
            return Outcome(None, "draw: 50 moves by each side without a capture or a pawn move")
        return None

    def _last_promotion(self, state: ChessState) -> chess.Move | None:
        if not state.moves:
            return None
        move = chess.Move.from_uci(state.moves[-1])
        return move if move.promotion else None

    def prompt(self, state: ChessState) -> Prompt:
        out = self.outcome(state)
        if out:
            return Prompt("move", None, "Game over: " + out.reason)
        seat = seat_of(state.board.turn)
        parts = [f"{TEAM[seat]} to move ({COLOUR[seat]})"]
        if state.board.is_check():
            parts.append(f"{KING[seat]} is in check")
        if state.draw_offer is not None:
            parts.append(f"{TEAM[state.draw_offer]} offers a draw: {TEAM[1 - state.draw_offer]} may accept it")
        promo = self._last_promotion(state)
        if promo:
            piece = state.board.piece_at(promo.to_square)
            parts.append(f"{piece_name(piece, promo.to_square)} was promoted on "
                         f"{SQUARES[promo.to_square]}: 'promote q|r|b|n' picks another piece")
        claim = self._claimable(state)
        if claim:
            parts.append(claim.reason.replace("draw: ", "") + " may be claimed ('claim draw')")
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
        if m := re.fullmatch(r"promote\s+(\w+)", low):
            if m[1] not in PROMOTION:
                raise NotationError(f"{t!r}: a pawn is promoted to q (queen), r (rook), b (bishop) "
                                    "or n (knight)")
            return Promote(PROMOTION[m[1]])
        if m := self._UCI.match(low):
            if m[3] in ("k", "p"):
                raise NotationError(f"{t!r}: a pawn is promoted to q, r, b or n, never to a "
                                    f"{'king' if m[3] == 'k' else 'pawn'}")
            if m[1] == m[2]:  # python-chess raises InvalidMoveError for a null move
                raise NotationError(f"{t!r}: a move goes from one square to another, not to "
                                    "the square it starts on")
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
            raise NotationError(f"{t!r} is ambiguous: more than one piece can make it; add the "
                                "file or rank it starts from (Nbd2) or use UCI (b1d2)") from None
        except chess.InvalidMoveError:
            raise NotationError(f"{t!r} is not a chess move",
                                "expected UCI (e2e4, e7e8q), SAN (Nf3, O-O), 'resign', 'offer draw', 'accept draw', 'draw agreed', "
                                "'claim draw' or 'promote q|r|b|n'") from None
        except chess.IllegalMoveError:
            over = self.outcome(state)
            raise (IllegalAction(f"the game is over: {over.reason}") if over else self._why_san(board, t)) from None

    def _why_san(self, board: chess.Board, t: str) -> IllegalAction:
        """A well-formed SAN that no piece can play: say which piece and why."""
        if t.upper().replace("0", "O").startswith("O-O"):
            side = chess.G1 if t.count("O") + t.count("0") == 2 else chess.C1
            king = board.king(board.turn)
            to = chess.square(chess.square_file(side), chess.square_rank(king) if king is not None else 0)
            return self._why(board, chess.Move(king, to)) if king is not None else \
                IllegalAction(f"{KING[seat_of(board.turn)]} is not on the board")
        m = re.match(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])", t)
        if not m:
            return IllegalAction(f"{t!r} is not a legal move here")
        kind = {"N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN,
                "K": chess.KING}.get(m[1], chess.PAWN)
        to = chess.parse_square(m[4])
        mine = [sq for sq in board.pieces(kind, board.turn)
                if (not m[2] or chess.square_file(sq) == "abcdefgh".index(m[2]))
                and (not m[3] or chess.square_rank(sq) == int(m[3]) - 1)]
        if len(mine) == 1:
            return self._why(board, chess.Move(mine[0], to, chess.QUEEN if "=" in t else None))
        name = piece_name(chess.Piece(kind, board.turn), to)
        if not mine:
            return IllegalAction(f"{TEAM[seat_of(board.turn)]} has no {name} to move to {m[4]}")
        return IllegalAction(f"no {name} of {TEAM[seat_of(board.turn)]} can move to {m[4]}", [m[4]])

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
        return f"promote {chess.piece_symbol(action.piece)}"

    def actor(self, state: ChessState, action) -> int | None:
        """Who makes an action that is not the move itself: the promoter picks the piece
        (the other side is to move by then); a resignation or a draw offer names its
        side; "draw agreed" is both players'."""
        if isinstance(action, Promote):
            return 1 - seat_of(state.board.turn)
        if isinstance(action, (Resign, OfferDraw, AcceptDraw)):
            return action.seat
        return self.prompt(state).seat

    def not_one_seats(self, state: ChessState, action) -> str:
        """'draw agreed' is both players' at once: from a phone it would be one player
        ending the game alone (issue 21 #3)."""
        return ("a draw needs both players: one offers it ('offer draw') and the other accepts "
                "('accept draw'), each from their own phone; 'draw agreed' is the referee's (admin)")

    def describe(self, state: ChessState, action) -> str:
        board = state.board
        if isinstance(action, chess.Move):
            piece = board.piece_at(action.from_square)
            who = piece_name(piece, action.from_square)
            frm, to = SQUARES[action.from_square], SQUARES[action.to_square]
            if board.is_castling(action):
                text = f"{who} castles {'kingside' if board.is_kingside_castling(action) else 'queenside'}"
            else:
                text = f"{who} moves from {frm} to {to}"
                victim_sq = action.to_square
                if board.is_en_passant(action):
                    victim_sq = chess.square(chess.square_file(action.to_square), chess.square_rank(action.from_square))
                victim = board.piece_at(victim_sq)
                if victim:
                    text += f" and captures {piece_name(victim, victim_sq)}"
                    if board.is_en_passant(action):
                        text += " en passant"
            if action.promotion:
                new = chess.Piece(action.promotion, piece.color)
                text += f", promoted to {piece_name(new, action.to_square)}"
            after = board.copy(stack=False)
            after.push(action)
            if after.is_checkmate():
                text += f": {KING[seat_of(after.turn)]} is checkmated"
            elif after.is_check():
                text += f": {KING[seat_of(after.turn)]} is in check"
            return text
        if isinstance(action, Resign):
            return f"{TEAM[action.seat]} resigns"
        if isinstance(action, OfferDraw):
            return f"{TEAM[action.seat]} offers a draw"
        if isinstance(action, AcceptDraw):
            return "the players agree a draw" if action.seat is None else f"{TEAM[action.seat]} accepts the draw"
        if isinstance(action, ClaimDraw):
            return f"{TEAM[seat_of(board.turn)]} claims a draw"
        sq = self._last_promotion(state).to_square
        return (f"the piece promoted on {SQUARES[sq]} becomes "
                f"{piece_name(chess.Piece(action.piece, board.piece_at(sq).color), sq)}")

    def spoken(self, move: dict) -> str:
        """A recorded move as people say it at the table ("Yoshi, knight, takes e5,
        check"), from its SAN and its seat: the Mario name, the piece, the square."""
        san, seat = move.get("notation", ""), move.get("seat")
        found = SAN.fullmatch(san)
        if seat not in (0, 1) or found is None:
            return super().spoken(move)
        color = chess.WHITE if seat == 0 else chess.BLACK
        end = found["end"] or ""
        tail = [say("chess.checkmate")] if end == "#" else [say("chess.check")] if end == "+" else []
        if found["castle"]:
            side = say("chess.queenside" if found["castle"].count("O") == 3 else "chess.kingside")
            return ", ".join([say("chess.castles", who=KING[seat], side=side), *tail])
        kind = chess.PIECE_SYMBOLS.index((found["piece"] or "p").lower())
        square = chess.parse_square(found["to"])
        words = [piece_name(chess.Piece(kind, color), square), chess.piece_name(kind)]
        words.append(f"{say('chess.takes')} {found['to']}" if found["takes"] else found["to"])
        if found["promo"]:
            new = chess.Piece(chess.PIECE_SYMBOLS.index(found["promo"].lower()), color)
            words.append(say("chess.promotes", piece=piece_name(new, square)))
        return ", ".join(words + tail)

    def cell_name(self, cell) -> str:
        return str(cell)

    # --- rules ---------------------------------------------------------------------
    def check(self, state: ChessState, action) -> None:
        over = self.outcome(state)
        if over:
            raise IllegalAction(f"the game is over: {over.reason}")
        board = state.board
        if isinstance(action, chess.Move):
            if not board.is_legal(action):
                raise self._why(board, action)
        elif isinstance(action, AcceptDraw) and action.seat is not None:
            if state.draw_offer is None:
                raise IllegalAction("there is no draw offer to accept ('offer draw' first, or "
                                    "'draw agreed' when both players agree)")
            if state.draw_offer == action.seat:
                raise IllegalAction(f"{TEAM[action.seat]} cannot accept its own draw offer")
        elif isinstance(action, OfferDraw) and state.draw_offer == action.seat:
            raise IllegalAction(f"{TEAM[action.seat]} has already offered a draw")
        elif isinstance(action, ClaimDraw) and self._claimable(state) is None:
            raise IllegalAction(
                "no draw can be claimed: the position has occurred "
                f"{state.repetitions} time{'s' if state.repetitions > 1 else ''} (a claim needs three) "
                f"and the last capture or pawn move was {board.halfmove_clock // 2} moves ago "
                "(a claim needs 50)")
        elif isinstance(action, Promote):
            promo = self._last_promotion(state)
            if promo is None:
                raise IllegalAction("'promote' changes a promoted piece only right after the "
                                    "promotion, before the next move")
            if action.piece == promo.promotion:
                piece = board.piece_at(promo.to_square)
                raise IllegalAction(f"the piece on {SQUARES[promo.to_square]} already is "
                                    f"{piece_name(piece, promo.to_square)}")

    def _why(self, board: chess.Board, move: chess.Move) -> IllegalAction:
        """The rule a move breaks, naming the piece by its Mario name and the squares."""
        frm, to = SQUARES[move.from_square], SQUARES[move.to_square]
        cells = [frm, to]
        piece = board.piece_at(move.from_square)
        if piece is None:
            return IllegalAction(f"there is no piece on {frm}", cells)
        name = piece_name(piece, move.from_square)
        seat = seat_of(piece.color)
        if piece.color != board.turn:
            return IllegalAction(f"it is {TEAM[1 - seat]}'s turn: {name} cannot move now", cells)
        cannot = f"{name} cannot move from {frm} to {to}"
        if move.promotion and (piece.piece_type != chess.PAWN or chess.square_rank(move.to_square) not in (0, 7)):
            return IllegalAction(f"{cannot}: only a pawn reaching the last rank is promoted", cells)
        king = KING[seat]
        if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2 \
                and chess.square_rank(move.to_square) == chess.square_rank(move.from_square):
            return self._why_castle(board, move, king)
        target = board.piece_at(move.to_square)
        if target is not None and target.color == piece.color:
            return IllegalAction(f"{cannot}: {TEAM[seat]}'s own {piece_name(target, move.to_square)} "
                                 f"stands there", cells)
        if move not in board.pseudo_legal_moves and chess.Move(move.from_square, move.to_square) not in board.pseudo_legal_moves:
            return IllegalAction(f"{cannot}: {self._geometry(board, piece, move)}", cells)
        if piece.piece_type == chess.KING:
            by = self._attackers(board, not piece.color, move.to_square, move.from_square)
            return IllegalAction(f"{king} cannot move into check on {to}{by}", cells)
        if board.is_check():
            return IllegalAction(f"{king} is in check: moving {name} from {frm} to {to} does not "
                                 f"get {pronoun(king)} out of it", cells)
        if board.is_pinned(piece.color, move.from_square):
            return IllegalAction(f"{name} is pinned: moving {pronoun(name)} would leave {king} in check", cells)
        return IllegalAction(f"{cannot}: it would leave {king} in check", cells)

    @staticmethod
    def _attackers(board: chess.Board, color: bool, square: int, without: int | None = None) -> str:
        probe = board.copy(stack=False)
        if without is not None:
            probe.remove_piece_at(without)
        attackers = list(probe.attackers(color, square))
        if not attackers:
            return ""
        sq = attackers[0]
        return f": {SQUARES[square]} is attacked by {piece_name(probe.piece_at(sq), sq)} on {SQUARES[sq]}"

    def _why_castle(self, board: chess.Board, move: chess.Move, king: str) -> IllegalAction:
        color = board.turn
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        side = "kingside" if kingside else "queenside"
        rank = chess.square_rank(move.from_square)
        rook_sq = chess.square(7 if kingside else 0, rank)
        cells = [SQUARES[move.from_square], SQUARES[move.to_square], SQUARES[rook_sq]]
        can = (board.has_kingside_castling_rights if kingside else board.has_queenside_castling_rights)(color)
        if not can:
            rook = piece_name(chess.Piece(chess.ROOK, color))
            return IllegalAction(f"{king} cannot castle {side}: {king} or that {rook} has already "
                                 "moved (or the rook is gone)", cells)
        between = chess.SquareSet(chess.between(move.from_square, rook_sq))
        blocking = [sq for sq in between if board.piece_at(sq)]
        if blocking:
            sq = blocking[0]
            return IllegalAction(f"{king} cannot castle {side}: {piece_name(board.piece_at(sq), sq)} "
                                 f"on {SQUARES[sq]} is in the way", cells)
        if board.is_check():
            return IllegalAction(f"{king} cannot castle out of check", cells)
        step = 1 if kingside else -1
        through = move.from_square + step
        if board.is_attacked_by(not color, through):
            return IllegalAction(f"{king} cannot castle through check"
                                 f"{self._attackers(board, not color, through)}", cells)
        return IllegalAction(f"{king} cannot castle into check"
                             f"{self._attackers(board, not color, move.to_square, move.from_square)}", cells)

    @staticmethod
    def _geometry(board: chess.Board, piece: chess.Piece, move: chess.Move) -> str:
        """Why a piece cannot get from one square to the other, ignoring checks."""
        df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
        dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
        t = piece.piece_type
        if t == chess.PAWN:
            forward = 1 if piece.color == chess.WHITE else -1
            start = 1 if piece.color == chess.WHITE else 6
            if dr * forward <= 0:
                return "a pawn only moves forward"
            if df == 0 and dr == forward:
                return f"a pawn cannot capture straight ahead and {SQUARES[move.to_square]} is taken"
            if df == 0 and dr == 2 * forward:
                if chess.square_rank(move.from_square) != start:
                    return "a pawn moves two squares only from its starting square"
                return f"{SQUARES[move.from_square + 8 * forward]} or {SQUARES[move.to_square]} is taken"
            if abs(df) == 1 and dr == forward:
                return ("a pawn moves diagonally only to capture (en passant only right after the "
                        "other pawn's two-square step)")
            return "a pawn moves one square forward (two from its starting square) or one diagonally to capture"
        between = [sq for sq in chess.SquareSet(chess.between(move.from_square, move.to_square)) if board.piece_at(sq)]
        straight = df == 0 or dr == 0
        diagonal = abs(df) == abs(dr)
        if t == chess.KNIGHT:
            return "a knight moves in an L, two squares one way and one to the side"
        if t == chess.KING:
            return "a king moves one square (two only when castling)"
        shape = {chess.BISHOP: (diagonal, "a bishop moves only diagonally"),
                 chess.ROOK: (straight, "a rook moves only along a rank or a file"),
                 chess.QUEEN: (straight or diagonal, "a queen moves along a rank, a file or a diagonal")}
        ok, rule = shape[t]
        if not ok:
            return rule
        if between:
            sq = between[0]
            return f"{piece_name(board.piece_at(sq), sq)} on {SQUARES[sq]} is in the way"
        return rule

    def apply(self, state: ChessState, action) -> ChessState:
        if isinstance(action, chess.Move):
            return self._push(state, action)
        if isinstance(action, Resign):
            return replace(state, ended=Outcome(1 - action.seat, f"{TEAM[action.seat]} resigns",
                                                TEAM[1 - action.seat]))
        if isinstance(action, OfferDraw):
            return replace(state, draw_offer=action.seat)
        if isinstance(action, AcceptDraw):
            return replace(state, draw_offer=None, ended=Outcome(None, "draw agreed"))
        if isinstance(action, ClaimDraw):
            claim = self._claimable(state)
            return replace(state, ended=Outcome(None, f"{claim.reason}, claimed by "
                                                      f"{TEAM[seat_of(state.board.turn)]}"))
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
            "draw_offer": TEAM[state.draw_offer] if state.draw_offer is not None else None,
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
            return IllegalAction(f"the game is over: {over.reason}", changed)
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
                    return IllegalAction(f"after {state.board.san(move)}: {reply.reason}", reply.cells)
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
                back.append(f"put {piece_name(piece, chess.parse_square(sq))} ({COLOUR[seat_of(piece.color)]}) back on {sq}")
        parts = back + ([f"clear {', '.join(clear)}"] if clear else [])
        return "; ".join(parts) or "put the board back as it was"

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
                            return IllegalAction(f"{piece_name(piece)} stepped from {frm} to {to}: castling "
                                                 f"moves the rook to {rook_to}{to[1]} too", [frm, to])
                        continue
                    return self._why(board, move)
        return None

    @staticmethod
    def _mismatch(board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction:
        """Nothing sensible explains the view (a knocked-over piece, a hand left behind)."""
        def what(sq):
            piece = board.piece_at(chess.parse_square(sq))
            return f"{piece_name(piece, chess.parse_square(sq))} ({COLOUR[seat_of(piece.color)]})" if piece else "an empty square"

        def looks(label):
            return "empty" if label == "empty" else f"a {COLOUR[int(label[1])]} piece"

        parts = [f"{sq} shows {looks(seen[sq])} where {what(sq)} should be" for sq in changed]
        return IllegalAction("board does not match: " + "; ".join(parts), changed)

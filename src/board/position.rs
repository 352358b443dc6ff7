//! The position: pieces on the 90 points, side to move, Zobrist key, the 60-move counter,
//! and the history of states that unmake and the repetition rules need.

use super::{attacks, zobrist};
use crate::core::{Bitboard, Color, Move, MoveParseError, Piece, PieceKind, Square};
use std::fmt;

/// What `make_move` saves so that `unmake_move` can restore the position, and what the
/// repetition rules read: the key before the move and the move itself.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Key of the position before the move.
    pub key: u64,
    /// The move made (`None` for a null move).
    pub mv: Option<Move>,
    /// What the move captured.
    pub captured: Option<Piece>,
    /// The 60-move counter before the move.
    pub rule60: u16,
    /// The pieces that gave check before the move.
    pub checkers: Bitboard,
}

#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    pieces: [Bitboard; Piece::COUNT],
    colors: [Bitboard; 2],
    occupied: Bitboard,
    side: Color,
    key: u64,
    /// Zobrist keys of three groups of pieces: the pawns, Red's others, Black's others.
    group_keys: [u64; 3],
    rule60: u16,
    fullmove: u32,
    /// The enemy pieces attacking the king of the side to move, kept up to date by every
    /// move so that the many `in_check` questions of one node cost nothing.
    checkers: Bitboard,
    /// How many pieces stand on the board (the net's output bucket asks at every evaluation).
    piece_count: u8,
    history: Vec<StateInfo>,
}

/// A move that parses but is not legal here (or does not parse at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    Syntax(MoveParseError),
    Illegal(Move),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Syntax(e) => write!(f, "{e}"),
            IllegalMove::Illegal(m) => write!(f, "{m} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Room for a long game plus the deepest search line, so make never reallocates.
const HISTORY_RESERVE: usize = 1024;

/// Which of [`Position::group_keys`] a piece counts in.
#[inline(always)]
fn group(piece: Piece) -> usize {
    if piece.kind() == PieceKind::Pawn {
        0
    } else {
        1 + piece.color().index()
    }
}

impl Position {
    /// An empty board with Red to move: the base the FEN parser fills.
    pub(super) fn empty() -> Position {
        Position {
            board: [None; 90],
            pieces: [Bitboard::EMPTY; Piece::COUNT],
            colors: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            side: Color::Red,
            key: 0,
            group_keys: [0; 3],
            rule60: 0,
            fullmove: 1,
            checkers: Bitboard::EMPTY,
            piece_count: 0,
            history: Vec::with_capacity(HISTORY_RESERVE),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(super::START_FEN).unwrap_or_else(|_| unreachable!("the start FEN is valid"))
    }

    pub(super) fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.pieces[piece.index()].set(sq);
        self.colors[piece.color().index()].set(sq);
        self.occupied.set(sq);
        self.piece_count += 1;
        self.key ^= zobrist::piece(piece, sq);
        self.group_keys[group(piece)] ^= zobrist::piece(piece, sq);
    }

    pub(super) fn set_side(&mut self, side: Color) {
        if self.side != side {
            self.key ^= zobrist::side();
        }
        self.side = side;
    }

    /// Sets the counters and completes a position being set up (its last step).
    pub(super) fn finish_setup(&mut self, rule60: u16, fullmove: u32) {
        self.rule60 = rule60;
        self.fullmove = fullmove.max(1);
        self.checkers = self.compute_checkers();
    }

    // ---- queries -------------------------------------------------------------------

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    /// Every piece's bitboard, by [`Piece::index`].
    #[inline(always)]
    pub fn piece_boards(&self) -> &[Bitboard; Piece::COUNT] {
        &self.pieces
    }

    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist keys of the pawns (both colours), of Red's other pieces and of Black's.
    #[inline(always)]
    pub fn group_keys(&self) -> [u64; 3] {
        self.group_keys
    }

    /// Plies since the last capture (the 60-move rule draws at 120).
    #[inline(always)]
    pub fn rule60(&self) -> u16 {
        self.rule60
    }

    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The states of every move made since the position was set up, oldest first.
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// Forgets the move history (the current position becomes the root of the record).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The king of `color`. A valid position always has one; a missing king reads as a1.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).first().unwrap_or(Square::new(0, 0))
    }

    /// Pieces of `by` that attack `sq` as a king would be attacked: rooks (and the opposing
    /// king along an open file), cannons, horses and pawns, with occupancy `occ`. Lines and
    /// legs are looked up only for pieces that stand where they could attack from; a rook,
    /// cannon or horse not in `occ` never counts.
    #[inline(always)]
    pub fn king_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.line_attackers(sq, by, occ) | attacks::horses_attacking(sq, occ, self.pieces(by, PieceKind::Horse))
    }

    /// [`Self::king_attackers`] along `sq`'s rank and file: pawns, rooks, the king, cannons.
    #[inline(always)]
    fn line_attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let rooks = self.pieces(by, PieceKind::Rook) | self.pieces(by, PieceKind::King);
        (attacks::pawn_attackers(by, sq) & self.pieces(by, PieceKind::Pawn))
            | attacks::sliders_attacking(sq, occ, rooks, self.pieces(by, PieceKind::Cannon))
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        self.king_attackers(self.king_square(us), !us, self.occupied)
    }

    /// How many pieces stand on the board: `occupied().count()`, kept by every move.
    #[inline(always)]
    pub fn piece_count(&self) -> u32 {
        self.piece_count as u32
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Whether the king of `color` could be captured (used to validate positions).
    pub fn king_attacked(&self, color: Color) -> bool {
        self.king_attackers(self.king_square(color), !color, self.occupied)
            .any()
    }

    /// Where the piece on `sq` could move (its pseudo-legal targets, own pieces excluded).
    pub fn piece_targets(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(p) => super::movegen::targets(self, p, sq) & !self.color_bb(p.color()),
            None => Bitboard::EMPTY,
        }
    }

    // ---- moves ---------------------------------------------------------------------

    /// Plays a legal move.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let captured = self.board[to.index()];
        self.history.push(StateInfo {
            key: self.key,
            mv: Some(mv),
            captured,
            rule60: self.rule60,
            checkers: self.checkers,
        });
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "make_move {mv} from an empty point");
            return;
        };
        if let Some(c) = captured {
            self.pieces[c.index()].clear(to);
            self.colors[c.color().index()].clear(to);
            self.key ^= zobrist::piece(c, to);
            self.group_keys[group(c)] ^= zobrist::piece(c, to);
            self.piece_count -= 1;
            self.rule60 = 0;
        } else {
            self.rule60 = self.rule60.saturating_add(1);
        }
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.pieces[piece.index()] ^= both;
        self.colors[piece.color().index()] ^= both;
        // Updated in place, not as the union of the colours just written: reading a whole
        // `u128` back from two 8-byte stores stalls store forwarding.
        self.occupied = (self.occupied ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        debug_assert_eq!(self.occupied, self.colors[0] | self.colors[1]);
        let step = zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
        self.key ^= step ^ zobrist::side();
        self.group_keys[group(piece)] ^= step;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        // The side now to move was not in check before the move (its king would have been
        // capturable), so only a move that leaves or reaches a point of that king's check
        // zone can check it.
        // Pawns, rooks, cannons and the facing king check along the king's lines, horses
        // from off them; only the kinds whose part of the zone the move touched are looked up.
        let ksq = self.king_square(self.side);
        let zone = attacks::check_zone(ksq) & both;
        self.checkers = if zone.any() {
            let lines = attacks::rook_lines(ksq);
            let mut checkers = Bitboard::EMPTY;
            if (zone & lines).any() {
                checkers |= self.line_attackers(ksq, !self.side, self.occupied);
            }
            if (zone & !lines).any() {
                checkers |= attacks::horses_attacking(ksq, self.occupied, self.pieces(!self.side, PieceKind::Horse));
            }
            checkers
        } else {
            Bitboard::EMPTY
        };
        debug_assert_eq!(self.checkers, self.compute_checkers());
    }

    /// The key the position will have after `mv` (a pseudo-legal move of the side to move).
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let mut k = self.key ^ zobrist::side();
        if let Some(p) = self.board[from.index()] {
            k ^= zobrist::piece(p, from) ^ zobrist::piece(p, to);
        }
        if let Some(c) = self.board[to.index()] {
            k ^= zobrist::piece(c, to);
        }
        k
    }

    /// Takes back the last `make_move`.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(st) = self.history.pop() else { return };
        let Some(mv) = st.mv else {
            debug_assert!(false, "unmake_move after a null move");
            return;
        };
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board[to.index()] else { return };
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = st.captured;
        self.pieces[piece.index()] ^= both;
        self.colors[piece.color().index()] ^= both;
        self.group_keys[group(piece)] ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
        if let Some(c) = st.captured {
            self.pieces[c.index()].set(to);
            self.colors[c.color().index()].set(to);
            self.group_keys[group(c)] ^= zobrist::piece(c, to);
            self.piece_count += 1;
            self.occupied.set(from);
        } else {
            self.occupied ^= both;
        }
        debug_assert_eq!(self.occupied, self.colors[0] | self.colors[1]);
        self.key = st.key;
        self.rule60 = st.rule60;
        self.checkers = st.checkers;
    }

    /// Passes the turn (for null-move pruning); never when in check.
    pub fn make_null(&mut self) {
        self.history.push(StateInfo {
            key: self.key,
            mv: None,
            captured: None,
            rule60: self.rule60,
            checkers: self.checkers,
        });
        self.key ^= zobrist::side();
        self.rule60 = self.rule60.saturating_add(1);
        self.side = !self.side;
        self.checkers = self.compute_checkers();
    }

    pub fn unmake_null(&mut self) {
        if let Some(st) = self.history.pop() {
            self.side = !self.side;
            self.key = st.key;
            self.rule60 = st.rule60;
            self.checkers = st.checkers;
        }
    }

    /// Parses move text and checks it against the legal moves of this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let mv = Move::parse(text).map_err(IllegalMove::Syntax)?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(IllegalMove::Illegal(mv))
        }
    }

    /// Whether the legal move `mv` would give check, worked out without playing it: the
    /// enemy king's attackers are recomputed with the moved piece on its new point and the
    /// occupancy after the move (so discovered checks and new cannon screens count too).
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let us = self.side;
        let ksq = self.king_square(!us);
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        if !(attacks::check_zone(ksq) & moved).any() {
            // Most moves neither leave nor reach a point that matters: no check, cheaply.
            return false;
        }
        let occ = (self.occupied & !Bitboard::from_square(from)) | Bitboard::from_square(to);
        let ours = |kind: PieceKind| {
            let bb = self.pieces(us, kind);
            if piece.kind() == kind {
                bb ^ moved
            } else {
                bb
            }
        };
        (attacks::rook(ksq, occ) & ours(PieceKind::Rook)).any()
            || (attacks::cannon_captures(ksq, occ) & ours(PieceKind::Cannon)).any()
            || (attacks::horse_attackers(ksq, occ) & ours(PieceKind::Horse)).any()
            || (attacks::pawn_attackers(us, ksq) & ours(PieceKind::Pawn)).any()
    }

    /// The group keys recomputed from scratch (for self-checks against the incremental ones).
    pub fn compute_group_keys(&self) -> [u64; 3] {
        let mut keys = [0; 3];
        for sq in self.occupied {
            if let Some(p) = self.piece_at(sq) {
                keys[group(p)] ^= zobrist::piece(p, sq);
            }
        }
        keys
    }

    /// The key recomputed from scratch (for self-checks against the incremental key): the
    /// groups partition the pieces, so it is their keys together with the side to move.
    pub fn compute_key(&self) -> u64 {
        let side = if self.side == Color::Black { zobrist::side() } else { 0 };
        self.compute_group_keys().iter().fold(side, |key, g| key ^ g)
    }

    /// The position with colours swapped: each piece changes colour and moves to the
    /// point seen from the other side; the other side is to move.
    pub fn flipped(&self) -> Position {
        let mut p = Position::empty();
        for sq in self.occupied {
            if let Some(pc) = self.piece_at(sq) {
                p.put(Piece::new(!pc.color(), pc.kind()), sq.flip_rank());
            }
        }
        p.set_side(!self.side);
        p.finish_setup(self.rule60, self.fullmove);
        p
    }

    /// The position mirrored left to right.
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty();
        for sq in self.occupied {
            if let Some(pc) = self.piece_at(sq) {
                p.put(pc, sq.mirror_file());
            }
        }
        p.set_side(self.side);
        p.finish_setup(self.rule60, self.fullmove);
        p
    }

    /// Same pieces, side and counters (history ignored).
    pub fn same_as(&self, other: &Position) -> bool {
        self.board == other.board
            && self.pieces == other.pieces
            && self.colors == other.colors
            && self.occupied == other.occupied
            && self.side == other.side
            && self.key == other.key
            && self.rule60 == other.rule60
            && self.fullmove == other.fullmove
            && self.checkers == other.checkers
            && self.piece_count == other.piece_count
    }

    /// A text drawing of the board, rank 9 at the top.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for rank in (0..10u8).rev() {
            s.push_str(&format!(" {rank} "));
            for file in 0..9u8 {
                let c = self.piece_at(Square::new(file, rank)).map_or('.', |p| p.letter());
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
            if rank == 5 {
                s.push_str("    ~~~~~~~~~~~~~~~~~\n");
            }
        }
        s.push_str("    a b c d e f g h i\n");
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_after_is_the_key_the_move_makes() {
        let mut pos = Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3")
            .expect("valid FEN");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in moves.iter() {
                let key = pos.key_after(mv);
                pos.make_move(mv);
                assert_eq!(key, pos.key(), "{mv}");
                assert_eq!(key, pos.compute_key(), "{mv}");
                assert_eq!(pos.group_keys(), pos.compute_group_keys(), "{mv}");
                pos.unmake_move();
                assert_eq!(pos.group_keys(), pos.compute_group_keys(), "{mv} unmade");
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make_move(moves.get((seed % moves.len() as u64) as usize));
        }
    }
}

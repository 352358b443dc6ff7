//! Legal move generation.
//!
//! Out of check, a move can only expose its own king in two ways: the moving piece was a
//! blocker (the lone piece between the king and a rook or the facing king, one of two pieces
//! between the king and a cannon, or on the leg of a horse aimed at the king), or it steps
//! onto an open line between the king and a cannon and so becomes a screen. Blockers and
//! king moves are tested one by one; every other piece's targets are legal as a set, which
//! lets perft count them with one popcount. In check, every move that could stop the check
//! (see `evasion_targets`) is tested.

use super::{attacks, CheckInfo, Position};
use crate::core::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    All,
    /// Moves that capture.
    Captures,
    /// Moves onto empty points.
    Quiets,
    /// Moves onto empty points that give check: the `Quiets` that
    /// [`Position::gives_check`] accepts, in the same order, found without listing the rest.
    QuietChecks,
}

/// The pseudo-legal targets of `piece` on `sq`, own pieces not yet removed.
#[inline(always)]
pub(super) fn targets(pos: &Position, piece: Piece, sq: Square) -> Bitboard {
    let occ = pos.occupied();
    match piece.kind() {
        PieceKind::King => attacks::king(sq),
        PieceKind::Advisor => attacks::advisor(sq),
        PieceKind::Elephant => attacks::elephant(sq, occ),
        PieceKind::Horse => attacks::horse(sq, occ),
        PieceKind::Rook => attacks::rook(sq, occ),
        PieceKind::Cannon => (attacks::rook(sq, occ) & !occ) | attacks::cannon_captures(sq, occ),
        PieceKind::Pawn => attacks::pawn(piece.color(), sq),
    }
}

/// Where generated moves go: a list, or a counter for perft.
trait Sink {
    /// All of `to` are legal moves from `from`.
    fn add_set(&mut self, from: Square, to: Bitboard);
    fn add(&mut self, from: Square, to: Square);
}

impl Sink for MoveList {
    #[inline(always)]
    fn add_set(&mut self, from: Square, to: Bitboard) {
        to.into_iter().for_each(|t| self.push(Move::new(from, t)));
    }
    #[inline(always)]
    fn add(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }
}

struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn add_set(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }
    #[inline(always)]
    fn add(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }
}

const NON_KING: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Horse,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

impl Position {
    /// What guards the king on `ksq` from `by`'s pieces: the pieces (of either colour) whose
    /// departure would open an attack on it — the lone piece between it and one of `sliders`
    /// (rook-like attackers), either of the two between it and a cannon, a horse's leg — and
    /// the empty points where a piece would become a cannon's only screen. Shared by legality
    /// (our king, `by` the enemy) and the check table (the enemy king, `by` us).
    #[inline(always)]
    pub(super) fn king_guards(&self, by: Color, ksq: Square, sliders: Bitboard) -> (Bitboard, Bitboard) {
        let occ = self.occupied();
        let lines = attacks::rook_lines(ksq);
        let mut blockers = Bitboard::EMPTY;
        let mut screens = Bitboard::EMPTY;
        for s in sliders & lines {
            let b = attacks::between(ksq, s) & occ;
            if b.exactly_one() {
                blockers |= b;
            }
        }
        for s in self.pieces(by, PieceKind::Cannon) & lines {
            let line = attacks::between(ksq, s);
            let b = line & occ;
            if b.is_empty() {
                screens |= line;
            } else if b.exactly_two() {
                blockers |= b;
            }
        }
        let horses = self.pieces(by, PieceKind::Horse);
        if horses.any() {
            for (leg, from) in attacks::horse_attack_legs(ksq) {
                if (from & horses).any() {
                    blockers |= leg & occ;
                }
            }
        }
        (blockers, screens)
    }

    /// Own pieces whose departure could expose the king, and empty points where a piece of
    /// ours would become a cannon's screen against our king (the enemy king counts as a rook:
    /// the kings may not face each other).
    #[inline(always)]
    fn blockers_and_screens(&self, us: Color, ksq: Square) -> (Bitboard, Bitboard) {
        let them = !us;
        let sliders = self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::King);
        let (blockers, screens) = self.king_guards(them, ksq, sliders);
        (blockers & self.color_bb(us), screens)
    }

    /// In check: the points where a piece other than the king may stop the check (capture
    /// the checker, or stand between it and the king, or on its horse's leg), and our pieces
    /// not bound to them (a checking cannon's screen, whose departure ends the check). Every
    /// move is still tested; this only spares testing moves that cannot help. Against two
    /// checkers nothing is ruled out (one piece between can stop a rook and the cannon
    /// behind it).
    fn evasion_targets(&self, us: Color, ksq: Square) -> (Bitboard, Bitboard) {
        let checkers = self.checkers();
        let Some(c) = checkers.first().filter(|_| !checkers.more_than_one()) else {
            return (Bitboard::FULL, self.color_bb(us));
        };
        let at = Bitboard::from_square(c);
        match self.piece_at(c).map(|p| p.kind()) {
            Some(PieceKind::Rook) => (at | attacks::between(ksq, c), Bitboard::EMPTY),
            Some(PieceKind::Cannon) => {
                let line = attacks::between(ksq, c);
                (at | line, line & self.color_bb(us))
            }
            Some(PieceKind::Horse) => {
                let mut leg = Bitboard::EMPTY;
                for (l, from) in attacks::horse_attack_legs(ksq) {
                    if from.has(c) {
                        leg |= l;
                    }
                }
                (at | leg, Bitboard::EMPTY)
            }
            Some(PieceKind::Pawn) => (at, Bitboard::EMPTY),
            _ => (Bitboard::FULL, self.color_bb(us)),
        }
    }

    /// Whether moving our piece from `from` to `to` leaves our king safe. The move must be
    /// pseudo-legal for the side to move.
    #[inline(always)]
    fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let to_bb = Bitboard::from_square(to);
        let ksq = if self.pieces(us, PieceKind::King).has(from) {
            to
        } else {
            self.king_square(us)
        };
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | to_bb;
        (self.king_attackers(ksq, them, occ) & !to_bb).is_empty()
    }

    /// Generates the legal moves of `kind` into `sink`; with `checks` (for
    /// [`GenKind::QuietChecks`]), only those that give check.
    #[inline(always)]
    fn generate_into<S: Sink>(&self, kind: GenKind, checks: Option<&CheckInfo>, sink: &mut S) {
        if self.in_check() {
            self.generate_with::<S, true>(kind, checks, sink);
        } else {
            self.generate_with::<S, false>(kind, checks, sink);
        }
    }

    /// [`Self::generate_into`] in check (`IN_CHECK`) or not, each with only its own tests.
    #[inline(always)]
    fn generate_with<S: Sink, const IN_CHECK: bool>(&self, kind: GenKind, checks: Option<&CheckInfo>, sink: &mut S) {
        let us = self.side_to_move();
        let own = self.color_bb(us);
        let mask = match kind {
            GenKind::All => !own,
            GenKind::Captures => self.color_bb(!us),
            GenKind::Quiets | GenKind::QuietChecks => !self.occupied(),
        };
        let ksq = self.king_square(us);
        let (blockers, screens) = if IN_CHECK {
            (own, Bitboard::EMPTY) // every move is tested
        } else {
            self.blockers_and_screens(us, ksq)
        };
        // In check, a piece other than the king can only help by moving where the check
        // can be stopped, unless it is the checking cannon's screen.
        let (evasions, free) = if IN_CHECK {
            self.evasion_targets(us, ksq)
        } else {
            (Bitboard::FULL, own)
        };
        let any_blocker = IN_CHECK || blockers.any();
        // Which moves to add: all, or (for checks) those in a mask, or each one that
        // passes the check test.
        let select = |piece: Piece, from: Square, to: Bitboard| match checks {
            None => (to, false),
            Some(info) => match info.quiet_check_targets(piece.kind(), from) {
                Some(m) => (to & m, false),
                None => (to, true),
            },
        };
        for kind in NON_KING {
            let piece = Piece::new(us, kind);
            for from in self.pieces(us, kind) {
                let mut to = targets(self, piece, from) & mask;
                if IN_CHECK && !free.has(from) {
                    to &= evasions;
                }
                let (to, test) = select(piece, from, to);
                let blocker = any_blocker && blockers.has(from);
                if blocker || test {
                    for t in to {
                        let legal = if blocker {
                            self.leaves_king_safe(from, t)
                        } else {
                            !screens.has(t)
                        };
                        if legal && (!test || checks.is_some_and(|c| c.gives_check(self, Move::new(from, t)))) {
                            sink.add(from, t);
                        }
                    }
                } else {
                    sink.add_set(from, to & !screens);
                }
            }
        }
        let (king_to, test) = select(Piece::new(us, PieceKind::King), ksq, attacks::king(ksq) & mask);
        for t in king_to {
            if self.leaves_king_safe(ksq, t)
                && (!test || checks.is_some_and(|c| c.gives_check(self, Move::new(ksq, t))))
            {
                sink.add(ksq, t);
            }
        }
    }

    /// Appends the legal moves of `kind` to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        if kind == GenKind::QuietChecks {
            self.generate_into(kind, Some(&CheckInfo::new(self)), list);
        } else {
            self.generate_into(kind, None, list);
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(GenKind::All, None, &mut list);
        list
    }

    /// The number of legal moves, without listing them (perft's last ply).
    pub fn count_legal(&self) -> usize {
        let mut c = Counter(0);
        self.generate_into(GenKind::All, None, &mut c);
        c.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Whether `mv` is legal here: a piece of the side to move on its from-point, a target
    /// it can reach, and the king safe afterwards. Any move value is accepted (hash moves).
    pub fn is_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        match self.piece_at(from) {
            Some(p) if p.color() == self.side_to_move() => {
                (targets(self, p, from) & !self.color_bb(p.color())).has(to) && self.leaves_king_safe(from, to)
            }
            _ => false,
        }
    }

    /// Whether `mv` captures.
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.piece_at(mv.to()).is_some()
    }
}

//! Replaying a stretch of the game backwards to classify it: which moves gave check and which
//! pieces each side chased. Works on a small copy of the board that lives on the stack, so a
//! repetition found in the search tree is judged without touching the heap.

use crate::board::{attacks, Position};
use crate::core::{Bitboard, Color, Piece, PieceKind, Square};

/// The board alone (no history), with a stable identity for every piece so that a piece can be
/// followed while it moves around the cycle.
#[derive(Clone, Copy)]
pub(super) struct Board {
    squares: [Option<Piece>; 90],
    pieces: [Bitboard; Piece::COUNT],
    colors: [Bitboard; 2],
    occ: Bitboard,
    /// Identity of the piece on each point (0..32), valid where a piece stands.
    ids: [u8; 90],
}

/// Attackers that chase: kings and pawns never do.
const CHASERS: [PieceKind; 5] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

impl Board {
    pub(super) fn new(pos: &Position) -> Board {
        let mut b = Board {
            squares: [None; 90],
            pieces: [Bitboard::EMPTY; Piece::COUNT],
            colors: [Bitboard::EMPTY; 2],
            occ: Bitboard::EMPTY,
            ids: [0; 90],
        };
        let mut next = 0u8;
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                b.put(p, sq);
                // A legal position has at most 32 pieces; ids wrap harmlessly beyond that.
                b.ids[sq.index()] = next % 64;
                next = next.wrapping_add(1);
            }
        }
        b
    }

    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        self.squares[sq.index()] = Some(p);
        self.pieces[p.index()].set(sq);
        self.colors[p.color().index()].set(sq);
        self.occ.set(sq);
    }

    #[inline]
    fn remove(&mut self, p: Piece, sq: Square) {
        self.squares[sq.index()] = None;
        self.pieces[p.index()].clear(sq);
        self.colors[p.color().index()].clear(sq);
        self.occ.clear(sq);
    }

    #[inline]
    fn bb(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    #[inline]
    pub(super) fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Moves the piece on `from` to `to`; returns what stood on `to`.
    #[inline]
    fn play(&mut self, from: Square, to: Square) -> Option<Piece> {
        let captured = self.squares[to.index()];
        if let Some(c) = captured {
            self.remove(c, to);
        }
        if let Some(p) = self.squares[from.index()] {
            self.remove(p, from);
            self.put(p, to);
        }
        captured
    }

    /// Takes back `play(from, to)` that captured `captured`.
    #[inline]
    fn unplay(&mut self, from: Square, to: Square, captured: Option<Piece>) {
        if let Some(p) = self.squares[to.index()] {
            self.remove(p, to);
            self.put(p, from);
        }
        if let Some(c) = captured {
            self.put(c, to);
        }
    }

    /// Takes back a move of the game record, carrying the piece's identity with it.
    pub(super) fn step_back(&mut self, from: Square, to: Square, captured: Option<Piece>, fresh_id: u8) {
        self.unplay(from, to, captured);
        self.ids[from.index()] = self.ids[to.index()];
        if captured.is_some() {
            self.ids[to.index()] = fresh_id;
        }
    }

    /// Whether the king of `color` could be captured (including by the facing king).
    #[inline]
    pub(super) fn king_attacked(&self, color: Color) -> bool {
        let Some(ksq) = self.bb(color, PieceKind::King).first() else {
            return false;
        };
        let them = !color;
        let occ = self.occ;
        let rooks = self.bb(them, PieceKind::Rook) | self.bb(them, PieceKind::King);
        (attacks::rook(ksq, occ) & rooks).any()
            || (attacks::cannon_captures(ksq, occ) & self.bb(them, PieceKind::Cannon)).any()
            || (attacks::horse_attackers(ksq, occ) & self.bb(them, PieceKind::Horse)).any()
            || (attacks::pawn_attackers(them, ksq) & self.bb(them, PieceKind::Pawn)).any()
    }

    /// The points the piece `p` on `sq` could capture on (own pieces included).
    #[inline]
    fn captures_from(&self, p: Piece, sq: Square) -> Bitboard {
        let occ = self.occ;
        match p.kind() {
            PieceKind::King => attacks::king(sq),
            PieceKind::Advisor => attacks::advisor(sq),
            PieceKind::Elephant => attacks::elephant(sq, occ),
            PieceKind::Horse => attacks::horse(sq, occ),
            PieceKind::Rook => attacks::rook(sq, occ),
            PieceKind::Cannon => attacks::cannon_captures(sq, occ),
            PieceKind::Pawn => attacks::pawn(p.color(), sq),
        }
    }

    /// Every piece of `by` that could capture on `sq` (ignoring its own king's safety).
    #[inline]
    fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        let occ = self.occ;
        (attacks::rook(sq, occ) & self.bb(by, PieceKind::Rook))
            | (attacks::cannon_captures(sq, occ) & self.bb(by, PieceKind::Cannon))
            | (attacks::horse_attackers(sq, occ) & self.bb(by, PieceKind::Horse))
            | (attacks::pawn_attackers(by, sq) & self.bb(by, PieceKind::Pawn))
            | (attacks::elephant(sq, occ) & self.bb(by, PieceKind::Elephant))
            | (attacks::advisor(sq) & self.bb(by, PieceKind::Advisor))
            | (attacks::king(sq) & self.bb(by, PieceKind::King))
    }

    /// Whether the owner of the piece on `from` may legally move it to `to` (a point it
    /// reaches): its own king is not left capturable.
    #[inline]
    fn legal(&mut self, from: Square, to: Square) -> bool {
        let Some(p) = self.piece_at(from) else { return false };
        let captured = self.play(from, to);
        let ok = !self.king_attacked(p.color());
        self.unplay(from, to, captured);
        ok
    }

    /// Whether the piece on `from` can legally capture on `to`.
    #[inline]
    fn can_capture(&mut self, from: Square, to: Square) -> bool {
        match self.piece_at(from) {
            Some(p) => self.captures_from(p, from).has(to) && self.legal(from, to),
            None => false,
        }
    }

    /// Whether, after the piece on `from` captures on `to`, the owner of the captured piece
    /// can legally take back on `to`; if not, whether some piece of it still reaches `to` but
    /// may not take (pinned, or the capture uncovered a check): a fake defender. Because the
    /// capture is actually played, protection that depends on the capturing piece (a cannon
    /// using it as a screen, a king that would then face the other king) is judged right.
    fn protection(&mut self, from: Square, to: Square) -> Protection {
        let Some(victim) = self.piece_at(to) else {
            return Protection::None;
        };
        let owner = victim.color();
        let captured = self.play(from, to);
        let reaching = self.attackers(to, owner);
        let mut result = if reaching.any() {
            Protection::Fake
        } else {
            Protection::None
        };
        for s in reaching {
            if self.legal(s, to) {
                result = Protection::Real;
                break;
            }
        }
        self.unplay(from, to, captured);
        result
    }

    /// What `c` threatens here, judged as if `c` were to move: for every piece of the other
    /// side (by identity), which of `c`'s rooks, horses, cannons, advisors and elephants can
    /// legally capture it, and which of those captures are chases — the piece is not the king
    /// nor a pawn on its own side of the river, and it is worth more than the attacker or
    /// unprotected (rule text in the module docs).
    pub(super) fn threats(&mut self, c: Color, out: &mut Threats) {
        *out = Threats::default();
        let them = !c;
        let mut crossed_pawns = Bitboard::EMPTY;
        for sq in self.bb(them, PieceKind::Pawn) {
            if sq.across_river(them) {
                crossed_pawns.set(sq);
            }
        }
        let victims = (self.colors[them.index()] & !self.bb(them, PieceKind::King) & !self.bb(them, PieceKind::Pawn))
            | crossed_pawns;
        for kind in CHASERS {
            let attacker = Piece::new(c, kind);
            for from in self.bb(c, kind) {
                let a = 1u64 << self.ids[from.index()];
                for to in self.captures_from(attacker, from) & victims {
                    let v = self.ids[to.index()] as usize;
                    // A pinned attacker can legally take only what keeps its king safe,
                    // in practice the piece pinning it.
                    if !self.legal(from, to) {
                        continue;
                    }
                    out.attacked_by[v] |= a;
                    let Some(victim) = self.piece_at(to) else { continue };
                    let worth_more = match kind {
                        PieceKind::Horse | PieceKind::Cannon => victim.kind() == PieceKind::Rook,
                        PieceKind::Advisor | PieceKind::Elephant => {
                            matches!(victim.kind(), PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon)
                        }
                        _ => false,
                    };
                    if worth_more {
                        out.chased_by[v] |= a;
                        out.chased |= 1 << v;
                        continue;
                    }
                    let protection = self.protection(from, to);
                    if protection == Protection::Real {
                        continue;
                    }
                    // Two pieces of one kind attacking each other threaten each other alike:
                    // not a chase, unless the victim cannot legally take back.
                    if victim.kind() == kind && self.can_capture(to, from) {
                        continue;
                    }
                    out.chased_by[v] |= a;
                    out.chased |= 1 << v;
                    if protection == Protection::Fake {
                        out.fake_defended |= 1 << v;
                    }
                }
            }
        }
    }
}

/// Whether a piece would be protected if captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protection {
    /// Its owner can legally take back.
    Real,
    /// Some piece of its owner reaches the point but may not legally take back.
    Fake,
    /// Nothing of its owner reaches the point.
    None,
}

/// The threats of one side in one position, indexed by piece identity.
#[derive(Clone, Copy)]
pub(super) struct Threats {
    /// Victims chased (bit per identity).
    pub(super) chased: u64,
    /// Chased victims whose only defenders reach them but may not legally take back.
    pub(super) fake_defended: u64,
    /// Per victim: the attackers (bit per identity) whose capture of it is a chase.
    pub(super) chased_by: [u64; 64],
    /// Per victim: every attacker that could legally capture it.
    pub(super) attacked_by: [u64; 64],
}

impl Default for Threats {
    fn default() -> Threats {
        Threats {
            chased: 0,
            fake_defended: 0,
            chased_by: [0; 64],
            attacked_by: [0; 64],
        }
    }
}

/// The pieces newly chased by a move, given the mover's threats before and after it.
///
/// A piece is newly chased when it is chased after the move but was not before, and either
/// one of its chasers did not attack it before (a new or discovered attack), or its
/// defenders still reach it but may no longer legally take back (a new pin or a discovered
/// check). A piece that merely lost a defender's line or cannon screen to the move, while
/// the same attackers keep attacking it, is not newly chased (Fairy-Stockfish's reading).
fn newly_chased(before: &Threats, after: &Threats) -> u64 {
    let mut new = 0u64;
    let mut candidates = after.chased & !before.chased;
    while candidates != 0 {
        let v = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        if after.chased_by[v] & !before.attacked_by[v] != 0 || after.fake_defended & (1 << v) != 0 {
            new |= 1 << v;
        }
    }
    new
}

/// What a backward walk over a cycle found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CycleFacts {
    /// Per colour: every one of its moves in the cycle gave check.
    pub(super) always_checked: [bool; 2],
    /// Per colour: some piece of the other side was newly chased by every one of its moves.
    pub(super) always_chased: [bool; 2],
}

/// Walks the last `span` plies of `pos` backwards (all must be real moves) and records
/// which side checked with every move and which side chased one same piece with every move.
pub(super) fn classify(pos: &Position, span: usize) -> CycleFacts {
    let hist = pos.history();
    let span = span.min(hist.len());
    let mut board = Board::new(pos);
    let mut checks = [true; 2];
    let mut chase = [u64::MAX; 2];
    let mut moved = [false; 2];
    let mut fresh_id = 32u8;
    let mut after = Threats::default();
    let mut before = Threats::default();
    for st in hist[hist.len() - span..].iter().rev() {
        let Some(mv) = st.mv else { break };
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = board.piece_at(to) else { break };
        let mover = piece.color();
        let m = mover.index();
        moved[m] = true;
        if !board.king_attacked(!mover) {
            checks[m] = false;
        }
        let want = chase[m] != 0;
        if want {
            board.threats(mover, &mut after);
        }
        board.step_back(from, to, st.captured, fresh_id % 64);
        if st.captured.is_some() {
            fresh_id = fresh_id.wrapping_add(1);
        }
        if want {
            board.threats(mover, &mut before);
            chase[m] &= newly_chased(&before, &after);
        }
        if chase == [0, 0] && !checks[0] && !checks[1] {
            break; // nothing left to find: a plain repetition
        }
    }
    CycleFacts {
        always_checked: [checks[0] && moved[0], checks[1] && moved[1]],
        always_chased: [chase[0] != 0 && moved[0], chase[1] != 0 && moved[1]],
    }
}

/// How many of the last `span` plies were checks given by each side.
pub(super) fn count_checks(pos: &Position, span: usize) -> [u32; 2] {
    let hist = pos.history();
    let span = span.min(hist.len());
    let mut board = Board::new(pos);
    let mut checks = [0u32; 2];
    for st in hist[hist.len() - span..].iter().rev() {
        let Some(mv) = st.mv else { break };
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = board.piece_at(to) else { break };
        let mover = piece.color();
        if board.king_attacked(!mover) {
            checks[mover.index()] += 1;
        }
        board.step_back(from, to, st.captured, 0);
    }
    checks
}

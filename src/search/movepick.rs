//! Move ordering: a staged picker that hands out the hash move first, then captures that
//! win material (by victim, then capture history), the killer moves, the countermove, the
//! other quiet moves by history, and the losing captures last. Generating moves in stages
//! saves work when an early move already refutes the position.

use super::see::{captured_value, see_ge, SEE_VALUE};
use crate::board::{CheckInfo, GenKind, Position};
use crate::core::{Move, MoveList, Piece, MAX_MOVES};
use std::mem::MaybeUninit;

/// History scores stay within this magnitude (the "gravity" update keeps them bounded).
pub const HISTORY_MAX: i32 = 16_384;

/// A move's context for continuation history: the moving piece and its to-point, as one
/// index below `PIECE_TO`.
pub type PieceTo = usize;

/// How many `PieceTo` indices there are.
pub const PIECE_TO: usize = Piece::COUNT * 90;

/// The `PieceTo` index of `mv` played by `piece`.
#[inline]
pub fn piece_to(piece: Piece, mv: Move) -> PieceTo {
    piece.index() * 90 + mv.to().index()
}

/// The moves one, two and four plies back, as continuation-history contexts (`None` after a
/// null move or before the root).
pub type Continuation = [Option<PieceTo>; 3];

/// What the search learns about moves, kept across the searches of one game.
pub struct Histories {
    /// Butterfly history by side, from-point and to-point.
    pub main: [[[i16; 90]; 90]; 2],
    /// The quiet move that refuted a move, by the moving piece and its to-point.
    pub counter: [[Option<Move>; 90]; Piece::COUNT],
    /// Continuation history: how well a quiet move (piece and to-point) answered an earlier
    /// move (piece and to-point), `PIECE_TO × PIECE_TO` entries. One table serves both the
    /// previous move and the one before it, since both describe a follow-up plan.
    cont: Box<[i16]>,
    /// Capture history: how well a capture (piece and to-point) of a kind of piece did.
    capture: [[i16; 7]; PIECE_TO],
}

/// `h += bonus - h * |bonus| / MAX`: moves an entry toward `bonus`'s sign, the more slowly
/// the closer it already is to the limit ("gravity"), so entries stay bounded.
#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *h as i32 + b - *h as i32 * b.abs() / HISTORY_MAX;
    *h = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

impl Histories {
    /// Empty tables, on the heap (they are large).
    pub fn boxed() -> Box<Histories> {
        Box::new(Histories {
            main: [[[0; 90]; 90]; 2],
            counter: [[None; 90]; Piece::COUNT],
            cont: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            capture: [[0; 7]; PIECE_TO],
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.main = [[[0; 90]; 90]; 2];
        self.counter = [[None; 90]; Piece::COUNT];
        self.cont.fill(0);
        self.capture = [[0; 7]; PIECE_TO];
    }

    /// The capture-history indices of the capture `mv` of the position to move: the mover's
    /// `PieceTo` and the kind it takes (`None` if `mv` captures nothing).
    #[inline]
    fn capture_index(pos: &Position, mv: Move) -> Option<(PieceTo, usize)> {
        let (p, v) = (pos.piece_at(mv.from())?, pos.piece_at(mv.to())?);
        Some((piece_to(p, mv), v.kind().index()))
    }

    /// Rewards or punishes the capture `mv` of the position to move (before it is made).
    #[inline]
    pub fn update_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        if let Some((pt, v)) = Self::capture_index(pos, mv) {
            gravity(&mut self.capture[pt][v], bonus);
        }
    }

    /// The capture-history score of the capture `mv` of the position to move.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        Self::capture_index(pos, mv).map_or(0, |(pt, v)| self.capture[pt][v] as i32)
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move `mv` by `piece` in the context `ctx`.
    #[inline]
    pub fn update(&mut self, side: usize, piece: Piece, mv: Move, ctx: Continuation, bonus: i32) {
        gravity(&mut self.main[side][mv.from().index()][mv.to().index()], bonus);
        self.update_cont(piece_to(piece, mv), ctx, bonus);
    }

    /// Rewards or punishes the move `cur` in the continuation histories of `ctx` alone.
    #[inline]
    pub fn update_cont(&mut self, cur: PieceTo, ctx: Continuation, bonus: i32) {
        for prev in ctx.into_iter().flatten() {
            gravity(&mut self.cont[prev * PIECE_TO + cur], bonus);
        }
    }

    /// The butterfly history of a quiet move.
    #[inline]
    pub fn main_score(&self, side: usize, mv: Move) -> i32 {
        self.main[side][mv.from().index()][mv.to().index()] as i32
    }

    /// The continuation histories of a quiet move by `piece`, summed over the contexts.
    #[inline]
    pub fn cont_score(&self, piece: Piece, mv: Move, ctx: Continuation) -> i32 {
        let cur = piece_to(piece, mv);
        ctx.into_iter()
            .flatten()
            .map(|prev| self.cont[prev * PIECE_TO + cur] as i32)
            .sum()
    }

    /// The ordering score of a quiet move: butterfly plus continuation histories.
    #[inline]
    pub fn score(&self, side: usize, piece: Piece, mv: Move, ctx: Continuation) -> i32 {
        self.main_score(side, mv) + self.cont_score(piece, mv, ctx)
    }

    /// `score` for a move of the position to move (its piece looked up on the board).
    #[inline]
    fn score_in(&self, pos: &Position, mv: Move, ctx: Continuation) -> i32 {
        match pos.piece_at(mv.from()) {
            Some(p) => self.score(pos.side_to_move().index(), p, mv, ctx),
            None => 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    QsGenCaptures,
    QsCaptures,
    Done,
}

/// Hands out the legal moves of one node in a good order, generating them lazily.
pub struct MovePicker {
    stage: Stage,
    /// Quiescence: only captures follow the hash move.
    qs: bool,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    ctx: Continuation,
    list: MoveList,
    /// The ordering scores of `list`'s moves: the first `scored` are written (every list
    /// that `pick_best` hands out is scored whole), the rest uninitialised.
    scores: [MaybeUninit<i32>; MAX_MOVES],
    scored: usize,
    cur: usize,
    bad: MoveList,
    bad_cur: usize,
    skip_quiets: bool,
    /// Which moves check, worked out when first asked.
    checks: Option<CheckInfo>,
}

impl MovePicker {
    /// A picker for a main-search node. `tt_move` must already be validated as legal.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        ctx: Continuation,
    ) -> MovePicker {
        let stage = if pos.in_check() {
            Stage::GenEvasions
        } else if tt_move.is_some() {
            Stage::TtMove
        } else {
            Stage::GenCaptures
        };
        MovePicker {
            stage,
            qs: false,
            tt_move,
            killers,
            counter,
            ctx,
            list: MoveList::new(),
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
            scored: 0,
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
            checks: None,
        }
    }

    /// A picker for quiescence: every evasion in check, otherwise the captures.
    pub fn new_qsearch(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let in_check = pos.in_check();
        let tt_move = tt_move.filter(|&m| in_check || pos.is_capture(m));
        let mut p = MovePicker::new(pos, tt_move, [None; 2], None, [None; 3]);
        p.qs = true;
        if !in_check && tt_move.is_none() {
            p.stage = Stage::QsGenCaptures;
        }
        p
    }

    /// Whether the move handed out last was a capture that SEE found not to lose material
    /// (one of the winning captures after the hash move).
    #[inline]
    pub fn last_was_good_capture(&self) -> bool {
        self.stage == Stage::GoodCaptures
    }

    /// Whether the legal move `mv` of `pos` (this picker's position) gives check.
    #[inline]
    pub fn gives_check(&mut self, pos: &Position, mv: Move) -> bool {
        self.checks
            .get_or_insert_with(|| CheckInfo::new(pos))
            .gives_check(pos, mv)
    }

    /// From now on, quiet moves are handed out only if they give check (late-move and
    /// futility pruning never drop a check: most xiangqi mating attacks are chains of them).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, hist: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if self.qs {
                        Stage::QsGenCaptures
                    } else {
                        Stage::GenCaptures
                    };
                    if let Some(m) = self.tt_move {
                        return Some(m);
                    }
                }
                Stage::GenCaptures | Stage::QsGenCaptures => {
                    self.list.clear();
                    pos.generate(GenKind::Captures, &mut self.list);
                    for i in 0..self.list.len() {
                        let m = self.list.get(i);
                        // The victim's value dominates, then how such captures did before.
                        self.scores[i].write(captured_value(pos, m) * 16 + hist.capture_score(pos, m) / 4);
                    }
                    self.scored = self.list.len();
                    self.cur = 0;
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QsCaptures
                    };
                }
                Stage::GoodCaptures => {
                    while let Some(m) = self.pick_best() {
                        if Some(m) == self.tt_move {
                            continue;
                        }
                        if !see_ge(pos, m, 0) {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = Stage::Killer1;
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let m = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter.filter(|c| !self.killers.contains(&Some(*c))),
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiets,
                    };
                    if let Some(m) = m {
                        if Some(m) != self.tt_move
                            && !pos.is_capture(m)
                            && pos.is_legal(m)
                            && (!self.skip_quiets || self.gives_check(pos, m))
                        {
                            return Some(m);
                        }
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.list.clear();
                    self.scored = 0;
                    self.cur = 0;
                    pos.generate(GenKind::Quiets, &mut self.list);
                    if self.skip_quiets {
                        // Only the checks will be handed out, in any order.
                        continue;
                    }
                    for i in 0..self.list.len() {
                        self.scores[i].write(hist.score_in(pos, self.list.get(i), self.ctx));
                    }
                    self.scored = self.list.len();
                }
                Stage::Quiets => {
                    while let Some(m) = self.next_quiet(pos) {
                        if Some(m) == self.tt_move || self.killers.contains(&Some(m)) || Some(m) == self.counter {
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        self.bad_cur += 1;
                        return Some(self.bad.get(self.bad_cur - 1));
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.list.clear();
                    pos.generate(GenKind::All, &mut self.list);
                    for i in 0..self.list.len() {
                        let m = self.list.get(i);
                        let score = if Some(m) == self.tt_move {
                            i32::MAX
                        } else if pos.is_capture(m) {
                            1_000_000 + captured_value(pos, m) * 16
                                - pos.piece_at(m.from()).map_or(0, |p| SEE_VALUE[p.kind().index()]) / 16
                        } else {
                            hist.score_in(pos, m, self.ctx)
                        };
                        self.scores[i].write(score);
                    }
                    self.scored = self.list.len();
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::QsCaptures => {
                    while let Some(m) = self.pick_best() {
                        if self.stage == Stage::QsCaptures && Some(m) == self.tt_move {
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The next quiet move: the best by history, or once quiets are skipped the next check.
    #[inline]
    fn next_quiet(&mut self, pos: &Position) -> Option<Move> {
        if !self.skip_quiets {
            return self.pick_best();
        }
        while self.cur < self.list.len() {
            let m = self.list.get(self.cur);
            self.cur += 1;
            if self.gives_check(pos, m) {
                return Some(m);
            }
        }
        None
    }

    /// Selection sort step: the best-scored remaining move of `list`.
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.scored;
        if self.cur >= n {
            return None;
        }
        // SAFETY: the first `scored` scores are written (`scored <= MAX_MOVES`), and
        // `MaybeUninit<i32>` has `i32`'s layout.
        let scores = unsafe { std::slice::from_raw_parts(self.scores.as_ptr().cast::<i32>(), n) };
        // The first of the highest scores: the maximum, then where it first occurs (two
        // passes the compiler can vectorise).
        let rest = &scores[self.cur..];
        let max = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.cur + rest.iter().position(|&s| s == max).unwrap_or(0);
        self.list.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        self.cur += 1;
        Some(self.list.get(self.cur - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The captures of a quiescence picker, in the order it hands them out.
    fn captures_in_order(pos: &Position, hist: &Histories) -> Vec<Move> {
        let mut picker = MovePicker::new_qsearch(pos, None);
        std::iter::from_fn(|| picker.next(pos, hist)).collect()
    }

    #[test]
    fn capture_history_orders_captures_of_equal_victims() {
        // Either rook takes an unguarded pawn: the victims are worth the same.
        let pos = Position::from_fen("3k5/9/9/p7p/9/9/9/9/9/R3K3R w - - 0 1").expect("valid FEN");
        let mut hist = Histories::boxed();
        let before = captures_in_order(&pos, &hist);
        assert_eq!(before.len(), 2, "{before:?}");
        hist.update_capture(&pos, before[1], 4000);
        assert_eq!(captures_in_order(&pos, &hist), vec![before[1], before[0]]);
        // Punished below the other, it goes back behind it.
        hist.update_capture(&pos, before[1], -16_000);
        hist.update_capture(&pos, before[0], 2000);
        assert_eq!(captures_in_order(&pos, &hist), before);
        hist.clear();
        assert_eq!(hist.capture_score(&pos, before[1]), 0);
    }
}

//! The hand-crafted evaluation (HCE), from the side to move's point of view, in centipawns.
//!
//! A tapered evaluation: every term is a middlegame/endgame pair ([`S`]) summed for Red and
//! for Black, then blended by the game phase (rooks, horses and cannons left on the board).
//! Terms: material, piece-square tables, mobility (rook; horse with its legs blocked; cannon
//! with its screens), pieces (rook files, cannon targets), king safety (attackers reaching the
//! palace, missing advisors/elephants against the enemy's rooks, horses and cannons, hollow,
//! pinning and bottom cannons), crossed pawns and tempo. All weights live in [`PARAMS`].
//!
//! The hot path ([`evaluate`]) allocates nothing: it walks the piece bitboards once, with the
//! piece-square tables expanded at compile time. [`trace`] runs the very same code and prints it.
//! [`Weights`] runs it too, with weights chosen at run time (for the tuner).

mod lines;
mod params;
mod pst;

pub use params::{s, HalfTable, ParamId, Params, KIND_NAMES, MAX_PHASE, PARAMS, S};
pub use pst::half_cell;

pub use super::EVAL_LIMIT;

use crate::board::{attacks, Position};
use crate::core::{Bitboard, Color, PieceKind, Square};
use lines::{file_bits, rank_bits, RANK_MASK};
use pst::{PstTable, PST};
use std::fmt::Write as _;

/// The evaluation's terms, in the order [`trace`] prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material = 0,
    Placement = 1,
    Mobility = 2,
    Pieces = 3,
    KingSafety = 4,
    Pawns = 5,
    Tempo = 6,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 7;
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::Pieces,
        Term::KingSafety,
        Term::Pawns,
        Term::Tempo,
    ];

    /// The name shown by [`trace`].
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Placement => "Piece squares",
            Term::Mobility => "Mobility",
            Term::Pieces => "Rooks/cannons",
            Term::KingSafety => "King safety",
            Term::Pawns => "Crossed pawns",
            Term::Tempo => "Tempo",
        }
    }
}

/// The evaluation taken apart: each term for each side (`[term][color]`), the phase and the result.
#[derive(Clone, Debug)]
pub struct Breakdown {
    pub terms: [[S; 2]; Term::COUNT],
    /// 0 (bare endgame) ..= [`MAX_PHASE`] (all rooks, horses and cannons on the board).
    pub phase: i32,
    /// Red minus Black, summed over the terms, before tapering.
    pub total: S,
    /// Red's view after tapering, before scaling.
    pub tapered: i32,
    /// Scale out of 64 applied to the tapered score.
    pub scale: i32,
    /// The final score from the side to move's view (what [`evaluate`] returns).
    pub score: i32,
}

const fn palace(color: usize) -> u128 {
    let mut bb = 0u128;
    let mut rank = 0;
    while rank < 3 {
        let r = if color == 0 { rank } else { 9 - rank };
        let mut file = 3;
        while file <= 5 {
            bb |= 1u128 << (r * 9 + file);
            file += 1;
        }
        rank += 1;
    }
    bb
}

const fn file_masks() -> [u128; 9] {
    let mut t = [0u128; 9];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 10 {
            t[f] |= 1u128 << (r * 9 + f);
            r += 1;
        }
        f += 1;
    }
    t
}

/// The palace of each colour.
const PALACE: [Bitboard; 2] = [Bitboard(palace(0)), Bitboard(palace(1))];
/// The points across the river for each colour's pawns: Red ranks 5..9, Black ranks 0..4.
const CROSSED: [Bitboard; 2] = [
    Bitboard(Bitboard::FULL.0 & !((1u128 << 45) - 1)),
    Bitboard((1u128 << 45) - 1),
];
const FILES: [u128; 9] = file_masks();
/// Every point except those on file i (so that a shift by one never pairs i with the next a).
const NOT_FILE_I: u128 = Bitboard::FULL.0 & !FILES[8];
const NOT_FILE_A: u128 = Bitboard::FULL.0 & !FILES[0];
/// Each colour's palace centre (e1 and e8) and back rank.
const PALACE_CENTRE: [Square; 2] = [Square::new(4, 1), Square::new(4, 8)];
const BACK_RANK: [u8; 2] = [0, 9];

/// Bits of a file line.
const FILE_MASK: u32 = 0x3ff;

const fn zone_lines() -> ([[u32; 10]; 2], [[u32; 9]; 2]) {
    let mut ranks = [[0u32; 10]; 2];
    let mut files = [[0u32; 9]; 2];
    let mut c = 0;
    while c < 2 {
        let zone = palace(c);
        let mut sq = 0;
        while sq < 90 {
            if zone >> sq & 1 != 0 {
                let (f, r) = (sq % 9, sq / 9);
                ranks[c][r] |= 1 << f;
                files[c][f] |= 1 << r;
            }
            sq += 1;
        }
        c += 1;
    }
    (ranks, files)
}

const ZONES: ([[u32; 10]; 2], [[u32; 9]; 2]) = zone_lines();
/// Each palace as line masks: `ZONE_RANK[color][rank]` (files) and `ZONE_FILE[color][file]` (ranks).
const ZONE_RANK: [[u32; 10]; 2] = ZONES.0;
const ZONE_FILE: [[u32; 9]; 2] = ZONES.1;

/// The points from which a pawn of each colour stands in or attacks the enemy palace.
const PAWN_PRESSURE: [Bitboard; 2] = [Bitboard(pawn_pressure(0)), Bitboard(pawn_pressure(1))];

const fn pawn_pressure(color: usize) -> u128 {
    let zone = palace(1 - color);
    let mut bb = 0u128;
    let mut sq: i32 = 0;
    while sq < 90 {
        let (f, r) = (sq % 9, sq / 9);
        let fwd = if color == 0 { r + 1 } else { r - 1 };
        let mut hits = zone >> sq & 1 != 0;
        if fwd >= 0 && fwd <= 9 {
            hits |= zone >> (fwd * 9 + f) & 1 != 0;
        }
        // Sideways steps: only across the river, where the enemy palace is anyway.
        if f > 0 {
            hits |= zone >> (sq - 1) & 1 != 0;
        }
        if f < 8 {
            hits |= zone >> (sq + 1) & 1 != 0;
        }
        if hits {
            bb |= 1u128 << sq;
        }
        sq += 1;
    }
    bb
}

/// The points pawns of `color` guard: one step forward, and sideways for crossed pawns.
#[inline(always)]
fn pawn_guard(color: Color, pawns: Bitboard) -> Bitboard {
    let crossed = (pawns & CROSSED[color.index()]).0;
    let forward = match color {
        Color::Red => pawns.0 << 9,
        Color::Black => pawns.0 >> 9,
    };
    let sideways = ((crossed & NOT_FILE_I) << 1) | ((crossed & NOT_FILE_A) >> 1);
    Bitboard((forward | sideways) & Bitboard::FULL.0)
}

/// The evaluation of `pos` for the side to move, in centipawns (|score| ≤ [`EVAL_LIMIT`]).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    score(pos, &PARAMS, &PST)
}

/// The evaluation under weights `p` (whose tables are expanded in `pst`).
#[inline(always)]
fn score(pos: &Position, p: &Params, pst: &PstTable) -> i32 {
    let mut terms = [[S::ZERO; 2]; Term::COUNT];
    let phase = compute(pos, p, pst, &mut terms);
    finish(pos, p, &terms, phase).3
}

/// The evaluation with weights other than [`PARAMS`], for tuning. [`evaluate`] keeps its
/// compile-time tables; this one expands the piece-square tables of its own weights once.
#[derive(Clone)]
pub struct Weights {
    params: Params,
    pst: Box<PstTable>,
}

impl Weights {
    /// Takes `params` and expands its piece-square tables.
    pub fn new(params: Params) -> Weights {
        let pst = Box::new(pst::build(&params));
        Weights { params, pst }
    }

    /// The weights in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Like [`evaluate`], with these weights: the side to move's view, in centipawns.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        score(pos, &self.params, &self.pst)
    }
}

/// Every term of the evaluation of `pos`, as [`evaluate`] computes it.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut terms = [[S::ZERO; 2]; Term::COUNT];
    let phase = compute(pos, &PARAMS, &PST, &mut terms);
    let (total, tapered, scale, score) = finish(pos, &PARAMS, &terms, phase);
    Breakdown {
        terms,
        phase,
        total,
        tapered,
        scale,
        score,
    }
}

/// Sums the terms, tapers by phase and scales drawish material: `(total, tapered, scale, score)`.
#[inline(always)]
fn finish(pos: &Position, p: &Params, terms: &[[S; 2]; Term::COUNT], phase: i32) -> (S, i32, i32, i32) {
    let mut total = S::ZERO;
    for t in terms {
        total += t[0] - t[1];
    }
    let tapered = total.taper(phase);
    // A side without rook, horse, cannon or pawn can never mate: its lead is worth little.
    let leader = if tapered > 0 { Color::Red } else { Color::Black };
    let scale = if tapered != 0 && !has_attackers(pos, leader) {
        p.no_attacker_scale
    } else {
        64
    };
    let red_view = (tapered * scale / 64).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    let score = if pos.side_to_move() == Color::Red {
        red_view
    } else {
        -red_view
    };
    (total, tapered, scale, score)
}

#[inline(always)]
fn has_attackers(pos: &Position, c: Color) -> bool {
    (pos.pieces(c, PieceKind::Rook)
        | pos.pieces(c, PieceKind::Horse)
        | pos.pieces(c, PieceKind::Cannon)
        | pos.pieces(c, PieceKind::Pawn))
    .any()
}

/// Fills `terms[term][color]` and returns the (capped) game phase. `pst` is the expansion of
/// `p`'s half tables (passed apart so that [`evaluate`] reads the compile-time [`PST`]).
#[inline(always)]
fn compute(pos: &Position, p: &Params, pst: &PstTable, terms: &mut [[S; 2]; Term::COUNT]) -> i32 {
    use PieceKind::*;
    let occ = pos.occupied();
    let colors = [pos.color_bb(Color::Red), pos.color_bb(Color::Black)];
    let all_pawns = pos.pieces(Color::Red, Pawn) | pos.pieces(Color::Black, Pawn);

    // Points each side's pawns guard (forward; sideways too once across): horses avoid them.
    let pawn_guard = [
        pawn_guard(Color::Red, pos.pieces(Color::Red, Pawn)),
        pawn_guard(Color::Black, pos.pieces(Color::Black, Pawn)),
    ];

    let mut phase = 0;
    for us in Color::BOTH {
        let (ui, them) = (us.index(), !us);
        let ti = them.index();
        let own = colors[ui];
        let enemy = colors[ti];
        let zone = PALACE[ti];
        let enemy_king = pos.king_square(them);
        let our_pawns = pos.pieces(us, Pawn);

        let mut material = S::ZERO;
        let mut place = S::ZERO;
        let table = &pst[ui * 7..ui * 7 + 7];
        place += table[King.index()][pos.king_square(us).index()];
        for sq in pos.pieces(us, Advisor) | pos.pieces(us, Elephant) {
            // Advisor and elephant points never overlap, so one table lookup by point serves both.
            place += table[Advisor.index()][sq.index()] + table[Elephant.index()][sq.index()];
        }
        for sq in our_pawns {
            place += table[Pawn.index()][sq.index()];
        }
        let mut mobility = S::ZERO;
        let mut pieces = S::ZERO;
        let mut pawns = S::ZERO;
        // King threats we pose, charged to the enemy's king safety.
        let mut threat = S::ZERO;
        let mut units = 0;
        let mut attackers = 0;

        for kind in PieceKind::ALL {
            let n = pos.pieces(us, kind).count() as i32;
            material += p.material[kind.index()] * n;
            phase += p.phase_weight[kind.index()] * n;
        }

        for sq in pos.pieces(us, Horse) {
            place += table[Horse.index()][sq.index()];
            let targets = attacks::horse(sq, occ);
            let safe = (targets & !own & !pawn_guard[ti]).count() as i32;
            mobility += p.horse_mobility * (safe - p.horse_mobility_base);
            if (targets & zone).any() {
                units += p.king_attack_units[Horse.index()];
                attackers += 1;
            }
        }

        // Rooks and cannons are worked out on their rank and file as small line masks.
        for sq in pos.pieces(us, Rook) {
            place += table[Rook.index()][sq.index()];
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            let reach_r = lines::reach(f, rank_bits(occ.0, r), RANK_MASK);
            let reach_f = lines::reach(r, file_bits(occ.0, f), FILE_MASK);
            let reach = (reach_r & !rank_bits(own.0, r)).count_ones() + (reach_f & !file_bits(own.0, f)).count_ones();
            mobility += p.rook_mobility * (reach as i32 - p.rook_mobility_base);
            let file = FILES[f];
            if all_pawns.0 & file == 0 {
                pieces += p.rook_open_file;
            } else if our_pawns.0 & file == 0 {
                pieces += p.rook_semi_open_file;
            }
            if (reach_r & ZONE_RANK[ti][r]) | (reach_f & ZONE_FILE[ti][f]) != 0 {
                units += p.king_attack_units[Rook.index()];
                attackers += 1;
            }
        }

        for sq in pos.pieces(us, Cannon) {
            place += table[Cannon.index()][sq.index()];
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            let (occ_r, occ_f) = (rank_bits(occ.0, r), file_bits(occ.0, f));
            let (enemy_r, enemy_f) = (rank_bits(enemy.0, r), file_bits(enemy.0, f));
            let across = lines::line(f, occ_r, RANK_MASK);
            let along = lines::line(r, occ_f, FILE_MASK);
            let slides = (across.reach & !occ_r).count_ones() + (along.reach & !occ_f).count_ones();
            mobility += p.cannon_mobility * (slides as i32 - p.cannon_mobility_base);
            // What the cannon hits over its screens, and whether it fires into the palace.
            let targets = (across.beyond & enemy_r).count_ones() + (along.beyond & enemy_f).count_ones();
            pieces += p.cannon_screen_target * targets as i32;
            if (across.beyond & ZONE_RANK[ti][r]) | (along.beyond & ZONE_FILE[ti][f]) != 0 {
                units += p.king_attack_units[Cannon.index()];
                attackers += 1;
            }
            let (kf, kr) = (enemy_king.file() as usize, enemy_king.rank() as usize);
            if f == kf {
                if along.reach >> kr & 1 != 0 {
                    // 空头炮: the king is the first piece on the file, nothing screens it.
                    threat += p.hollow_cannon[r.abs_diff(kr)];
                } else if along.beyond >> kr & 1 != 0
                    && f == 4
                    && along.reach >> PALACE_CENTRE[ti].rank() & 1 != 0
                    && pos.pieces(them, Horse).has(PALACE_CENTRE[ti])
                {
                    // The horse on the palace centre is the screen: pinned, and blocking its own king.
                    threat += p.central_horse_pinned;
                }
            } else if r == kr && r == BACK_RANK[ti] as usize && across.reach >> kf & 1 != 0 {
                // 沉底炮: on the king's back rank with nothing between.
                threat += p.bottom_cannon;
            }
        }

        let crossed = our_pawns & CROSSED[ui];
        let near = (crossed & PAWN_PRESSURE[ui]).count() as i32;
        units += p.king_attack_units[Pawn.index()] * near;
        attackers += near;
        pawns += p.pawn_crossed * crossed.count() as i32;
        let pairs = crossed.0 & (crossed.0 >> 1) & NOT_FILE_I;
        pawns += p.pawn_connected * pairs.count_ones() as i32;

        // Attack on the enemy palace: one attacker is a nuisance, several together a danger.
        let danger = if attackers >= 2 {
            let q = units * units;
            S {
                mg: (q * p.king_danger_quadratic.mg / 16).min(p.king_danger_cap),
                eg: (q * p.king_danger_quadratic.eg / 16).min(p.king_danger_cap),
            }
        } else {
            p.king_danger_single * units
        };
        threat += danger;

        // Missing advisors/elephants count against the enemy king as far as we have the
        // pieces to exploit them: rooks and horses against advisors, cannons against elephants.
        let missing_adv = (2 - pos.pieces(them, Advisor).count() as i32).max(0);
        let missing_ele = (2 - pos.pieces(them, Elephant).count() as i32).max(0);
        let ours = [
            pos.pieces(us, Rook).count() as i32,
            pos.pieces(us, Horse).count() as i32,
            pos.pieces(us, Cannon).count() as i32,
        ];
        for (i, n) in ours.into_iter().enumerate() {
            threat += p.missing_advisor[i] * (n * missing_adv);
            threat += p.missing_elephant[i] * (n * missing_ele);
        }

        terms[Term::Material as usize][ui] = material;
        terms[Term::Placement as usize][ui] = place;
        terms[Term::Mobility as usize][ui] = mobility;
        terms[Term::Pieces as usize][ui] = pieces;
        terms[Term::KingSafety as usize][ti] = -threat;
        terms[Term::Pawns as usize][ui] = pawns;
    }
    terms[Term::Tempo as usize][pos.side_to_move().index()] = p.tempo;
    phase.min(MAX_PHASE)
}

/// The evaluation broken into its terms, for the `eval` command: each term for Red and Black
/// (middlegame and endgame), the phase and the final score.
pub fn trace(pos: &Position) -> String {
    let b = breakdown(pos);
    let mut out = String::new();
    let _ = writeln!(out, "      Term      |     Red     |    Black    |    Total");
    let _ = writeln!(out, "                |   MG    EG  |   MG    EG  |   MG    EG");
    let _ = writeln!(out, "----------------+-------------+-------------+------------");
    for t in Term::ALL {
        let [r, k] = b.terms[t as usize];
        let d = r - k;
        let _ = writeln!(
            out,
            " {:<14} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}",
            t.name(),
            r.mg,
            r.eg,
            k.mg,
            k.eg,
            d.mg,
            d.eg
        );
    }
    let _ = writeln!(out, "----------------+-------------+-------------+------------");
    let _ = writeln!(
        out,
        " {:<14} |             |             | {:>5} {:>5}",
        "Total", b.total.mg, b.total.eg
    );
    let _ = writeln!(
        out,
        "Phase: {}/{} ({}% middlegame)",
        b.phase,
        MAX_PHASE,
        b.phase * 100 / MAX_PHASE
    );
    let _ = writeln!(out, "Tapered (Red's view): {}", b.tapered);
    if b.scale != 64 {
        let _ = writeln!(
            out,
            "Scaled by {}/64: the side ahead has nothing left to mate with",
            b.scale
        );
    }
    let _ = writeln!(
        out,
        "Final evaluation: {} ({} to move's view)",
        b.score,
        pos.side_to_move().name()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirror_symmetric_and_flip_between_colours() {
        for kind in 0..7 {
            for sq in (0..90).map(Square::from_index_unchecked) {
                let v = PST[kind][sq.index()];
                assert_eq!(v, PST[kind][sq.mirror_file().index()]);
                assert_eq!(v, PST[7 + kind][sq.flip_rank().index()]);
            }
        }
    }

    #[test]
    fn advisor_and_elephant_tables_stay_on_their_own_points() {
        // The evaluation adds both tables for every advisor or elephant, which is right only
        // while each table is zero wherever the other piece may stand.
        for c in Color::BOTH {
            for (kind, other) in [
                (PieceKind::Advisor, PieceKind::Elephant),
                (PieceKind::Elephant, PieceKind::Advisor),
            ] {
                for sq in attacks::home_squares(c, other) {
                    assert_eq!(
                        PST[c.index() * 7 + kind.index()][sq.index()],
                        S::ZERO,
                        "{kind:?} on {sq:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn zones_and_masks() {
        assert_eq!(PALACE[0].count(), 9);
        assert!(PALACE[1].has(Square::new(4, 9)));
        assert_eq!(CROSSED[0].count(), 45);
        assert_eq!((CROSSED[0] & CROSSED[1]).count(), 0);
        assert!(!Bitboard(NOT_FILE_I).has(Square::new(8, 3)));
    }

    #[test]
    fn pawn_guard_and_pressure_match_the_attack_tables() {
        for c in Color::BOTH {
            let ti = (!c).index();
            for i in 0..90 {
                let sq = Square::from_index_unchecked(i);
                let one = Bitboard::from_square(sq);
                assert_eq!(pawn_guard(c, one), attacks::pawn(c, sq), "{c:?} {sq:?}");
                let pressing = PALACE[ti].has(sq) || (attacks::pawn(c, sq) & PALACE[ti]).any();
                // Only crossed pawns are asked; a pawn at home is never near the enemy palace.
                if CROSSED[c.index()].has(sq) {
                    assert_eq!(PAWN_PRESSURE[c.index()].has(sq), pressing, "{c:?} {sq:?}");
                }
            }
        }
    }

    #[test]
    fn weights_from_the_flat_vector_evaluate_like_the_tables_in_use() {
        let v = PARAMS.to_vec();
        let ids = Params::ids();
        assert_eq!(v.len(), ids.len());
        let names: std::collections::HashSet<String> = ids.iter().map(ToString::to_string).collect();
        assert_eq!(names.len(), ids.len(), "names must be unique");
        assert!(names.contains("pst_mg[Horse][2][3]") && names.contains("material[Rook].eg"));
        assert!(Params::from_vec(&v[1..]).is_none());
        assert!(Params::from_vec(&[v.as_slice(), &[0]].concat()).is_none());
        let Some(p) = Params::from_vec(&v) else {
            panic!("same length")
        };
        assert_eq!(p.to_vec(), v);
        let w = Weights::new(p);
        let mut bumped = v.clone();
        let rook_mg = ids.iter().position(|id| id.to_string() == "material[Rook].mg");
        let Some(rook_mg) = rook_mg else {
            panic!("no rook material")
        };
        bumped[rook_mg] += 48;
        let Some(bumped) = Params::from_vec(&bumped) else {
            panic!("same length")
        };
        let bumped = Weights::new(bumped);
        let mut changed = 0;
        for fen in crate::tools::bench::positions() {
            let Ok(pos) = Position::from_fen(fen) else {
                panic!("bench FEN {fen}")
            };
            for p in [pos.clone(), pos.flipped(), pos.mirrored()] {
                assert_eq!(w.evaluate(&p), evaluate(&p), "{}", p.fen());
                let b = breakdown(&p);
                let rooks = [Color::Red, Color::Black].map(|c| p.pieces(c, PieceKind::Rook).count() as i32);
                if rooks[0] != rooks[1] && b.scale == 64 && b.phase > 0 {
                    // 48 more per rook in the middlegame: (difference) × phase, in the mover's view.
                    let sign = if p.side_to_move() == Color::Red { 1 } else { -1 };
                    let expected = b.score + sign * (rooks[0] - rooks[1]) * b.phase;
                    assert_eq!(bumped.evaluate(&p), expected, "{}", p.fen());
                    changed += 1;
                }
            }
        }
        assert!(changed > 0);
    }

    #[test]
    fn pawn_table_is_higher_across_the_river() {
        let home = PST[PieceKind::Pawn.index()][Square::new(4, 3).index()];
        let near = PST[PieceKind::Pawn.index()][Square::new(4, 7).index()];
        assert!(near.mg > home.mg + 50 && near.eg > home.eg + 50);
    }
}

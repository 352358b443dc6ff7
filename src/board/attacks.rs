//! Precomputed attack tables and the attack sets of every piece kind.
//!
//! Rooks and cannons use per-line lookups: the occupancy of the inner points of the slider's
//! rank (7 bits) or file (8 bits) indexes a table of reachable points on that line (15 KB in
//! all, so they stay in the L1 cache). A file's bits lie 9 apart in the `u128`; one
//! multiplication gathers them ([`file_occupancy`]) and one spreads a result back.

use crate::core::{Bitboard, Color, Square};

const fn bit(file: i32, rank: i32) -> u128 {
    if file < 0 || file > 8 || rank < 0 || rank > 9 {
        0
    } else {
        1u128 << (rank * 9 + file)
    }
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file <= 8 && rank >= 0 && rank <= 9
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Rook and cannon targets along one line of `n` points for a slider at `pos`:
/// `(rook, cannon)`, where rook holds the empty points and the first blocker each way, and
/// cannon holds the first piece beyond exactly one screen each way.
const fn slide(pos: i32, occ: u32, n: i32) -> (u16, u16) {
    let mut rook = 0u16;
    let mut cannon = 0u16;
    let mut dir = -1;
    while dir <= 1 {
        let mut i = pos + dir;
        let mut screened = false;
        while i >= 0 && i < n {
            let occupied = occ >> i & 1 != 0;
            if !screened {
                rook |= 1 << i;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << i;
                break;
            }
            i += dir;
        }
        dir += 2;
    }
    (rook, cannon)
}

/// Both ends of a line count as occupied in the tables: a rook reaches an end point
/// whether or not a piece stands there, and a cannon's target there is kept only if the
/// point is occupied (the caller masks it with the occupancy). So only the inner points
/// index the tables: 7 of a rank, 8 of a file.
const fn line_table<const INNER: usize, const N: usize>(which: usize) -> [[u16; INNER]; N] {
    let mut t = [[0u16; INNER]; N];
    let ends = 1 | 1 << (N - 1);
    let mut p = 0;
    while p < N {
        let mut inner = 0;
        while inner < INNER {
            let (rook, cannon) = slide(p as i32, (inner as u32) << 1 | ends, N as i32);
            t[p][inner] = if which == 0 { rook } else { cannon };
            inner += 1;
        }
        p += 1;
    }
    t
}

/// `[rook|cannon][file][inner rank occupancy]` → files reached.
static RANK_SLIDE: [[[u16; 128]; 9]; 2] = [line_table::<128, 9>(0), line_table::<128, 9>(1)];
/// `[rook|cannon][rank][inner file occupancy]` → ranks reached.
static FILE_SLIDE: [[[u16; 256]; 10]; 2] = [line_table::<256, 10>(0), line_table::<256, 10>(1)];

/// Ranks 0-7 of file a: bits 0, 9, …, 63.
const FILE_A_LOW: u64 = 0x8040_2010_0804_0201;
/// Multiplying by this gathers bits `9r` of file a into bits `56 + r` (see [`file_occupancy`]),
/// and spreads bits `r` of a byte onto bits `9r` (the inverse).
const BYTE_COPIES: u64 = 0x0101_0101_0101_0101;

/// The 10-bit occupancy of file `file`, rank 0 in bit 0.
///
/// The file's bits lie 9 apart. Shifted down to file a, ranks 0-7 are bits `9r` of the low
/// word; multiplying by `Σ 2^(56-8k)` (k = 0..7) sends bit `9r` to `56 + r`, and as the
/// products `2^(56+9r-8k)` are distinct powers of two there is no carry into bits 56-63.
/// Ranks 8 and 9 are bits 72 and 81. Plain integer code for every CPU, and no slower than
/// BMI2 `pext` on a Zen 4 (`chariot bench`, both built with `target-cpu=native`).
#[inline(always)]
pub fn file_occupancy(occ: u128, file: usize) -> usize {
    let x = occ >> file;
    let high = (x >> 72) as usize;
    gather_file_a(x as u64) | (high & 1) << 8 | (high >> 9 & 1) << 9
}

/// Bits `0, 9, …, 63` of `x` (the low eight ranks of file a) as a byte, rank 0 lowest.
#[inline(always)]
fn gather_file_a(x: u64) -> usize {
    ((x & FILE_A_LOW).wrapping_mul(BYTE_COPIES) >> 56) as usize
}

/// A 10-bit rank mask onto file a: bit `r` to bit `9r`. The low byte by one multiplication
/// (each bit `r` is copied to `r + 8k` for every `k`; only `k = r` lands on file a, and the
/// copies are distinct powers of two, so nothing carries), ranks 8 and 9 by hand.
#[inline(always)]
fn spread_on_file_a(ranks: u16) -> u128 {
    let low = (ranks as u64 & 0xff).wrapping_mul(BYTE_COPIES) & FILE_A_LOW;
    let high = (ranks as u64 >> 8 & 1) << 8 | (ranks as u64 >> 9 & 1) << 17;
    low as u128 | (high as u128) << 64
}

/// The rook (`which` 0) or cannon (1) table entries for `sq`, spread onto the board: for
/// a cannon, candidates still to be masked with the occupancy.
#[inline(always)]
fn slider(which: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank_inner = (occ.0 >> (r * 9 + 1)) as usize & 0x7f;
    let across = (RANK_SLIDE[which][f][rank_inner] as u128) << (r * 9);
    // Ranks 1-8 of the file: the low eight ranks of the board shifted down by one rank.
    let file_inner = gather_file_a((occ.0 >> (f + 9)) as u64);
    let along = spread_on_file_a(FILE_SLIDE[which][r][file_inner]) << f;
    Bitboard(across | along)
}

/// Points a rook on `sq` reaches: empty points and the first piece in each direction.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    slider(0, sq, occ)
}

/// Points a cannon on `sq` captures on: the first piece beyond exactly one screen.
#[inline(always)]
pub fn cannon_captures(sq: Square, occ: Bitboard) -> Bitboard {
    slider(1, sq, occ) & occ
}

const fn leaper_tables() -> Leapers {
    let mut t = Leapers {
        king: [0; 90],
        advisor: [0; 90],
        pawn: [[0; 90]; 2],
        pawn_from: [[0; 90]; 2],
        horse_leg: [[0; 4]; 90],
        horse_to: [[0; 4]; 90],
        horse_from_leg: [[0; 4]; 90],
        horse_from: [[0; 4]; 90],
        elephant_eye: [[0; 4]; 90],
        elephant_to: [[0; 4]; 90],
        empty_rook: [0; 90],
        diagonal: [0; 90],
        horse_reach: [0; 90],
        elephant_reach: [0; 90],
    };
    const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = ORTH[d];
            if in_palace(f, r) && in_palace(f + dx, r + dy) {
                t.king[s] |= bit(f + dx, r + dy);
            }
            // Horse: the leg is the orthogonal neighbour, the targets fan out beyond it.
            if on_board(f + dx, r + dy) {
                t.horse_leg[s][d] = bit(f + dx, r + dy);
                t.horse_to[s][d] = if dx == 0 {
                    bit(f - 1, r + 2 * dy) | bit(f + 1, r + 2 * dy)
                } else {
                    bit(f + 2 * dx, r - 1) | bit(f + 2 * dx, r + 1)
                };
            }
            let (ex, ey) = DIAG[d];
            if in_palace(f, r) && in_palace(f + ex, r + ey) {
                t.advisor[s] |= bit(f + ex, r + ey);
            }
            // Elephant: two points diagonally, blocked at the eye, never across the river.
            let (tf, tr) = (f + 2 * ex, r + 2 * ey);
            if on_board(tf, tr) && (r <= 4) == (tr <= 4) {
                t.elephant_eye[s][d] = bit(f + ex, r + ey);
                t.elephant_to[s][d] = bit(tf, tr);
                t.elephant_reach[s] |= bit(tf, tr);
            }
            // Horses attacking `s`: their leg is a diagonal neighbour of `s`.
            if on_board(f + ex, r + ey) {
                t.diagonal[s] |= bit(f + ex, r + ey);
                t.horse_from_leg[s][d] = bit(f + ex, r + ey);
                t.horse_from[s][d] = bit(f + 2 * ex, r + ey) | bit(f + ex, r + 2 * ey);
                t.horse_reach[s] |= t.horse_from[s][d];
            }
            d += 1;
        }
        // Pawns: forward always, sideways once across the river.
        t.pawn[0][s] = bit(f, r + 1) | if r >= 5 { bit(f - 1, r) | bit(f + 1, r) } else { 0 };
        t.pawn[1][s] = bit(f, r - 1) | if r <= 4 { bit(f - 1, r) | bit(f + 1, r) } else { 0 };
        t.pawn_from[0][s] = bit(f, r - 1) | if r >= 5 { bit(f - 1, r) | bit(f + 1, r) } else { 0 };
        t.pawn_from[1][s] = bit(f, r + 1) | if r <= 4 { bit(f - 1, r) | bit(f + 1, r) } else { 0 };
        let mut i = 0;
        while i < 10 {
            if i != r {
                t.empty_rook[s] |= bit(f, i);
            }
            if i < 9 && i != f {
                t.empty_rook[s] |= bit(i, r);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

struct Leapers {
    king: [u128; 90],
    advisor: [u128; 90],
    pawn: [[u128; 90]; 2],
    pawn_from: [[u128; 90]; 2],
    horse_leg: [[u128; 4]; 90],
    horse_to: [[u128; 4]; 90],
    horse_from_leg: [[u128; 4]; 90],
    horse_from: [[u128; 4]; 90],
    elephant_eye: [[u128; 4]; 90],
    elephant_to: [[u128; 4]; 90],
    empty_rook: [u128; 90],
    diagonal: [u128; 90],
    /// Horses (elephants) anywhere here could attack the point, whatever the legs (eyes).
    horse_reach: [u128; 90],
    elephant_reach: [u128; 90],
}

static LEAPERS: Leapers = leaper_tables();

/// For each king point, every point a move must leave or reach to give that king check: its
/// rank and file (rooks, cannons and their screens, pawns), the horse points that hit it and
/// the legs of those horses.
const fn check_zones() -> [u128; 90] {
    let l = leaper_tables();
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut zone = l.empty_rook[s];
        let mut d = 0;
        while d < 4 {
            zone |= l.horse_from[s][d] | l.horse_from_leg[s][d];
            d += 1;
        }
        t[s] = zone;
        s += 1;
    }
    t
}

static CHECK_ZONE: [u128; 90] = check_zones();

/// The points a move must leave or reach to check a king on `sq` (see [`check_zones`]).
#[inline(always)]
pub fn check_zone(sq: Square) -> Bitboard {
    Bitboard(CHECK_ZONE[sq.index()])
}

const fn between_table() -> [[u128; 90]; 90] {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (fa, ra, fb, rb) = ((a % 9) as i32, (a / 9) as i32, (b % 9) as i32, (b / 9) as i32);
            if a != b && (fa == fb || ra == rb) {
                let dx = if fb > fa {
                    1
                } else if fb < fa {
                    -1
                } else {
                    0
                };
                let dy = if rb > ra {
                    1
                } else if rb < ra {
                    -1
                } else {
                    0
                };
                let (mut f, mut r) = (fa + dx, ra + dy);
                while f != fb || r != rb {
                    t[a][b] |= bit(f, r);
                    f += dx;
                    r += dy;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[u128; 90]; 90] = between_table();

/// The points strictly between two points on one rank or file; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The rank and file through `sq`, without `sq`: where a rook on an empty board reaches.
#[inline(always)]
pub fn rook_lines(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.empty_rook[sq.index()])
}

/// The diagonal neighbours of `sq`: the legs of the horses that attack it and the eyes of the
/// elephants that reach it, the only points whose occupancy decides either.
#[inline(always)]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.diagonal[sq.index()])
}

/// The points from which a horse could attack `sq` if its leg were empty.
#[inline(always)]
pub fn horse_reach(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.horse_reach[sq.index()])
}

/// The points from which an elephant could reach `sq` if its eye were empty.
#[inline(always)]
pub fn elephant_reach(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.elephant_reach[sq.index()])
}

/// A king's steps inside its palace.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.king[sq.index()])
}

/// An advisor's diagonal steps inside its palace.
#[inline(always)]
pub fn advisor(sq: Square) -> Bitboard {
    Bitboard(LEAPERS.advisor[sq.index()])
}

/// Where a pawn of `color` on `sq` may go.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.pawn[color.index()][sq.index()])
}

/// The points from which a pawn of `color` attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.pawn_from[color.index()][sq.index()])
}

/// Where a horse on `sq` may go, its legs blocked by `occ`.
#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LEAPERS;
    let s = sq.index();
    let mut to = 0;
    for d in 0..4 {
        to |= open(l.horse_leg[s][d], occ) & l.horse_to[s][d];
    }
    Bitboard(to)
}

/// All ones when the point `leg` is empty in `occ`, else zero: a branch-free test of a leg
/// or an eye.
#[inline(always)]
fn open(leg: u128, occ: Bitboard) -> u128 {
    ((leg & occ.0 == 0) as u128).wrapping_neg()
}

/// The points from which a horse attacks `sq`, legs blocked by `occ`.
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LEAPERS;
    let s = sq.index();
    let mut from = 0;
    for d in 0..4 {
        from |= open(l.horse_from_leg[s][d], occ) & l.horse_from[s][d];
    }
    Bitboard(from)
}

/// Of `horses`, those standing in `occ` that attack `sq` with occupancy `occ`; the legs are
/// looked at only when one of them stands within reach.
#[inline(always)]
pub fn horses_attacking(sq: Square, occ: Bitboard, horses: Bitboard) -> Bitboard {
    let horses = horses & horse_reach(sq) & occ;
    if horses.any() {
        horse_attackers(sq, occ) & horses
    } else {
        Bitboard::EMPTY
    }
}

/// Of `rooks` and `cannons`, those standing in `occ` that attack `sq` along its rank or file
/// with occupancy `occ`; a kind's lines are looked up only when one of it stands on them.
#[inline(always)]
pub fn sliders_attacking(sq: Square, occ: Bitboard, rooks: Bitboard, cannons: Bitboard) -> Bitboard {
    let lines = rook_lines(sq) & occ;
    let (rooks, cannons) = (rooks & lines, cannons & lines);
    let mut att = Bitboard::EMPTY;
    if rooks.any() {
        att |= rook(sq, occ) & rooks;
    }
    if cannons.any() {
        att |= cannon_captures(sq, occ) & cannons;
    }
    att
}

/// The leg points around `sq` that block horses attacking it, with the horse points each one guards.
#[inline(always)]
pub fn horse_attack_legs(sq: Square) -> [(Bitboard, Bitboard); 4] {
    let l = &LEAPERS;
    let s = sq.index();
    std::array::from_fn(|d| (Bitboard(l.horse_from_leg[s][d]), Bitboard(l.horse_from[s][d])))
}

/// Where an elephant on `sq` may go, eyes blocked by `occ`; never across the river.
#[inline(always)]
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LEAPERS;
    let s = sq.index();
    let mut to = 0;
    for d in 0..4 {
        to |= open(l.elephant_eye[s][d], occ) & l.elephant_to[s][d];
    }
    Bitboard(to)
}

/// The legal points for each kind, by colour: where such a piece can ever stand.
pub fn home_squares(color: Color, kind: crate::core::PieceKind) -> Bitboard {
    use crate::core::PieceKind::*;
    let red: u128 = match kind {
        King => {
            bit(3, 0) | bit(4, 0) | bit(5, 0) | bit(3, 1) | bit(4, 1) | bit(5, 1) | bit(3, 2) | bit(4, 2) | bit(5, 2)
        }
        Advisor => bit(3, 0) | bit(5, 0) | bit(4, 1) | bit(3, 2) | bit(5, 2),
        Elephant => bit(2, 0) | bit(6, 0) | bit(0, 2) | bit(4, 2) | bit(8, 2) | bit(2, 4) | bit(6, 4),
        Pawn => {
            let mut m = 0;
            for f in [0, 2, 4, 6, 8] {
                m |= bit(f, 3) | bit(f, 4);
            }
            m | (Bitboard::FULL.0 & !((1u128 << 45) - 1))
        }
        Horse | Rook | Cannon => Bitboard::FULL.0,
    };
    match color {
        Color::Red => Bitboard(red),
        Color::Black => Bitboard(
            Bitboard(red)
                .into_iter()
                .map(|s| 1u128 << s.flip_rank().index())
                .fold(0, |a, b| a | b),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn file_occupancy_matches_naive() {
        // Every occupancy of every file, with the other files full or empty.
        for f in 0..9 {
            for m in 0..1024usize {
                let on_file = (0..10)
                    .filter(|r| m >> r & 1 != 0)
                    .fold(0u128, |b, r| b | 1 << (r * 9 + f));
                let file_mask = (0..10).fold(0u128, |b, r| b | 1 << (r * 9 + f));
                for rest in [0, Bitboard::FULL.0 & !file_mask] {
                    assert_eq!(file_occupancy(on_file | rest, f), m, "file {f}");
                }
            }
        }
    }

    /// Rook and cannon sets against a walk along each ray, on random boards of every density.
    #[test]
    fn sliders_match_ray_walks() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 0..4000 {
            // Each point occupied with probability n % 8 / 8.
            let mut occ = 0u128;
            for i in 0..90 {
                if next() % 8 < n % 8 {
                    occ |= 1 << i;
                }
            }
            for s in 0..90usize {
                let (f, r) = ((s % 9) as i32, (s / 9) as i32);
                let (mut rook_set, mut cannon_set) = (0u128, 0u128);
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut x, mut y, mut screened) = (f + df, r + dr, false);
                    while on_board(x, y) {
                        let b = bit(x, y);
                        if !screened {
                            rook_set |= b;
                            screened = occ & b != 0;
                        } else if occ & b != 0 {
                            cannon_set |= b;
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
                let sq = Square::from_index_unchecked(s);
                assert_eq!(rook(sq, Bitboard(occ)).0, rook_set, "rook on {s}");
                assert_eq!(cannon_captures(sq, Bitboard(occ)).0, cannon_set, "cannon on {s}");
            }
        }
    }

    #[test]
    fn rook_and_cannon_on_empty_and_screened_lines() {
        let e0 = sq("e0");
        assert_eq!(rook(e0, Bitboard::EMPTY).count(), 17);
        let occ = Bitboard::from_square(sq("e5")) | Bitboard::from_square(sq("e9")) | Bitboard::from_square(e0);
        assert!(rook(e0, occ).has(sq("e5")));
        assert!(!rook(e0, occ).has(sq("e6")));
        assert_eq!(cannon_captures(e0, occ), Bitboard::from_square(sq("e9")));
    }

    #[test]
    fn horse_legs_and_elephant_eyes() {
        let b0 = sq("b0");
        assert_eq!(horse(b0, Bitboard::EMPTY).count(), 3);
        let leg = Bitboard::from_square(sq("b1"));
        assert_eq!(horse(b0, leg).count(), 1); // only d1 via c0
        assert_eq!(elephant(sq("c4"), Bitboard::EMPTY).count(), 2); // never across the river
        assert!(horse_attackers(sq("c2"), Bitboard::EMPTY).has(b0));
        assert!(!horse_attackers(sq("c2"), leg).has(b0));
    }

    #[test]
    fn home_squares_counts() {
        use crate::core::PieceKind::*;
        for c in Color::BOTH {
            assert_eq!(home_squares(c, King).count(), 9);
            assert_eq!(home_squares(c, Advisor).count(), 5);
            assert_eq!(home_squares(c, Elephant).count(), 7);
            assert_eq!(home_squares(c, Pawn).count(), 55);
        }
    }
}

//! The evaluation's weights: one table of named fields, every value a middlegame/endgame pair.
//!
//! The values are our own first guesses from xiangqi practice (the usual piece proportions, the
//! ElephantEye idea that advisors and elephants matter as much as the opponent has attackers,
//! hollow and bottom cannons as king threats), waiting for tuning on game results.

/// A middlegame/endgame pair of centipawn values, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for building an [`S`] in tables.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    pub const ZERO: S = s(0, 0);

    /// Blends the pair by `phase` out of [`MAX_PHASE`] (full middlegame at `MAX_PHASE`).
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl std::ops::Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

impl std::ops::AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

/// The phase of the full starting material; 0 is a bare endgame.
pub const MAX_PHASE: i32 = 48;

/// A half piece-square table from the owner's point of view: rows from the enemy back rank
/// (row 0 = relative rank 9) down to the own back rank (row 9 = relative rank 0), columns
/// files a..e; files f..i mirror d..a, so every table is left-right symmetric by construction.
pub type HalfTable = [[i16; 5]; 10];

/// Every weight of the evaluation. Indices by piece kind follow `PieceKind::index()`
/// (King, Advisor, Elephant, Horse, Rook, Cannon, Pawn).
#[derive(Clone, Debug)]
pub struct Params {
    /// Material per piece kind.
    pub material: [S; 7],
    /// Piece-square tables per piece kind, middlegame.
    pub pst_mg: [HalfTable; 7],
    /// Piece-square tables per piece kind, endgame.
    pub pst_eg: [HalfTable; 7],
    /// Game-phase weight per piece kind (the sum over both sides is capped at [`MAX_PHASE`]).
    pub phase_weight: [i32; 7],

    /// Rook: per reachable point (own pieces excluded) beyond `rook_mobility_base`.
    pub rook_mobility: S,
    pub rook_mobility_base: i32,
    /// Rook on a file without pawns of either side / without own pawns.
    pub rook_open_file: S,
    pub rook_semi_open_file: S,
    /// Horse: per reachable point that is neither own-occupied nor guarded by an enemy pawn,
    /// beyond `horse_mobility_base` (blocked legs already remove points).
    pub horse_mobility: S,
    pub horse_mobility_base: i32,
    /// Cannon: per empty point it can slide to, beyond `cannon_mobility_base`.
    pub cannon_mobility: S,
    pub cannon_mobility_base: i32,
    /// Cannon: per enemy piece it attacks over a screen.
    pub cannon_screen_target: S,

    /// King safety: attack units per attacker kind whose attacks reach the enemy palace.
    pub king_attack_units: [i32; 7],
    /// Danger = units² × this / 16, applied only with at least two attackers (one attacker = units × single).
    pub king_danger_quadratic: S,
    pub king_danger_single: S,
    /// Danger is capped here (before tapering) so it never dwarfs material.
    pub king_danger_cap: i32,
    /// Per missing advisor, per enemy rook/horse/cannon (`[rook, horse, cannon]`).
    pub missing_advisor: [S; 3],
    /// Per missing elephant, per enemy rook/horse/cannon (`[rook, horse, cannon]`).
    pub missing_elephant: [S; 3],
    /// An enemy cannon on the king's file with nothing between (空头炮), by the cannon's
    /// distance from the king in ranks (index 0..9).
    pub hollow_cannon: [S; 10],
    /// An enemy cannon on the king's file pinning a horse on the palace centre (窝心马).
    pub central_horse_pinned: S,
    /// An enemy cannon on the king's back rank with nothing between (沉底炮).
    pub bottom_cannon: S,

    /// Crossed pawns standing side by side on the same rank (both get it).
    pub pawn_connected: S,
    /// Per crossed pawn, on top of its table value.
    pub pawn_crossed: S,

    /// For the side to move.
    pub tempo: S,
    /// Scale (out of 64) applied when the side ahead has no rook, horse, cannon or pawn left
    /// and so can never mate.
    pub no_attacker_scale: i32,
}

/// One tunable scalar of [`Params`]: what a tuner that treats the weights as a flat vector
/// ([`Params::to_vec`], [`Params::with_vec`]) knows about each entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamId {
    /// The field of [`Params`].
    pub field: &'static str,
    /// The index in an array field (the piece kind for `material`, the tables and `king_attack_units`).
    pub index: Option<usize>,
    /// Row and column in a half table (`pst_mg`, `pst_eg`).
    pub cell: Option<(usize, usize)>,
    /// The half of an [`S`]: `Some(true)` middlegame, `Some(false)` endgame, `None` for plain numbers.
    pub mg: Option<bool>,
}

/// Piece kind names by index, as [`ParamId`] shows them and the tuner writes them in source.
pub const KIND_NAMES: [&str; 7] = ["King", "Advisor", "Elephant", "Horse", "Rook", "Cannon", "Pawn"];

impl ParamId {
    const fn new(field: &'static str, index: Option<usize>, mg: Option<bool>) -> ParamId {
        ParamId {
            field,
            index,
            cell: None,
            mg,
        }
    }

    /// Whether `index` is a piece kind.
    fn by_kind(&self) -> bool {
        matches!(self.field, "material" | "pst_mg" | "pst_eg" | "king_attack_units")
    }
}

impl std::fmt::Display for ParamId {
    /// `material[Rook].mg`, `pst_eg[Horse][2][3]`, `hollow_cannon[4].eg`, `tempo.mg`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.field)?;
        match self.index {
            Some(i) if self.by_kind() => write!(f, "[{}]", KIND_NAMES.get(i).copied().unwrap_or("?"))?,
            Some(i) => write!(f, "[{i}]")?,
            None => {}
        }
        if let Some((r, c)) = self.cell {
            write!(f, "[{r}][{c}]")?;
        }
        match self.mg {
            Some(true) => write!(f, ".mg"),
            Some(false) => write!(f, ".eg"),
            None => Ok(()),
        }
    }
}

/// Whether a piece of kind `kind` can ever stand on half-table cell `(row, col)`; other cells
/// are never read (and for advisors and elephants must stay zero, see `evaluate`).
fn cell_in_use(kind: usize, row: usize, col: usize) -> bool {
    let (Some(&k), Some(rank)) = (crate::core::PieceKind::ALL.get(kind), 9usize.checked_sub(row)) else {
        return false;
    };
    let sq = crate::core::Square::new(col as u8, rank as u8);
    crate::board::attacks::home_squares(crate::core::Color::Red, k).has(sq)
}

/// Hands both halves of `v` to `f`.
fn map_pair<F: FnMut(ParamId, i32) -> i32>(f: &mut F, field: &'static str, index: Option<usize>, v: &mut S) {
    v.mg = f(ParamId::new(field, index, Some(true)), v.mg);
    v.eg = f(ParamId::new(field, index, Some(false)), v.eg);
}

fn map_pairs<F: FnMut(ParamId, i32) -> i32>(f: &mut F, field: &'static str, skip: usize, v: &mut [S]) {
    for (i, x) in v.iter_mut().enumerate().skip(skip) {
        map_pair(f, field, Some(i), x);
    }
}

fn map_tables<F: FnMut(ParamId, i32) -> i32>(f: &mut F, field: &'static str, tables: &mut [HalfTable; 7]) {
    for (kind, table) in tables.iter_mut().enumerate() {
        for (row, cells) in table.iter_mut().enumerate() {
            for (col, x) in cells.iter_mut().enumerate() {
                if cell_in_use(kind, row, col) {
                    let id = ParamId {
                        cell: Some((row, col)),
                        ..ParamId::new(field, Some(kind), None)
                    };
                    *x = f(id, i32::from(*x)).clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                }
            }
        }
    }
}

fn map_one<F: FnMut(ParamId, i32) -> i32>(f: &mut F, field: &'static str, v: &mut i32) {
    *v = f(ParamId::new(field, None, None), *v);
}

impl Params {
    /// Calls `f` on every tunable scalar, always in the same order, and stores what it returns.
    /// Left out: the phase weights (they define the taper rather than a value), the King's
    /// material, the attack units of kinds that never reach the palace (King, Advisor,
    /// Elephant), `hollow_cannon[0]` (a cannon cannot share the king's point) and table cells
    /// where the piece can never stand.
    pub fn map_tunable(&mut self, mut f: impl FnMut(ParamId, i32) -> i32) {
        // Destructured without `..`, so that a new field cannot be forgotten here.
        let Params {
            material,
            pst_mg,
            pst_eg,
            phase_weight: _,
            rook_mobility,
            rook_mobility_base,
            rook_open_file,
            rook_semi_open_file,
            horse_mobility,
            horse_mobility_base,
            cannon_mobility,
            cannon_mobility_base,
            cannon_screen_target,
            king_attack_units,
            king_danger_quadratic,
            king_danger_single,
            king_danger_cap,
            missing_advisor,
            missing_elephant,
            hollow_cannon,
            central_horse_pinned,
            bottom_cannon,
            pawn_connected,
            pawn_crossed,
            tempo,
            no_attacker_scale,
        } = self;
        let f = &mut f;
        map_pairs(f, "material", 1, material);
        map_tables(f, "pst_mg", pst_mg);
        map_tables(f, "pst_eg", pst_eg);
        map_pair(f, "rook_mobility", None, rook_mobility);
        map_one(f, "rook_mobility_base", rook_mobility_base);
        map_pair(f, "rook_open_file", None, rook_open_file);
        map_pair(f, "rook_semi_open_file", None, rook_semi_open_file);
        map_pair(f, "horse_mobility", None, horse_mobility);
        map_one(f, "horse_mobility_base", horse_mobility_base);
        map_pair(f, "cannon_mobility", None, cannon_mobility);
        map_one(f, "cannon_mobility_base", cannon_mobility_base);
        map_pair(f, "cannon_screen_target", None, cannon_screen_target);
        for (kind, units) in king_attack_units.iter_mut().enumerate().skip(3) {
            *units = f(ParamId::new("king_attack_units", Some(kind), None), *units);
        }
        map_pair(f, "king_danger_quadratic", None, king_danger_quadratic);
        map_pair(f, "king_danger_single", None, king_danger_single);
        map_one(f, "king_danger_cap", king_danger_cap);
        map_pairs(f, "missing_advisor", 0, missing_advisor);
        map_pairs(f, "missing_elephant", 0, missing_elephant);
        map_pairs(f, "hollow_cannon", 1, hollow_cannon);
        map_pair(f, "central_horse_pinned", None, central_horse_pinned);
        map_pair(f, "bottom_cannon", None, bottom_cannon);
        map_pair(f, "pawn_connected", None, pawn_connected);
        map_pair(f, "pawn_crossed", None, pawn_crossed);
        map_pair(f, "tempo", None, tempo);
        map_one(f, "no_attacker_scale", no_attacker_scale);
    }

    /// The tunable scalars in [`Params::map_tunable`] order.
    pub fn to_vec(&self) -> Vec<i32> {
        let mut out = Vec::new();
        self.clone().map_tunable(|_, v| {
            out.push(v);
            v
        });
        out
    }

    /// What each entry of [`Params::to_vec`] is.
    pub fn ids() -> Vec<ParamId> {
        let mut out = Vec::new();
        PARAMS.clone().map_tunable(|id, v| {
            out.push(id);
            v
        });
        out
    }

    /// These weights with the tunable scalars taken from `values` (in [`Params::to_vec`]
    /// order); `None` if `values` has the wrong length.
    pub fn with_vec(&self, values: &[i32]) -> Option<Params> {
        let mut p = self.clone();
        let mut it = values.iter();
        let mut short = false;
        p.map_tunable(|_, v| match it.next() {
            Some(&x) => x,
            None => {
                short = true;
                v
            }
        });
        (!short && it.next().is_none()).then_some(p)
    }

    /// [`PARAMS`] with the tunable scalars taken from `values`.
    pub fn from_vec(values: &[i32]) -> Option<Params> {
        PARAMS.with_vec(values)
    }
}

const Z: HalfTable = [[0; 5]; 10];

/// The weights in use.
#[rustfmt::skip]
pub const PARAMS: Params = Params {
    //              King     Advisor     Elephant    Horse       Rook        Cannon      Pawn
    material: [s(0, 0), s(110, 95), s(110, 95), s(390, 430), s(900, 950), s(430, 400), s(70, 90)],

    pst_mg: [
        // King: stays on the back rank in the middlegame; rising is exposure.
        [Z[0], Z[1], Z[2], Z[3], Z[4], Z[5], Z[6],
         [0, 0, 0, -30, -35],
         [0, 0, 0, -12, -10],
         [0, 0, 0,  -4,   6]],
        // Advisor: the palace centre guards most; the upper corners least.
        [Z[0], Z[1], Z[2], Z[3], Z[4], Z[5], Z[6],
         [0, 0, 0, -10,  0],
         [0, 0, 0,   0, 12],
         [0, 0, 0,   0,  0]],
        // Elephant: the centre point e2 links both elephants; edges and the river bank are loose.
        [Z[0], Z[1], Z[2], Z[3], Z[4],
         [0, 0, -4, 0,  0],
         Z[6],
         [-6, 0, 0, 0, 12],
         Z[8],
         [0, 0, 2, 0, 0]],
        // Horse: central and advanced; c8/g8 (卧槽) and the river posts are strong, the edge and
        // the palace centre (窝心马, it blocks the king and advisors) are bad.
        [[  0,  -8,  10,  14,   0],
         [  0,  18,  34,  22,  12],
         [  6,  22,  26,  32,  26],
         [  6,  20,  30,  32,  26],
         [  0,  14,  22,  26,  20],
         [  0,  10,  16,  16,  14],
         [ -6,   4,  10,   6,   6],
         [-10,   0,  10,   4,   0],
         [-16,  -6,   0,  -6, -30],
         [-20, -10, -10, -14, -20]],
        // Rook: ribs (d/f files) and the enemy camp; corner rooks must get out.
        [[ 10,  10,  10,  20,  14],
         [ 16,  20,  20,  30,  24],
         [ 10,  14,  14,  24,  20],
         [ 10,  14,  14,  20,  18],
         [ 10,  16,  14,  20,  18],
         [  6,  14,  10,  20,  14],
         [  0,   6,   6,  14,  10],
         [ -6,   4,   0,  10,   0],
         [ -6,   0,   0,  10,  -6],
         [-12,   0,  -4,   4, -10]],
        // Cannon: the central file (当头炮) and the home ranks behind screens; the edge files of
        // the enemy back ranks (沉底炮) are a threat too.
        [[ 10,   8,   0,  -6,  -4],
         [  6,   4,   0,  -6,  -4],
         [  4,   4,   0,  -4,   6],
         [  0,   4,   0,   0,   6],
         [  0,   2,   0,   2,  10],
         [ -4,   0,   0,   2,  10],
         [  0,   0,   0,   0,  10],
         [  0,   6,   6,  10,  26],
         [  0,   0,   2,   6,  16],
         [  0,   0,   4,   6,  10]],
        // Pawn: small at home, worth more once across the river and most next to the palace;
        // on the last rank it can only step sideways (老兵).
        [[  0,   4,  10,  20,  24],
         [ 60,  90, 150, 200, 220],
         [ 60,  90, 130, 160, 170],
         [ 60,  80, 110, 130, 140],
         [ 40,  60,  80, 100, 110],
         [ -4,   0,   4,   0,  14],
         [ -6,   0,  -2,   0,   4],
         Z[7], Z[8], Z[9]],
    ],

    pst_eg: [
        // King: the rib files help the attack through the facing-kings rule; rising is safer late.
        [Z[0], Z[1], Z[2], Z[3], Z[4], Z[5], Z[6],
         [0, 0, 0, -6, -10],
         [0, 0, 0,  4,   2],
         [0, 0, 0,  4,   0]],
        [Z[0], Z[1], Z[2], Z[3], Z[4], Z[5], Z[6],
         [0, 0, 0, -6,  0],
         [0, 0, 0,  0,  8],
         [0, 0, 0,  0,  0]],
        [Z[0], Z[1], Z[2], Z[3], Z[4],
         [0, 0, -4, 0,  0],
         Z[6],
         [-6, 0, 0, 0,  8],
         Z[8],
         [0, 0, 2, 0, 0]],
        // Horse: centralisation above all.
        [[-10,   0,   6,  10,   6],
         [ -4,  10,  20,  20,  16],
         [  0,  14,  24,  30,  30],
         [  0,  14,  24,  30,  30],
         [  0,  10,  20,  24,  24],
         [ -4,   6,  14,  20,  20],
         [-10,   0,  10,  10,  10],
         [-14,  -4,   0,   6,   6],
         [-20, -10,  -6,   0,   0],
         [-26, -16, -10, -10, -10]],
        // Rook: flatter; activity comes from mobility.
        [[  6,  10,  10,  14,  14],
         [ 10,  14,  14,  20,  20],
         [  6,  10,  10,  14,  14],
         [  6,  10,  10,  14,  14],
         [  6,  10,  10,  14,  14],
         [  4,   8,   8,  12,  12],
         [  0,   4,   4,  10,  10],
         [  0,   4,   4,  10,  10],
         [ -2,   2,   2,   8,   8],
         [ -6,   0,   0,   6,   6]],
        // Cannon: goes home late, where its own advisors and king serve as screens.
        [[  0,   0,   0,   0,   0],
         [  0,   0,   0,   0,   0],
         [  0,   0,   0,   0,   4],
         [  0,   0,   0,   0,   4],
         [  0,   0,   0,   2,   4],
         [  0,   0,   0,   2,   4],
         [  0,   0,   0,   2,   4],
         [  0,   2,   4,   6,  10],
         [  0,   2,   4,   8,  10],
         [  0,   2,   4,   6,   8]],
        // Pawn: crossed pawns decide endgames; central ones near the palace most.
        [[  0,  10,  16,  26,  30],
         [ 30,  50,  74, 100, 110],
         [ 30,  50,  70,  90, 100],
         [ 24,  40,  54,  64,  70],
         [ 20,  30,  40,  46,  50],
         [  0,   0,   4,   4,  10],
         [ -6,   0,   0,   0,   0],
         Z[7], Z[8], Z[9]],
    ],

    //             K  A  E  H  R  C  P
    phase_weight: [0, 0, 0, 3, 6, 3, 0],

    rook_mobility: s(4, 6),
    rook_mobility_base: 6,
    rook_open_file: s(14, 8),
    rook_semi_open_file: s(6, 4),
    horse_mobility: s(8, 8),
    horse_mobility_base: 3,
    cannon_mobility: s(2, 2),
    cannon_mobility_base: 6,
    cannon_screen_target: s(6, 4),

    //                 K  A  E  H  R  C  P
    king_attack_units: [0, 0, 0, 3, 4, 3, 2],
    king_danger_quadratic: s(12, 4),
    king_danger_single: s(4, 1),
    king_danger_cap: 400,
    //                rook       horse      cannon
    missing_advisor:  [s(22, 18), s(16, 12), s(8, 4)],
    missing_elephant: [s(6, 4),   s(4, 2),   s(22, 14)],
    // Distance 0 cannot happen; a cannon right next to the king is hardly a hollow threat.
    hollow_cannon: [s(0, 0), s(30, 0), s(90, 18), s(150, 36), s(180, 48), s(195, 54),
                    s(210, 60), s(225, 66), s(240, 72), s(240, 72)],
    central_horse_pinned: s(120, 30),
    bottom_cannon: s(90, 30),

    pawn_connected: s(12, 24),
    pawn_crossed: s(0, 10),

    tempo: s(20, 10),
    no_attacker_scale: 8,
};

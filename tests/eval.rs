//! Evaluation tests: symmetry under colour flip and left-right mirror over many positions from
//! random legal games, bounds, and sanity checks that each term points the right way.

mod common;

use chariot::board::Position;
use chariot::eval::hce::{self as eval, evaluate, EVAL_LIMIT, PARAMS};
use common::rng::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn openings() -> Vec<Position> {
    include_str!("data/openings.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(pos)
        .collect()
}

/// Plays `plies` random legal moves from `start`, calling `visit` on every position reached.
fn walk(start: &Position, plies: usize, rng: &mut Rng, mut visit: impl FnMut(&Position)) {
    let mut p = start.clone();
    visit(&p);
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.make_move(moves.get(rng.below(moves.len())));
        visit(&p);
    }
}

fn check_symmetry(p: &Position, checked: &mut usize) {
    let v = evaluate(p);
    assert!(v.abs() <= EVAL_LIMIT, "{v} out of bounds: {}", p.fen());
    assert_eq!(
        evaluate(&p.flipped()),
        v,
        "colour flip changes the score of {}",
        p.fen()
    );
    assert_eq!(evaluate(&p.mirrored()), v, "mirror changes the score of {}", p.fen());
    assert_eq!(
        evaluate(&p.flipped().mirrored()),
        v,
        "flip+mirror changes the score of {}",
        p.fen()
    );
    *checked += 1;
}

#[test]
fn symmetric_under_colour_flip_and_mirror_over_random_games() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    let start = Position::startpos();
    for _ in 0..20 {
        walk(&start, 160, &mut rng, |p| check_symmetry(p, &mut checked));
    }
    for opening in openings() {
        for _ in 0..3 {
            walk(&opening, 120, &mut rng, |p| check_symmetry(p, &mut checked));
        }
    }
    assert!(checked > 10_000, "only {checked} positions checked");
}

#[test]
fn start_position_is_the_tempo() {
    let v = evaluate(&Position::startpos());
    assert_eq!(v, PARAMS.tempo.mg, "the start is symmetric, so only the tempo remains");
    assert!(v > 0 && v < 40);
    let black_to_move = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(evaluate(&black_to_move), v);
}

#[test]
fn openings_are_roughly_balanced() {
    for p in openings() {
        let v = evaluate(&p);
        assert!(v.abs() < 150, "{v} for the balanced opening {}", p.fen());
    }
}

#[test]
fn a_rook_up_is_clearly_ahead() {
    // Black's a9 rook is missing.
    let red = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert!(evaluate(&red) > 700, "{}", evaluate(&red));
    let black = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert!(evaluate(&black) < -700, "{}", evaluate(&black));
}

#[test]
fn material_proportions() {
    // Rook ≈ two horses or cannons; horse and cannon close; pawn small before the river.
    let m = |k: usize| PARAMS.material[k];
    let (advisor, horse, rook, cannon, pawn) = (m(1), m(3), m(4), m(5), m(6));
    for (r, h, c) in [(rook.mg, horse.mg, cannon.mg), (rook.eg, horse.eg, cannon.eg)] {
        assert!(r > 2 * h.min(c) - 50 && r < 2 * h.max(c) + 150);
        assert!((h - c).abs() < 80);
    }
    assert!(
        cannon.mg > horse.mg && horse.eg > cannon.eg,
        "cannon better early, horse late"
    );
    assert!(pawn.mg < advisor.mg);
}

#[test]
fn crossed_pawn_beats_home_pawn() {
    // The same Red pawn on e3 (home) and on e6 (across the river).
    let home = pos("3akab2/9/9/9/9/9/4P4/9/9/3AKAB2 w - - 0 1");
    let crossed = pos("3akab2/9/9/4P4/9/9/9/9/9/3AKAB2 w - - 0 1");
    assert!(
        evaluate(&crossed) > evaluate(&home) + 30,
        "{} vs {}",
        evaluate(&crossed),
        evaluate(&home)
    );
}

#[test]
fn a_pawn_near_the_palace_beats_one_at_the_bottom() {
    let near = pos("3k5/4P4/9/9/9/9/9/9/9/4K4 w - - 0 1");
    let bottom = pos("P2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert!(evaluate(&near) > evaluate(&bottom));
}

#[test]
fn hollow_cannon_is_a_threat() {
    // Red cannon on e2 facing the Black king with the e-file empty, against the same cannon on d2
    // (Red's king moved to d0 so that the kings do not face each other).
    let hollow = pos("3akab2/9/9/9/9/9/9/4C4/9/3AKAB2 b - - 0 1");
    let aside = pos("3akab2/9/9/9/9/9/9/3C5/9/3K1AB2 b - - 0 1");
    let t = eval::breakdown(&hollow);
    let u = eval::breakdown(&aside);
    assert!(t.terms[eval::Term::KingSafety as usize][1].mg < u.terms[eval::Term::KingSafety as usize][1].mg);
}

#[test]
fn missing_advisors_hurt_against_rooks() {
    let full = pos("3akab2/9/9/9/9/9/4P4/9/9/R2AKAB2 w - - 0 1");
    let bare = pos("4k4/9/9/9/9/9/4P4/9/9/R2AKAB2 w - - 0 1");
    let ks = |p: &Position| eval::breakdown(p).terms[eval::Term::KingSafety as usize][1];
    assert!(ks(&bare).mg < ks(&full).mg && ks(&bare).eg < ks(&full).eg);
}

#[test]
fn rook_mobility_counts() {
    // The same rook hemmed in a corner behind its own pieces, and free in the centre.
    let hemmed = pos("3akab2/9/9/9/9/9/P3P4/9/9/RN1AKAB2 w - - 0 1");
    let free = pos("3akab2/9/9/9/9/3R5/P3P4/9/9/1N1AKAB2 w - - 0 1");
    let mob = |p: &Position| eval::breakdown(p).terms[eval::Term::Mobility as usize][0];
    assert!(mob(&free).mg > mob(&hemmed).mg + 40);
}

#[test]
fn horse_legs_matter() {
    // A Red horse on e4 with all four legs free against the same horse with all four blocked by Red pawns.
    let free = pos("3akab2/9/9/9/9/9/4N4/9/9/3AKAB2 w - - 0 1");
    let hobbled = pos("3akab2/9/9/9/4P4/3pNp3/4P4/9/9/3AKAB2 w - - 0 1");
    let mob = |p: &Position| eval::breakdown(p).terms[eval::Term::Mobility as usize][0];
    assert!(mob(&free).mg > mob(&hobbled).mg);
}

#[test]
fn side_without_attackers_cannot_win() {
    // Red has both advisors and elephants against a bare king: a dead draw.
    let p = pos("3k5/9/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1");
    assert!(evaluate(&p).abs() < 60, "{}", evaluate(&p));
    // A rook, though, wins.
    let q = pos("3k5/9/9/9/9/9/9/9/9/R1BAKAB2 w - - 0 1");
    assert!(evaluate(&q) > 800);
}

#[test]
fn phase_follows_material() {
    assert_eq!(eval::breakdown(&Position::startpos()).phase, eval::MAX_PHASE);
    assert_eq!(eval::breakdown(&pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")).phase, 0);
}

#[test]
fn trace_shows_every_term_and_the_final_score() {
    let p = pos("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4");
    let text = eval::trace(&p);
    for t in eval::Term::ALL {
        assert!(text.contains(t.name()), "{text}");
    }
    assert!(text.contains("Phase"));
    assert!(text.contains(&format!("Final evaluation: {} ", evaluate(&p))), "{text}");
}

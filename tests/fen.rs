//! FEN parsing: one test per rejection rule of the protocol contract, and the accepted forms.

use chariot::board::{FenError, Position, START_FEN};
use chariot::core::Color;

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(_) => panic!("accepted invalid FEN {fen}"),
        Err(e) => e,
    }
}

#[test]
fn start_position_round_trips() {
    assert_eq!(Position::from_fen(START_FEN).unwrap().fen(), START_FEN);
}

#[test]
fn board_and_side_only_is_valid() {
    let p = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
    assert_eq!(p.side_to_move(), Color::Black);
    let p = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r").unwrap();
    assert_eq!(p.side_to_move(), Color::Red);
}

#[test]
fn alternative_letters_are_read_and_printed_canonically() {
    let p = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1").unwrap();
    assert_eq!(p.fen(), START_FEN);
}

#[test]
fn rank_with_wrong_width() {
    assert_eq!(
        err("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::RankWidth { rank: 8, squares: 8 }
    );
    assert!(matches!(
        err("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::RankWidth { rank: 9, .. }
    ));
}

#[test]
fn wrong_number_of_ranks() {
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::RankCount(9)
    );
}

#[test]
fn unknown_letter() {
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
        FenError::UnknownLetter { rank: 0, letter: 'X' }
    ));
}

#[test]
fn king_count() {
    assert!(matches!(
        err("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::KingCount {
            color: Color::Black,
            count: 0
        }
    ));
    assert!(matches!(
        err("3k1k3/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::KingCount {
            color: Color::Black,
            count: 2
        }
    ));
}

#[test]
fn pieces_on_impossible_points() {
    // king outside the palace, advisor off its five points, elephant across the river
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/9/K8 w"), FenError::Misplaced { .. }));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/9/A3K4 w"), FenError::Misplaced { .. }));
    assert!(matches!(err("4k4/9/4B4/9/9/9/9/9/9/3K5 w"), FenError::Misplaced { .. }));
    assert!(matches!(err("4k4/9/9/9/9/9/9/2B6/9/3K5 w"), FenError::Misplaced { .. }));
    assert!(matches!(err("2a1k4/9/9/9/9/9/9/9/9/3K5 w"), FenError::Misplaced { .. }));
    assert!(matches!(err("5k3/4K4/9/9/9/9/9/9/9/9 w"), FenError::Misplaced { .. }));
    // The messages name the piece and the point.
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/A3K4 w").to_string(),
        "red advisor on a0 is on a point it can never reach"
    );
    // a black pawn deep in Red's camp is fine, and no composed position
    let p = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1p3 w").unwrap();
    assert_eq!(p.composed_warning(), None);
}

#[test]
fn composed_pawns_are_accepted_with_a_warning() {
    // The issue's composed endgame: a black pawn on its own back rank.
    let p = Position::from_fen("3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1").unwrap();
    let w = p.composed_warning().unwrap_or_default();
    assert!(w.contains("black pawn on f9 stands behind its starting rank"), "{w}");
    assert_eq!(p.fen(), "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1");
    // A red pawn behind its start and one off its file before the river: one sentence names both.
    let p = Position::from_fen("4k4/9/9/9/9/1P7/9/9/P8/3K5 w").unwrap();
    let w = p.composed_warning().unwrap_or_default();
    assert!(w.contains("red pawn on a1 stands behind its starting rank"), "{w}");
    assert!(w.contains("red pawn on b4 stands off its file"), "{w}");
    assert_eq!(w.matches("composed position").count(), 1, "{w}");
    // Reachable pawns are no composition.
    assert_eq!(Position::startpos().composed_warning(), None);
}

#[test]
fn pawns_behind_their_start_move_forward_only() {
    // Hand count: the red pawn on a1 has one move (a2); the king has e1 and f0 (d0 would
    // face the black king on d9).
    let mut p = Position::from_fen("3k5/9/9/9/9/9/9/9/P8/4K4 w").unwrap();
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert!(moves.contains(&"a1a2".to_string()), "{moves:?}");
    // Black pawn on its back rank b9: only b8, never sideways.
    let q = Position::from_fen("1p1k5/9/9/9/9/9/9/9/9/4K4 b").unwrap();
    let pawn: Vec<String> = q
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .filter(|m| m.starts_with("b9"))
        .collect();
    assert_eq!(pawn, ["b9b8"]);
    // After crossing the river it moves sideways too.
    for m in ["a1a2", "d9d8", "a2a3", "d8d9", "a3a4", "d9d8", "a4a5"] {
        let mv = p.parse_move(m).unwrap();
        p.make_move(mv);
    }
    p.make_move(p.parse_move("d8d9").unwrap());
    let mut pawn: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .filter(|m| m.starts_with("a5"))
        .collect();
    pawn.sort();
    assert_eq!(pawn, ["a5a6", "a5b5"]);
}

#[test]
fn too_many_pieces_of_a_kind() {
    assert!(matches!(
        err("4k4/9/9/9/RRR6/9/9/9/9/3K5 w"),
        FenError::TooMany {
            color: Color::Red,
            count: 3,
            ..
        }
    ));
}

#[test]
fn side_not_to_move_in_check_and_facing_kings() {
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        FenError::SideNotToMoveInCheck(Color::Black)
    ));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), FenError::KingsFacing);
}

#[test]
fn bad_fields() {
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
        FenError::BadSide(_)
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"),
        FenError::BadCounter { .. }
    ));
    assert!(matches!(err(""), FenError::Empty));
}

#[test]
fn errors_never_panic_on_garbage() {
    for s in [
        "/",
        "//////////",
        "9/9/9/9/9/9/9/9/9/9",
        "\u{1F600}",
        "k/9/9/9/9/9/9/9/9/K w",
        "999999999/9/9/9/9/9/9/9/9/9",
        "0/9/9/9/9/9/9/9/9/9",
    ] {
        assert!(Position::from_fen(s).is_err(), "{s}");
    }
}

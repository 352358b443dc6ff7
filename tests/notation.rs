//! The notation module against a table of known moves: ICCS, WXF and Chinese, parsed and
//! printed, from the start position and from positions with tandem rooks, horses, elephants
//! and pawns (three, four and five on a file, and tandems on two files), for both colours.

use chariot::board::Position;
use chariot::core::Move;
use chariot::notation::{self, Notation, NotationError, Refusal};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const START_B: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
/// Red rooks a0 and a4 (file 9); black horses c7 and c5 (Black's file 3).
const ROOKS_HORSES_W: &str = "3k5/9/2n6/9/2n6/R8/9/9/9/R3K4 w - - 0 1";
const ROOKS_HORSES_B: &str = "3k5/9/2n6/9/2n6/R8/9/9/9/R3K4 b - - 0 1";
/// Three red pawns on the e-file, across the river.
const THREE_PAWNS: &str = "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1";
/// Black pawns: three on c (Black's file 3), two on g (Black's file 7).
const TWO_FILES: &str = "5k3/9/9/9/9/2p6/2p3p2/2p3p2/9/3K5 b - - 0 1";
const FIVE_PAWNS: &str = "P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1";
const FOUR_PAWNS: &str = "P2k5/P8/P8/P8/9/9/9/9/9/4K4 w - - 0 1";
/// Red elephants c0 and c4 on one file; red advisors d0 and d2.
const ELEPHANTS: &str = "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1";

/// (position, ICCS, WXF, Chinese) — every one a legal move, written as the printers write it.
const TABLE: &[(&str, &str, &str, &str)] = &[
    // Red from the start: files from Red's right, in Chinese numerals.
    (START, "h2e2", "C2=5", "炮二平五"),
    (START, "b2e2", "C8=5", "炮八平五"),
    (START, "h0g2", "H2+3", "马二进三"),
    (START, "b0c2", "H8+7", "马八进七"),
    (START, "i0i1", "R1+1", "车一进一"),
    (START, "c3c4", "P7+1", "兵七进一"),
    (START, "g0e2", "E3+5", "相三进五"),
    (START, "d0e1", "A6+5", "仕六进五"),
    (START, "e0e1", "K5+1", "帅五进一"),
    (START, "b2b9", "C8+7", "炮八进七"),
    // Black after 1. C2=5: files from Black's right, in digits.
    (START_B, "h7e7", "C8=5", "炮8平5"),
    (START_B, "b7e7", "C2=5", "炮2平5"),
    (START_B, "h9g7", "H8+7", "马8进7"),
    (START_B, "b9c7", "H2+3", "马2进3"),
    (START_B, "a9a8", "R1+1", "车1进1"),
    (START_B, "c6c5", "P3+1", "卒3进1"),
    (START_B, "g9e7", "E7+5", "象7进5"),
    (START_B, "d9e8", "A4+5", "士4进5"),
    (START_B, "f9e8", "A6+5", "士6进5"),
    (START_B, "e9e8", "K5+1", "将5进1"),
    (START_B, "b7b0", "C2+7", "炮2进7"),
    // Tandem rooks (Red) and horses (Black): front and rear instead of the file.
    (ROOKS_HORSES_W, "a4a5", "R++1", "前车进一"),
    (ROOKS_HORSES_W, "a4b4", "R+=8", "前车平八"),
    (ROOKS_HORSES_W, "a0a1", "R-+1", "后车进一"),
    (ROOKS_HORSES_W, "a0d0", "R-=6", "后车平六"),
    (ROOKS_HORSES_B, "c5b3", "H++2", "前马进2"),
    (ROOKS_HORSES_B, "c5d7", "H+-4", "前马退4"),
    (ROOKS_HORSES_B, "c7b9", "H--2", "后马退2"),
    (ROOKS_HORSES_B, "c7a6", "H-+1", "后马进1"),
    // Three pawns on a file: front, middle (by its file), rear.
    (THREE_PAWNS, "e7e8", "P++1", "前兵进一"),
    (THREE_PAWNS, "e6d6", "P5=6", "中兵平六"),
    (THREE_PAWNS, "e5f5", "P-=4", "后兵平四"),
    // Tandem pawns on two files (Black): the file takes the letter's place.
    (TWO_FILES, "c2d2", "3+=4", "前3平4"),
    (TWO_FILES, "c3d3", "33=4", "中3平4"),
    (TWO_FILES, "c4d4", "3-=4", "后3平4"),
    (TWO_FILES, "c2c1", "3++1", "前3进1"),
    (TWO_FILES, "g2f2", "7+=6", "前7平6"),
    (TWO_FILES, "g3h3", "7-=8", "后7平8"),
    // Five and four pawns on a file.
    (FIVE_PAWNS, "a9b9", "++=8", "前兵平八"),
    (FIVE_PAWNS, "a8b8", "P+=8", "二兵平八"),
    (FIVE_PAWNS, "a7b7", "P9=8", "三兵平八"),
    (FIVE_PAWNS, "a6b6", "P-=8", "四兵平八"),
    (FIVE_PAWNS, "a5b5", "--=8", "后兵平八"),
    (FOUR_PAWNS, "a9b9", "++=8", "前兵平八"),
    (FOUR_PAWNS, "a8b8", "P+=8", "二兵平八"),
    (FOUR_PAWNS, "a7b7", "P-=8", "三兵平八"),
    (FOUR_PAWNS, "a6b6", "--=8", "后兵平八"),
    // Elephants and advisors keep their file even in tandem: only one can make each move.
    (ELEPHANTS, "c0e2", "E7+5", "相七进五"),
    (ELEPHANTS, "c4e2", "E7-5", "相七退五"),
    (ELEPHANTS, "c4a2", "E7-9", "相七退九"),
    (ELEPHANTS, "d0e1", "A6+5", "仕六进五"),
    (ELEPHANTS, "d2e1", "A6-5", "仕六退五"),
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

#[test]
fn table_prints_each_move_in_each_notation() {
    for &(fen, iccs, wxf, chinese) in TABLE {
        let p = pos(fen);
        let m = mv(iccs);
        assert!(p.is_legal(m), "{fen}: {iccs} should be legal");
        assert_eq!(notation::format_move(&p, m, Notation::Iccs), iccs);
        assert_eq!(notation::format_move(&p, m, Notation::Wxf), wxf, "{fen} {iccs}");
        assert_eq!(notation::format_move(&p, m, Notation::Chinese), chinese, "{fen} {iccs}");
    }
}

#[test]
fn table_parses_each_move_in_each_notation() {
    for &(fen, iccs, wxf, chinese) in TABLE {
        let p = pos(fen);
        let m = mv(iccs);
        for text in [iccs, wxf, chinese] {
            assert_eq!(notation::parse_move(&p, text), Ok(m), "{fen}: {text}");
        }
        assert_eq!(Notation::detect(wxf), Notation::Wxf, "{wxf}");
        assert_eq!(Notation::detect(chinese), Notation::Chinese);
        assert_eq!(Notation::detect(iccs), Notation::Iccs);
    }
}

#[test]
fn other_spellings_are_read() {
    let p = pos(START);
    let h2e2 = Ok(mv("h2e2"));
    for text in [
        "H2-E2",
        "h2-e2",
        "H2E2",
        "C2.5",
        "c2=5",
        "C25",
        "炮2平5",
        "砲二平五",
        "包二平五",
        " C2=5 ",
    ] {
        assert_eq!(notation::parse_move(&p, text), h2e2, "{text}");
    }
    assert_eq!(notation::parse_move(&p, "傌二進三"), Ok(mv("h0g2")));
    assert_eq!(notation::parse_move(&p, "馬8進7"), Ok(mv("b0c2")));
    assert_eq!(notation::parse_move(&p, "俥一進一"), Ok(mv("i0i1")));
    assert_eq!(notation::parse_move(&p, "帥五進一"), Ok(mv("e0e1")));
    assert_eq!(notation::parse_move(&p, "N2+3"), Ok(mv("h0g2")));
    assert_eq!(notation::parse_move(&p, "B3+5"), Ok(mv("g0e2")));
    let b = pos(START_B);
    assert_eq!(notation::parse_move(&b, "車1進1"), Ok(mv("a9a8")));
    assert_eq!(notation::parse_move(&b, "砲８平５"), Ok(mv("h7e7")));
    assert_eq!(notation::parse_move(&b, "將5進1"), Ok(mv("e9e8")));
    assert_eq!(notation::parse_move(&b, "帅5进1"), Ok(mv("e9e8")));
    assert_eq!(notation::parse_move(&b, "兵3进1"), Ok(mv("c6c5")));
    let t = pos(ROOKS_HORSES_W);
    assert_eq!(notation::parse_move(&t, "前車進一"), Ok(mv("a4a5")));
    assert_eq!(notation::parse_move(&t, "後车进一"), Ok(mv("a0a1")));
    assert_eq!(notation::parse_move(&t, "+R+1"), Ok(mv("a4a5")));
    assert_eq!(notation::parse_move(&t, "-R+1"), Ok(mv("a0a1")));
    // A file holding two rooks is fine when only one of them can make the move.
    assert_eq!(notation::parse_move(&t, "R9+5"), Ok(mv("a4a9")));
    let e = pos(ELEPHANTS);
    assert_eq!(notation::parse_move(&e, "相7进5"), Ok(mv("c0e2")));
}

#[test]
fn typed_errors() {
    let p = pos(START);
    assert!(matches!(
        notation::parse_move(&p, "X2=5"),
        Err(NotationError::UnknownPiece(_))
    ));
    assert!(matches!(
        notation::parse_move(&p, "鬼二平五"),
        Err(NotationError::UnknownPiece(_))
    ));
    assert!(matches!(
        notation::parse_move(&p, "C3=5"),
        Err(NotationError::NoPiece { file: 3, .. })
    ));
    assert!(matches!(
        notation::parse_move(&p, "前炮平五"),
        Err(NotationError::NoTandem { .. })
    ));
    assert!(matches!(
        notation::parse_move(&p, "C2=5x"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        notation::parse_move(&p, "h2e"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        notation::parse_move(&p, "炮二五"),
        Err(NotationError::Syntax { .. })
    ));
    // The horse's leg: b0 to d1 over c0.
    let leg = notation::parse_move(&p, "H8+6");
    assert_eq!(
        leg,
        Err(NotationError::Illegal {
            mv: Some(mv("b0d1")),
            reason: Refusal::HorseLeg(mv("c0c1").from()),
        })
    );
    assert_eq!(
        notation::parse_move(&p, "b0d1"),
        Err(NotationError::Illegal {
            mv: Some(mv("b0d1")),
            reason: Refusal::HorseLeg(mv("c0c1").from()),
        })
    );
    // Backwards off the board: no point fits.
    assert!(matches!(
        notation::parse_move(&p, "H8-7"),
        Err(NotationError::Illegal {
            mv: None,
            reason: Refusal::Unlike(_)
        })
    ));
    // Two rooks on one file that can both go one rank forward: asked back with both.
    let t = pos(ROOKS_HORSES_W);
    match notation::parse_move(&t, "R9+1") {
        Err(NotationError::Ambiguous { candidates, described }) => {
            assert_eq!(candidates.len(), 2);
            assert!(described.contains(&"R++1 (a4a5)".to_string()), "{described:?}");
            assert!(described.contains(&"R-+1 (a0a1)".to_string()), "{described:?}");
        }
        other => panic!("{other:?}"),
    }
    match notation::parse_move(&t, "车九进一") {
        Err(NotationError::Ambiguous { described, .. }) => {
            assert!(described.contains(&"前车进一 (a4a5)".to_string()), "{described:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn refusal_reasons() {
    let cases: &[(&str, &str, Refusal)] = &[
        (START, "b0d1", Refusal::HorseLeg(mv("c0c1").from())),
        (START, "a0b1", Refusal::Unlike(chariot::core::PieceKind::Rook)),
        (
            START,
            "a0a4",
            Refusal::Blocked(chariot::core::PieceKind::Rook, mv("a3a4").from()),
        ),
        (START, "h2h7", Refusal::CannonScreen),
        (START, "e3f3", Refusal::PawnSideways),
        (START, "e3e2", Refusal::PawnBackward),
        (START, "d0c1", Refusal::Palace(chariot::core::PieceKind::Advisor)),
        (START, "a9a8", Refusal::NotYours(mv("a9a8").from())),
        (START, "e5e6", Refusal::NoPiece(mv("e5e6").from())),
        (START, "a0b0", Refusal::OwnPiece(mv("a0b0").to())),
        // Elephant e2 -> c4 over d3 (a black pawn there), and c4 -> e6 across the river.
        (
            "4k4/9/9/9/9/2B6/3p5/4B4/9/3K5 w - - 0 1",
            "e2c4",
            Refusal::OwnPiece(mv("e2c4").to()),
        ),
        (
            "4k4/9/9/9/9/9/3p5/4B4/9/3K5 w - - 0 1",
            "e2c4",
            Refusal::ElephantEye(mv("d3d4").from()),
        ),
        ("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4e6", Refusal::ElephantRiver),
        // The knight between the kings may not step aside; the king may not step into a rook's file.
        ("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1", "e5d7", Refusal::KingsFace),
        ("3k5/9/9/9/9/9/9/9/6r2/4K4 w - - 0 1", "e0e1", Refusal::KingInCheck),
        ("3k5/9/9/9/9/9/9/5Rn2/4K4/9 w - - 0 1", "f2f5", Refusal::KingInCheck),
    ];
    for &(fen, text, reason) in cases {
        let p = pos(fen);
        assert_eq!(notation::explain(&p, mv(text)), Some(reason), "{fen} {text}");
    }
    // Every legal move has no refusal, and every refusal of a pseudo-legal target is one of
    // the two king-safety reasons.
    let p = pos(START);
    for m in p.legal_moves().iter() {
        assert_eq!(notation::explain(&p, m), None);
    }
    let text = Refusal::HorseLeg(mv("c0c1").from()).to_string();
    assert!(text.contains("horse's leg is blocked"), "{text}");
    assert!(Refusal::ElephantEye(mv("d1d2").from())
        .to_string()
        .contains("elephant's eye is blocked"));
    assert!(Refusal::ElephantRiver.to_string().contains("may not cross the river"));
    assert!(Refusal::KingInCheck.to_string().contains("leave your king in check"));
    assert!(Refusal::KingsFace.to_string().contains("kings would face each other"));
    assert!(Refusal::Unlike(chariot::core::PieceKind::Horse)
        .to_string()
        .contains("cannot move like that"));
}

#[test]
fn every_legal_move_round_trips() {
    // Printed in WXF or Chinese, every legal move of these positions reads back as itself.
    let fens = [
        START,
        START_B,
        ROOKS_HORSES_W,
        ROOKS_HORSES_B,
        THREE_PAWNS,
        TWO_FILES,
        FIVE_PAWNS,
        FOUR_PAWNS,
        ELEPHANTS,
    ];
    for fen in fens {
        let p = pos(fen);
        for m in p.legal_moves().iter() {
            for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                let text = notation::format_move(&p, m, n);
                assert_eq!(notation::parse_as(&p, &text, n), Ok(m), "{fen}: {m} as {text}");
            }
        }
    }
}

#[test]
fn lines() {
    let p = pos(START);
    let line = [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")];
    assert_eq!(notation::format_line(&p, &line, Notation::Wxf), "C2=5 H8+7 H2+3 R9=8");
    assert_eq!(
        notation::format_line(&p, &line, Notation::Chinese),
        "炮二平五 马8进7 马二进三 车9平8"
    );
    // Stops at the first move that is not legal where it is played.
    assert_eq!(
        notation::format_line(&p, &[mv("h2e2"), mv("h2e2")], Notation::Wxf),
        "C2=5"
    );
    assert_eq!(notation::iccs::format_upper(mv("h2e2")), "H2-E2");
}

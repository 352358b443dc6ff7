//! `chariot analyse`: the game-file readers against what the `cchess` Python package reads
//! from the same files (scripts/cchess_check.py), broken and garbled files, known blunders,
//! the annotated PGN, the graph and the command line.

use chariot::core::{Color, Move};
use chariot::formats::{self, Format, Game, ReadError};
use chariot::notation::Notation;
use chariot::search::{Control, Limits, Searcher};
use chariot::tools::analyse::review::{self, GameReview, Mark, Plan};
use chariot::tools::analyse::{annotate, graph};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// PGN text with every run of whitespace as one space (lines wrap anywhere).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

fn only_game(name: &str) -> Game {
    let mut games = formats::read(&bytes(name));
    assert_eq!(games.len(), 1, "{name}");
    games.remove(0).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// File, format, start FEN, plies, first four and last two moves, Red's name, result: as
/// `cchess` 1.26.1 reads them.
type Expected = (
    &'static str,
    Format,
    &'static str,
    usize,
    [&'static str; 4],
    [&'static str; 2],
    &'static str,
    &'static str,
);

const CCHESS: [Expected; 8] = [
    (
        "test1.xqf",
        Format::Xqf,
        START,
        110,
        ["c3c4", "h9g7", "g3g4", "b7c7"],
        ["d6d8", "g4g3"],
        "柳大华",
        "0-1",
    ),
    (
        "BadMoveTest2.xqf",
        Format::Xqf,
        START,
        35,
        ["h2e2", "b9c7", "h0g2", "h7f7"],
        ["e9f9", "c6c9"],
        "林糟霖",
        "1-0",
    ),
    (
        "ucci_test1.xqf",
        Format::Xqf,
        "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1",
        43,
        ["e2e6", "e8f7", "d7e7", "e9d9"],
        ["f7e8", "h9g7"],
        "Red",
        "1-0",
    ),
    (
        "game_test.xqf",
        Format::Xqf,
        START,
        58,
        ["b2e2", "b7e7", "b0c2", "b9c7"],
        ["d9e9", "e7f7"],
        "Red",
        "*",
    ),
    (
        "test.cbf",
        Format::Cbf,
        START,
        50,
        ["h2e2", "h9g7", "h0g2", "g6g5"],
        ["g5g6", "c6c0"],
        "Red",
        "*",
    ),
    (
        "test.pgn",
        Format::Pgn,
        START,
        25,
        ["h2e2", "b9c7", "h0g2", "h9i7"],
        ["f4e4", "e2e5"],
        "象棋巫师(大师)",
        "*",
    ),
    (
        "test2.pgn",
        Format::Pgn,
        START,
        102,
        ["c0e2", "b7e7", "c3c4", "b9c7"],
        ["a7a6", "b7b6"],
        "永远在路上(北斗)",
        "1/2-1/2",
    ),
    (
        "endgame_test.pgn",
        Format::Pgn,
        "3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 w - - 0 1",
        25,
        ["e5d7", "c8d8", "f7f8", "e7g5"],
        ["d8d7", "d6f7"],
        "RRR",
        "*",
    ),
];

#[test]
fn real_files_read_as_cchess_reads_them() {
    for (name, format, fen, plies, first, last, red, result) in CCHESS {
        let b = bytes(name);
        assert_eq!(Format::detect(&b), format, "{name}");
        let g = only_game(name);
        let moves = iccs(&g.moves);
        assert_eq!(g.fen, fen, "{name}");
        assert_eq!(moves.len(), plies, "{name}");
        assert_eq!(moves[..4], first, "{name}");
        assert_eq!(moves[plies - 2..], last, "{name}");
        assert_eq!(g.player(Color::Red), red, "{name}");
        assert_eq!(g.result, result, "{name}");
    }
    // The encodings: GB18030 tags, the XQF title.
    assert_eq!(only_game("test1.xqf").player(Color::Black), "吕  钦");
    assert_eq!(only_game("ucci_test1.xqf").tag("Title"), Some("第006局 蝇垂骥尾"));
}

#[test]
fn every_pgn_notation_gives_the_same_moves() {
    let games = formats::read(&bytes("notations.pgn"));
    assert_eq!(games.len(), 5);
    let games: Vec<Game> = games.into_iter().map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect();
    let expected = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2"];
    for g in &games[..4] {
        assert_eq!(iccs(&g.moves), expected, "{:?}", g.tag("Event"));
    }
    assert_eq!(
        [&games[0], &games[1], &games[2], &games[3]].map(|g| g.result.as_str()),
        ["1-0", "0-1", "1/2-1/2", "*"]
    );
    // From a FEN with Black to move, without a result token at the end of the text.
    assert_eq!(iccs(&games[4].moves), ["h9g7", "h0g2"]);
    assert!(games[4].fen.contains(" b "));
}

#[test]
fn broken_games_are_named_and_the_others_read() {
    let games = formats::read(&bytes("broken.pgn"));
    assert_eq!(games.len(), 4);
    assert!(games[0].is_ok());
    let errors: Vec<String> = games[1..]
        .iter()
        .map(|g| g.as_ref().err().map(ToString::to_string).unwrap_or_default())
        .collect();
    assert!(errors[0].starts_with("PGN: move 2... g7g5 (Black):"), "{}", errors[0]);
    assert!(errors[1].starts_with("PGN: move 1... xyzzy (Black):"), "{}", errors[1]);
    assert!(errors[2].starts_with("PGN: bad start position"), "{}", errors[2]);
    assert!(matches!(formats::read(b"just words")[0], Err(ReadError::Pgn(_))));
    assert!(matches!(
        formats::read(b"")[0],
        Err(ReadError::Pgn(formats::pgn::PgnError::NoGame))
    ));
}

#[test]
fn broken_xqf_and_cbf_files() {
    use formats::cbf::CbfError;
    use formats::xqf::XqfError;
    let xqf = bytes("test1.xqf");
    let err = |b: &[u8]| formats::read(b).remove(0).err();
    assert_eq!(err(&xqf[..100]), Some(ReadError::Xqf(XqfError::TooShort(100))));
    // Record 0 carries a comment of 0x1B8 bytes; the first move's record follows it.
    let first = 0x400 + 8 + 0x1B8;
    assert_eq!(
        err(&xqf[..first + 3]),
        Some(ReadError::Xqf(XqfError::Truncated { ply: 0 }))
    );
    let mut bad = xqf.clone();
    bad[2] = 0x30;
    assert_eq!(err(&bad), Some(ReadError::Xqf(XqfError::Version(0x30))));
    // The first move's from-point (c3) moved to an empty point (e4), then off the board.
    let mut bad = xqf.clone();
    bad[first] = 24 + 44;
    let e = err(&bad).map(|e| e.to_string()).unwrap_or_default();
    assert!(e.starts_with("XQF: move 1. e4c4 (Red): "), "{e}");
    bad[first] = 24 + 95;
    assert_eq!(
        err(&bad),
        Some(ReadError::Xqf(XqfError::BadPoint { ply: 0, point: 95 }))
    );

    let cbf = bytes("test.cbf");
    assert!(
        matches!(err(&cbf[..cbf.len() / 2]), Some(ReadError::Cbf(CbfError::Xml(_)))),
        "{:?}",
        err(&cbf[..cbf.len() / 2])
    );
    let text = String::from_utf8_lossy(&cbf).replace("value=\"79-67\"", "value=\"7x-67\"");
    assert_eq!(
        err(text.as_bytes()),
        Some(ReadError::Cbf(CbfError::BadValue {
            ply: 2,
            value: "7x-67".into()
        }))
    );
    let e = err(b"<?xml version=\"1.0\"?><Other/>");
    assert_eq!(e, Some(ReadError::Cbf(CbfError::NotCbf)));
}

#[test]
fn garbled_files_never_panic() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (name, ..) in CCHESS {
        let b = bytes(name);
        for len in (0..b.len()).step_by(7) {
            let _ = formats::read(&b[..len]);
        }
        for _ in 0..300 {
            let mut g = b.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() % g.len() as u64) as usize;
                g[i] = next() as u8;
            }
            let _ = formats::read(&g);
        }
    }
}

fn review_game(game: &Game, first_ply: usize, nodes: u64) -> GameReview {
    let mut searcher = Searcher::new(16, 1);
    let plan = Plan {
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        first_ply,
    };
    review::review(
        &mut searcher,
        &game.start(),
        &game.moves,
        &plan,
        &Control::default(),
        &mut |_| {},
    )
}

#[test]
fn a_rook_left_to_be_taken_is_a_blunder_refuted_by_the_capture() {
    let games = formats::read(&bytes("blunders.pgn"));
    let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    // Review the last two moves: 4. b0c2 and 4... a9b9??, which lets the cannon take the rook.
    let r = review_game(game, 6, 60_000);
    assert_eq!(r.moves.len(), 2);
    let m = &r.moves[1];
    assert_eq!(m.mv.to_string(), "a9b9");
    assert_eq!(m.mark, Some(Mark::Blunder), "{m:?}");
    assert_eq!(
        m.refutation.first().map(|m| m.to_string()).as_deref(),
        Some("b2b9"),
        "{m:?}"
    );
    assert!(!m.better.is_empty() && m.better[0] != m.mv);
    let pgn = flat(&annotate::annotated_pgn(game, &r, &Color::BOTH, "test", Notation::Iccs));
    assert!(pgn.contains("a9b9 $4 {[%eval "), "{pgn}");
    assert!(pgn.contains(&format!("(4... {}", m.better[0])), "{pgn}");
    assert!(pgn.contains("refutation b2b9"), "{pgn}");
}

#[test]
fn a_missed_mate_in_two_is_a_blunder_with_the_mate_as_the_variation() {
    let games = formats::read(&bytes("blunders.pgn"));
    let game = games[1].as_ref().unwrap_or_else(|e| panic!("{e}"));
    let r = review_game(game, 0, 30_000);
    let m = &r.moves[0];
    assert_eq!(m.mark, Some(Mark::Blunder), "{m:?}");
    assert_eq!(iccs(&m.better[..3]), ["d8e8", "e9e8", "c0c8"]);
    assert_eq!(m.before_score(), chariot::search::Score::Mate(2));
    assert_eq!(m.after_score(), chariot::search::Score::Mate(-1));
    let pgn = flat(&annotate::annotated_pgn(game, &r, &Color::BOTH, "test", Notation::Iccs));
    assert!(
        pgn.contains("1. c0c8 $4 {[%eval #-1] ?? blunder: #2 → #-1 for Red"),
        "{pgn}"
    );
    assert!(pgn.contains("(1. d8e8 e9e8 2. c0c8"), "{pgn}");
    // The rules' verdict is not in: the game stopped before the mate.
    assert_eq!(r.outcome, chariot::board::rules::Outcome::Ongoing);
}

#[test]
fn annotated_pgn_reads_back_and_the_graph_is_svg() {
    let game = only_game("ucci_test1.xqf");
    let r = review_game(&game, 30, 2_000);
    assert!(r.complete);
    assert_eq!(r.moves.len(), 13);
    for notation in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
        let pgn = annotate::annotated_pgn(&game, &r, &[Color::Red], "Chariot test", notation);
        let back = formats::read(pgn.as_bytes());
        let back = back[0].as_ref().unwrap_or_else(|e| panic!("{notation}: {e}\n{pgn}"));
        assert_eq!(back.moves, game.moves, "{notation}");
        assert_eq!(back.fen, game.fen);
        assert_eq!(back.tag("Format"), Some(notation.name()));
        assert_eq!(pgn.matches("[%eval ").count(), 13, "{pgn}");
    }
    let svg = graph::svg(&r, ["Red player", "黑方"], &Color::BOTH).unwrap_or_default();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Red player") && svg.contains("黑方"));
    assert!(svg.contains("winning chances"));
}

#[test]
fn the_game_end_is_named_by_the_rules() {
    // Red mates: 1. h1h9 (stalemate-free mate from tests/data/mates.txt).
    let text = "[FEN \"3k5/9/3P5/9/9/9/9/9/7R1/5K3 w - - 0 1\"]\n\n1. h1h9 1-0\n";
    let games = formats::read(text.as_bytes());
    let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    let r = review_game(game, 0, 5_000);
    assert_eq!(r.moves[0].mark, None);
    assert_eq!(r.outcome.to_string(), "Red wins (checkmate)");
    assert_eq!(r.moves[0].after_score(), chariot::search::Score::Mate(0));
    let lines = chariot::tools::analyse::summary::report(
        &game.start(),
        &game.moves,
        &r,
        &Color::BOTH,
        ["a", "b"],
        Notation::Wxf,
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("End by the rules: Red wins (checkmate)")),
        "{lines:?}"
    );

    // Red checks with every move until the position stands a third time: perpetual check.
    let text = "[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n\
        1. a0a9 d9d8 2. a9a8 d8d9 3. a8a9 d9d8 4. a9a8 d8d9 5. a8a9 0-1\n";
    let games = formats::read(text.as_bytes());
    let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    let r = review_game(game, 0, 2_000);
    assert_eq!(r.outcome.to_string(), "Black wins (perpetual check by Red)");
    let pgn = flat(&annotate::annotated_pgn(game, &r, &Color::BOTH, "test", Notation::Iccs));
    assert!(
        pgn.contains("by the rules: Black wins (perpetual check by Red)} 0-1"),
        "{pgn}"
    );
}

#[test]
fn the_command_reviews_the_good_games_and_fails_for_the_broken() {
    let dir = std::env::temp_dir().join(format!("chariot-analyse-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let out = dir.join("out.pgn");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["analyse", "--depth", "2", "--first-ply", "40"])
        .arg(format!("{DATA}ucci_test1.xqf"))
        .arg(format!("{DATA}broken.pgn"))
        .arg("--out")
        .arg(&out)
        .arg("--graph-dir")
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(!run.status.success());
    assert!(
        stderr.contains("broken.pgn: game 2: PGN: move 2... g7g5 (Black): "),
        "{stderr}"
    );
    assert!(stderr.contains("3 game(s) or file(s) could not be read"), "{stderr}");
    assert!(
        stdout.contains("Game 1/2 (") && stdout.contains("Game 2/2 ("),
        "{stdout}"
    );
    let pgn = std::fs::read_to_string(&out).unwrap_or_default();
    assert_eq!(pgn.matches("[Event ").count(), 2);
    assert!(dir.join("ucci_test1-1.svg").exists() && dir.join("broken-1.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_side_and_one_graph() {
    let dir = std::env::temp_dir().join(format!("chariot-analyse-side-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let (out, svg) = (dir.join("out.pgn"), dir.join("game.svg"));
    let blunders = format!("{DATA}blunders.pgn");
    let chariot = || std::process::Command::new(env!("CARGO_BIN_EXE_chariot"));
    // --graph draws one game: two are refused before any search.
    let two = chariot()
        .args(["analyse", "--depth", "1", "--graph"])
        .arg(&svg)
        .arg(&blunders)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!two.status.success());
    assert!(String::from_utf8_lossy(&two.stderr).contains("use --graph-dir DIR"));
    let one = chariot()
        .args(["analyse", "--depth", "1", "--first-ply", "40", "--quiet", "--out"])
        .arg(&out)
        .arg("--graph")
        .arg(&svg)
        .arg(format!("{DATA}ucci_test1.xqf"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(one.status.success() && svg.exists());
    // Red's moves only: Black's rook left to be taken is neither marked nor counted.
    let run = chariot()
        .args(["analyse", "--nodes", "60000", "--side", "red", "--quiet"])
        .arg("--out")
        .arg(&out)
        .arg(&blunders)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        stdout.contains("Red   Red: ") && !stdout.contains("Black Black: "),
        "{stdout}"
    );
    let pgn = flat(&std::fs::read_to_string(&out).unwrap_or_default());
    assert!(pgn.contains("c0c8 $4") && !pgn.contains("a9b9 $4"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! `chariot datagen`: the records of generated games replay to legal positions with the stated
//! result, the file format round-trips, a torn tail is read up to the last whole chunk (and cut
//! off before appending), and a corrupt file is refused with an error naming the fault.

use chariot::board::rules::{self, Outcome};
use chariot::board::Position;
use chariot::core::Color;
use chariot::tools::datagen::format::{
    self, DataError, GameResult, PackedRecord, Record, FLAG_BLACK_TO_MOVE, FLAG_CAPTURE, FLAG_GIVES_CHECK,
    FLAG_IN_CHECK, HEADER_SIZE, RECORD_SIZE,
};
use chariot::tools::datagen::{generate, Config, DatagenArgs};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-datagen-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[derive(Parser)]
struct Wrap {
    #[command(flatten)]
    a: DatagenArgs,
}

fn config(out: &Path, extra: &[&str]) -> Config {
    let mut argv = vec!["x", "--out", out.to_str().unwrap()];
    argv.extend_from_slice(extra);
    Config::from_args(&Wrap::parse_from(argv).a).unwrap()
}

/// Generates a few small games into `path`.
fn small_set(path: &Path, games: &str, seed: &str) -> chariot::tools::datagen::Summary {
    let cfg = config(
        path,
        &[
            "--nodes",
            "300",
            "--start-nodes",
            "200",
            "--threads",
            "2",
            "--games",
            games,
            "--seed",
            seed,
        ],
    );
    let mut log = Vec::new();
    let s = generate(&cfg, &AtomicBool::new(false), &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(log.contains("datagen: done"), "{log}");
    s
}

#[test]
fn records_replay_to_legal_positions_with_the_stated_result() {
    let path = temp_path("replay.bin");
    let s = small_set(&path, "6", "11");
    assert_eq!(s.games, 6);
    let data = format::read_file(&path).unwrap();
    assert!(data.torn_tail.is_none());
    assert_eq!(data.chunks(), 6, "one chunk per game");
    assert_eq!(data.records.len() as u64, s.positions);
    for g in 0..data.chunks() {
        let chunk = data.chunk(g);
        let recs: Vec<Record> = chunk.iter().map(|p| Record::decode(&p.0).unwrap()).collect();
        let result = recs[0].result;
        let mut pos = recs[0].position().expect("first record is a valid position");
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(r.result, result, "game {g}: one result for the whole game");
            assert_eq!(r.ply, recs[0].ply + i as u16, "game {g}: plies count up by one");
            let here = r.position().expect("record decodes to a valid position");
            assert_eq!(here.fen(), {
                // Counters are not recorded: compare the board and side only.
                let f = pos.fen();
                let mut parts: Vec<&str> = f.split(' ').collect();
                parts[4] = "0";
                let fm = (r.ply / 2 + 1).to_string();
                let mut s = parts[..5].join(" ");
                s.push(' ');
                s.push_str(&fm);
                s
            });
            assert_eq!(r.side_to_move, pos.side_to_move());
            assert_eq!(r.flags & FLAG_BLACK_TO_MOVE != 0, pos.side_to_move() == Color::Black);
            assert_eq!(r.flags & FLAG_IN_CHECK != 0, pos.in_check(), "game {g} record {i}");
            let best = r.best.expect("every record has its move");
            assert!(pos.is_legal(best), "game {g} record {i}: {best} is legal");
            assert_eq!(r.flags & FLAG_CAPTURE != 0, pos.piece_at(best.to()).is_some());
            assert_eq!(r.flags & FLAG_GIVES_CHECK != 0, pos.gives_check(best));
            assert_eq!(
                rules::outcome(&pos),
                Outcome::Ongoing,
                "game {g}: no record after the end"
            );
            pos.make_move(best);
        }
        // The position after the last move either ends the game by the rules with the stated
        // result, or the game was adjudicated in line with the last scores.
        let last = recs.last().unwrap();
        match rules::outcome(&pos) {
            Outcome::Win { winner: Color::Red, .. } => assert_eq!(result, GameResult::RedWin),
            Outcome::Win {
                winner: Color::Black, ..
            } => assert_eq!(result, GameResult::BlackWin),
            Outcome::Draw(_) => assert_eq!(result, GameResult::Draw),
            Outcome::Ongoing => match result {
                GameResult::RedWin => assert!(last.score >= 1500, "game {g}: Red resigned to at {}", last.score),
                GameResult::BlackWin => assert!(last.score <= -1500, "game {g}: Black resigned to at {}", last.score),
                GameResult::Draw => assert!(last.score.abs() <= 10 || last.ply + 1 >= 400, "game {g}"),
            },
        }
    }
}

#[test]
fn a_seed_reproduces_the_games() {
    let a = temp_path("seed-a.bin");
    let b = temp_path("seed-b.bin");
    small_set(&a, "2", "5");
    small_set(&b, "2", "5");
    let mut ca: Vec<Vec<PackedRecord>> = Vec::new();
    let mut cb: Vec<Vec<PackedRecord>> = Vec::new();
    let (da, db) = (format::read_file(&a).unwrap(), format::read_file(&b).unwrap());
    for i in 0..2 {
        ca.push(da.chunk(i).to_vec());
        cb.push(db.chunk(i).to_vec());
    }
    // Threads finish in any order: compare the games as a set.
    ca.sort_by_key(|c| c[0].0);
    cb.sort_by_key(|c| c[0].0);
    assert_eq!(ca, cb);
}

#[test]
fn record_round_trip() {
    let pos = Position::from_fen("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 b - - 6 4").unwrap();
    let mv = pos.legal_moves().get(3);
    let r = Record::from_position(&pos, -37, mv, false, 7, GameResult::RedWin);
    let bytes = r.encode();
    assert_eq!(bytes.len(), RECORD_SIZE);
    let back = Record::decode(&bytes).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.score, -37);
    assert_eq!(back.side_to_move, Color::Black);
    assert_eq!(
        back.position().unwrap().fen().split(' ').next(),
        pos.fen().split(' ').next()
    );
    let packed = PackedRecord(bytes);
    let mut n = 0;
    packed.for_each_piece(|sq, c, k| {
        let p = pos.piece_at(chariot::core::Square::from_index(sq).unwrap()).unwrap();
        assert_eq!((c, k), (p.color().index(), p.kind().index()));
        n += 1;
    });
    assert_eq!(n, pos.occupied().count());
}

#[test]
fn a_torn_tail_is_read_up_to_the_last_whole_chunk_and_cut_before_appending() {
    let path = temp_path("torn.bin");
    small_set(&path, "3", "3");
    let bytes = std::fs::read(&path).unwrap();
    let whole = format::parse(&bytes).unwrap();
    let last_start = whole.chunk_starts[2];
    let last_offset = (HEADER_SIZE * 2 + last_start * RECORD_SIZE) as u64;
    // Cut inside the last chunk's records, and inside its header.
    for cut in [
        bytes.len() - 7,
        last_offset as usize + 9,
        last_offset as usize + HEADER_SIZE + 40,
    ] {
        let d = format::parse(&bytes[..cut]).unwrap();
        assert_eq!(d.chunks(), 2);
        assert_eq!(d.records.len(), last_start);
        assert_eq!(d.valid_len, last_offset);
        let warn = d.torn_tail.expect("a torn tail is reported");
        assert!(warn.contains(&format!("byte {last_offset}")), "{warn}");
    }
    // The binary warns and cuts it off before it appends.
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    let out = Command::new(CHARIOT)
        .args([
            "datagen",
            "--out",
            path.to_str().unwrap(),
            "--games",
            "1",
            "--nodes",
            "200",
        ])
        .args(["--start-nodes", "100", "--threads", "1", "--seed", "9"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("torn chunk"), "{err}");
    assert!(err.contains("positions/s"), "{err}");
    let d = format::read_file(&path).unwrap();
    assert!(d.torn_tail.is_none());
    assert_eq!(d.chunks(), 3);
    assert_eq!(&d.records[..last_start], &whole.records[..last_start]);
}

#[test]
fn a_corrupt_file_is_refused_naming_the_fault() {
    let path = temp_path("corrupt.bin");
    small_set(&path, "2", "4");
    let bytes = std::fs::read(&path).unwrap();
    let second = HEADER_SIZE + format::parse(&bytes).unwrap().chunk_starts[1] * RECORD_SIZE;

    // Not a data file at all.
    let garbage: Vec<u8> = (0..1000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let e = format::parse(&garbage).unwrap_err();
    assert_eq!(e, DataError::Magic { offset: 0 });
    assert!(e.to_string().contains("not a chariot datagen file"), "{e}");
    assert!(format::parse(b"xy").is_err());

    // A flipped byte in the first chunk's records.
    let mut b = bytes.clone();
    b[HEADER_SIZE + 33] ^= 0x40;
    let e = format::parse(&b).unwrap_err();
    assert!(matches!(e, DataError::Checksum { offset: 0, .. }), "{e:?}");
    assert!(e.to_string().contains("checksum"), "{e}");

    // Garbage in place of the second chunk's header.
    let mut b = bytes.clone();
    b[second] = b'X';
    let e = format::parse(&b).unwrap_err();
    assert_eq!(e, DataError::Magic { offset: second as u64 });

    // A bad version and a wild count.
    let mut b = bytes.clone();
    b[4] = 9;
    assert!(matches!(format::parse(&b), Err(DataError::Version { version: 9, .. })));
    let mut b = bytes.clone();
    b[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(format::parse(&b), Err(DataError::Count { count: 0, .. })));

    // A bad field with a matching checksum: the record is named.
    let mut b = bytes.clone();
    b[HEADER_SIZE + RECORD_SIZE + 38] = 7;
    let sum = format::fnv1a(&b[HEADER_SIZE..second]);
    b[12..16].copy_from_slice(&sum.to_le_bytes());
    let e = format::parse(&b).unwrap_err();
    assert!(
        e.to_string().contains(&format!("byte {}", HEADER_SIZE + RECORD_SIZE)),
        "{e}"
    );
    assert!(e.to_string().contains("result byte 7"), "{e}");

    // Nothing is appended to a corrupt file: one clear error, no panic.
    let mut b = bytes.clone();
    b[HEADER_SIZE + 33] ^= 0x40;
    std::fs::write(&path, &b).unwrap();
    let out = Command::new(CHARIOT)
        .args([
            "datagen",
            "--out",
            path.to_str().unwrap(),
            "--games",
            "1",
            "--nodes",
            "100",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("checksum") && !err.contains("panicked"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b);
}

#[test]
fn the_evaluation_flags_choose_what_plays_the_games() {
    let out = temp_path("eval-flags.bin");
    let default = config(&out, &[]);
    assert!(default.net.is_some(), "the embedded net plays by default");
    assert!(
        config(&out, &["--hce"]).net.is_none(),
        "--hce plays the hand-crafted evaluation"
    );
    let bad = temp_path("not-a-net.chnn");
    std::fs::write(&bad, b"definitely not a net").unwrap();
    let argv = [
        "x",
        "--out",
        out.to_str().unwrap(),
        "--eval-file",
        bad.to_str().unwrap(),
    ];
    let err = Config::from_args(&Wrap::parse_from(argv).a).unwrap_err().to_string();
    assert!(err.contains("--eval-file") && err.contains("not-a-net.chnn"), "{err}");
    // Through the binary: one clear error, and no data file is made.
    let o = Command::new(CHARIOT)
        .args(["datagen", "--games", "1", "--out", out.to_str().unwrap(), "--eval-file"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("--eval-file"), "{stderr}");
    assert!(!out.exists(), "a refused run writes nothing");
}

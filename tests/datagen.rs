//! `chariot datagen`: the records of generated games replay to legal positions with the stated
//! result, both file formats round-trip (and convert into each other losslessly), a torn tail
//! is read up to the last whole chunk (and cut off before appending), and a corrupt file is
//! refused with an error naming the fault.

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
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chariot-datagen-test-{}", std::process::id()));
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

/// Generates a few small games into `path`, as whole 40-byte records (format version 1).
fn small_set(path: &Path, games: &str, seed: &str) -> chariot::tools::datagen::Summary {
    small_set_in(path, games, seed, "v1")
}

/// Generates a few small games into `path` in `format`.
fn small_set_in(path: &Path, games: &str, seed: &str, format: &str) -> chariot::tools::datagen::Summary {
    let cfg = config(
        path,
        &[
            "--format",
            format,
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

#[test]
fn compact_games_read_back_as_the_same_records_in_under_four_bytes_a_position() {
    let v1 = temp_path("same-v1.bin");
    let compact = temp_path("same-compact.bin");
    let a = small_set_in(&v1, "4", "21", "v1");
    let b = small_set_in(&compact, "4", "21", "compact");
    assert_eq!(
        (a.games, a.positions),
        (b.games, b.positions),
        "the same seed plays the same games"
    );
    let (d1, d2) = (format::read_file(&v1).unwrap(), format::read_file(&compact).unwrap());
    // Two threads finish the games in either order: compare them game by game.
    let games = |d: &format::DataFile| {
        let mut g: Vec<Vec<[u8; RECORD_SIZE]>> = (0..d.chunks())
            .map(|c| d.chunk(c).iter().map(|r| r.0).collect())
            .collect();
        g.sort();
        g
    };
    assert!(games(&d1) == games(&d2), "both formats hold the same games");
    let size = std::fs::metadata(&compact).unwrap().len();
    assert_eq!(size, b.bytes, "the summary counts the bytes written");
    assert!(
        (size as f64) < 4.0 * b.positions as f64,
        "{size} bytes for {} positions",
        b.positions
    );
    assert_eq!(std::fs::metadata(&v1).unwrap().len(), a.bytes);
    // A file may mix the two: the compact games appended to the v1 file.
    let mut mixed = std::fs::read(&v1).unwrap();
    mixed.extend_from_slice(&std::fs::read(&compact).unwrap());
    let m = format::parse(&mixed).unwrap();
    assert_eq!(m.chunks(), 8);
    assert!(m.records[..d1.records.len()] == d1.records[..]);
    assert!(m.records[d1.records.len()..] == d2.records[..]);
}

#[test]
fn convert_turns_each_format_into_the_other_byte_for_byte() {
    let v1 = temp_path("conv-v1.bin");
    small_set_in(&v1, "3", "31", "v1");
    let compact = temp_path("conv-compact.bin");
    let back = temp_path("conv-back.bin");
    let run = |input: &Path, out: &Path, fmt: &str| {
        Command::new(CHARIOT)
            .args([
                "datagen",
                "--convert",
                input.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .args(["--format", fmt])
            .output()
            .unwrap()
    };
    let o = run(&v1, &compact, "compact");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("converted 3 games") && err.contains("bytes a position"),
        "{err}"
    );
    let o = run(&compact, &back, "v1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&v1).unwrap());
    // Converting a file onto itself, or a file that is no data file, is one clear error.
    let o = run(&v1, &v1, "compact");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("same file"));
    let junk = temp_path("conv-junk.bin");
    std::fs::write(&junk, b"CHDG but nothing else of a chunk, and more junk").unwrap();
    let o = run(&junk, &temp_path("conv-none.bin"), "compact");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && !err.contains("panicked"), "{err}");
}

#[test]
fn records_that_are_no_chain_of_play_split_into_chunks_losslessly() {
    // Two unrelated games' records in one v1 chunk: the compact encoder starts a new chunk
    // where the chain breaks, and the records read back the same.
    let path = temp_path("chain.bin");
    small_set_in(&path, "2", "41", "v1");
    let d = format::read_file(&path).unwrap();
    let bytes = format::encode_game(&d.records, format::Format::Compact).unwrap();
    let back = format::parse(&bytes).unwrap();
    assert_eq!(back.records, d.records);
    assert_eq!(back.chunks(), 2);
}

#[test]
fn a_corrupt_compact_chunk_is_refused_naming_the_fault() {
    let path = temp_path("corrupt-compact.bin");
    small_set_in(&path, "2", "51", "compact");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), format::VERSION_COMPACT);
    let body_len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let first_end = HEADER_SIZE + body_len;
    // A flipped byte: the checksum catches it.
    let mut b = bytes.clone();
    b[HEADER_SIZE + 20] ^= 0x01;
    assert!(matches!(format::parse(&b), Err(DataError::Checksum { offset: 0, .. })));
    // A move index past the legal moves, checksum fixed: named with its ply.
    let mut b = bytes.clone();
    let pieces = u128::from_le_bytes({
        let mut o = [0u8; 16];
        o[..12].copy_from_slice(&b[HEADER_SIZE + 4..HEADER_SIZE + 16]);
        o
    })
    .count_ones() as usize;
    b[HEADER_SIZE + 16 + pieces.div_ceil(2)] = 250;
    let sum = format::fnv1a(&b[HEADER_SIZE..first_end]);
    b[12..16].copy_from_slice(&sum.to_le_bytes());
    let e = format::parse(&b).unwrap_err();
    assert!(matches!(e, DataError::Compact { offset: 0, .. }), "{e:?}");
    assert!(e.to_string().contains("ply 0: move index 250"), "{e}");
    // More positions declared than the body holds.
    let mut b = bytes.clone();
    let count = u16::from_le_bytes([b[6], b[7]]);
    b[6..8].copy_from_slice(&(count + 1).to_le_bytes());
    assert!(format::parse(&b).unwrap_err().to_string().contains("ends early"));
    // A torn compact chunk at the end is a torn tail, not an error.
    let d = format::parse(&bytes[..bytes.len() - 3]).unwrap();
    assert_eq!(d.chunks(), 1);
    assert!(d.torn_tail.unwrap().contains(&format!("byte {first_end}")));
}

#[test]
fn check_reports_a_whole_file_and_refuses_a_torn_or_corrupt_one() {
    let path = temp_path("check.bin");
    let sum = small_set_in(&path, "3", "9", "compact");
    let run = |p: &Path| {
        Command::new(CHARIOT)
            .args(["datagen", "--check", p.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = run(&path);
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert!(line.contains(&format!("\"positions\":{}", sum.positions)), "{line}");
    assert!(line.contains(&format!("\"games\":{}", sum.games)), "{line}");
    assert!(line.contains(&format!("\"bytes\":{}", bytes.len())), "{line}");
    assert!(
        line.contains(&format!("\"fnv1a\":\"{:08x}\"", format::fnv1a(&bytes))),
        "{line}"
    );
    let torn = temp_path("check-torn.bin");
    std::fs::write(&torn, &bytes[..bytes.len() - 3]).unwrap();
    let out = run(&torn);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("torn chunk"));
    let mut bad = bytes.clone();
    bad[HEADER_SIZE + 2] ^= 0x40;
    let corrupt = temp_path("check-bad.bin");
    std::fs::write(&corrupt, &bad).unwrap();
    let out = run(&corrupt);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("checksum"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

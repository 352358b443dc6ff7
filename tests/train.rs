//! `chariot train`: on a small generated set the loss goes down within seconds; the written
//! net has the exact CHNN v1 header, length and checksum; checkpoints resume; with
//! `--out-buckets 8` it writes a CHNN v3 net that the engine loads as its `EvalFile`; `--init`
//! starts from a net exactly; bad input is refused with one clear error.

mod common;

use chariot::board::Position;
use chariot::eval::nnue::{self, Network};
use chariot::eval::EVAL_LIMIT;
use chariot::tools::datagen::{self, format};
use chariot::tools::train::{self, TrainArgs};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");

fn dir() -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chariot-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[derive(Parser)]
struct DgWrap {
    #[command(flatten)]
    a: datagen::DatagenArgs,
}

#[derive(Parser)]
struct TrWrap {
    #[command(flatten)]
    a: TrainArgs,
}

/// A small data set, generated once for all tests of this file.
fn data() -> &'static Path {
    static DATA: OnceLock<PathBuf> = OnceLock::new();
    DATA.get_or_init(|| {
        let p = dir().join("small.bin");
        let _ = std::fs::remove_file(&p);
        let argv = [
            "x",
            "--out",
            p.to_str().unwrap(),
            "--nodes",
            "400",
            "--start-nodes",
            "200",
        ];
        let argv: Vec<&str> = argv
            .into_iter()
            .chain(["--threads", "2", "--games", "16", "--seed", "21"])
            .collect();
        let cfg = datagen::Config::from_args(&DgWrap::parse_from(argv).a).unwrap();
        datagen::generate(&cfg, &AtomicBool::new(false), &mut Vec::new()).unwrap();
        p
    })
}

fn args(extra: &[&str]) -> TrainArgs {
    let mut argv = vec!["x", "--data", data().to_str().unwrap()];
    argv.extend_from_slice(extra);
    TrWrap::parse_from(argv).a
}

#[test]
fn training_lowers_the_loss_within_seconds() {
    let a = args(&[
        "--out",
        "unused.chnn",
        "--hidden",
        "32",
        "--epochs",
        "8",
        "--batch-size",
        "256",
        "--lr",
        "0.003",
        "--threads",
        "2",
        "--val-fraction",
        "0.1",
    ]);
    let mut log = Vec::new();
    let mut d = train::load(&a, &mut log).unwrap();
    assert!(d.train_positions > 500, "{} training positions", d.train_positions);
    assert!(!d.valid.is_empty());
    let train_set = d.train_records(&a, 2).unwrap();
    let start = std::time::Instant::now();
    let before = train::mean_loss(
        &chariot::tools::train::model::Net::random(a.arch.layout(), 32, 1, a.seed),
        &train_set,
        &a,
        2,
    );
    let (net, reports) = train::train(&a, &mut d, &mut log).unwrap();
    let after = train::mean_loss(&net, &train_set, &a, 2);
    let log = String::from_utf8(log).unwrap();
    assert_eq!(reports.len(), 8);
    assert!(after < 0.7 * before, "loss {before} -> {after}\n{log}");
    assert!(reports[7].train_loss < reports[0].train_loss, "{log}");
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
    assert!(
        log.contains("epoch 8/8: train loss") && log.contains("positions/s"),
        "{log}"
    );
}

#[test]
fn streamed_windows_give_every_kept_position_once() {
    let a = args(&["--out", "unused.chnn", "--val-fraction", "0.2"]);
    let d = train::load(&a, &mut Vec::new()).unwrap();
    // The streaming loader counts what the whole file read at once holds.
    let file = format::read_file(data()).unwrap();
    assert_eq!((d.games, d.read), (file.chunks(), file.records.len()));
    assert_eq!(d.read, d.skipped + d.train_positions + d.valid.len());
    let sorted = |mut v: Vec<format::PackedRecord>| {
        v.sort_unstable_by_key(|r| r.0);
        v
    };
    let all = d.train_records(&a, 2).unwrap();
    assert_eq!(all.len(), d.train_positions);
    // A game a window (the smallest window), the games in another order: each position once.
    let order: Vec<u32> = (0..d.train_games.len() as u32).rev().collect();
    let (mut got, mut next, mut windows) = (Vec::new(), 0, 0);
    while next < order.len() {
        next = d.fill(&a, &order, next, 1, 2, &mut got).unwrap();
        windows += 1;
    }
    assert!(windows == order.len() && windows > 5, "{windows} windows");
    assert_eq!(sorted(got), sorted(all));
    // A cap gives exactly that many.
    let capped = train::load(
        &args(&["--out", "unused.chnn", "--max-positions", "300"]),
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(capped.train_positions, 300);
    assert_eq!(capped.train_records(&a, 2).unwrap().len(), 300);
}

#[test]
fn a_data_file_changed_under_the_trainer_is_an_error() {
    let copy = dir().join("changing.bin");
    std::fs::copy(data(), &copy).unwrap();
    let a = TrainArgs {
        data: vec![copy.clone()],
        ..args(&["--out", "unused.chnn"])
    };
    let d = train::load(&a, &mut Vec::new()).unwrap();
    let mut bytes = std::fs::read(&copy).unwrap();
    let n = bytes.len();
    bytes[n / 2..].iter_mut().for_each(|b| *b ^= 0x5a);
    std::fs::write(&copy, &bytes).unwrap();
    let e = d.train_records(&a, 2).unwrap_err().to_string();
    assert!(e.contains("changing.bin") && e.contains("changed since"), "{e}");
}

#[test]
fn the_binary_writes_an_exact_chnn_file_and_resumable_checkpoints() {
    let out = dir().join("net.chnn");
    let ck = dir().join("ckpt");
    let run = |extra: &[&str]| {
        let o = Command::new(CHARIOT)
            .args([
                "train",
                "--data",
                data().to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .args(["--hidden", "16", "--batch-size", "512", "--threads", "2"])
            .args(["--checkpoint-dir", ck.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        err
    };
    let err = run(&["--epochs", "2"]);
    assert!(err.contains("epoch 0: val loss") && err.contains("epoch 2/2"), "{err}");
    let f = std::fs::read(&out).unwrap();
    let h = 16usize;
    assert_eq!(f.len(), 32 + 2 * (1260 * h + h + 2 * h) + 4);
    let u = |o: usize| u32::from_le_bytes([f[o], f[o + 1], f[o + 2], f[o + 3]]);
    assert_eq!(&f[0..4], b"CHNN");
    assert_eq!([u(4), u(8), u(12), u(16), u(20), u(24)], [1, 1260, 16, 255, 64, 400]);
    assert_eq!(u(28), format::fnv1a(&f[32..]));
    // Output weights within ±127.
    let ow = 32 + 2 * (1260 * h + h);
    for i in 0..2 * h {
        let w = i16::from_le_bytes([f[ow + 2 * i], f[ow + 2 * i + 1]]);
        assert!((-127..=127).contains(&w));
    }
    assert!(ck.join("epoch-1.ckpt").exists() && ck.join("epoch-2.chnn").exists());
    assert_eq!(std::fs::read(ck.join("epoch-2.chnn")).unwrap(), f);
    // Resuming after epoch 2 runs epochs 3 and 4 only.
    let resume = ck.join("epoch-2.ckpt");
    let err = run(&["--epochs", "4", "--resume", resume.to_str().unwrap(), "--keep-best"]);
    assert!(
        err.contains("resuming") && err.contains("epoch 3/4") && err.contains("epoch 4/4"),
        "{err}"
    );
    assert!(!err.contains("epoch 1/4"), "{err}");
    // --keep-best writes the epoch with the lowest validation loss.
    let kept = err
        .lines()
        .find(|l| l.contains("keeping the net of epoch"))
        .expect("a kept epoch");
    let e = if kept.contains("epoch 3 ") { 3 } else { 4 };
    let f = std::fs::read(&out).unwrap();
    assert_eq!(std::fs::read(ck.join(format!("epoch-{e}.chnn"))).unwrap(), f, "{kept}");
}

#[test]
fn output_buckets_give_a_v3_file_the_engine_loads() {
    for (arch, inputs) in [("flat", 1260usize), ("king", 7560)] {
        let out = dir().join(format!("buckets-{arch}.chnn"));
        let ck = dir().join(format!("ckpt-buckets-{arch}"));
        let run = |extra: &[&str]| {
            Command::new(CHARIOT)
                .args(["train", "--data", data().to_str().unwrap()])
                .args(["--out", out.to_str().unwrap(), "--arch", arch, "--hidden", "16"])
                .args(["--batch-size", "512", "--threads", "2"])
                .args(["--checkpoint-dir", ck.to_str().unwrap()])
                .args(extra)
                .output()
                .unwrap()
        };
        let o = run(&["--out-buckets", "8", "--epochs", "1"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        assert!(err.contains("hidden 16, output buckets 8"), "{err}");
        let f = std::fs::read(&out).unwrap();
        let h = 16usize;
        assert_eq!(f.len(), 32 + 2 * (inputs * h + h + 8 * 2 * h) + 4 * 8);
        let u = |o: usize| u32::from_le_bytes([f[o], f[o + 1], f[o + 2], f[o + 3]]);
        assert_eq!(&f[0..4], b"CHNN");
        assert_eq!(
            [u(4), u(8), u(12), u(16), u(20), u(24)],
            [3, inputs as u32, 16, 255, 64, 400]
        );
        assert_eq!(u(28), format::fnv1a(&f[32..]));
        // Every bucket's output weights within ±127, and the buckets trained apart.
        let ow = 32 + 2 * (inputs * h + h);
        let w: Vec<i16> = (0..8 * 2 * h)
            .map(|i| i16::from_le_bytes([f[ow + 2 * i], f[ow + 2 * i + 1]]))
            .collect();
        assert!(w.iter().all(|w| (-127..=127).contains(w)));
        assert!(w.chunks(2 * h).any(|b| b != &w[..2 * h]));
        // The engine loads it as its EvalFile and scores with it as the library does.
        let net = Network::load(&out).expect("the engine reads the file");
        assert_eq!(net.output_buckets(), 8);
        let v = nnue::evaluate(&net, &Position::startpos()).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        let mut e = common::Engine::start();
        e.send("uci");
        e.send(&format!("setoption name EvalFile value {}", out.display()));
        e.send("position startpos");
        e.send("eval");
        let block = e.sync();
        assert!(block.iter().all(|l| !l.starts_with("info string error")), "{block:?}");
        let want = format!("NNUE evaluation: {v} (");
        let line = block
            .iter()
            .find(|l| l.starts_with(&want))
            .expect("the net's evaluation");
        assert!(
            line.contains(&format!("output bucket 7 of 8, checksum {:#010x}", u(28))),
            "{line}"
        );
        e.finish();
        // Its checkpoint does not resume as a net of one output bucket.
        let resume = ck.join("epoch-1.ckpt");
        let o = run(&["--epochs", "2", "--resume", resume.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{err}");
        assert!(
            err.contains("8 output buckets") && err.contains("--out-buckets ask for"),
            "{err}"
        );
    }
}

#[test]
fn bad_input_gets_one_clear_error() {
    let junk = dir().join("junk.bin");
    std::fs::write(&junk, b"this is not a data file at all").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["--data", junk.to_str().unwrap()], "not a chariot datagen file"),
        (&["--data", "/nonexistent/x.bin"], "cannot read"),
        (
            &["--data", data().to_str().unwrap(), "--hidden", "20"],
            "multiple of 16",
        ),
        (
            &["--data", data().to_str().unwrap(), "--out-buckets", "3"],
            "--out-buckets 3 must be 1 or 8",
        ),
        (
            &[
                "--data",
                data().to_str().unwrap(),
                "--hidden",
                "16",
                "--resume",
                junk.to_str().unwrap(),
            ],
            "magic",
        ),
    ];
    for (extra, want) in cases {
        let o = Command::new(CHARIOT)
            .args([
                "train",
                "--out",
                dir().join("never.chnn").to_str().unwrap(),
                "--epochs",
                "1",
            ])
            .args(extra)
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{extra:?}");
        assert!(err.contains(want) && !err.contains("panicked"), "{extra:?}: {err}");
        // One line, with no backtrace even when one is asked for.
        let last = err.lines().last().unwrap_or_default();
        assert!(last.starts_with("Error: ") && last.contains(want), "{extra:?}: {err}");
        assert!(
            !err.contains("backtrace") && !err.contains("Caused by"),
            "{extra:?}: {err}"
        );
    }
    assert!(!dir().join("never.chnn").exists());
}

#[test]
fn init_starts_from_a_net_exactly() {
    use chariot::eval::nnue::Layout;
    use chariot::tools::train::model::Net;
    let flat = Network::from_bytes(&Net::random(Layout::Flat, 32, 1, 5).quantise()).unwrap();
    // Dequantised and quantised again, the net is the same file.
    let back = Net::from_chnn(&flat, Layout::Flat, 32, 1).unwrap();
    assert_eq!(back.quantise(), flat.to_bytes());
    // As the shared set of a king-bucketed net with 8 output buckets, it scores as before (with
    // both kings on the middle file, where no perspective is mirrored).
    let king = Net::from_chnn(&flat, Layout::KingBuckets, 32, 8).unwrap();
    let king = Network::from_bytes(&king.quantise()).unwrap();
    assert_eq!((king.layout(), king.output_buckets()), (Layout::KingBuckets, 8));
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "3akr3/R4r2C/3a5/9/9/9/9/6n2/C2pA4/1R2K4 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1",
    ] {
        let p = Position::from_fen(fen).unwrap();
        assert_eq!(nnue::evaluate(&king, &p), nnue::evaluate(&flat, &p), "{fen}");
    }
    // What cannot start what is refused.
    let err = |r: anyhow::Result<Net>| r.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err(Net::from_chnn(&flat, Layout::Flat, 64, 1)).contains("32 hidden units"));
    assert!(err(Net::from_chnn(&king, Layout::Flat, 32, 8)).contains("king-bucketed"));
    assert!(err(Net::from_chnn(&king, Layout::KingBuckets, 32, 1)).contains("8 output buckets"));
}

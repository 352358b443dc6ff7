//! `chariot match` end to end: the real binary against itself and against the deliberately
//! broken test engine (`src/bin/broken-engine.rs`), checking totals, loss reasons and errors.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");
const BROKEN: &str = env!("CARGO_BIN_EXE_broken-engine");

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chariot-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run(args: &[&str]) -> (Output, String, String) {
    let out = Command::new(CHARIOT).arg("match").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    (out, stdout, stderr)
}

fn engine(cmd: &str, name: &str) -> [String; 3] {
    ["--engine".into(), format!("cmd={cmd}"), format!("name={name}")]
}

fn args_of(parts: &[&[String]], rest: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

/// (W, D, L) from the `W/D/L:` line.
fn wdl(stdout: &str) -> (u32, u32, u32) {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("W/D/L:"))
        .expect("no W/D/L line");
    let n: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

fn penta(stdout: &str) -> Vec<u32> {
    let line = stdout
        .lines()
        .find(|l| l.contains("Pentanomial"))
        .expect("no pentanomial line");
    let inside = &line[line.rfind('[').unwrap() + 1..line.rfind(']').unwrap()];
    inside.split(',').map(|s| s.trim().parse().unwrap()).collect()
}

fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("Game ")).collect()
}

fn run_v(v: &[String]) -> (Output, String, String) {
    let refs: Vec<&str> = v.iter().map(String::as_str).collect();
    run(&refs)
}

#[test]
fn chariot_against_itself_totals() {
    let openings = temp_file(
        "self.txt",
        "startpos moves h2e2 h9g7\n# a comment\n\nstartpos moves b2e2\nstartpos moves c3c4 c6c5\n",
    );
    let pgn = temp_file("self.pgn", "");
    let v = args_of(
        &[&engine(CHARIOT, "new"), &engine(CHARIOT, "old")],
        &[
            "--tc",
            "depth=1",
            "--max-plies",
            "12",
            "--openings",
            openings.to_str().unwrap(),
            "--rounds",
            "2",
            "--concurrency",
            "2",
            "--seed",
            "7",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let (out, stdout, stderr) = run_v(&v);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("seed 7"), "{stdout}");
    // 3 openings × 2 colours × 2 rounds.
    assert!(stdout.contains("12 games"), "{stdout}");
    assert_eq!(game_lines(&stdout).len(), 12, "{stdout}");
    let (w, d, l) = wdl(&stdout);
    assert_eq!(w + d + l, 12);
    assert_eq!(penta(&stdout).iter().sum::<u32>(), 6);
    for g in game_lines(&stdout) {
        assert!(!g.contains("illegal") && !g.contains("time"), "unexpected fault: {g}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Game \"Chinese Chess\"]").count(), 12);
    assert_eq!(text.matches("[Variant \"xiangqi\"]").count(), 12);
    assert_eq!(text.matches("[Red \"new\"]").count(), 6);
    assert_eq!(text.matches("[Black \"new\"]").count(), 6);
    assert!(text.contains("1. h2e2 {book} h9g7 {book}"), "{text}");
}

/// Plays `games` games of the good test engine against a faulty one and checks the faulty one
/// lost each, with the reason; returns the match's output.
fn faulty(mode: &[&str], tc: &str, games: usize, reason: &str) -> String {
    let bad_cmd = format!("{BROKEN} {}", mode.join(" "));
    let v = args_of(
        &[&engine(&format!("{BROKEN} good"), "good"), &engine(&bad_cmd, "bad")],
        &[
            "--tc",
            tc,
            "--margin",
            "50",
            "--move-timeout",
            "1",
            "--rounds",
            &(games / 2).to_string(),
            "--seed",
            "1",
        ],
    );
    let (out, stdout, stderr) = run_v(&v);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(wdl(&stdout), (games as u32, 0, 0), "{stdout}");
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), games);
    for g in lines {
        assert!(g.contains(reason), "expected '{reason}' in: {g}");
    }
    stdout
}

#[test]
fn illegal_move_loses() {
    let out = faulty(&["illegal", "1"], "depth=1", 2, "played illegal move");
    assert!(!out.contains("Clock:"), "no clock, no clock lines: {out}");
}

#[test]
fn clock_overrun_loses_on_time() {
    let out = faulty(&["overrun", "1"], "0.3+0", 2, "lost on time");
    // The summary says how each engine used its clock.
    let clock = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("  Clock: {name} ")))
            .unwrap_or_else(|| panic!("no clock line for {name}: {out}"))
            .to_string()
    };
    assert!(clock("bad").ends_with(", 2 lost on time"), "{out}");
    assert!(clock("good").ends_with(", 0 lost on time"), "{out}");
}

#[test]
fn movetime_overrun_loses_on_time() {
    faulty(&["overrun"], "movetime=50", 2, "lost on time");
}

#[test]
fn silence_under_depth_loses() {
    faulty(&["overrun"], "depth=2", 2, "did not answer within 1 s");
}

#[test]
fn exit_mid_game_loses_and_is_restarted() {
    // Four games: the engine dies in each, so it must be restarted three times.
    faulty(&["exit", "2"], "nodes=100", 4, "crashed or exited");
}

#[test]
fn ucci_engine_is_detected() {
    let v = args_of(
        &[
            &engine(&format!("{BROKEN} good-ucci"), "eye"),
            &engine(&format!("{BROKEN} good"), "uci-one"),
        ],
        &["--tc", "2+0.1", "--max-plies", "10", "--handshake-timeout", "10"],
    );
    let (out, stdout, stderr) = run_v(&v);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("(ucci)") && stdout.contains("(uci)"), "{stdout}");
    assert_eq!(wdl(&stdout), (0, 2, 0), "{stdout}");
    assert!(stdout.contains("10 plies"), "{stdout}");
}

#[test]
fn sprt_stops_when_decided() {
    let v = args_of(
        &[
            &engine(&format!("{BROKEN} good"), "good"),
            &engine(&format!("{BROKEN} illegal"), "bad"),
        ],
        &["--tc", "depth=1", "--rounds", "500", "--sprt", "elo0=0", "elo1=10"],
    );
    let (out, stdout, stderr) = run_v(&v);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let (w, d, l) = wdl(&stdout);
    assert!(w > 0 && d == 0 && l == 0);
    assert!(w < 1000, "did not stop early: {w} games");
}

#[test]
fn handshake_failure_is_a_clear_error() {
    let v = args_of(
        &[
            &engine(&format!("{BROKEN} silent"), "mute"),
            &engine(&format!("{BROKEN} good"), "good"),
        ],
        &["--handshake-timeout", "0.5"],
    );
    let t = Instant::now();
    let (out, _, stderr) = run_v(&v);
    assert!(!out.status.success());
    assert!(stderr.contains("engine 'mute' did not answer"), "{stderr}");
    assert!(t.elapsed() < Duration::from_secs(5));
    let v = args_of(
        &[
            &engine(&format!("{BROKEN} silent"), "mute"),
            &engine(&format!("{BROKEN} good"), "good"),
        ],
        &["--handshake-timeout", "0.3", "--engine"],
    );
    let (out, _, _) = run_v(&v);
    assert!(!out.status.success());
}

#[test]
fn bad_input_is_a_clear_error() {
    let good = engine(&format!("{BROKEN} good"), "good");
    let (out, _, stderr) = run_v(&args_of(&[&good, &engine("/no/such/engine", "ghost")], &[]));
    assert!(!out.status.success());
    assert!(
        stderr.contains("engine 'ghost': cannot start '/no/such/engine'"),
        "{stderr}"
    );

    let openings = temp_file("bad.txt", "startpos\nstartpos moves h2e2 h2e3\n");
    let (out, _, stderr) = run_v(&args_of(&[&good, &good], &["--openings", openings.to_str().unwrap()]));
    assert!(!out.status.success());
    assert!(stderr.contains("line 2: move 2 'h2e3'"), "{stderr}");

    let openings = temp_file("badfen.txt", "# x\nrnbakabnr/9/9 w\n");
    let (out, _, stderr) = run_v(&args_of(&[&good, &good], &["--openings", openings.to_str().unwrap()]));
    assert!(!out.status.success());
    assert!(stderr.contains("line 2: bad FEN"), "{stderr}");

    for tc in ["10+x", "fast", "depth=0", "movetime=-5"] {
        let (out, _, stderr) = run_v(&args_of(&[&good, &good], &["--tc", tc]));
        assert!(!out.status.success());
        assert!(stderr.contains("bad time control"), "{tc}: {stderr}");
    }
    let (out, _, stderr) = run_v(&args_of(&[&good], &[]));
    assert!(!out.status.success());
    assert!(stderr.contains("exactly two --engine"), "{stderr}");
    let (out, _, stderr) = run(&["--engine", "name=x", "--engine", "cmd=y"]);
    assert!(!out.status.success());
    assert!(stderr.contains("needs cmd="), "{stderr}");
    // An option the engine does not list is refused before any game, with what it does list.
    let mut hashless = engine(CHARIOT, "typo").to_vec();
    hashless.push("option.Hsh=64".into());
    let (out, _, stderr) = run_v(&args_of(&[&hashless, &good], &["--rounds", "1"]));
    assert!(!out.status.success());
    assert!(stderr.contains("engine 'typo' has no option 'Hsh'"), "{stderr}");
    assert!(stderr.contains("Hash"), "{stderr}");
    let mut hashed = engine(CHARIOT, "hashed").to_vec();
    hashed.push("option.hash=8".into());
    let (out, _, stderr) = run_v(&args_of(&[&hashed, &hashed], &["--rounds", "1", "--tc", "nodes=200"]));
    assert!(out.status.success(), "{stderr}");
    let (out, _, stderr) = run_v(&args_of(&[&good, &good], &["--sprt", "elo0=5", "elo1=0"]));
    assert!(!out.status.success());
    assert!(stderr.contains("elo0 < elo1"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_prints_results_so_far() {
    let mut child = Command::new(CHARIOT)
        .arg("match")
        .args(args_of(
            &[
                &engine(&format!("{BROKEN} good"), "a"),
                &engine(&format!("{BROKEN} good"), "b"),
            ],
            &["--tc", "movetime=10", "--rounds", "100000", "--max-plies", "20"],
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Interrupted once the first game is over, however long that takes on this machine.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.lines().any(|l| l.starts_with("Game ")) {
        assert!(stdout.read_line(&mut text).unwrap() > 0, "the match ended: {text}");
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    stdout.read_to_string(&mut text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Interrupted"), "{text}");
    let (w, d, l) = wdl(&text);
    assert!(d > 0 && w == 0 && l == 0, "{text}");
    assert_eq!(game_lines(&text).len() as u32, d);
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    let good = engine(&format!("{BROKEN} good"), "good");
    let picky = |opt: &str| {
        let mut e = engine(&format!("{BROKEN} picky"), "picky").to_vec();
        e.push(format!("option.{opt}"));
        e
    };
    // Accepted values play.
    let (out, stdout, stderr) = run_v(&args_of(
        &[&picky("Hash=64"), &good],
        &["--tc", "depth=1", "--max-plies", "6"],
    ));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(game_lines(&stdout).len(), 2, "{stdout}");
    for (opt, said) in [
        ("Hash=huge", "info string ERROR: Hash: invalid value 'huge'"),
        ("Threads=2", "No such option: Threads"),
        ("EvalFile=/no/such/net.nnue", "was not loaded successfully"),
    ] {
        let (out, stdout, stderr) = run_v(&args_of(&[&good, &picky(opt)], &["--tc", "depth=1"]));
        assert!(!out.status.success(), "{opt}: {stdout}");
        let name = opt.split('=').next().unwrap();
        assert!(
            stderr.contains(&format!("engine 'picky' rejected option '{name}'")) && stderr.contains(said),
            "{opt}: {stderr}"
        );
        assert!(game_lines(&stdout).is_empty(), "{opt}: a game was played: {stdout}");
    }
    // Chariot itself: a net file that is not there.
    let mut bad_net = engine(CHARIOT, "chariot").to_vec();
    bad_net.push("option.EvalFile=/no/such/net.bin".into());
    let (out, _, stderr) = run_v(&args_of(&[&bad_net, &good], &["--tc", "nodes=100"]));
    assert!(!out.status.success());
    assert!(
        stderr.contains("engine 'chariot' rejected option 'EvalFile'") && stderr.contains("info string error:"),
        "{stderr}"
    );
}

#[test]
fn each_engine_keeps_its_own_clock() {
    let pgn = temp_file("odds.pgn", "");
    let mut slow = engine(&format!("{BROKEN} good"), "fast").to_vec();
    slow.push("tc=2+0.2".into());
    let v = args_of(
        &[&slow, &engine(&format!("{BROKEN} good"), "plain")],
        &["--tc", "1+0.1", "--max-plies", "8", "--pgn", pgn.to_str().unwrap()],
    );
    let (out, stdout, stderr) = run_v(&v);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("tc fast 2+0.2, plain 1+0.1"), "{stdout}");
    assert!(stdout.contains("  Clock: fast (2+0.2) "), "{stdout}");
    assert!(stdout.contains("  Clock: plain (1+0.1) "), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[RedTimeControl \"2+0.2\"]\n[BlackTimeControl \"1+0.1\"]"),
        "{text}"
    );
    assert!(
        text.contains("[RedTimeControl \"1+0.1\"]\n[BlackTimeControl \"2+0.2\"]"),
        "{text}"
    );
    // Both at the same control: one tag.
    let same = args_of(
        &[
            &engine(&format!("{BROKEN} good"), "a"),
            &engine(&format!("{BROKEN} good"), "b"),
        ],
        &["--tc", "nodes=5", "--max-plies", "4", "--pgn", pgn.to_str().unwrap()],
    );
    assert!(run_v(&same).0.status.success());
    assert!(std::fs::read_to_string(&pgn)
        .unwrap()
        .contains("[TimeControl \"nodes=5\"]"));
    // A clock against a fixed budget is refused; a bad tc= names the engine setting.
    let mut nodes = engine(&format!("{BROKEN} good"), "n").to_vec();
    nodes.push("tc=nodes=100".into());
    let (out, _, stderr) = run_v(&args_of(&[&nodes, &engine(BROKEN, "c")], &["--tc", "10+0.1"]));
    assert!(!out.status.success());
    assert!(stderr.contains("cannot be mixed"), "{stderr}");
    let mut bad = engine(BROKEN, "x").to_vec();
    bad.push("tc=fast".into());
    let (out, _, stderr) = run_v(&args_of(&[&bad, &engine(BROKEN, "c")], &[]));
    assert!(!out.status.success());
    assert!(
        stderr.contains("tc=fast") && stderr.contains("bad time control"),
        "{stderr}"
    );
}

fn json(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The value of `"key": value` in a result file (a number or a short list), as text.
fn field(text: &str, key: &str) -> String {
    let at = text
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key}: {text}"))
        + key.len()
        + 3;
    let rest = text[at..].trim_start();
    let end = if rest.starts_with('[') {
        rest.find(']').unwrap() + 1
    } else {
        rest.find([',', '\n']).unwrap()
    };
    rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn pairs_result_json_and_combine_give_one_matchs_numbers() {
    let openings = temp_file(
        "split.txt",
        "startpos moves h2e2\nstartpos moves b2e2\nstartpos moves c3c4\n",
    );
    let base = |extra: &[&str]| {
        let mut rest = vec![
            "--tc",
            "nodes=200",
            "--max-plies",
            "30",
            "--openings",
            openings.to_str().unwrap(),
            "--rounds",
            "2",
            "--seed",
            "11",
        ];
        rest.extend_from_slice(extra);
        args_of(&[&engine(CHARIOT, "a"), &engine(CHARIOT, "b")], &rest)
    };
    let whole = temp_file("whole.json", "");
    let (out, stdout, stderr) = run_v(&base(&["--result-json", whole.to_str().unwrap()]));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let parts: Vec<PathBuf> = ["0..2", "2..3", "3..6"]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = temp_file(&format!("part{i}.json"), "");
            let (out, stdout, stderr) = run_v(&base(&["--pairs", r, "--result-json", p.to_str().unwrap()]));
            assert!(out.status.success(), "{stdout}\n{stderr}");
            assert!(stdout.contains(&format!("(pairs {} of 6)", r)), "{stdout}");
            p
        })
        .collect();
    let joined = temp_file("joined.json", "");
    let mut c: Vec<String> = vec!["--combine".into()];
    c.extend(parts.iter().rev().map(|p| p.to_str().unwrap().to_string()));
    c.extend(["--result-json".into(), joined.to_str().unwrap().into()]);
    let (out, cout, stderr) = run_v(&c);
    assert!(out.status.success(), "{cout}\n{stderr}");
    let (w, j) = (json(&whole), json(&joined));
    for key in ["wins", "draws", "losses", "penta", "pairs", "complete", "elo"] {
        assert_eq!(field(&w, key), field(&j, key), "{key}");
    }
    // Game for game the same (the games field is the tail of each file).
    assert_eq!(&w[w.find("\"games\"").unwrap()..], &j[j.find("\"games\"").unwrap()..]);
    assert_eq!(field(&w, "complete"), "true");
    // The combined summary is the whole match's summary.
    let summary = |t: &str| {
        t.lines()
            .skip_while(|l| !l.starts_with("Results of"))
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(&stdout), summary(&cout));
    // A pair given twice is refused; so are a bad range and a broken file.
    let (out, _, stderr) = run_v(&[
        "--combine".into(),
        parts[0].to_str().unwrap().into(),
        whole.to_str().unwrap().into(),
    ]);
    assert!(!out.status.success());
    assert!(stderr.contains("counted twice"), "{stderr}");
    for bad in ["5..3", "0..7", "x"] {
        let (out, _, stderr) = run_v(&base(&["--pairs", bad]));
        assert!(!out.status.success());
        assert!(stderr.contains("--pairs"), "{bad}: {stderr}");
    }
    let junk = temp_file("junk.json", "{\"wins\": 1}");
    let (out, _, stderr) = run(&["--combine", junk.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr.contains("not a chariot match result"), "{stderr}");
}

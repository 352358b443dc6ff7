//! `chariot spsa` end to end: its errors in every build, and in a `--features tune` build a
//! short run against itself that writes its values file.

use std::process::{Command, Output};

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");
const BROKEN: &str = env!("CARGO_BIN_EXE_broken-engine");

fn run(args: &[&str]) -> (Output, String, String) {
    let out = Command::new(CHARIOT)
        .arg("spsa")
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    (out, stdout, stderr)
}

/// A bad command line gets one clear error and plays nothing.
fn fails(args: &[&str], why: &str) {
    let (out, stdout, stderr) = run(args);
    assert!(!out.status.success(), "{args:?} succeeded: {stdout}");
    assert!(stderr.contains(why), "{args:?}: expected '{why}' in {stderr}");
    assert!(!stdout.contains("Iteration"), "{args:?} played: {stdout}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    fails(&["--engine-cmd", "/no/such/engine"], "cannot start '/no/such/engine'");
    fails(&["--engine-cmd", BROKEN], "none of the search's parameters");
    fails(&["--engine-cmd", BROKEN, "--params", "rfp_margin"], "--features tune");
    fails(&["--params", "no_such_param"], "no spin option 'no_such_param'");
    fails(&["--tc", "nodes=many"], "bad time control");
    fails(&["--iterations", "0"], "--iterations");
    fails(&["--openings", "/no/such/openings.txt"], "cannot read openings file");
    fails(&["--option", "Hash"], "not NAME=VALUE");
    fails(&["--resign", "moves=3"], "unknown --resign setting");
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_build_without_tune_has_nothing_to_tune() {
    fails(&["--iterations", "1"], "--features tune");
}

#[cfg(feature = "tune")]
#[test]
fn a_short_run_moves_theta_and_writes_the_values() {
    let dir = std::env::temp_dir().join(format!("chariot-spsa-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("values.txt");
    let (out, stdout, stderr) = run(&[
        "--params",
        "rfp_margin,lmr_div,nmp_r_base",
        "--iterations",
        "3",
        "--tc",
        "nodes=300",
        "--max-plies",
        "60",
        "--seed",
        "5",
        "--progress",
        "1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("Iteration ")).count(),
        3,
        "{stdout}"
    );
    assert!(stdout.contains("Done 3 of 3 iterations"), "{stdout}");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# chariot spsa: 3 of 3 iterations, seed 5");
    let names: Vec<&str> = lines[1..].iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(names, ["rfp_margin", "lmr_div", "nmp_r_base"]);
    for l in &lines[1..] {
        l.split(' ').nth(1).unwrap().parse::<i32>().unwrap();
    }
    // θ+ played six games, three of them as Red.
    let last = stdout.lines().rfind(|l| l.starts_with("Iteration 3/3")).unwrap();
    let games = &last[last.find("games ").unwrap() + 6..];
    let games = &games[..games.find(':').unwrap()];
    let n: u32 = games.split(' ').map(|w| w[1..].parse::<u32>().unwrap()).sum();
    assert_eq!(n, 6, "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

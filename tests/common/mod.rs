//! Shared pieces of the integration tests: a driver for the real `chariot` binary through
//! pipes (send lines, read lines until one matches, with a timeout), used by the protocol,
//! CECP and strength-level tests, and a fixed-seed random generator ([`rng::Rng`]).

#![allow(dead_code)]

pub mod rng;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any expected line may take (loaded CI machines).
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The bound a test about the clock or about latency sets for something that takes `quiet`
/// on a quiet machine (the time asked for, or a few milliseconds for an answer): five times
/// that and a second more, since other programs may share the CPUs. `scripts/timing.sh`
/// prints the figures these tests measure.
pub const fn allowed(quiet: Duration) -> Duration {
    Duration::from_nanos(quiet.as_nanos() as u64 * 5 + 1_000_000_000)
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each line with the moment it was read.
    lines: Receiver<(Instant, String)>,
    /// Everything read so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chariot");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next line and when it was read, or `None` after `timeout` (or once the engine's
    /// output has closed).
    pub fn next(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.log.push(l.clone());
                Some((t, l))
            }
            Err(_) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; panics after [`TIMEOUT`].
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(done).into_iter().map(|(_, l)| l).collect()
    }

    /// [`Self::until`] with the moment each line was read.
    pub fn until_timed(&mut self, done: impl Fn(&str) -> bool) -> Vec<(Instant, String)> {
        let mut out = Vec::new();
        loop {
            match self.next(TIMEOUT) {
                Some((t, l)) => {
                    let stop = done(&l);
                    out.push((t, l));
                    if stop {
                        return out;
                    }
                }
                None => panic!("timed out; last output:\n{}", self.tail()),
            }
        }
    }

    /// Lines that arrive within `d` (no line is expected to end the wait).
    pub fn quiet(&mut self, d: Duration) -> Vec<String> {
        let end = Instant::now() + d;
        let mut out = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.next(left) {
                Some((_, l)) => out.push(l),
                None => break,
            }
        }
        out
    }

    /// UCI: sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// UCI: the next `bestmove` line.
    pub fn bestmove(&mut self) -> String {
        let lines = self.until(|l| l.starts_with("bestmove"));
        lines.last().cloned().unwrap_or_default()
    }

    /// The last lines read, for failure messages.
    pub fn tail(&self) -> String {
        let n = self.log.len();
        self.log[n.saturating_sub(30)..].join("\n")
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Closes the engine's input: end of input means `quit`.
    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits for the engine to exit successfully (input is left open), returning how long it
    /// took.
    pub fn wait_exit(&mut self) -> Duration {
        let t = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "engine exited with {status}");
                return t.elapsed();
            }
            assert!(t.elapsed() < TIMEOUT, "engine did not exit");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Closes stdin and waits for the process to leave (within [`TIMEOUT`]), returning the
    /// lines it printed meanwhile.
    pub fn finish(mut self) -> Vec<String> {
        self.stdin.take();
        let rest = self.quiet(Duration::from_millis(500));
        let start = Instant::now();
        while start.elapsed() < TIMEOUT {
            if let Ok(Some(_)) = self.child.try_wait() {
                return rest;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not exit; output:\n{}", self.log.join("\n"));
    }

    /// The engine's resident memory, in kB (0 where it cannot be read).
    pub fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

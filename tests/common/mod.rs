//! A small driver for the real `chariot` binary through pipes, shared by the CECP and
//! strength-level tests: send lines, read lines until one matches, with a timeout.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// How long any expected line may take (loaded CI machines).
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
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
                if tx.send(line).is_err() {
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

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that satisfies `done`; panics after [`TIMEOUT`].
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(l) => {
                    self.log.push(l.clone());
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                Err(_) => panic!("timed out; output so far:\n{}", self.log.join("\n")),
            }
        }
    }

    /// Lines that arrive within `d`.
    pub fn quiet(&mut self, d: Duration) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(d) {
            self.log.push(l.clone());
            out.push(l);
        }
        out
    }

    /// Closes stdin and waits for the process to leave (within [`TIMEOUT`]).
    pub fn finish(mut self) -> Vec<String> {
        self.stdin.take();
        let rest = self.quiet(Duration::from_millis(500));
        let start = std::time::Instant::now();
        while start.elapsed() < TIMEOUT {
            if let Ok(Some(_)) = self.child.try_wait() {
                return rest;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not exit; output:\n{}", self.log.join("\n"));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

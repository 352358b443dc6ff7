//! One external engine process spoken to over UCI (Pikafish's dialect) or UCCI (ElephantEye's):
//! spawning, the handshake with a timeout, options, `position` + `go` in the engine's dialect,
//! and reading `info`/`bestmove` with deadlines through a reader thread and a channel.

use super::tc::TimeControl;
use anyhow::{anyhow, bail, Context};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The dialect an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
}

impl Protocol {
    /// `uci` or `ucci`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }
}

/// How to start an engine: parsed from `cmd=… name=… proto=… option.NAME=VALUE` words.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The display name (default: the program's file name).
    pub name: String,
    /// Program and arguments.
    pub cmd: Vec<String>,
    /// `None`: detect (try `uci`, then `ucci`).
    pub proto: Option<Protocol>,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's own time control (`tc=`), overriding the match's `--tc`.
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// Parses the words given after one `--engine`.
    pub fn parse(words: &[String]) -> anyhow::Result<EngineSpec> {
        let mut name = None;
        let mut cmd = None;
        let mut proto = None;
        let mut options = Vec::new();
        let mut tc = None;
        for w in words {
            let (key, value) = w
                .split_once('=')
                .ok_or_else(|| anyhow!("engine setting '{w}' is not KEY=VALUE"))?;
            match key {
                "cmd" => {
                    let parts: Vec<String> = value.split_whitespace().map(str::to_string).collect();
                    if parts.is_empty() {
                        bail!("engine setting 'cmd=' is empty");
                    }
                    cmd = Some(parts);
                }
                "name" => {
                    if value.trim().is_empty() {
                        bail!("engine setting 'name=' is empty");
                    }
                    name = Some(value.to_string());
                }
                "tc" => {
                    tc = Some(TimeControl::parse(value).with_context(|| format!("engine setting 'tc={value}'"))?);
                }
                "proto" => {
                    proto = match value.to_ascii_lowercase().as_str() {
                        "uci" => Some(Protocol::Uci),
                        "ucci" => Some(Protocol::Ucci),
                        "detect" | "auto" => None,
                        _ => bail!("engine setting 'proto={value}': expected uci, ucci or detect"),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => options.push((opt.to_string(), value.to_string())),
                    _ => bail!("unknown engine setting '{key}' (expected cmd=, name=, proto=, tc= or option.NAME=)"),
                },
            }
        }
        let cmd = cmd.ok_or_else(|| anyhow!("an --engine needs cmd=PROGRAM"))?;
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&cmd[0])
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| cmd[0].clone())
        });
        Ok(EngineSpec {
            name,
            cmd,
            proto,
            options,
            tc,
        })
    }
}

/// Why waiting for an engine's answer failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed without the awaited line.
    Timeout,
    /// The engine closed its output (exited or crashed); the text says how it ended.
    Exited(String),
    /// The match is being stopped (Ctrl-C or a decided SPRT).
    Stopped,
}

impl std::fmt::Display for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitError::Timeout => write!(f, "timed out"),
            WaitError::Exited(how) => write!(f, "engine exited ({how})"),
            WaitError::Stopped => write!(f, "stopped"),
        }
    }
}

/// A score as an engine reported it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves to mate; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates mapped to ±30000 minus the distance.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 30000 - m,
            Score::Mate(m) => -30000 - m,
        }
    }
}

/// What the engine said about its search before `bestmove` (the last values reported).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// The engine's own reported time in ms.
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
}

/// The answer to a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `bestmove <text>`; the flag says the engine also resigned (UCCI `resign`).
    Move { text: String, resign: bool },
    /// `bestmove (none)` / `nobestmove`.
    NoMove,
}

/// A running engine process.
pub struct Engine {
    /// How it was started.
    pub spec: EngineSpec,
    /// The dialect agreed in the handshake.
    pub proto: Protocol,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// UCCI: the engine accepted `usemillisec`, so times go in ms.
    millis: bool,
    /// UCCI: the engine listed a `newgame` option.
    ucci_newgame: bool,
    /// The `option …` lines of the engine's handshake, as it sent them.
    pub offered_options: Vec<String>,
    stop: Arc<AtomicBool>,
    /// Set after a fault (timeout, crash, illegal output): the process must be replaced.
    pub broken: bool,
}

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

impl Engine {
    /// Starts the program, does the handshake within `timeout`, sends the options and waits
    /// for `readyok`.
    pub fn start(spec: &EngineSpec, timeout: Duration, stop: Arc<AtomicBool>) -> anyhow::Result<Engine> {
        match spec.proto {
            Some(p) => {
                let mut e = Engine::spawn(spec, p, stop)?;
                e.handshake(p, Instant::now() + timeout)?;
                e.configure(timeout)?;
                Ok(e)
            }
            None => {
                // Detect: ask `uci` for half the time; a UCCI engine either stays silent
                // (then ask `ucci` on the same process) or exits (then start it afresh).
                let deadline = Instant::now() + timeout;
                let mut e = Engine::spawn(spec, Protocol::Uci, stop.clone())?;
                let half = Instant::now() + timeout / 2;
                match e.handshake(Protocol::Uci, half) {
                    Ok(()) => {}
                    Err(first) => {
                        let exited = e.child.try_wait().ok().flatten().is_some()
                            || matches!(e.lines.try_recv(), Err(crossbeam_channel::TryRecvError::Disconnected));
                        if exited {
                            drop(e);
                            e = Engine::spawn(spec, Protocol::Ucci, stop)?;
                        }
                        e.proto = Protocol::Ucci;
                        e.handshake(Protocol::Ucci, deadline)
                            .map_err(|second| anyhow!("{first}; {second} (tried both uci and ucci)"))?;
                    }
                }
                e.configure(timeout)?;
                Ok(e)
            }
        }
    }

    fn spawn(spec: &EngineSpec, proto: Protocol, stop: Arc<AtomicBool>) -> anyhow::Result<Engine> {
        let mut command = Command::new(&spec.cmd[0]);
        command
            .args(&spec.cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Own process group: a Ctrl-C at the terminal reaches only the match tool, which then
        // reports the results so far instead of seeing every engine die at once.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .with_context(|| format!("engine '{}': cannot start '{}'", spec.name, spec.cmd.join(" ")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| anyhow!("engine '{}': no stdin", spec.name))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("engine '{}': no stdout", spec.name))?;
        let (tx, rx) = crossbeam_channel::unbounded();
        // The reader thread ends when the engine closes its output; dropping `tx` then tells
        // the waiting side that the engine is gone.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            spec: spec.clone(),
            proto,
            child,
            stdin,
            lines: rx,
            millis: false,
            ucci_newgame: false,
            offered_options: Vec::new(),
            stop,
            broken: false,
        })
    }

    /// The display name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    fn handshake(&mut self, proto: Protocol, deadline: Instant) -> anyhow::Result<()> {
        let name = self.spec.name.clone();
        self.send(proto.name())
            .map_err(|e| anyhow!("engine '{name}': cannot write '{}': {e}", proto.name()))?;
        let ok = match proto {
            Protocol::Uci => "uciok",
            Protocol::Ucci => "ucciok",
        };
        let mut millis = false;
        let mut newgame = false;
        let mut offered = Vec::new();
        let r = self.wait_until(deadline, |line| {
            let mut w = line.split_whitespace();
            if w.next() == Some("option") {
                offered.push(line.trim().to_string());
                match w.next() {
                    Some("usemillisec") => millis = true,
                    Some("newgame") => newgame = true,
                    _ => {}
                }
            }
            line.trim() == ok
        });
        match r {
            Ok(_) => {
                self.millis = millis;
                self.ucci_newgame = newgame;
                self.offered_options = offered;
                Ok(())
            }
            Err(WaitError::Timeout) => bail!("engine '{name}' did not answer '{}' with '{ok}' in time", proto.name()),
            Err(WaitError::Exited(how)) => {
                bail!("engine '{name}' exited during the '{}' handshake ({how})", proto.name())
            }
            Err(WaitError::Stopped) => bail!("stopped"),
        }
    }

    fn configure(&mut self, timeout: Duration) -> anyhow::Result<()> {
        let name = self.spec.name.clone();
        for (opt, value) in self.spec.options.clone() {
            // An option the engine did not list would be ignored, or answered only with an
            // `info string`: the match would run with settings other than the ones asked for.
            if !self
                .offered_options
                .iter()
                .any(|l| offered_name(l).is_some_and(|n| n.eq_ignore_ascii_case(&opt)))
            {
                bail!(
                    "engine '{name}' has no option '{opt}' (it listed {})",
                    offered_names(&self.offered_options)
                );
            }
            let line = match self.proto {
                Protocol::Uci => format!("setoption name {opt} value {value}"),
                Protocol::Ucci => format!("setoption {opt} {value}"),
            };
            self.send(&line)
                .map_err(|e| anyhow!("engine '{name}': cannot write: {e}"))?;
            // Each option is followed by its own `isready`, so that what the engine says
            // before `readyok` (an `info string error: …`, Stockfish's `No such option`, a
            // net that did not load) is about this option and no other.
            let said = self
                .ready_collect(timeout)
                .map_err(|e| anyhow!("engine '{name}' did not answer 'isready' after option '{opt}': {e}"))?;
            if let Some(complaint) = said.iter().find(|l| is_refusal(l)) {
                bail!(
                    "engine '{name}' rejected option '{opt}' (value '{value}'): it said '{}'",
                    complaint.trim()
                );
            }
        }
        if self.proto == Protocol::Ucci && self.millis {
            self.send("setoption usemillisec true")
                .map_err(|e| anyhow!("engine '{name}': cannot write: {e}"))?;
        }
        self.ready(timeout)
            .map_err(|e| anyhow!("engine '{name}' did not answer 'isready' after its options: {e}"))
    }

    /// Sends `isready` and returns the lines the engine wrote before `readyok`.
    fn ready_collect(&mut self, timeout: Duration) -> Result<Vec<String>, WaitError> {
        self.send("isready")
            .map_err(|e| WaitError::Exited(format!("write failed: {e}")))?;
        let mut said = Vec::new();
        self.wait_until(Instant::now() + timeout, |l| {
            if l.trim() == "readyok" {
                return true;
            }
            said.push(l.to_string());
            false
        })?;
        Ok(said)
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), WaitError> {
        self.send("isready")
            .map_err(|e| WaitError::Exited(format!("write failed: {e}")))?;
        self.wait_until(Instant::now() + timeout, |l| l.trim() == "readyok")
            .map(|_| ())
    }

    /// Prepares for a new game (`ucinewgame` / UCCI `setoption newgame`) and syncs.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), WaitError> {
        let cmd = match self.proto {
            Protocol::Uci => Some("ucinewgame"),
            Protocol::Ucci if self.ucci_newgame => Some("setoption newgame"),
            Protocol::Ucci => None,
        };
        if let Some(c) = cmd {
            self.send(c)
                .map_err(|e| WaitError::Exited(format!("write failed: {e}")))?;
        }
        self.ready(timeout)
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// How the process ended, for messages (waits briefly for it to be reaped).
    fn exit_text(&mut self) -> String {
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exit {status}"),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return format!("status unknown: {e}"),
            }
        }
        "output closed".to_string()
    }

    /// Reads lines until `done` accepts one (returned) or the deadline passes.
    fn wait_until(&mut self, deadline: Instant, mut done: impl FnMut(&str) -> bool) -> Result<String, WaitError> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(WaitError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(WaitError::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => {
                    if done(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Exited(self.exit_text())),
            }
        }
    }

    /// The `go` command for this dialect. `tc` is the time control of the side to move and
    /// `opp_tc` its opponent's (they differ in a match with time odds); `own_ms`/`opp_ms` are
    /// the clocks (for `Clock` time controls); `red_to_move` picks `wtime`/`btime`.
    pub fn go_command(
        &self,
        tc: &TimeControl,
        opp_tc: &TimeControl,
        red_to_move: bool,
        own_ms: u64,
        opp_ms: u64,
    ) -> String {
        let (own_inc, opp_inc) = (tc.inc_ms(), opp_tc.inc_ms());
        match (*tc, self.proto) {
            (TimeControl::Depth(d), _) => format!("go depth {d}"),
            (TimeControl::Nodes(n), _) => format!("go nodes {n}"),
            (TimeControl::MoveTime(ms), Protocol::Uci) => format!("go movetime {ms}"),
            // UCCI has no movetime: all of T for this one move.
            (TimeControl::MoveTime(ms), Protocol::Ucci) => format!("go time {} movestogo 1", self.ucci_time(ms)),
            (TimeControl::Clock { .. }, Protocol::Uci) => {
                let (w, b, wi, bi) = if red_to_move {
                    (own_ms, opp_ms, own_inc, opp_inc)
                } else {
                    (opp_ms, own_ms, opp_inc, own_inc)
                };
                format!("go wtime {w} btime {b} winc {wi} binc {bi}")
            }
            (TimeControl::Clock { .. }, Protocol::Ucci) => format!(
                "go time {} increment {} opptime {} oppincrement {}",
                self.ucci_time(own_ms),
                self.ucci_time(own_inc),
                self.ucci_time(opp_ms),
                self.ucci_time(opp_inc)
            ),
        }
    }

    fn ucci_time(&self, ms: u64) -> u64 {
        if self.millis {
            ms
        } else {
            // Whole seconds, rounded down so the engine never plans beyond the clock.
            ms / 1000
        }
    }

    /// Sends `position` and `go`, and waits until `deadline` for `bestmove`, collecting the
    /// last `info` values.
    pub fn think(&mut self, position: &str, go: &str, deadline: Instant) -> Result<(Answer, Thought), WaitError> {
        let write = |e: &mut Engine, l: &str| {
            e.send(l)
                .map_err(|err| WaitError::Exited(format!("write failed: {err}")))
        };
        write(self, position)?;
        write(self, go)?;
        let mut thought = Thought::default();
        let line = self.wait_until(deadline, |line| {
            let mut w = line.split_whitespace();
            match w.next() {
                Some("info") => parse_info(line, &mut thought),
                Some("bestmove") | Some("nobestmove") => return true,
                _ => {}
            }
            false
        })?;
        let mut w = line.split_whitespace();
        if w.next() == Some("nobestmove") {
            return Ok((Answer::NoMove, thought));
        }
        let answer = match w.next() {
            None | Some("(none)") => Answer::NoMove,
            Some(m) => {
                let resign = line.split_whitespace().any(|t| t == "resign");
                Answer::Move {
                    text: m.to_string(),
                    resign,
                }
            }
        };
        Ok((answer, thought))
    }

    /// Asks the engine to quit and makes sure the process is gone.
    pub fn shutdown(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.broken {
            // A faulty engine may ignore `quit`.
            let _ = self.child.kill();
            let _ = self.child.wait();
        } else {
            self.shutdown();
        }
    }
}

/// Updates `t` from one `info` line of either dialect (`score cp X`, `score mate M`, UCCI's
/// bare `score X`, `depth`, `time`, `nodes`). Unparsable values are ignored.
pub fn parse_info(line: &str, t: &mut Thought) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "pv" | "string" => break,
            "depth" => {
                if let Some(v) = words.get(i + 1).and_then(|v| v.parse().ok()) {
                    t.depth = Some(v);
                }
                i += 2;
            }
            "time" => {
                if let Some(v) = words.get(i + 1).and_then(|v| v.parse().ok()) {
                    t.time_ms = Some(v);
                }
                i += 2;
            }
            "nodes" => {
                if let Some(v) = words.get(i + 1).and_then(|v| v.parse().ok()) {
                    t.nodes = Some(v);
                }
                i += 2;
            }
            "score" => match words.get(i + 1).copied() {
                Some("cp") => {
                    if let Some(v) = words.get(i + 2).and_then(|v| v.parse().ok()) {
                        t.score = Some(Score::Cp(v));
                    }
                    i += 3;
                }
                Some("mate") => {
                    if let Some(v) = words.get(i + 2).and_then(|v| v.parse().ok()) {
                        t.score = Some(Score::Mate(v));
                    }
                    i += 3;
                }
                Some(v) => {
                    if let Ok(v) = v.parse() {
                        t.score = Some(Score::Cp(v));
                    }
                    i += 2;
                }
                None => break,
            },
            _ => i += 1,
        }
    }
}

/// An `option …` line of a handshake, UCI `option name <words> type <rest>` or UCCI
/// `option <name> type <rest>`: the name and the words after `type` (none without a type).
pub fn offered_option(line: &str) -> Option<(String, Vec<&str>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") {
        return None;
    }
    let start = if words.get(1) == Some(&"name") { 2 } else { 1 };
    let end = words.iter().position(|&w| w == "type").unwrap_or(words.len());
    let rest = words.get(end + 1..).unwrap_or_default().to_vec();
    (end > start).then(|| (words[start..end].join(" "), rest))
}

fn offered_name(line: &str) -> Option<String> {
    offered_option(line).map(|(name, _)| name)
}

/// Whether a line an engine wrote right after a `setoption` reports that it refused it:
/// Chariot's `info string error: …`, Stockfish's and Pikafish's `No such option: X` and
/// `info string ERROR: … not loaded …`, or any `info string` naming an unknown option or an
/// invalid value.
pub fn is_refusal(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    if l.starts_with("no such option") || l.starts_with("unknown option") || l.starts_with("error") {
        return true;
    }
    let Some(text) = l.strip_prefix("info string") else {
        return false;
    };
    [
        "error",
        "no such option",
        "unknown option",
        "invalid",
        "not loaded",
        "cannot",
        "failed",
        "out of range",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// The names an engine listed, for an error message.
fn offered_names(lines: &[String]) -> String {
    let names: Vec<String> = lines.iter().filter_map(|l| offered_name(l)).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn spec_parsing() {
        let s = EngineSpec::parse(&words("cmd=./a.out name=new proto=ucci option.Hash=64")).unwrap();
        assert_eq!(s.cmd, vec!["./a.out"]);
        assert_eq!(s.name, "new");
        assert_eq!(s.proto, Some(Protocol::Ucci));
        assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
        let s = EngineSpec::parse(&["cmd=/x/old --fast".to_string()]).unwrap();
        assert_eq!(s.cmd, vec!["/x/old", "--fast"]);
        assert_eq!(s.name, "old");
        assert_eq!(s.proto, None);
        assert!(EngineSpec::parse(&words("name=x")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x proto=xboard")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x hash")).is_err());
    }

    #[test]
    fn offered_option_names() {
        assert_eq!(
            offered_name("option name Use NNUE type check default true").as_deref(),
            Some("Use NNUE")
        );
        assert_eq!(
            offered_name("option usemillisec type check default false").as_deref(),
            Some("usemillisec")
        );
        assert_eq!(offered_name("option name type spin"), None);
        let (name, rest) = offered_option("option name Hash type spin default 16 min 1 max 1024").unwrap();
        assert_eq!((name.as_str(), rest.len(), rest[0]), ("Hash", 7, "spin"));
        assert_eq!(offered_option("option name Clear Hash").unwrap().1.len(), 0);
        assert_eq!(offered_name("id name x"), None);
    }

    #[test]
    fn refusals() {
        assert!(is_refusal("info string error: setoption: EvalFile: cannot read x"));
        assert!(is_refusal("No such option: Threads"));
        assert!(is_refusal(
            "info string ERROR: The network file x.nnue was not loaded successfully."
        ));
        assert!(is_refusal("info string Hash: invalid value 'x'"));
        assert!(!is_refusal("info string NNUE evaluation using nn.nnue enabled"));
        assert!(!is_refusal("info depth 3 score cp 10 pv h2e2"));
        assert!(!is_refusal("id name Error Engine"));
    }

    #[test]
    fn info_parsing() {
        let mut t = Thought::default();
        parse_info(
            "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1234 nps 5 time 88 pv h2e2 h9g7",
            &mut t,
        );
        assert_eq!(t.depth, Some(7));
        assert_eq!(t.score, Some(Score::Cp(-35)));
        assert_eq!(t.nodes, Some(1234));
        assert_eq!(t.time_ms, Some(88));
        parse_info("info depth 8 score mate 3 pv h2e2", &mut t);
        assert_eq!(t.score, Some(Score::Mate(3)));
        // UCCI: score without `cp`, time and nodes on a separate line.
        parse_info("info depth 9 score 12 pv h2e2", &mut t);
        parse_info("info time 140 nodes 99", &mut t);
        assert_eq!(t.score, Some(Score::Cp(12)));
        assert_eq!(t.time_ms, Some(140));
        parse_info("info string depth x score cp y", &mut t);
        parse_info("info depth", &mut t);
        assert_eq!(t.depth, Some(9));
        assert_eq!(Score::Mate(3).as_cp(), 29997);
        assert_eq!(Score::Mate(-2).as_cp(), -29998);
    }
}

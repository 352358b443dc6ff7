//! The controller: owns the position and game history, the options, the stop flag and a
//! persistent search worker; turns commands into jobs and search events into output.
//!
//! It runs on the main thread and is the only writer to the output. It never blocks on the
//! worker except to collect the `bestmove` of a search it has just told to stop, and then
//! for a few milliseconds at most: a search that does not return in time (after `stop` or
//! past its deadline) is answered for with the move of its last completed iteration, and its
//! late result is ignored. So `isready`, `stop` and `quit` are acted on at once, also
//! mid-search, and the clock is kept whatever the search does. Every `go` gets exactly
//! one `bestmove` (or `nobestmove` in UCCI), and the move printed is checked against the
//! legal moves of the position searched.

use crate::board::{rules, Position};
use crate::core::{Color, Move};
use crate::eval::nnue::Network;
use crate::protocol::command::{shown, Command, GoParams, Start};
use crate::protocol::{ucci, uci, Dialect, Input};
use crate::search::{Clock, Control, Info, Limits, SearchResult, Searcher};
use crate::{eval, tools};
use crossbeam_channel::{select, Receiver, Sender};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Stack of the search worker: deep recursion must never overflow.
const WORKER_STACK: usize = 64 * 1024 * 1024;
/// How long after its deadline a search that has not returned is answered for (with the
/// move of its last completed iteration), at least: half the Move Overhead is used if larger.
const MIN_GRACE: Duration = Duration::from_millis(2);
/// How long `quit` waits for a stopped search's `bestmove` before leaving anyway.
const QUIT_GRACE: Duration = Duration::from_millis(2);
/// How long after `stop` (or a command that ends the search) a search that has not returned
/// is answered for with the move of its last completed iteration: `stop` must act within
/// 10 ms whatever the search does.
const STOP_GRACE: Duration = Duration::from_millis(8);

/// The engine's settings, both dialects.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub show_wdl: bool,
    /// UCCI: `go time` values are milliseconds instead of seconds.
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    /// `EvalFile`: the net file (empty: the embedded net).
    pub eval_file: String,
    /// `Use NNUE`: the search evaluates with the net instead of the hand-crafted evaluation.
    pub use_nnue: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 16,
            ponder: false,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            show_wdl: false,
            usemillisec: false,
            batch: false,
            debug: false,
            eval_file: String::new(),
            use_nnue: false,
        }
    }
}

/// Work for the search worker, done in the order sent.
enum Job {
    Search {
        id: u64,
        pos: Box<Position>,
        limits: Box<Limits>,
        control: Arc<Control>,
    },
    SetHash(usize),
    SetThreads(usize),
    /// The network the search evaluates with (`None`: the hand-crafted evaluation).
    SetNet(Option<Arc<Network>>),
    Clear,
}

/// What the worker reports.
enum Event {
    Info(u64, Box<Info>),
    /// The search ended; the text is set when it panicked.
    Done(u64, Box<SearchResult>, Option<String>),
    /// A configuration job finished (with a message to print, if any).
    ConfigDone(Option<String>),
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// The worker's body: owns the `Searcher` and runs jobs until the controller goes away. A
/// panicking job is reported and the searcher rebuilt, so a bug never takes the engine down.
fn worker(jobs: Receiver<Job>, events: Sender<Event>) {
    let (mut hash, mut threads) = (Options::default().hash_mb, Options::default().threads);
    let mut searcher = Searcher::new(hash, threads);
    let mut net: Option<Arc<Network>> = None;
    for job in jobs {
        let event = match job {
            Job::Search {
                id,
                pos,
                limits,
                control,
            } => {
                let tx = events.clone();
                let mut reporter = move |info: &Info| {
                    let _ = tx.send(Event::Info(id, Box::new(info.clone())));
                };
                let run = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&pos, &limits, &control, &mut reporter)
                }));
                match run {
                    Ok(result) => Event::Done(id, Box::new(result), None),
                    Err(p) => {
                        searcher = Searcher::new(hash, threads);
                        searcher.set_network(net.clone());
                        Event::Done(id, Box::default(), Some(panic_text(&*p)))
                    }
                }
            }
            config => {
                let run = catch_unwind(AssertUnwindSafe(|| match config {
                    Job::SetHash(mb) => {
                        hash = mb;
                        searcher.set_hash(mb);
                    }
                    Job::SetThreads(n) => {
                        threads = n;
                        searcher.set_threads(n);
                    }
                    Job::SetNet(n) => {
                        net = n;
                        searcher.set_network(net.clone());
                    }
                    Job::Clear => searcher.clear(),
                    Job::Search { .. } => {}
                }));
                match run {
                    Ok(()) => Event::ConfigDone(None),
                    Err(p) => {
                        searcher = Searcher::new(1, 1);
                        searcher.set_network(net.clone());
                        hash = 1;
                        threads = 1;
                        Event::ConfigDone(Some(format!(
                            "info string error: {}; hash and threads reset to 1",
                            panic_text(&*p)
                        )))
                    }
                }
            }
        };
        if events.send(event).is_err() {
            return;
        }
    }
}

/// The search in progress (or finished and held for `stop`/`ponderhit`).
struct Running {
    id: u64,
    /// The position searched: the `bestmove` must be legal here.
    pos: Position,
    /// The moves the search may choose from (legal, after `searchmoves` and `banmoves`).
    roots: Vec<Move>,
    control: Arc<Control>,
    /// `go infinite`: hold `bestmove` until `stop`, even when the search ends.
    infinite: bool,
    /// `go ponder` and no `ponderhit` yet: hold `bestmove`.
    pondering: bool,
    /// `stop` was received or the deadline passed.
    stopping: bool,
    /// Safety net: the longest this search may take under its time limits.
    budget: Option<Duration>,
    deadline: Option<Instant>,
    /// Set when the deadline passed: if the worker has not returned by then, the controller
    /// answers without it so that the engine never overruns its time.
    emergency: Option<Instant>,
    result: Option<SearchResult>,
    /// The first PV line of the latest iteration, for the ponder move.
    last_pv: Vec<Move>,
    /// UCCI: the opponent offers a draw.
    draw_offered: bool,
}

impl Running {
    fn holds(&self) -> bool {
        !self.stopping && (self.infinite || self.pondering)
    }

    /// The next moment the controller must act on its own.
    fn alarm(&self) -> Option<Instant> {
        match (self.deadline, self.emergency) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A change of settings, validated before anything is touched.
enum Change {
    Threads(usize),
    Hash(usize),
    ClearHash,
    NewGame,
    Ponder(bool),
    MultiPv(usize),
    Overhead(u64),
    ShowWdl(bool),
    UseMillisec(bool),
    Batch(bool),
    Debug(bool),
    /// `EvalFile`, already loaded and validated: the value and its net.
    EvalFile(String, Arc<Network>),
    UseNnue(bool),
}

/// The controller. Generic over its output so that it can also write into a buffer.
pub struct Engine<W: Write> {
    out: W,
    dialect: Dialect,
    pos: Position,
    banmoves: Vec<Move>,
    opts: Options,
    /// The net `EvalFile` names (the embedded one by default), kept whatever `Use NNUE` says.
    net: Option<Arc<Network>>,
    jobs: Sender<Job>,
    events: Receiver<Event>,
    running: Option<Running>,
    next_id: u64,
    /// Configuration jobs sent to the worker and not finished: `isready` waits for them.
    config_pending: usize,
    readyok_waiting: usize,
}

impl<W: Write> Engine<W> {
    /// A fresh engine at the start position, with its search worker started.
    pub fn new(out: W) -> Engine<W> {
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(WORKER_STACK)
            .spawn(move || worker(job_rx, event_tx));
        if let Err(e) = spawned {
            // Without a worker every search ends at once (the event channel is closed) and
            // falls back to a legal move; say why.
            eprintln!("chariot: cannot start the search thread: {e}");
        }
        Engine {
            out,
            dialect: Dialect::Uci,
            pos: Position::startpos(),
            banmoves: Vec::new(),
            opts: Options::default(),
            net: eval::nnue::embedded().ok().map(Arc::new),
            jobs,
            events,
            running: None,
            next_id: 0,
            config_pending: 0,
            readyok_waiting: 0,
        }
    }

    /// Processes commands until `quit` (or the end of the command stream).
    pub fn run(&mut self, commands: &Receiver<Input>) -> io::Result<()> {
        let mut events = self.events.clone();
        loop {
            let timer = match self.running.as_ref().and_then(Running::alarm) {
                Some(t) => crossbeam_channel::at(t),
                None => crossbeam_channel::never(),
            };
            let going = select! {
                recv(commands) -> msg => self.handle(msg.unwrap_or(Ok(Command::Quit))),
                recv(events) -> ev => match ev {
                    Ok(ev) => self.on_event(ev).map(|_| true),
                    // The worker is gone (it could not start): answer any search with a
                    // fallback move instead of hanging, and stop listening to it.
                    Err(_) => {
                        events = crossbeam_channel::never();
                        self.emit_bestmove().map(|_| true)
                    }
                },
                recv(timer) -> _ => self.on_deadline().map(|_| true),
            };
            match going {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                // The reader of our output is gone: nothing left to do.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn error(&mut self, text: &str) -> io::Result<()> {
        self.say(&format!("info string error: {text}"))
    }

    /// Handles one input; `Ok(false)` means quit.
    fn handle(&mut self, input: Input) -> io::Result<bool> {
        let cmd = match input {
            Ok(cmd) => cmd,
            Err(e) => {
                self.error(&e.to_string())?;
                return Ok(true);
            }
        };
        match cmd {
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.say(&uci::handshake())?;
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.say(&ucci::handshake())?;
            }
            Command::IsReady => {
                if self.config_pending > 0 {
                    self.readyok_waiting += 1;
                } else {
                    self.say("readyok")?;
                }
            }
            Command::UciNewGame => {
                self.finish_running()?;
                self.new_game();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Position { start, moves } => self.set_position(start, &moves)?,
            Command::Go(g) => self.go(g)?,
            Command::Stop => self.stop()?,
            Command::PonderHit { draw } => self.ponderhit(draw)?,
            Command::Quit => {
                self.quit()?;
                return Ok(false);
            }
            Command::BanMoves(moves) => self.set_banmoves(&moves)?,
            Command::Display => self.display()?,
            Command::Eval => {
                let text = eval::trace(&self.pos, self.net.as_deref(), self.opts.use_nnue);
                self.say(text.trim_end())?;
            }
            Command::Flip => {
                self.finish_running()?;
                self.pos = self.pos.flipped();
                self.banmoves.clear();
            }
            Command::Bench(depth) => {
                self.finish_running()?;
                let text = run_tool(move || {
                    let mut buf = Vec::new();
                    if let Err(e) = tools::bench::bench(depth, &mut buf) {
                        let _ = writeln!(buf, "info string error: bench: {e}");
                    }
                    String::from_utf8_lossy(&buf).into_owned()
                });
                self.say(text.trim_end())?;
            }
            Command::Probe => self.error("probe is not supported")?,
        }
        Ok(true)
    }

    /// Sends a job; `false` when the worker is gone (it could not be started).
    fn send(&mut self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    fn config(&mut self, job: Job) {
        if self.send(job) {
            self.config_pending += 1;
        }
    }

    fn new_game(&mut self) {
        self.banmoves.clear();
        self.config(Job::Clear);
    }

    // ---- searches ------------------------------------------------------------------

    fn go(&mut self, g: GoParams) -> io::Result<()> {
        if let Some(depth) = g.perft {
            if depth == 0 {
                return self.error("go perft: depth must be at least 1; command ignored");
            }
            self.finish_running()?;
            let mut pos = self.pos.clone();
            let text = run_tool(move || {
                let mut text = String::new();
                let mut total = 0u64;
                for (mv, n) in tools::perft::divide(&mut pos, depth) {
                    let _ = writeln!(text, "{mv}: {n}");
                    total += n;
                }
                let _ = write!(text, "Nodes searched: {total}");
                text
            });
            return self.say(&text);
        }
        if let Some(m) = g.searchmoves.iter().find(|m| !self.pos.is_legal(**m)) {
            return self.error(&format!(
                "go: searchmoves {m} is not a legal move in this position; command ignored"
            ));
        }

        // Clock values: negative ones (a GUI whose clock ran over) count as zero.
        let mut faults = Vec::new();
        let mut dur = |name: &'static str, v: Option<i64>, unit_ms: u64| -> Option<Duration> {
            v.map(|x| {
                if x < 0 {
                    faults.push(format!("{name} {x} is negative, counted as 0"));
                }
                Duration::from_millis((x.max(0) as u64).saturating_mul(unit_ms))
            })
        };
        let ucci_unit = if self.opts.usemillisec { 1 } else { 1000 };
        let movetime = dur("movetime", g.movetime, 1);
        let own_clock = if g.time.is_some() {
            let remaining = dur("time", g.time, ucci_unit);
            let inc = dur("increment", g.increment, ucci_unit);
            let _ = dur("opptime", g.opptime, ucci_unit);
            let _ = dur("oppincrement", g.oppincrement, ucci_unit);
            remaining.map(|r| (r, inc))
        } else {
            let red = dur("wtime", g.wtime, 1).map(|r| (r, dur("winc", g.winc, 1)));
            let black = dur("btime", g.btime, 1).map(|r| (r, dur("binc", g.binc, 1)));
            let (own, other, own_name, other_name) = match self.pos.side_to_move() {
                Color::Red => (red, black, "wtime", "btime"),
                Color::Black => (black, red, "btime", "wtime"),
            };
            // A timed `go` is never infinite: without our clock, assume the opponent's.
            if own.is_none() && other.is_some() {
                faults.push(format!("no {own_name} for the side to move, using {other_name}"));
            }
            own.or(other)
        };
        let clock = own_clock.map(|(remaining, inc)| Clock {
            remaining,
            increment: inc.unwrap_or_default(),
            moves_to_go: g.movestogo.filter(|&n| n > 0),
        });
        if !faults.is_empty() {
            self.error(&format!("go: {}", faults.join("; ")))?;
        }
        let bounded =
            g.depth.is_some() || g.nodes.is_some() || g.mate.is_some() || movetime.is_some() || clock.is_some();
        let limits = Limits {
            depth: g.depth.map(|d| d.max(1)),
            nodes: g.nodes,
            mate: g.mate,
            movetime,
            clock,
            infinite: g.infinite || !bounded,
            searchmoves: g.searchmoves.clone(),
            banmoves: self.banmoves.clone(),
            multipv: self.opts.multipv,
            move_overhead: self.opts.move_overhead,
        };

        self.finish_running()?;

        let mut roots: Vec<Move> = self.pos.legal_moves().iter().collect();
        if !limits.searchmoves.is_empty() {
            roots.retain(|m| limits.searchmoves.contains(m));
        }
        roots.retain(|m| !limits.banmoves.contains(m));
        let control = Arc::new(Control::default());
        control.pondering.store(g.ponder, Ordering::SeqCst);
        let budget = watchdog(limits.movetime, limits.clock, self.opts.move_overhead);
        let now = Instant::now();
        self.next_id += 1;
        let id = self.next_id;
        let mut running = Running {
            id,
            pos: self.pos.clone(),
            roots,
            control: Arc::clone(&control),
            infinite: limits.infinite,
            pondering: g.ponder,
            stopping: false,
            budget,
            deadline: if g.ponder { None } else { budget.map(|b| now + b) },
            emergency: None,
            result: None,
            last_pv: Vec::new(),
            draw_offered: g.draw,
        };
        if running.roots.is_empty() {
            // Nothing to search: the answer is known, but it still waits for `stop` or
            // `ponderhit` under `go infinite`/`go ponder`.
            if self.dialect == Dialect::Uci {
                self.say("info depth 0 score mate 0")?;
            }
            running.result = Some(SearchResult::default());
            let holds = running.holds();
            self.running = Some(running);
            if !holds {
                self.emit_bestmove()?;
            }
            return Ok(());
        }
        self.running = Some(running);
        let sent = self.send(Job::Search {
            id,
            pos: Box::new(self.pos.clone()),
            limits: Box::new(limits),
            control,
        });
        if !sent {
            if let Some(r) = self.running.as_mut() {
                r.result = Some(SearchResult::default());
                if !r.holds() {
                    self.emit_bestmove()?;
                }
            }
        }
        Ok(())
    }

    /// `stop`: end the search now. Its `bestmove` follows as soon as the worker returns, or
    /// after [`STOP_GRACE`] with the last completed iteration's move if it does not.
    fn stop(&mut self) -> io::Result<()> {
        let Some(r) = self.running.as_mut() else {
            return Ok(());
        };
        r.stopping = true;
        r.deadline = None;
        let limit = Instant::now() + STOP_GRACE;
        r.emergency = Some(r.emergency.map_or(limit, |e| e.min(limit)));
        r.control.pondering.store(false, Ordering::SeqCst);
        r.control.stop.store(true, Ordering::SeqCst);
        if r.result.is_some() {
            self.emit_bestmove()?;
        }
        Ok(())
    }

    /// `ponderhit`: the pondered move was played; the search goes on under its clock, which
    /// counts from now.
    fn ponderhit(&mut self, draw: bool) -> io::Result<()> {
        let Some(r) = self.running.as_mut() else {
            return Ok(());
        };
        if !r.pondering {
            return Ok(());
        }
        r.pondering = false;
        r.draw_offered |= draw;
        r.deadline = r.budget.map(|b| Instant::now() + b);
        r.control.pondering.store(false, Ordering::SeqCst);
        if r.result.is_some() && !r.holds() {
            self.emit_bestmove()?;
        }
        Ok(())
    }

    /// The time limit passed: stop the search; if it still has not returned after a short
    /// grace, answer with the best move known (the last completed iteration's).
    fn on_deadline(&mut self) -> io::Result<()> {
        let now = Instant::now();
        let grace = (self.opts.move_overhead / 2).max(MIN_GRACE);
        let Some(r) = self.running.as_mut() else {
            return Ok(());
        };
        if r.deadline.is_some_and(|d| d <= now) {
            r.deadline = None;
            r.emergency = Some(now + grace);
            r.control.stop.store(true, Ordering::SeqCst);
        }
        if r.emergency.is_some_and(|d| d <= now) && r.result.is_none() {
            self.say("info string the search did not stop in time; answering with its last completed iteration")?;
            self.emit_bestmove()?;
        }
        Ok(())
    }

    fn on_event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Info(id, info) => {
                let Some(r) = self.running.as_mut().filter(|r| r.id == id) else {
                    return Ok(());
                };
                if info.multipv <= 1 {
                    r.last_pv.clone_from(&info.pv);
                }
                match self.dialect {
                    Dialect::Uci => {
                        let line = uci::info(&info, self.opts.show_wdl);
                        self.say(&line)?;
                    }
                    Dialect::Ucci => {
                        self.say(&ucci::info(&info))?;
                        if info.multipv <= 1 {
                            self.say(&ucci::info_time(&info))?;
                        }
                    }
                }
            }
            Event::Done(id, result, failure) => {
                let Some(r) = self.running.as_mut().filter(|r| r.id == id) else {
                    return Ok(());
                };
                r.result = Some(*result);
                let holds = r.holds();
                if let Some(text) = failure {
                    self.error(&format!(
                        "the search failed ({}); playing a fallback move",
                        shown(&text)
                    ))?;
                }
                if !holds {
                    self.emit_bestmove()?;
                }
            }
            Event::ConfigDone(text) => {
                self.config_pending = self.config_pending.saturating_sub(1);
                if let Some(text) = text {
                    self.say(text.trim_end())?;
                }
                if self.config_pending == 0 {
                    while self.readyok_waiting > 0 {
                        self.readyok_waiting -= 1;
                        self.say("readyok")?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Prints the one `bestmove` of the current search and forgets it. The move is checked
    /// against the legal root moves; a search that found none (stopped at once, or failed)
    /// falls back to a legal move in UCI and to `nobestmove` in UCCI.
    fn emit_bestmove(&mut self) -> io::Result<()> {
        let Some(r) = self.running.take() else {
            return Ok(());
        };
        let result = r.result.unwrap_or_default();
        let mut best = result.best.filter(|m| r.roots.contains(m));
        if let (Some(m), None) = (result.best, best) {
            self.error(&format!(
                "the search chose {m}, which is not allowed here; playing a fallback move"
            ))?;
        }
        if best.is_none() {
            // The search has no answer (abandoned at its deadline, or failed): the last
            // completed iteration's move, else in UCI any legal move.
            best = r.last_pv.first().copied().filter(|m| r.roots.contains(m));
        }
        if best.is_none() && self.dialect == Dialect::Uci {
            best = r.roots.first().copied();
        }
        let ponder = best.and_then(|b| {
            let guess = result.ponder.or_else(|| {
                (r.last_pv.first() == Some(&b))
                    .then(|| r.last_pv.get(1).copied())
                    .flatten()
            })?;
            let mut after = r.pos.clone();
            after.make_move(b);
            after.is_legal(guess).then_some(guess)
        });
        let line = match self.dialect {
            Dialect::Uci => uci::bestmove(best, ponder),
            Dialect::Ucci => {
                // Accept an offered draw unless we think we stand better.
                let draw = r.draw_offered && best.is_some() && result.score <= 0;
                ucci::bestmove(best, ponder, draw)
            }
        };
        self.say(&line)
    }

    /// Ends the running search, if any, and prints its `bestmove` before returning.
    fn finish_running(&mut self) -> io::Result<()> {
        if self.running.is_none() {
            return Ok(());
        }
        self.stop()?;
        while let Some(r) = self.running.as_ref() {
            let until = r.emergency.unwrap_or_else(|| Instant::now() + STOP_GRACE);
            match self.events.recv_deadline(until) {
                Ok(ev) => self.on_event(ev)?,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => self.on_deadline()?,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => self.emit_bestmove()?,
            }
        }
        Ok(())
    }

    /// `quit`: stop, print the `bestmove` if the worker returns within a few milliseconds,
    /// and leave (UCCI says `bye`).
    fn quit(&mut self) -> io::Result<()> {
        if self.running.is_some() {
            self.stop()?;
            let until = Instant::now() + QUIT_GRACE;
            while self.running.is_some() {
                match self.events.recv_deadline(until) {
                    Ok(ev) => self.on_event(ev)?,
                    Err(_) => break,
                }
            }
        }
        if self.dialect == Dialect::Ucci {
            self.say("bye")?;
        }
        Ok(())
    }

    // ---- position and options --------------------------------------------------------

    /// Applies a `position` whole or not at all: the FEN and every move are checked on a
    /// copy, which then replaces the current position.
    fn set_position(&mut self, start: Start, moves: &[String]) -> io::Result<()> {
        let mut pos = match &start {
            Start::Startpos => Position::startpos(),
            Start::Fen(fen) => match Position::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    return self.error(&format!(
                        "position: invalid FEN '{}': {e}; position unchanged",
                        shown(fen)
                    ));
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(mv) => pos.make_move(mv),
                Err(e) => {
                    return self.error(&format!(
                        "position: move {} '{}': {e}; position unchanged",
                        i + 1,
                        shown(text)
                    ));
                }
            }
        }
        self.finish_running()?;
        self.pos = pos;
        self.banmoves.clear();
        Ok(())
    }

    fn set_banmoves(&mut self, moves: &[String]) -> io::Result<()> {
        let mut list = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match self.pos.parse_move(text) {
                Ok(mv) => list.push(mv),
                Err(e) => {
                    return self.error(&format!(
                        "banmoves: move {} '{}': {e}; banned moves unchanged",
                        i + 1,
                        shown(text)
                    ));
                }
            }
        }
        self.banmoves = list;
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        let change = match parse_change(name, value) {
            Ok(c) => c,
            Err(e) => return self.error(&format!("setoption: {e}; settings unchanged")),
        };
        self.finish_running()?;
        match change {
            Change::Threads(n) => {
                self.opts.threads = n;
                self.config(Job::SetThreads(n));
            }
            Change::Hash(mb) => {
                let cap = hash_cap_mb();
                let mb = if mb > cap {
                    self.say(&format!(
                        "info string Hash {mb} MB is more than this machine can give; using {cap} MB"
                    ))?;
                    cap
                } else {
                    mb
                };
                self.opts.hash_mb = mb;
                self.config(Job::SetHash(mb));
            }
            Change::ClearHash => self.config(Job::Clear),
            Change::NewGame => self.new_game(),
            Change::Ponder(b) => self.opts.ponder = b,
            Change::MultiPv(n) => self.opts.multipv = n,
            Change::Overhead(ms) => self.opts.move_overhead = Duration::from_millis(ms),
            Change::ShowWdl(b) => self.opts.show_wdl = b,
            Change::UseMillisec(b) => self.opts.usemillisec = b,
            Change::Batch(b) => self.opts.batch = b,
            Change::Debug(b) => self.opts.debug = b,
            Change::EvalFile(file, net) => {
                self.opts.eval_file = file;
                self.net = Some(net);
                self.send_net()?;
            }
            Change::UseNnue(b) => {
                self.opts.use_nnue = b;
                self.send_net()?;
            }
        }
        Ok(())
    }

    /// Hands the search the net `Use NNUE` and `EvalFile` select.
    fn send_net(&mut self) -> io::Result<()> {
        let net = self.net.clone().filter(|_| self.opts.use_nnue);
        if self.opts.use_nnue && net.is_none() {
            self.error("Use NNUE: no net is loaded; the hand-crafted evaluation stays in use")?;
        }
        if let Some(n) = &net {
            if eval::nnue::is_placeholder(n) {
                self.say("info string warning: the net is the untrained placeholder, not a trained net")?;
            }
        }
        self.config(Job::SetNet(net));
        Ok(())
    }

    /// `d`: the board, then `Fen:`, `Key:`, `Checkers:` and `Outcome:` lines.
    fn display(&mut self) -> io::Result<()> {
        let mut checkers = String::new();
        for sq in self.pos.checkers() {
            let _ = write!(checkers, " {sq}");
        }
        let text = format!(
            "{}Fen: {}\nKey: {:016X}\nCheckers:{checkers}\nOutcome: {}",
            self.pos.pretty(),
            self.pos.fen(),
            self.pos.key(),
            rules::outcome(&self.pos)
        );
        self.say(&text)
    }
}

/// Runs a tool for people (perft, bench) to completion on a thread with a large stack and
/// returns its text. The controller waits: these are not searches, and their output must
/// stay in order with what follows.
fn run_tool(tool: impl FnOnce() -> String + Send) -> String {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, tool)
        {
            Ok(handle) => match handle.join() {
                Ok(text) => text,
                Err(p) => format!("info string error: {}", panic_text(&*p)),
            },
            Err(e) => format!("info string error: cannot start a thread: {e}"),
        }
    })
}

/// The hard limit the controller enforces by setting the stop flag: `movetime` less half the
/// overhead, and under a clock never more than half of what is left (all of it, less the
/// overhead, on the last move before a time control). The search's own time management
/// stops well before; this only guarantees the engine never overruns.
fn watchdog(movetime: Option<Duration>, clock: Option<Clock>, overhead: Duration) -> Option<Duration> {
    let by_movetime = movetime.map(|t| t.saturating_sub(overhead / 2));
    let by_clock = clock.map(|c| {
        let usable = c.remaining.saturating_sub(overhead);
        if c.moves_to_go == Some(1) {
            usable
        } else {
            (usable / 2 + c.increment).min(usable)
        }
    });
    match (by_movetime, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The largest hash this machine can reasonably give, in MB: half its memory and no more
/// than three quarters of what is free now (65536 when that cannot be read).
fn hash_cap_mb() -> usize {
    let Ok(info) = std::fs::read_to_string("/proc/meminfo") else {
        return 65536;
    };
    let field = |name: &str| -> Option<usize> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()
    };
    match (field("MemTotal:"), field("MemAvailable:")) {
        (Some(total_kb), Some(avail_kb)) => ((total_kb / 2).min(avail_kb / 4 * 3) / 1024).clamp(1, 65536),
        _ => 65536,
    }
}

fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value ({min}..{max})"))?;
    let n: u64 = v
        .parse()
        .map_err(|_| format!("{name} value '{}' is not a number ({min}..{max})", shown(v)))?;
    if n < min || n > max {
        return Err(format!("{name} value {n} is out of range {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.to_ascii_lowercase()).as_deref() {
        Some("true" | "on") => Ok(true),
        Some("false" | "off") => Ok(false),
        Some(other) => Err(format!("{name} value '{}' is not true or false", shown(other))),
        None => Err(format!("{name} needs a value (true or false)")),
    }
}

/// Validates `setoption` for both dialects' option names (case-insensitive).
fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    let key = name.to_ascii_lowercase();
    let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(match key.as_str() {
        "threads" => Change::Threads(spin("Threads", value, 1, 256)? as usize),
        "hash" => Change::Hash(spin("Hash", value, 1, 65536)? as usize),
        // UCCI's range starts at 0, which we read as the smallest table.
        "hashsize" => Change::Hash(spin("hashsize", value, 0, 65536)?.max(1) as usize),
        "clear hash" => Change::ClearHash,
        "newgame" => Change::NewGame,
        "ponder" => Change::Ponder(check(name, value)?),
        "multipv" => Change::MultiPv(spin("MultiPV", value, 1, 128)? as usize),
        "move overhead" => Change::Overhead(spin("Move Overhead", value, 0, 5000)?),
        "uci_showwdl" => Change::ShowWdl(check(name, value)?),
        "usemillisec" => Change::UseMillisec(check(name, value)?),
        "batch" => Change::Batch(check(name, value)?),
        "debug" => Change::Debug(check(name, value)?),
        "evalfile" => {
            let file = value.unwrap_or("").trim().to_string();
            match eval::nnue::load_eval_file(&file) {
                Ok(net) => Change::EvalFile(file, Arc::new(net)),
                Err(e) => return Err(format!("EvalFile '{}': {e}", shown(&file))),
            }
        }
        "use nnue" | "usennue" => Change::UseNnue(check(name, value)?),
        _ => return Err(format!("unknown option '{}'", shown(name))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchdog_limits() {
        let ms = Duration::from_millis;
        assert_eq!(watchdog(Some(ms(1000)), None, ms(10)), Some(ms(995)));
        let clock = Clock {
            remaining: ms(10_010),
            increment: ms(100),
            moves_to_go: None,
        };
        assert_eq!(watchdog(None, Some(clock), ms(10)), Some(ms(5100)));
        let last = Clock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(watchdog(None, Some(last), ms(10)), Some(ms(10_000)));
        assert_eq!(watchdog(None, None, ms(10)), None);
    }

    #[test]
    fn option_validation() {
        assert!(matches!(parse_change("HASH", Some("64")), Ok(Change::Hash(64))));
        assert!(matches!(
            parse_change("move  overhead", Some("0")),
            Ok(Change::Overhead(0))
        ));
        assert!(parse_change("Hash", Some("999999999999")).is_err());
        assert!(parse_change("Threads", Some("0")).is_err());
        assert!(parse_change("EvalFile", Some("x.nnue")).is_err());
        assert!(parse_change("Ponder", Some("maybe")).is_err());
        assert!(matches!(parse_change("hashsize", Some("0")), Ok(Change::Hash(1))));
    }
}

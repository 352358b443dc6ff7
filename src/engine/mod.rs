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
//!
//! Layout: this file is the controller (state, command dispatch, searches and their one
//! answer); [`options`] names, validates and applies every setting; [`limits`] turns a `go`
//! into search limits; `worker` runs the searches on their own thread; `cecp` is the game
//! state CECP adds (XBoard's engine keeps the game and plays its own moves), on the same
//! controller, worker and stop flag. Each dialect's text
//! lives in [`crate::protocol`], which knows nothing of the engine.

mod cecp;
pub mod inline;
mod limits;
mod options;
pub mod rules_json;
#[cfg(target_arch = "wasm32")]
mod wasm;
mod worker;

pub use limits::{from_go, watchdog};
pub use options::Options;

use crate::board::{rules, Position};
use crate::core::clock::Instant;
use crate::core::Move;
use crate::notation::{self, Notation};
use crate::protocol::command::{shown, Command, GoParams, Start};
#[cfg(not(target_arch = "wasm32"))]
use crate::protocol::read_commands;
use crate::protocol::{ucci, uci, Dialect, Input};
use crate::search::skill::Skill;
use crate::search::{Control, Limits, SearchResult};
use crate::{eval, tools};
#[cfg(not(target_arch = "wasm32"))]
use crossbeam_channel::select;
use crossbeam_channel::{Receiver, Sender};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use worker::{run_tool, Event, Job};

/// How long after its deadline a search that has not returned is answered for (with the
/// move of its last completed iteration), at least: half the Move Overhead is used if larger.
const MIN_GRACE: Duration = Duration::from_millis(2);
/// How long `quit` waits for a stopped search's `bestmove` before leaving anyway.
#[cfg(not(target_arch = "wasm32"))]
const QUIT_GRACE: Duration = Duration::from_millis(2);
/// How long after `stop` (or a command that ends the search) a search that has not returned
/// is answered for with the move of its last completed iteration: `stop` must act within
/// 10 ms whatever the search does.
const STOP_GRACE: Duration = Duration::from_millis(8);

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
    /// Below full strength: how to choose among the search's lines.
    skill: Option<Skill>,
    /// Abandoned: its answer is not printed (CECP: the game moved on without it).
    silent: bool,
    /// CECP pondering: the search is of the position after this predicted reply of the
    /// opponent. Until the reply is played (`pondering` cleared) its answer is never printed.
    expected: Option<Move>,
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

/// The controller. Generic over its output so that it can also write into a buffer.
pub struct Engine<W: Write> {
    out: W,
    dialect: Dialect,
    pos: Position,
    banmoves: Vec<Move>,
    opts: Options,
    /// The net `EvalFile` names (the embedded one by default), kept whatever `Use NNUE` says.
    net: Option<Arc<crate::eval::nnue::Network>>,
    jobs: Sender<Job>,
    events: Receiver<Event>,
    running: Option<Running>,
    next_id: u64,
    /// Configuration jobs sent to the worker and not finished: `isready` waits for them.
    config_pending: usize,
    /// Answers (`readyok`, `pong N`) held until the pending configuration jobs finish.
    waiting: Vec<String>,
    /// The game state of the CECP dialect.
    cecp: cecp::State,
    /// Given to every search's [`Control`]: how a search on the controller's own thread
    /// reads input ([`inline`]); `None` with a worker thread.
    hook: Option<fn(&Control)>,
}

impl<W: Write> Engine<W> {
    /// A fresh engine at the start position, with its search worker started.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(out: W) -> Engine<W> {
        let (engine, job_rx, event_tx) = Engine::detached(out);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(worker::WORKER_STACK)
            .spawn(move || {
                let defaults = Options::default();
                worker::run(job_rx, event_tx, defaults.hash_mb, defaults.threads)
            });
        if let Err(e) = spawned {
            // Without a worker every search ends at once (the event channel is closed) and
            // falls back to a legal move; say why.
            eprintln!("chariot: cannot start the search thread: {e}");
        }
        engine
    }

    /// A fresh engine without a worker: whoever runs the jobs (a thread, or
    /// [`inline`] between commands) takes them from the receiver and answers on the sender.
    fn detached(out: W) -> (Engine<W>, Receiver<Job>, Sender<Event>) {
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let engine = Engine {
            out,
            dialect: Dialect::Uci,
            pos: Position::startpos(),
            banmoves: Vec::new(),
            opts: Options::default(),
            net: eval::embedded_network(),
            jobs,
            events,
            running: None,
            next_id: 0,
            config_pending: 0,
            waiting: Vec::new(),
            cecp: cecp::State::default(),
            hook: None,
        };
        (engine, job_rx, event_tx)
    }

    /// Processes commands until `quit` (or the end of the command stream).
    #[cfg(not(target_arch = "wasm32"))]
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
            // CECP: a move just played may start a ponder search. Started here, between
            // steps, never from inside one (such as the wait of `quit` or `force`).
            let going = going.and_then(|go| if go { self.cecp_ponder().map(|_| go) } else { Ok(go) });
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

    /// A message for people, in the dialect's comment form (`info string …`; `# …` in CECP).
    fn note(&mut self, text: &str) -> io::Result<()> {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => self.say(&format!("info string {text}")),
            Dialect::Cecp => self.say(&format!("# {text}")),
        }
    }

    fn error(&mut self, text: &str) -> io::Result<()> {
        self.note(&format!("error: {text}"))
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
            Command::Xboard => {
                self.finish_running()?;
                self.dialect = Dialect::Cecp;
                self.cecp_reset();
            }
            Command::Cecp(c) => return self.cecp(c),
            Command::IsReady => self.answer_when_configured("readyok".to_string())?,
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

        let (limits, faults) = from_go(&g, self.pos.side_to_move(), &self.opts, &self.banmoves);
        if !faults.is_empty() {
            self.error(&format!("go: {}", faults.join("; ")))?;
        }
        self.start_search(limits, g.ponder, g.draw)
    }

    /// Ends any running search, then starts one of the current position under `limits`
    /// (`ponder`: hold the clock until `ponderhit`; `draw`: the opponent offers a draw).
    fn start_search(&mut self, limits: Limits, ponder: bool, draw: bool) -> io::Result<()> {
        self.search_position(self.pos.clone(), limits, ponder, draw, None)
    }

    /// [`Self::start_search`] of `pos` rather than the current position; `expected`: a CECP
    /// ponder search of the position after that predicted reply (`pos`).
    fn search_position(
        &mut self,
        pos: Position,
        mut limits: Limits,
        ponder: bool,
        draw: bool,
        expected: Option<Move>,
    ) -> io::Result<()> {
        self.finish_running()?;

        // A strength level limits every search but analysis (`go infinite`).
        let seed = Skill::seed(pos.key(), self.opts.skill_seed);
        let skill = (self.opts.skill().filter(|_| !limits.infinite)).map(|s| s.for_move(seed));
        if let Some(s) = skill {
            s.apply(&mut limits);
        }

        let mut roots: Vec<Move> = pos.legal_moves().iter().collect();
        if !limits.searchmoves.is_empty() {
            roots.retain(|m| limits.searchmoves.contains(m));
        }
        roots.retain(|m| !limits.banmoves.contains(m));
        let control = Arc::new(Control {
            hook: self.hook,
            ..Control::default()
        });
        control.pondering.store(ponder, Ordering::SeqCst);
        let budget = watchdog(limits.movetime, limits.clock, self.opts.move_overhead);
        let now = Instant::now();
        self.next_id += 1;
        let id = self.next_id;
        let mut running = Running {
            id,
            pos: pos.clone(),
            roots,
            control: Arc::clone(&control),
            infinite: limits.infinite,
            pondering: ponder,
            stopping: false,
            budget,
            deadline: if ponder { None } else { budget.map(|b| now + b) },
            emergency: None,
            result: None,
            last_pv: Vec::new(),
            draw_offered: draw,
            skill,
            silent: false,
            expected,
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
            pos: Box::new(pos),
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
            self.note("the search did not stop in time; answering with its last completed iteration")?;
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
                    Dialect::Cecp => self.cecp_info(*info)?,
                }
            }
            Event::Done(id, result, failure) => {
                let Some(r) = self.running.as_mut().filter(|r| r.id == id) else {
                    return Ok(());
                };
                #[cfg(feature = "stats")]
                let stats = result.stats.lines();
                r.result = Some(*result);
                let holds = r.holds();
                #[cfg(feature = "stats")]
                for line in stats {
                    self.say(&format!("info string stats {line}"))?;
                }
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
                    for answer in std::mem::take(&mut self.waiting) {
                        self.say(&answer)?;
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
        // A CECP ponder search ended before its predicted reply was played: it was searching
        // a position the game has not reached, so its move is never printed.
        if r.silent || (r.pondering && r.expected.is_some()) {
            return Ok(());
        }
        let mut result = r.result.unwrap_or_default();
        if let Some(skill) = r.skill {
            let seed = Skill::seed(r.pos.key(), self.opts.skill_seed);
            if let Some(m) = skill.pick(&result.lines, seed).filter(|m| Some(*m) != result.best) {
                result.ponder = result
                    .lines
                    .iter()
                    .find(|l| l.mv == m)
                    .and_then(|l| l.pv.get(1).copied());
                result.best = Some(m);
            }
        }
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
        if best.is_none() && self.dialect != Dialect::Ucci {
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
            Dialect::Cecp => return self.cecp_played(best, ponder),
            Dialect::Ucci => {
                // Accept an offered draw unless we think we stand better.
                let draw = r.draw_offered && best.is_some() && result.score <= 0;
                ucci::bestmove(best, ponder, draw)
            }
        };
        self.say(&line)
    }

    /// Ends the running search, if any, without printing its answer.
    fn abandon_running(&mut self) -> io::Result<()> {
        if let Some(r) = self.running.as_mut() {
            r.silent = true;
        }
        self.finish_running()
    }

    /// Prints `answer` now, or once the configuration jobs sent so far have finished.
    fn answer_when_configured(&mut self, answer: String) -> io::Result<()> {
        if self.config_pending > 0 {
            self.waiting.push(answer);
            Ok(())
        } else {
            self.say(&answer)
        }
    }

    /// Ends the running search, if any, and prints its `bestmove` before returning.
    fn finish_running(&mut self) -> io::Result<()> {
        if self.running.is_none() {
            return Ok(());
        }
        self.stop()?;
        // One thread (WebAssembly): the inline driver runs every search to its end before
        // the next command, so a search still here never started; answer for it now.
        #[cfg(target_arch = "wasm32")]
        if self.running.is_some() {
            self.emit_bestmove()?;
        }
        #[cfg(not(target_arch = "wasm32"))]
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
            #[cfg(target_arch = "wasm32")]
            if self.running.is_some() {
                self.emit_bestmove()?;
            }
            #[cfg(not(target_arch = "wasm32"))]
            let until = Instant::now() + QUIT_GRACE;
            #[cfg(not(target_arch = "wasm32"))]
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
        if matches!(start, Start::Fen(_)) {
            self.composed_warning()?;
        }
        Ok(())
    }

    /// One `warning: composed position: …` line when the position holds a pawn no game can
    /// bring where it stands.
    fn composed_warning(&mut self) -> io::Result<()> {
        match self.pos.composed_warning() {
            Some(text) => self.note(&format!("warning: {text}")),
            None => Ok(()),
        }
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
    /// `d`: the board, then `Fen:`, `Key:`, `Checkers:`, `Kernels:` (the net's, as chosen for
    /// this CPU) and `Outcome:` lines.
    fn display(&mut self) -> io::Result<()> {
        let mut checkers = String::new();
        for sq in self.pos.checkers() {
            let _ = write!(checkers, " {sq}");
        }
        // The move that led here, in the three notations (when the position has one).
        let mut last = String::new();
        if let Some(mv) = self.pos.history().last().and_then(|s| s.mv) {
            let mut before = self.pos.clone();
            before.unmake_move();
            let _ = writeln!(
                last,
                "Last move: {}  {}  {}",
                notation::format_move(&before, mv, Notation::Iccs),
                notation::format_move(&before, mv, Notation::Wxf),
                notation::format_move(&before, mv, Notation::Chinese)
            );
        }
        let text = format!(
            "{}{last}Fen: {}\nKey: {:016X}\nCheckers:{checkers}\nKernels: {}\nOutcome: {}",
            self.pos.pretty(),
            self.pos.fen(),
            self.pos.key(),
            eval::nnue::Backend::best(),
            rules::outcome(&self.pos)
        );
        self.say(&text)
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_stdio() -> anyhow::Result<()> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_commands(io::stdin().lock(), tx))?;
    let mut engine = Engine::new(io::stdout());
    engine.run(&rx)?;
    // Leave at once, without dropping the engine: giving back the pages of a large hash table
    // alone takes ~80 ms for 1 GB, and `quit` must act within 10 ms. The OS reclaims it all.
    io::stdout().flush()?;
    std::process::exit(0)
}

//! The engine on one thread, for hosts without threads (WebAssembly in a Web Worker or in a
//! Node worker). The same controller ([`Engine`]) and the same worker jobs
//! ([`WorkerState`]) as the threaded engine; only the driving differs.
//!
//! The host gives lines through a *source* (a function that returns the next pending input
//! line, or `None` when there is none now) and takes output through a writer. [`run_pending`]
//! reads every pending line, hands each to the controller, and then runs the jobs it sent
//! (configuration, searches) to their end, here, before the next line.
//!
//! While a search runs, the search calls [`Control::hook`] every 1024 nodes, and the hook
//! reads the source into a queue and takes it in order: `stop`, `ponderhit`, `isready`, `d`,
//! `eval`, `uci`, `ucci` and bad lines are acted on at once, as the threaded controller does;
//! any other command waits until the search has returned, and one that would end the search
//! (`go`, `position`, `ucinewgame`, `flip`, `bench`, `quit`, `xboard` and CECP commands) stops
//! it first. Whatever comes after such a command waits too, `stop` included: it is for the
//! search the waiting `go` starts. The info lines the search reports are printed from the
//! hook too, so they come while it runs. A host whose source cannot deliver lines during a
//! search (a browser page that is not cross-origin isolated, so without `SharedArrayBuffer`)
//! gets only what the search's own limits give; `web/src/chariot.mjs` says what its wrapper
//! does then.
//!
//! The state lives in thread-local cells, because the hook is a plain function called from
//! inside the search: the controller is never borrowed while a job runs, so the hook and the
//! search's reporter may borrow it.

use super::worker::{Event, Job, WorkerState};
use super::{Engine, Options};
use crate::core::clock::Instant;
use crate::protocol::command::{Command, MAX_LINE};
use crate::protocol::{Input, LineParser};
use crate::search::Control;
use crossbeam_channel::{Receiver, Sender};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;

/// Where the input lines come from: the next pending line, `None` when there is none now.
pub type Source = Box<dyn FnMut() -> Option<Vec<u8>>>;

struct Driver {
    engine: Engine<Box<dyn Write>>,
    jobs: Receiver<Job>,
    parser: LineParser,
    source: Source,
    /// Commands that arrived during a search and wait for its end.
    queue: VecDeque<Input>,
    quit: bool,
}

struct Runner {
    worker: WorkerState,
    events: Sender<Event>,
}

thread_local! {
    static DRIVER: RefCell<Option<Driver>> = const { RefCell::new(None) };
    static RUNNER: RefCell<Option<Runner>> = const { RefCell::new(None) };
}

/// Starts a fresh engine on this thread (replacing any earlier one) that reads `source` and
/// writes to `out`.
pub fn start(out: Box<dyn Write>, source: Source) {
    let (mut engine, jobs, events) = Engine::detached(out);
    engine.hook = Some(hook);
    let defaults = Options::default();
    let worker = WorkerState::new(defaults.hash_mb, defaults.threads);
    DRIVER.with(|d| {
        *d.borrow_mut() = Some(Driver {
            engine,
            jobs,
            parser: LineParser::default(),
            source,
            queue: VecDeque::new(),
            quit: false,
        })
    });
    RUNNER.with(|r| *r.borrow_mut() = Some(Runner { worker, events }));
}

/// Runs `f` on the driver, when there is one and it is not in use.
fn with_driver<T>(f: impl FnOnce(&mut Driver) -> T) -> Option<T> {
    DRIVER.with(|d| d.try_borrow_mut().ok()?.as_mut().map(f))
}

/// Reads and acts on every pending line, running each search to its end. Returns `false`
/// once the engine has quit (or was never started).
pub fn run_pending() -> bool {
    loop {
        let Some(step) = with_driver(|d| {
            if d.quit {
                return None;
            }
            let bytes = (d.source)()?;
            Some(d.parse(&bytes))
        }) else {
            return false;
        };
        let Some(input) = step else {
            // Nothing pending now.
            return with_driver(|d| !d.quit).unwrap_or(false);
        };
        if let Some(input) = input {
            handle(input);
        }
        pump();
    }
}

/// Hands one input to the controller (top level, not during a search).
fn handle(input: Input) {
    with_driver(|d| {
        match d.engine.handle(input) {
            Ok(true) => {
                // CECP: a move just played may start a ponder search.
                let _ = d.engine.cecp_ponder();
            }
            Ok(false) | Err(_) => d.quit = true,
        }
    });
}

/// Delivers the worker's events and runs the jobs sent, then the commands that waited for a
/// search, until nothing is left.
fn pump() {
    loop {
        let job = with_driver(|d| {
            d.deliver_events();
            if d.quit {
                return None;
            }
            d.jobs.try_recv().ok()
        })
        .flatten();
        if let Some(job) = job {
            RUNNER.with(|r| {
                if let Some(r) = r.borrow_mut().as_mut() {
                    let ev = r.worker.run_job(job, &r.events);
                    let _ = r.events.send(ev);
                }
            });
            continue;
        }
        let waiting = with_driver(|d| if d.quit { None } else { d.queue.pop_front() }).flatten();
        match waiting {
            Some(input) => handle(input),
            None => return,
        }
    }
}

/// Called by the running search every 1024 nodes: prints what the search reported, keeps
/// the clock, and reads the input that arrived.
fn hook(_control: &Control) {
    with_driver(|d| {
        d.deliver_events();
        if let Some(at) = d.engine.running.as_ref().and_then(super::Running::alarm) {
            if at <= Instant::now() {
                let _ = d.engine.on_deadline();
            }
        }
        if d.quit {
            return;
        }
        while let Some(bytes) = (d.source)() {
            if let Some(input) = d.parse(&bytes) {
                d.queue.push_back(input);
            }
        }
        // The queue, in order. A command that would end the search stops it and waits, and
        // so does everything after it: a `stop` behind a waiting `go` is for the search that
        // `go` starts, not for this one. Before such a command, `stop`, `ponderhit` and
        // `isready` (which never change what the others mean) act at once; the other
        // commands that may run during a search do so only when nothing waits before them.
        let mut i = 0;
        while i < d.queue.len() {
            let input = &d.queue[i];
            let at_once = match input {
                Err(_) => true,
                Ok(c) => matches!(
                    c,
                    Command::IsReady
                        | Command::Stop
                        | Command::PonderHit { .. }
                        | Command::Display
                        | Command::Eval
                        | Command::Uci
                        | Command::Ucci
                ),
            };
            let urgent = matches!(input, Ok(Command::IsReady | Command::Stop | Command::PonderHit { .. }));
            if urgent || (at_once && i == 0) {
                let input = d.queue.remove(i).expect("in the queue");
                if !matches!(d.engine.handle(input), Ok(true)) {
                    d.quit = true;
                    return;
                }
                continue;
            }
            if !at_once
                && !matches!(
                    input,
                    Ok(Command::SetOption { .. } | Command::BanMoves(_) | Command::Probe)
                )
            {
                let _ = d.engine.stop();
                break;
            }
            i += 1;
        }
    });
}

impl Driver {
    fn parse(&mut self, bytes: &[u8]) -> Option<Input> {
        let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let len = line.len();
        self.parser.parse(&line[..len.min(MAX_LINE + 1)], len)
    }

    fn deliver_events(&mut self) {
        while let Ok(ev) = self.engine.events.try_recv() {
            if self.engine.on_event(ev).is_err() {
                self.quit = true;
            }
        }
    }
}

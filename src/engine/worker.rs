//! The search worker: a persistent thread that owns the [`Searcher`] and runs the
//! controller's jobs in order, and the helper that runs tools (perft, bench) on a big stack.
//!
//! In WebAssembly there is no thread: `super::inline` runs the same jobs on the one thread
//! between commands, through the same [`WorkerState`].
//!
//! The worker never prints: it reports through [`Event`]s, which the controller turns into
//! output. A panicking job is reported and the searcher rebuilt, so a bug never takes the
//! engine down.

use crate::board::Position;
use crate::eval::nnue::Network;
use crate::search::{Control, Info, Limits, SearchResult, Searcher};
#[cfg(not(target_arch = "wasm32"))]
use crossbeam_channel::Receiver;
use crossbeam_channel::Sender;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Stack of the search worker: deep recursion must never overflow.
#[cfg(not(target_arch = "wasm32"))]
pub(super) const WORKER_STACK: usize = 64 * 1024 * 1024;

/// Work for the search worker, done in the order sent.
pub(super) enum Job {
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
pub(super) enum Event {
    Info(u64, Box<Info>),
    /// The search ended; the text is set when it panicked.
    Done(u64, Box<SearchResult>, Option<String>),
    /// A configuration job finished (with a message to print, if any).
    ConfigDone(Option<String>),
}

pub(super) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// What the worker keeps between jobs: the searcher, its net and its settings.
pub(super) struct WorkerState {
    searcher: Searcher,
    net: Option<Arc<Network>>,
    hash: usize,
    threads: usize,
}

impl WorkerState {
    /// A searcher with `hash` MB and `threads` threads and the default net.
    pub(super) fn new(hash: usize, threads: usize) -> WorkerState {
        WorkerState {
            searcher: Searcher::new(hash, threads),
            net: crate::eval::default_network(),
            hash,
            threads,
        }
    }

    /// Runs one job; a search's progress goes to `events` as it comes, and the event that
    /// ends the job is returned. A panicking job is reported and the searcher rebuilt.
    pub(super) fn run_job(&mut self, job: Job, events: &Sender<Event>) -> Event {
        match job {
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
                let searcher = &mut self.searcher;
                let run = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&pos, &limits, &control, &mut reporter)
                }));
                match run {
                    Ok(result) => Event::Done(id, Box::new(result), None),
                    Err(p) => {
                        self.searcher = Searcher::new(self.hash, self.threads);
                        self.searcher.set_network(self.net.clone());
                        Event::Done(id, Box::default(), Some(panic_text(&*p)))
                    }
                }
            }
            config => {
                let run = catch_unwind(AssertUnwindSafe(|| match config {
                    Job::SetHash(mb) => {
                        self.hash = mb;
                        self.searcher.set_hash(mb);
                    }
                    Job::SetThreads(n) => {
                        self.threads = n;
                        self.searcher.set_threads(n);
                    }
                    Job::SetNet(n) => {
                        self.net = n;
                        self.searcher.set_network(self.net.clone());
                    }
                    Job::Clear => self.searcher.clear(),
                    Job::Search { .. } => {}
                }));
                match run {
                    Ok(()) => Event::ConfigDone(None),
                    Err(p) => {
                        self.searcher = Searcher::new(1, 1);
                        self.searcher.set_network(self.net.clone());
                        self.hash = 1;
                        self.threads = 1;
                        Event::ConfigDone(Some(format!(
                            "info string error: {}; hash and threads reset to 1",
                            panic_text(&*p)
                        )))
                    }
                }
            }
        }
    }
}

/// The worker thread's body: owns the `Searcher` (first with `hash` MB and `threads`
/// threads) and runs jobs until the controller goes away.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn run(jobs: Receiver<Job>, events: Sender<Event>, hash: usize, threads: usize) {
    let mut state = WorkerState::new(hash, threads);
    for job in jobs {
        let event = state.run_job(job, &events);
        if events.send(event).is_err() {
            return;
        }
    }
}

/// Runs a tool for people (perft, bench) to completion on a thread with a large stack and
/// returns its text. The controller waits: these are not searches, and their output must
/// stay in order with what follows.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn run_tool(tool: impl FnOnce() -> String + Send) -> String {
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

/// WebAssembly has no threads: the tool runs here, on the stack the module was linked with
/// (`scripts/web.sh` gives it 32 MB). A panic there aborts the module, which the JavaScript
/// side reports and restarts.
#[cfg(target_arch = "wasm32")]
pub(super) fn run_tool(tool: impl FnOnce() -> String + Send) -> String {
    tool()
}

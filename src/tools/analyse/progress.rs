//! Progress of a long review on standard error: a bar (game i of n, move, positions per
//! second, time left) when it is a terminal, otherwise a plain line every ten seconds and one
//! per finished game.

use crate::core::clock::Instant;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    /// Positions searched before the current game, and in it.
    before: u64,
    current: u64,
    label: String,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    /// Progress over `total` positions; `quiet` shows nothing but the finished games.
    pub fn new(total: u64, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let style = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} positions, {rate}, ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", state.per_sec());
                })
                .progress_chars("=> ");
            ProgressBar::new(total).with_style(style)
        });
        Progress {
            bar,
            total,
            before: 0,
            current: 0,
            label: String::new(),
            start: Instant::now(),
            last_line: Instant::now(),
        }
    }

    /// A new game begins: `label` is `game i/n`.
    pub fn game(&mut self, label: String) {
        self.before += self.current;
        self.current = 0;
        self.label = label;
    }

    /// `done` positions of the current game (of `plies` moves) are searched.
    pub fn update(&mut self, done: u64, plies: usize) {
        self.current = done;
        let pos = self.before + done;
        let msg = format!("{} move {}/{plies}", self.label, done.saturating_sub(1));
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
            bar.set_position(pos);
        } else if self.last_line.elapsed() >= Duration::from_secs(10) {
            self.last_line = Instant::now();
            let secs = self.start.elapsed().as_secs_f64().max(1e-3);
            let rate = pos as f64 / secs;
            let eta = (self.total.saturating_sub(pos)) as f64 / rate.max(1e-9);
            eprintln!("{msg}: {pos}/{} positions, {rate:.1}/s, ETA {eta:.0}s", self.total);
        }
    }

    /// A line for people that does not break the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

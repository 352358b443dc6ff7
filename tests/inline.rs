//! The one-thread engine of the WebAssembly build ([`chariot::engine::inline`]), driven here
//! natively: lines that arrive while a search runs keep their order.

use chariot::engine::inline;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::rc::Rc;

/// A writer into a buffer the test keeps.
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs the engine on `lines`, all pending from the start (the ones after a `go` are read by
/// the search's hook while it runs), and returns what it printed.
fn run(lines: &[&str]) -> String {
    let out = Rc::new(RefCell::new(Vec::new()));
    let mut pending: VecDeque<Vec<u8>> = lines.iter().map(|l| format!("{l}\n").into_bytes()).collect();
    inline::start(Box::new(Shared(out.clone())), Box::new(move || pending.pop_front()));
    inline::run_pending();
    let text = String::from_utf8(out.borrow().clone()).unwrap();
    text
}

/// The nodes of the last `info` line before each `bestmove`.
fn searches(text: &str) -> Vec<u64> {
    let mut nodes = 0;
    let mut done = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|&w| w == "nodes") {
            nodes = words[i + 1].parse().unwrap();
        }
        if line.starts_with("bestmove") {
            done.push(nodes);
            nodes = 0;
        }
    }
    done
}

#[test]
fn a_stop_after_a_waiting_go_stops_that_search() {
    // The second `go` waits for the first search to end; the `stop` after it is for it, as
    // when the lines are read one after another. (Before the fix the `stop` jumped the queue,
    // ended the first search only, and the second ran to its node limit.)
    let text = run(&[
        "position startpos",
        "go infinite",
        "position startpos moves h2e2",
        "go nodes 3000000",
        "stop",
        "isready",
    ]);
    let done = searches(&text);
    assert_eq!(done.len(), 2, "{text}");
    assert!(
        done[1] < 100_000,
        "the second search ran {} nodes after its stop:\n{text}",
        done[1]
    );
    assert!(text.contains("readyok"), "{text}");
}

#[test]
fn a_stop_during_a_search_still_acts_at_once() {
    let text = run(&["position startpos", "go infinite", "isready", "stop", "uci", "isready"]);
    let done = searches(&text);
    assert_eq!(done.len(), 1, "{text}");
    assert!(done[0] < 100_000, "{text}");
    assert_eq!(text.matches("readyok").count(), 2, "{text}");
    assert!(text.contains("uciok"), "{text}");
}

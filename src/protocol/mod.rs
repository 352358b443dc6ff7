//! The engine protocols' text: UCI (Pikafish's xiangqi dialect), UCCI (ElephantEye's) and
//! CECP (XBoard protocol 2).
//!
//! This layer is pure text: the reader ([`read_commands`]) turns input lines into typed
//! commands ([`command`], and [`cecp`] after `xboard`); [`uci`], [`ucci`] and [`cecp`] format what the controller prints. It knows
//! nothing of the controller (`crate::engine`), which owns the state, runs the reader thread
//! and is the only writer to stdout.

pub mod cecp;
pub mod command;
pub mod ucci;
pub mod uci;

pub use command::MAX_LINE;
use command::{Command, CommandError};
use crossbeam_channel::Sender;
use std::io::{self, BufRead};

/// What the reader hands the controller: a command or why the line is not one.
pub type Input = Result<Command, CommandError>;

/// The dialect in use: UCI unless `ucci` or `xboard` was received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
    Cecp,
}

/// A CECP line as a command: bad bytes and overlong lines become [`cecp::Cmd::Invalid`].
fn parse_cecp_bytes(bytes: &[u8], len: usize) -> Option<Command> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let cmd = if len > MAX_LINE {
        Some(cecp::Cmd::Invalid {
            reason: format!("line of {len} bytes is too long"),
            line: String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned(),
        })
    } else {
        match std::str::from_utf8(bytes) {
            Ok(line) => cecp::parse(line),
            Err(e) => Some(cecp::Cmd::Invalid {
                reason: format!("not valid UTF-8 at byte {}", e.valid_up_to()),
                line: String::from_utf8_lossy(bytes).into_owned(),
            }),
        }
    };
    cmd.map(Command::Cecp)
}

/// Reads one line into `buf` (without its `\n`), keeping at most `cap` bytes and discarding
/// the rest, so a huge line costs no memory. Returns the full length of the line, or `None`
/// at end of input.
pub fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        total = total.saturating_add(chunk.len());
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Ok(Some(total));
        }
    }
}

/// Turns input lines into commands. Its one piece of state is the syntax in use: after an
/// `xboard` line, every line is parsed as CECP.
#[derive(Clone, Debug, Default)]
pub struct LineParser {
    cecp: bool,
}

impl LineParser {
    /// The input of one line (`bytes`, without its `\n`, at most [`MAX_LINE`] + 1 of the
    /// `len` bytes it had): `None` for a line that says nothing (empty).
    pub fn parse(&mut self, bytes: &[u8], len: usize) -> Option<Input> {
        if self.cecp {
            return parse_cecp_bytes(bytes, len).map(Ok);
        }
        match command::parse_bytes(bytes, len) {
            Ok(None) => None,
            Ok(Some(cmd)) => {
                self.cecp |= cmd == Command::Xboard;
                Some(Ok(cmd))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// The reader thread's body: parses every line of `input` and sends it on; sends `Quit` at
/// end of input (or when input fails). Stops when the controller is gone.
pub fn read_commands(mut input: impl BufRead, tx: Sender<Input>) {
    let mut buf = Vec::with_capacity(4096);
    let mut parser = LineParser::default();
    loop {
        // Keep the buffer small after a huge line.
        if buf.capacity() > 64 * 1024 {
            buf = Vec::with_capacity(4096);
        }
        match read_line_capped(&mut input, &mut buf, MAX_LINE + 1) {
            Ok(Some(len)) => {
                if let Some(cmd) = parser.parse(&buf, len) {
                    if tx.send(cmd).is_err() {
                        return;
                    }
                }
            }
            Ok(None) | Err(_) => {
                let _ = tx.send(Ok(Command::Quit));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_reader_splits_lines_and_drops_overflow() {
        let data = b"abc\r\n\nxxxxxxxxxx\nlast".to_vec();
        let mut r = io::BufReader::with_capacity(3, &data[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut r, &mut buf, 100).ok(), Some(Some(4)));
        assert_eq!(buf, b"abc\r");
        assert_eq!(read_line_capped(&mut r, &mut buf, 100).ok(), Some(Some(0)));
        assert_eq!(read_line_capped(&mut r, &mut buf, 4).ok(), Some(Some(10)));
        assert_eq!(buf, b"xxxx");
        assert_eq!(read_line_capped(&mut r, &mut buf, 100).ok(), Some(Some(4)));
        assert_eq!(buf, b"last");
        assert_eq!(read_line_capped(&mut r, &mut buf, 100).ok(), Some(None));
    }
}

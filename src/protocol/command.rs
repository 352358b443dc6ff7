//! Pure parsing of one input line into a typed [`Command`] or a typed [`CommandError`].
//!
//! The parser holds no state and knows nothing of the position: it accepts the union of the
//! UCI and UCCI syntaxes (they do not clash), keeps move texts of `position`/`banmoves` as
//! text (their legality is the position's question) and keeps clock values as signed raw
//! numbers (their unit depends on UCCI's `usemillisec`, their sign is judged by the engine).

use super::cecp;
use crate::core::Move;
use std::fmt;

/// Longest input line accepted, in bytes: room for a `position` with some 13,000 moves.
pub const MAX_LINE: usize = 64 * 1024;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    Startpos,
    /// The FEN text (its fields joined by single spaces), not yet validated.
    Fen(String),
}

/// The parameters of a `go`, both dialects. Times are raw numbers as sent: milliseconds for
/// the UCI keywords, seconds or milliseconds (UCCI `usemillisec`) for the UCCI ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<Move>,
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    pub perft: Option<u32>,
    /// UCCI: the side to move's remaining time.
    pub time: Option<i64>,
    /// UCCI: the side to move's increment.
    pub increment: Option<i64>,
    pub opptime: Option<i64>,
    pub oppincrement: Option<i64>,
    pub oppmovestogo: Option<u32>,
}

/// One command of either dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ucci,
    /// `xboard`: CECP from now on; the reader parses every later line as [`cecp::Cmd`].
    Xboard,
    /// A CECP line (after `xboard`).
    Cecp(cecp::Cmd),
    IsReady,
    UciNewGame,
    /// `setoption name <name> [value <v>]` (UCI) or `setoption <name> [<value>]` (UCCI).
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    /// `ponderhit`, UCCI `ponderhit draw`.
    PonderHit {
        draw: bool,
    },
    Quit,
    /// UCCI `banmoves m1 m2 …`, moves as text.
    BanMoves(Vec<String>),
    /// `d`: draw the board.
    Display,
    Eval,
    Flip,
    Bench(Option<u32>),
    /// UCCI `probe …` (not supported; answered with a message).
    Probe,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The line is longer than [`MAX_LINE`] bytes.
    TooLong {
        len: usize,
    },
    /// The line is not UTF-8; `offset` is the first bad byte, `shown` a lossy rendering.
    NotUtf8 {
        offset: usize,
        shown: String,
    },
    Unknown(String),
    /// A keyword that needs a value came last.
    MissingValue {
        command: &'static str,
        keyword: String,
    },
    /// A value that is not a number of the right kind.
    BadNumber {
        command: &'static str,
        keyword: String,
        value: String,
    },
    /// A word that has no meaning at its place.
    Unexpected {
        command: &'static str,
        token: String,
    },
    /// A `searchmoves` entry that is not move syntax.
    BadMove {
        command: &'static str,
        text: String,
    },
    /// Something the command needs is absent.
    Missing {
        command: &'static str,
        what: &'static str,
    },
}

/// A piece of input fit to be echoed in one output line: control characters replaced and
/// long text cut.
pub fn shown(text: &str) -> String {
    const LIMIT: usize = 80;
    let mut s: String = text
        .chars()
        .take(LIMIT)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(LIMIT).is_some() {
        s.push('…');
    }
    s
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::TooLong { len } => {
                write!(f, "line of {len} bytes is longer than the limit of {MAX_LINE}; ignored")
            }
            CommandError::NotUtf8 { offset, shown: s } => {
                write!(
                    f,
                    "line is not valid UTF-8 (bad byte at offset {offset}): '{}'; ignored",
                    shown(s)
                )
            }
            CommandError::Unknown(line) => write!(f, "unknown command '{}'", shown(line)),
            CommandError::MissingValue { command, keyword } => {
                write!(f, "{command}: '{}' needs a value; command ignored", shown(keyword))
            }
            CommandError::BadNumber {
                command,
                keyword,
                value,
            } => write!(
                f,
                "{command}: {} value '{}' is not a valid number; command ignored",
                shown(keyword),
                shown(value)
            ),
            CommandError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{}'; command ignored", shown(token))
            }
            CommandError::BadMove { command, text } => write!(
                f,
                "{command}: '{}' is not a move (expected from and to squares like h2e2); command ignored",
                shown(text)
            ),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}; command ignored"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Turns raw input bytes (one line, without its `\n`) into a command. `Ok(None)` for an empty
/// or whitespace-only line. A trailing `\r` is dropped. `len` is the line's full length when
/// the reader cut it short.
pub fn parse_bytes(bytes: &[u8], len: usize) -> Result<Option<Command>, CommandError> {
    if len > MAX_LINE {
        return Err(CommandError::TooLong { len });
    }
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(line) => parse(line),
        Err(e) => Err(CommandError::NotUtf8 {
            offset: e.valid_up_to(),
            shown: String::from_utf8_lossy(bytes).into_owned(),
        }),
    }
}

/// Parses one line of text. `Ok(None)` for an empty or whitespace-only line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return Ok(None);
    };
    let rest = &tokens[1..];
    let unknown = || CommandError::Unknown(line.trim().to_string());
    let no_args = |cmd: Command| -> Result<Option<Command>, CommandError> {
        match rest.first() {
            None => Ok(Some(cmd)),
            Some(_) => Err(unknown()),
        }
    };
    match first {
        "uci" => no_args(Command::Uci),
        "ucci" => no_args(Command::Ucci),
        "xboard" => no_args(Command::Xboard),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "flip" => no_args(Command::Flip),
        "ponderhit" => match rest {
            [] => Ok(Some(Command::PonderHit { draw: false })),
            ["draw"] => Ok(Some(Command::PonderHit { draw: true })),
            _ => Err(CommandError::Unexpected {
                command: "ponderhit",
                token: rest.join(" "),
            }),
        },
        "setoption" => parse_setoption(rest).map(Some),
        "position" => parse_position(rest).map(Some),
        "startpos" | "fen" => parse_position(&tokens).map(Some),
        "go" => parse_go(rest).map(Some),
        "banmoves" => Ok(Some(Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()))),
        "bench" => match rest {
            [] => Ok(Some(Command::Bench(None))),
            [d] => count32("bench", "depth", d).map(|d| Some(Command::Bench(Some(d)))),
            _ => Err(CommandError::Unexpected {
                command: "bench",
                token: rest[1..].join(" "),
            }),
        },
        "probe" => Ok(Some(Command::Probe)),
        _ => Err(unknown()),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    match rest.first() {
        None => Err(CommandError::Missing {
            command: CMD,
            what: "the option name",
        }),
        Some(w) if w.eq_ignore_ascii_case("name") => {
            // UCI: the name runs up to the word `value`; both may contain spaces.
            let body = &rest[1..];
            let split = body.iter().position(|w| w.eq_ignore_ascii_case("value"));
            let (name, value) = match split {
                Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
                None => (body, None),
            };
            if name.is_empty() {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "the option name after 'name'",
                });
            }
            Ok(Command::SetOption {
                name: name.join(" "),
                value,
            })
        }
        Some(name) => {
            // UCCI: `setoption <name> [<value>]`.
            let value = if rest.len() > 1 {
                Some(rest[1..].join(" "))
            } else {
                None
            };
            Ok(Command::SetOption {
                name: name.to_string(),
                value,
            })
        }
    }
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let start = match head.first() {
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'startpos' or 'fen <FEN>'",
            })
        }
        Some(&"startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(CommandError::Unexpected {
                    command: CMD,
                    token: extra.to_string(),
                });
            }
            Start::Startpos
        }
        Some(&"fen") => {
            if head.len() == 1 {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "the FEN after 'fen'",
                });
            }
            Start::Fen(head[1..].join(" "))
        }
        Some(other) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: other.to_string(),
            })
        }
    };
    Ok(Command::Position { start, moves })
}

/// Parses an unsigned count. Digits beyond the range saturate (a GUI asking for
/// `depth 99999999999` means "no limit", not an error).
fn count(command: &'static str, keyword: &str, text: &str) -> Result<u64, CommandError> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::BadNumber {
            command,
            keyword: keyword.to_string(),
            value: text.to_string(),
        });
    }
    Ok(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// [`count`] saturated to `u32`.
fn count32(command: &'static str, keyword: &str, text: &str) -> Result<u32, CommandError> {
    count(command, keyword, text).map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

/// A signed number of time units (clock values may be negative when a GUI's clock ran over).
fn signed(command: &'static str, keyword: &str, text: &str) -> Result<i64, CommandError> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::BadNumber {
            command,
            keyword: keyword.to_string(),
            value: text.to_string(),
        });
    }
    let v = digits.parse::<i64>().unwrap_or(i64::MAX);
    Ok(if neg { -v } else { v })
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "draw",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "time",
    "increment",
    "opptime",
    "oppincrement",
    "oppmovestogo",
];

fn parse_go(rest: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "go";
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let kw = rest[i];
        i += 1;
        let mut value = || -> Result<&str, CommandError> {
            let v = rest.get(i).copied().ok_or_else(|| CommandError::MissingValue {
                command: CMD,
                keyword: kw.to_string(),
            })?;
            i += 1;
            Ok(v)
        };
        match kw {
            "ponder" => g.ponder = true,
            "draw" => g.draw = true,
            "infinite" => g.infinite = true,
            "wtime" => g.wtime = Some(signed(CMD, kw, value()?)?),
            "btime" => g.btime = Some(signed(CMD, kw, value()?)?),
            "winc" => g.winc = Some(signed(CMD, kw, value()?)?),
            "binc" => g.binc = Some(signed(CMD, kw, value()?)?),
            "movetime" => g.movetime = Some(signed(CMD, kw, value()?)?),
            "time" => g.time = Some(signed(CMD, kw, value()?)?),
            "increment" => g.increment = Some(signed(CMD, kw, value()?)?),
            "opptime" => g.opptime = Some(signed(CMD, kw, value()?)?),
            "oppincrement" => g.oppincrement = Some(signed(CMD, kw, value()?)?),
            "movestogo" => g.movestogo = Some(count32(CMD, kw, value()?)?),
            "oppmovestogo" => g.oppmovestogo = Some(count32(CMD, kw, value()?)?),
            "nodes" => g.nodes = Some(count(CMD, kw, value()?)?),
            "mate" => g.mate = Some(count32(CMD, kw, value()?)?),
            "perft" => g.perft = Some(count32(CMD, kw, value()?)?),
            "depth" => {
                let v = value()?;
                if v == "infinite" {
                    g.infinite = true;
                } else {
                    g.depth = Some(count32(CMD, kw, v)?);
                }
            }
            "searchmoves" => {
                // Moves run up to the next keyword.
                while let Some(&t) = rest.get(i) {
                    if GO_KEYWORDS.contains(&t) {
                        break;
                    }
                    let mv = Move::parse(t).map_err(|_| CommandError::BadMove {
                        command: CMD,
                        text: t.to_string(),
                    })?;
                    g.searchmoves.push(mv);
                    i += 1;
                }
            }
            other => {
                return Err(CommandError::Unexpected {
                    command: CMD,
                    token: other.to_string(),
                })
            }
        }
    }
    Ok(Command::Go(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_whitespace_lines_are_nothing() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse(" \t  "), Ok(None));
        assert_eq!(parse_bytes(b"\r", 1), Ok(None));
    }

    #[test]
    fn setoption_both_forms() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert_eq!(
            parse("setoption hashsize 64"),
            Ok(Some(Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }))
        );
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves h2e2 h9g7"),
            Ok(Some(Command::Position {
                start: Start::Startpos,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }))
        );
        assert_eq!(
            parse("fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            Ok(Some(Command::Position {
                start: Start::Fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
                moves: vec![]
            }))
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos h2e2").is_err());
    }

    #[test]
    fn go_parameters() {
        let Ok(Some(Command::Go(g))) =
            parse("go wtime -5 btime 1000 winc 10 binc 20 movestogo 7 depth 99999999999 searchmoves h2e2 b0c2 nodes 5")
        else {
            panic!("go did not parse");
        };
        assert_eq!(g.wtime, Some(-5));
        assert_eq!(g.depth, Some(u32::MAX));
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.nodes, Some(5));
        assert!(matches!(parse("go depth abc"), Err(CommandError::BadNumber { .. })));
        assert!(matches!(parse("go movetime"), Err(CommandError::MissingValue { .. })));
        assert!(matches!(parse("go depth -3"), Err(CommandError::BadNumber { .. })));
        assert!(matches!(parse("go searchmoves zz"), Err(CommandError::BadMove { .. })));
        let Ok(Some(Command::Go(g))) = parse("go ponder draw time 300 increment 2 opptime 200 oppincrement 2") else {
            panic!("ucci go did not parse");
        };
        assert!(g.ponder && g.draw);
        assert_eq!((g.time, g.increment, g.opptime), (Some(300), Some(2), Some(200)));
        assert_eq!(
            parse("go depth infinite").map(|c| matches!(c, Some(Command::Go(GoParams { infinite: true, .. })))),
            Ok(true)
        );
    }

    #[test]
    fn bad_bytes_and_long_lines() {
        assert!(matches!(
            parse_bytes(b"go \xff", 4),
            Err(CommandError::NotUtf8 { offset: 3, .. })
        ));
        assert!(matches!(
            parse_bytes(b"x", MAX_LINE + 1),
            Err(CommandError::TooLong { .. })
        ));
        assert_eq!(parse_bytes(b"isready\r", 8), Ok(Some(Command::IsReady)));
    }

    #[test]
    fn echoes_are_cut_and_cleaned() {
        let long = "x".repeat(1000);
        assert!(shown(&long).chars().count() <= 81);
        assert_eq!(shown("a\u{7}b"), "a?b");
    }
}

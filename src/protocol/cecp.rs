//! CECP (XBoard/WinBoard protocol 2) text: parsing of its commands and formatting of what
//! the controller prints (features, thinking lines, moves, result claims, errors).
//!
//! The dialect is chosen when the first command is `xboard`; from then on the reader parses
//! every line with [`parse`]. Moves are in XBoard's xiangqi coordinates, which are ours:
//! files `a`–`i` from Red's left, ranks `0`–`9` from Red's side (checked against XBoard
//! 4.9, which sends `usermove h2e2` for the central cannon). XBoard writes xiangqi FENs with
//! `H` for horses and `E` for elephants, and without the castling and en-passant fields
//! (`… w 0 1`); [`fen_from_xboard`] turns them into the contract's FEN.

use crate::core::Move;
use crate::search::skill::{ELO_MAX, ELO_MIN, MAX_LEVEL};
use crate::search::{Info, Score};
use std::fmt::Write;
use std::time::Duration;

/// One CECP command, checked for syntax only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `xboard` (again): nothing to do.
    Xboard,
    Protover(u32),
    /// `accepted`/`rejected` of a feature, and other commands that need no answer
    /// (`random`, `computer`, `name`, `rating`, `ics`, `bk`, `draw`, …).
    Ignored,
    New,
    Variant(String),
    /// `setboard FEN` (XBoard's form).
    SetBoard(String),
    /// `usermove M`, or a bare move.
    UserMove(String),
    Force,
    Go,
    PlayOther,
    /// `level MPS BASE INC`: moves per session (0: the whole game), base time, increment.
    Level {
        mps: u32,
        base: Duration,
        inc: Duration,
    },
    /// `st T`: exactly this long per move.
    St(Duration),
    /// `sd D`: at most this depth.
    Sd(u32),
    /// `time N`: the engine's clock, in centiseconds (may be negative).
    Time(i64),
    /// `otim N`: the opponent's clock, in centiseconds.
    Otim(i64),
    /// `?`: move now.
    MoveNow,
    Ping(String),
    Undo,
    Remove,
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: a status line while analysing.
    Status,
    Post(bool),
    /// `hard` (true) / `easy` (false): pondering.
    Hard(bool),
    /// `hint`: the reply the engine expects, answered `Hint: M` when it has one.
    Hint,
    /// `memory N`: hash size in MB.
    Memory(u64),
    Cores(u64),
    /// `option NAME[=VALUE]`.
    Option {
        name: String,
        value: Option<String>,
    },
    /// `result R {comment}`: the game is over.
    Result(String),
    /// `d`: the board, as in the other dialects.
    Display,
    Quit,
    /// A line that is not a command: answered `Error (reason): line`.
    Invalid {
        reason: String,
        line: String,
    },
}

/// Commands that need no answer.
const IGNORED: &[&str] = &[
    "accepted", "rejected", "random", "computer", "name", "rating", "ics", "bk", "draw", "nps", "white", "black",
    "pause", "resume", "lift", "put", "hover", "edit",
];

/// Parses one CECP line. `Ok(None)` for an empty line; syntax errors are [`Cmd::Invalid`].
pub fn parse(line: &str) -> Option<Cmd> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    let invalid = |reason: &str| Cmd::Invalid {
        reason: reason.to_string(),
        line: line.to_string(),
    };
    let one_number = |what: &str| -> Result<i64, Cmd> {
        match rest.as_slice() {
            [v] => v
                .parse::<i64>()
                .map_err(|_| invalid(&format!("{what} is not a number"))),
            [] => Err(invalid(&format!("missing {what}"))),
            _ => Err(invalid("too many arguments")),
        }
    };
    let unsigned = |what: &str| -> Result<u64, Cmd> {
        one_number(what).and_then(|v| u64::try_from(v).map_err(|_| invalid(&format!("{what} is negative"))))
    };
    let no_args = |cmd: Cmd| {
        if rest.is_empty() {
            cmd
        } else {
            invalid("unexpected arguments")
        }
    };
    let cmd = match first {
        "xboard" => Cmd::Xboard,
        "protover" => match unsigned("version") {
            Ok(v) => Cmd::Protover(u32::try_from(v).unwrap_or(u32::MAX)),
            Err(e) => e,
        },
        "new" => no_args(Cmd::New),
        "variant" => match rest.as_slice() {
            [v] => Cmd::Variant(v.to_string()),
            _ => invalid("expected one variant name"),
        },
        "setboard" => {
            if rest.is_empty() {
                invalid("missing FEN")
            } else {
                Cmd::SetBoard(rest.join(" "))
            }
        }
        "usermove" => match rest.as_slice() {
            [m] => Cmd::UserMove(m.to_string()),
            _ => invalid("expected one move"),
        },
        "force" => no_args(Cmd::Force),
        "go" => no_args(Cmd::Go),
        "playother" => no_args(Cmd::PlayOther),
        "level" => parse_level(&rest).unwrap_or_else(|why| invalid(&why)),
        "st" => match rest.as_slice() {
            [t] => match seconds(t) {
                Some(d) if !d.is_zero() => Cmd::St(d),
                _ => invalid("time per move is not a positive number of seconds"),
            },
            _ => invalid("expected one time in seconds"),
        },
        "sd" => match unsigned("depth") {
            Ok(0) => invalid("depth must be at least 1"),
            Ok(d) => Cmd::Sd(u32::try_from(d).unwrap_or(u32::MAX)),
            Err(e) => e,
        },
        "time" => one_number("time").map(Cmd::Time).unwrap_or_else(|e| e),
        "otim" => one_number("time").map(Cmd::Otim).unwrap_or_else(|e| e),
        "?" => no_args(Cmd::MoveNow),
        "ping" => match rest.as_slice() {
            [n] => Cmd::Ping(n.to_string()),
            _ => invalid("expected one ping number"),
        },
        "undo" => no_args(Cmd::Undo),
        "remove" => no_args(Cmd::Remove),
        "analyze" => no_args(Cmd::Analyze),
        "exit" => no_args(Cmd::Exit),
        "." => no_args(Cmd::Status),
        "post" => no_args(Cmd::Post(true)),
        "nopost" => no_args(Cmd::Post(false)),
        "hard" => no_args(Cmd::Hard(true)),
        "easy" => no_args(Cmd::Hard(false)),
        "hint" => no_args(Cmd::Hint),
        "memory" => unsigned("memory size").map(Cmd::Memory).unwrap_or_else(|e| e),
        "cores" => unsigned("core count").map(Cmd::Cores).unwrap_or_else(|e| e),
        "option" => {
            let body = rest.join(" ");
            match body.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() => Cmd::Option {
                    name: n.trim().to_string(),
                    value: Some(v.trim().to_string()),
                },
                None if !body.is_empty() => Cmd::Option {
                    name: body,
                    value: None,
                },
                _ => invalid("expected NAME=VALUE"),
            }
        }
        "result" => Cmd::Result(rest.join(" ")),
        "d" => no_args(Cmd::Display),
        "quit" => Cmd::Quit,
        w if IGNORED.contains(&w) => Cmd::Ignored,
        w if looks_like_move(w) && rest.is_empty() => Cmd::UserMove(w.to_string()),
        _ => invalid("unknown command"),
    };
    Some(cmd)
}

/// A bare move (XBoard without `usermove=1`): four coordinate characters.
fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
}

/// Seconds, decimals allowed.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && (0.0..1.0e7).contains(&v)).then(|| Duration::from_secs_f64(v))
}

/// `level MPS BASE INC`, BASE as minutes or `minutes:seconds`, INC in seconds.
fn parse_level(rest: &[&str]) -> Result<Cmd, String> {
    let [mps, base, inc] = rest else {
        return Err("expected MPS BASE INC".to_string());
    };
    let mps: u32 = mps
        .parse()
        .map_err(|_| "moves per session is not a number".to_string())?;
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().map_err(|_| "base minutes are not a number".to_string())?;
            let s = seconds(s).ok_or("base seconds are not a number")?;
            Duration::from_secs(m.saturating_mul(60)) + s
        }
        None => seconds(base)
            .map(|d| d * 60)
            .ok_or("base time is not a number of minutes")?,
    };
    let inc = seconds(inc).ok_or("increment is not a number of seconds")?;
    Ok(Cmd::Level { mps, base, inc })
}

/// The answer to `protover 2`: every feature on `feature` lines, `done=1` last.
pub fn features() -> String {
    format!(
        "feature done=0\n\
         feature myname=\"Chariot {}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 analyze=1 \
         colors=0 sigint=0 sigterm=0 playother=1 time=1 draw=0 reuse=1 memory=1 smp=1 debug=1 \
         name=0 ics=0 exclude=0 pause=0 nps=0\n\
         feature option=\"Skill Level -spin {MAX_LEVEL} 0 {MAX_LEVEL}\"\n\
         feature option=\"UCI_LimitStrength -check 0\"\n\
         feature option=\"UCI_Elo -spin {ELO_MAX} {ELO_MIN} {ELO_MAX}\"\n\
         feature option=\"Skill Seed -spin 0 0 2147483647\"\n\
         feature option=\"MultiPV -spin 1 1 128\"\n\
         feature option=\"Move Overhead -spin 10 0 5000\"\n\
         feature option=\"Clear Hash -button\"\n\
         feature option=\"Use NNUE -check {}\"\n\
         feature option=\"EvalFile -file \"\n\
         feature done=1",
        env!("CARGO_PKG_VERSION"),
        u8::from(crate::eval::USE_NNUE_DEFAULT)
    )
}

/// CECP's score: centipawns; a mate in N moves is 100000 + N (negative when being mated).
pub fn score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(m) if m > 0 => 100_000 + m,
        Score::Mate(m) => -(100_000 - m),
    }
}

/// A thinking line: `ply score time nodes pv`, time in centiseconds.
pub fn thinking(info: &Info) -> String {
    let mut s = format!(
        "{} {} {} {}",
        info.depth,
        score(info.score),
        info.time.as_millis() / 10,
        info.nodes
    );
    for m in &info.pv {
        let _ = write!(s, " {m}");
    }
    s
}

/// `move M`.
pub fn move_line(m: Move) -> String {
    format!("move {m}")
}

/// The contract's FEN from XBoard's: the 4-field form `board side halfmove fullmove` gets
/// the two `-` fields back; a 6-field FEN is left as it is.
pub fn fen_from_xboard(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let numeric = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    match f.as_slice() {
        [board, side, half, full] if numeric(half) && numeric(full) => format!("{board} {side} - - {half} {full}"),
        [board, side, half] if numeric(half) => format!("{board} {side} - - {half} 1"),
        _ => f.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("protover 2"), Some(Cmd::Protover(2)));
        assert_eq!(parse("usermove h2e2"), Some(Cmd::UserMove("h2e2".into())));
        assert_eq!(parse("h2e2"), Some(Cmd::UserMove("h2e2".into())));
        assert_eq!(
            parse("level 40 5 0"),
            Some(Cmd::Level {
                mps: 40,
                base: Duration::from_secs(300),
                inc: Duration::ZERO
            })
        );
        assert_eq!(
            parse("level 0 0:30 0.5"),
            Some(Cmd::Level {
                mps: 0,
                base: Duration::from_secs(30),
                inc: Duration::from_millis(500)
            })
        );
        assert_eq!(parse("st 1"), Some(Cmd::St(Duration::from_secs(1))));
        assert_eq!(parse("sd 6"), Some(Cmd::Sd(6)));
        assert_eq!(parse("time -12"), Some(Cmd::Time(-12)));
        assert_eq!(parse("ping 7"), Some(Cmd::Ping("7".into())));
        assert_eq!(
            parse("option Skill Level=3"),
            Some(Cmd::Option {
                name: "Skill Level".into(),
                value: Some("3".into())
            })
        );
        assert_eq!(parse("accepted usermove"), Some(Cmd::Ignored));
        assert_eq!(parse("hint"), Some(Cmd::Hint));
        assert_eq!(parse("hard"), Some(Cmd::Hard(true)));
        assert_eq!(
            parse("result 1-0 {Red mates}"),
            Some(Cmd::Result("1-0 {Red mates}".into()))
        );
        for bad in [
            "level 40 x 0",
            "st 0",
            "sd 0",
            "sd -1",
            "time",
            "memory -3",
            "frobnicate",
            "new 3",
        ] {
            assert!(matches!(parse(bad), Some(Cmd::Invalid { .. })), "{bad}");
        }
    }

    #[test]
    fn output_forms() {
        assert_eq!(score(Score::Mate(3)), 100_003);
        assert_eq!(score(Score::Mate(-2)), -100_002);
        assert_eq!(score(Score::Cp(-40)), -40);
        let f = features();
        for needed in [
            "variants=\"xiangqi\"",
            "setboard=1",
            "usermove=1",
            "ping=1",
            "analyze=1",
            "colors=0",
            "sigint=0",
            "sigterm=0",
            "myname=\"Chariot",
        ] {
            assert!(f.contains(needed), "{needed}");
        }
        assert!(f.ends_with("feature done=1"));
    }

    #[test]
    fn xboard_fens() {
        assert_eq!(
            fen_from_xboard("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
        let full = "4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9";
        assert_eq!(fen_from_xboard(full), full);
    }
}

//! UCCI output (ElephantEye's dialect): the handshake, info lines and `bestmove`/`nobestmove`.

use crate::core::Move;
use crate::eval::USE_NNUE_DEFAULT;
use crate::search::skill::MAX_LEVEL;
use crate::search::{Info, Score, MATE};
use std::fmt::Write;

/// The `ucci` answer: identity, the options in UCCI form, `ucciok`.
pub fn handshake() -> String {
    format!(
        "id name Chariot\n\
         id version {}\n\
         id author the Chariot developers\n\
         option usemillisec type check default false\n\
         option batch type check default false\n\
         option debug type check default false\n\
         option ponder type check default false\n\
         option hashsize type spin min 0 max 65536 default 16\n\
         option threads type spin min 1 max 256 default 1\n\
         option newgame type button\n\
         option level type spin min 0 max {MAX_LEVEL} default {MAX_LEVEL}\n\
         option evalfile type string default <empty>\n\
         option usennue type check default {USE_NNUE_DEFAULT}\n\
         ucciok",
        env!("CARGO_PKG_VERSION")
    )
}

/// UCCI scores are bare numbers: centipawns, and mates as `±(MATE - plies)` so that a GUI
/// that compares numbers ranks them above any material score.
pub fn score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(m) if m > 0 => MATE - (2 * m - 1),
        Score::Mate(m) => -(MATE - 2 * (-m)),
    }
}

/// `info depth D score S pv …`.
pub fn info(info: &Info) -> String {
    let mut s = format!("info depth {} score {} pv", info.depth, score(info.score));
    for m in &info.pv {
        let _ = write!(s, " {m}");
    }
    s
}

/// `info time T nodes N`.
pub fn info_time(info: &Info) -> String {
    format!("info time {} nodes {}", info.time.as_millis(), info.nodes)
}

/// `bestmove m [ponder p] [draw]`, or `nobestmove`.
pub fn bestmove(best: Option<Move>, ponder: Option<Move>, draw: bool) -> String {
    let Some(b) = best else {
        return "nobestmove".to_string();
    };
    let mut s = format!("bestmove {b}");
    if let Some(p) = ponder {
        let _ = write!(s, " ponder {p}");
    }
    if draw {
        s.push_str(" draw");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(score(Score::Cp(-12)), -12);
        assert_eq!(score(Score::Mate(1)), MATE - 1);
        assert_eq!(score(Score::Mate(-2)), -(MATE - 4));
        assert_eq!(score(Score::Mate(0)), -MATE);
    }

    #[test]
    fn bestmove_forms() {
        let m = Move::parse("h2e2").ok();
        assert_eq!(bestmove(m, None, true), "bestmove h2e2 draw");
        assert_eq!(bestmove(None, None, false), "nobestmove");
    }
}
